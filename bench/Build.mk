# The null JVMTI agent of bench/jvmti-overhead.sh (the floor our agent is held
# against). Built like the agent (same JDK headers and flags, no sanitizers).
JVMTI_NULL_AGENT := $(OUT)/bench/jvmti-null-agent.so
ALL_TARGETS += $(JVMTI_NULL_AGENT)

$(JVMTI_NULL_AGENT): bench/jvmti-null-agent.c tools/perf/jvmti/Build.mk bench/Build.mk
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  CC      $@";) $(CC) $(JVMTI_CFLAGS) -shared -Wl,-z,defs -o $@ $<
