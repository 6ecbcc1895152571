// SPDX-License-Identifier: MIT
// Call-graph workload for node --perf-prof: main -> outer -> middle -> hot, in
// JS functions V8 compiles (and whose unwinding info --perf-prof-unwinding-info
// puts in the jitdump). Usage: node --perf-prof ... cg_node.js [seconds]
'use strict';
function hot(seed, n) {
	let x = seed | 0;
	for (let i = 0; i < n; i++)
		x = (Math.imul(x, 1103515245) + 12345 + i) | 0;
	return x;
}
function middle(seed) { return hot(seed, 20000) + 1; }
function outer(seed) { return middle(seed) ^ 5; }
function main() {
	const secs = process.argv.length > 2 ? Number(process.argv[2]) : 2;
	const end = Date.now() + secs * 1000;
	let x = 1;
	while (Date.now() < end)
		for (let i = 0; i < 100; i++)
			x = outer(x);
	console.log('done ' + (x & 1));
}
main();
