// SPDX-License-Identifier: MIT
// Call-graph workload: main -> outer -> middle -> hot, each a separate compiled
// method (run with -XX:CompileCommand=dontinline,CgJava::*), for the
// call-graph and annotate tests. Usage: java CgJava [seconds]
public class CgJava {
	static volatile long sink;

	static long hot(long seed, int n) {
		// HOT-BEGIN
		long x = seed;
		for (int i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >>> 7;
			x ^= x << 17;
			x += i * 0x9E3779B97F4A7C15L;
		}
		return x;
		// HOT-END
	}

	static long middle(long seed) {
		return hot(seed, 20_000) + 1;
	}

	static long outer(long seed) {
		return middle(seed) ^ 5;
	}

	public static void main(String[] args) {
		double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
		long end = System.nanoTime() + (long) (seconds * 1e9);
		long x = 1;
		while (System.nanoTime() < end) {
			for (int i = 0; i < 100; i++)
				x = outer(x);
		}
		sink = x;
		System.out.println("done");
	}
}
