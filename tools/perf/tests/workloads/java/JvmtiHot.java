// SPDX-License-Identifier: MIT
// Workload with one known hot method, JvmtiHot.spin, for the JVMTI agent tests.
// Usage: java JvmtiHot [seconds] [--wait-file PATH]
//   seconds: how long to run (default 3)
//   --wait-file PATH: after warming up, print "warm", then keep spinning until
//                     PATH exists (lets a test attach an agent and then record).
//   --exit N: exit with status N at the end (tests compare exit statuses).
import java.nio.file.Files;
import java.nio.file.Path;

public class JvmtiHot {
	static volatile long sink;

	// Self-contained loop, no calls: every instruction of its compiled code
	// belongs to a line between HOT-BEGIN and HOT-END.
	static long spin(long seed, int n) {
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

	// outer() inlines inner() once compiled: the inline-stack test looks for
	// pcs whose frames are [inner, outer] with lines inside these markers.
	static int outer(int v) {
		// OUTER-BEGIN
		int a = inner(v);
		int b = inner(v + 1);
		return a ^ b;
		// OUTER-END
	}

	static int inner(int v) {
		return v * 31 + (v >>> 3); // INNER-LINE
	}

	static volatile int sinkInt;

	// A little cold code so the profile has something else in it.
	static String describe(long v) {
		StringBuilder sb = new StringBuilder();
		sb.append("v=").append(Long.toHexString(v));
		return sb.toString();
	}

	public static void main(String[] args) throws Exception {
		double seconds = 3;
		Path wait = null;
		int status = 0;
		for (int i = 0; i < args.length; i++) {
			if (args[i].equals("--wait-file"))
				wait = Path.of(args[++i]);
			else if (args[i].equals("--exit"))
				status = Integer.parseInt(args[++i]);
			else
				seconds = Double.parseDouble(args[i]);
		}
		long x = 1;
		if (wait != null) {
			long warmEnd = System.nanoTime() + 1_000_000_000L;
			while (System.nanoTime() < warmEnd)
				x = spin(x, 100_000);
			System.out.println("warm");
			System.out.flush();
			while (!Files.exists(wait))
				x = spin(x, 100_000);
		}
		long end = System.nanoTime() + (long) (seconds * 1e9);
		int rounds = 0;
		while (System.nanoTime() < end) {
			x = spin(x, 100_000);
			for (int k = 0; k < 20; k++)
				sinkInt = outer(rounds + k);
			if ((++rounds & 1023) == 0)
				sink = describe(x).length();
		}
		sink = x;
		System.out.println("done");
		System.err.println("stderr line from the workload");
		if (status != 0)
			System.exit(status);
	}
}
