// SPDX-License-Identifier: MIT
// CPU-bound script for `node --perf-prof`: a few hot functions that V8's
// optimizing compiler turns into machine code, run for about argv[2] ms.
'use strict';

function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

function sieve(limit) {
  const marks = new Uint8Array(limit + 1);
  let count = 0;
  for (let i = 2; i <= limit; i++) {
    if (marks[i]) continue;
    count++;
    for (let j = i * i; j <= limit; j += i) marks[j] = 1;
  }
  return count;
}

function mandel(w, h) {
  let inside = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let cr = (x / w) * 3 - 2, ci = (y / h) * 2 - 1, zr = 0, zi = 0, k = 0;
      while (k < 100 && zr * zr + zi * zi < 4) {
        const t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
        k++;
      }
      if (k === 100) inside++;
    }
  }
  return inside;
}

function sortStrings(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push('k' + ((i * 7919) % n).toString(36));
  a.sort();
  return a.length;
}

const ms = Number(process.argv[2] || 1500);
const end = Date.now() + ms;
let sink = 0;
while (Date.now() < end) {
  sink += fib(22);
  sink += sieve(20000);
  sink += mandel(60, 40);
  sink += sortStrings(2000);
}
console.log('sink', sink);
