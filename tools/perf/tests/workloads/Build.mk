# C workloads for tests: every workloads/*.c becomes build/workloads/<name>.
# Frame pointers on so -g call chains work; a workload that needs other flags
# gets its own rule in a workloads/<name>.mk.
WORKLOAD_SRCS := $(wildcard tools/perf/tests/workloads/*.c)
WORKLOAD_BINS := $(WORKLOAD_SRCS:tools/perf/tests/workloads/%.c=$(OUT)/workloads/%)
WORKLOAD_CFLAGS := -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -D_GNU_SOURCE
TEST_TARGETS += $(WORKLOAD_BINS)

$(OUT)/workloads/%: tools/perf/tests/workloads/%.c
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  CC      $@";) $(CC) $(WORKLOAD_CFLAGS) $(WORKLOAD_CFLAGS_$*) -o $@ $< $(WORKLOAD_LDLIBS_$*)

# Java workloads: workloads/java/*.java compiled into build/java
JAVA_SRCS := $(wildcard tools/perf/tests/workloads/java/*.java)
ifneq ($(JAVA_SRCS),)
TEST_TARGETS += $(OUT)/java/.stamp
$(OUT)/java/.stamp: $(JAVA_SRCS)
	@mkdir -p $(OUT)/java
	$(if $(V),,@echo "  JAVAC   $(OUT)/java";) javac -g -d $(OUT)/java $(JAVA_SRCS)
	@touch $@
endif
