# Records CgJava (main -> outer -> middle -> hot) with our agent and our perf,
# then injects with our perf inject --jit. Sourced after lib/jvmti.sh.
# Usage: record_cgjava <record options...>; leaves perf.data and jit.data.
need_cgjava() {
	need_cmd "$JAVA" objdump
	[ -f "$AGENT" ] || skip "JVMTI agent not built ($AGENT); run make"
	[ -f "$JAVA_CLASSES/CgJava.class" ] || skip "Java workloads not built; run make build-tests"
	"$PERF" inject -h 2>&1 | grep -q -- '--jit' || skip "our perf inject has no --jit yet (H6's inject issue)"
}

record_cgjava() {
	"$PERF" record -q -k mono -e cpu-clock "$@" -o perf.data -- \
		"$JAVA" -XX:+PreserveFramePointer -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,CgJava::* \
		-agentpath:"$AGENT" -cp "$JAVA_CLASSES" CgJava 2 > java.out 2> java.err ||
		fail "record of java failed: $(tail -3 java.err)"
	grep -q '^done$' java.out || fail "CgJava did not finish: $(tail -3 java.err)"
	"$PERF" inject --jit -i perf.data -o jit.data 2> inject.err || fail "inject --jit failed: $(tail -3 inject.err)"
}
