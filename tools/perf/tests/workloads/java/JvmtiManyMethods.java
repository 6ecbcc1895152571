// SPDX-License-Identifier: MIT
// Workload that makes the JVM compile thousands of methods: it runs javac
// (the in-process compiler of the JDK, a large Java program) over a
// generated source several times, then mixes in collections, streams,
// regex and formatting. Used by the JVMTI benchmark and the kill -9 test.
// Usage: java JvmtiManyMethods [rounds] (default 6)
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public class JvmtiManyMethods {
	static volatile long sink;

	static String generatedSource(int round) {
		StringBuilder sb = new StringBuilder();
		sb.append("import java.util.*;\n");
		sb.append("public class Gen").append(round).append(" {\n");
		for (int i = 0; i < 300; i++) {
			sb.append("  static int f").append(i).append("(List<Integer> xs, Map<String, Integer> m) {\n");
			sb.append("    int s = ").append(i).append(";\n");
			sb.append("    for (int x : xs) { if (x % ").append(i % 7 + 2).append(" == 0) s += x; else s ^= x << 1; }\n");
			sb.append("    m.merge(\"k").append(i % 13).append("\", s, Integer::sum);\n");
			sb.append("    return s + f").append(i == 0 ? 0 : i - 1).append("Len(\"").append(i).append("\");\n  }\n");
			sb.append("  static int f").append(i).append("Len(String s) { return s.length() * ").append(i).append("; }\n");
		}
		sb.append("}\n");
		return sb.toString();
	}

	static long library(int round) {
		List<String> words = new ArrayList<>();
		for (int i = 0; i < 20000; i++)
			words.add(Integer.toString(i * 7919 + round, 36));
		Map<Character, List<String>> byFirst = words.stream()
				.collect(Collectors.groupingBy(w -> w.charAt(0)));
		TreeMap<String, Integer> lengths = new TreeMap<>(Comparator.reverseOrder());
		for (String w : words)
			lengths.merge(w.substring(0, Math.min(2, w.length())), w.length(), Integer::sum);
		Pattern p = Pattern.compile("([a-f]+)([0-9]*)");
		long hits = 0;
		for (String w : words) {
			Matcher m = p.matcher(w);
			while (m.find())
				hits += m.group(1).length();
		}
		Map<String, String> fmt = new HashMap<>();
		for (int i = 0; i < 2000; i++)
			fmt.put(String.format("%05d-%x", i, i * round), String.valueOf(i / 3.0));
		return hits + byFirst.size() + lengths.size() + fmt.size();
	}

	public static void main(String[] args) throws IOException {
		int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		Path dir = Files.createTempDirectory("jvmti-many");
		OutputStream quiet = OutputStream.nullOutputStream();
		long total = 0;
		try {
			for (int r = 0; r < rounds; r++) {
				Path src = dir.resolve("Gen" + r + ".java");
				Files.writeString(src, generatedSource(r));
				if (javac != null) {
					int rc = javac.run(null, quiet, quiet, "-d", dir.toString(), "-g", src.toString());
					if (rc != 0)
						throw new IllegalStateException("javac failed: " + rc);
				}
				total += library(r);
			}
		} finally {
			try (var s = Files.walk(dir)) {
				s.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
			}
		}
		sink = total;
		System.out.println("done " + rounds);
	}
}
