# libFuzzer targets for the parsers of util/ (Documentation/fuzzing.txt).
#
#   make fuzz-build                 builds $(OUT)/fuzz/fuzz-<target>
#   make fuzz FUZZ_SECONDS=N        runs each target N seconds, one after the
#                                   other (-jobs=1: the machine is shared)
#   make fuzz FUZZ_TARGETS="jitdump perf-map"   only those
#
# The util/ sources are compiled again with clang and
# -fsanitize=fuzzer-no-link,address,undefined into an archive, so a target
# links only the objects it needs and never perf.c or builtin-*.c. Findings
# go to $(OUT)/fuzz/findings/<target>/; a reproducer worth keeping is copied
# to tools/perf/tests/fuzz/regressions/<target>/ and is then replayed by
# `make test` (tests/shell/fuzz-regressions.sh).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := tools/perf/tests/fuzz
FUZZ_OUT     := $(OUT)/fuzz
FUZZ_OBJDIR  := $(OUT)/obj-fuzz
# -Werror stays with gcc builds: clang warns about other things in files we
# do not own, and a warning must not stop the fuzzers.
FUZZ_CFLAGS  := -O1 -g -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -fno-strict-aliasing \
                -Wall -Wno-unused-parameter -Wno-missing-field-initializers \
                -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined -Itools/perf
FUZZ_SAN_LIB := -fsanitize=fuzzer-no-link
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined

FUZZ_UTIL_SRCS := $(filter-out $(EXCLUDE),$(wildcard tools/perf/util/*.c))
FUZZ_UTIL_OBJS := $(FUZZ_UTIL_SRCS:%.c=$(FUZZ_OBJDIR)/%.o)
FUZZ_UTIL_LIB  := $(FUZZ_OUT)/libperf-util-fuzz.a

FUZZ_SRCS    := $(wildcard $(FUZZ_DIR)/fuzz-*.c)
FUZZ_ALL     := $(FUZZ_SRCS:$(FUZZ_DIR)/fuzz-%.c=%)
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_BINS    := $(FUZZ_ALL:%=$(FUZZ_OUT)/fuzz-%)

CLEAN_FILES  += $(FUZZ_OUT) $(FUZZ_OBJDIR)

$(FUZZ_OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  FUZZCC  $<";) $(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN_LIB) -MMD -MP -c -o $@ $<

$(FUZZ_UTIL_LIB): $(FUZZ_UTIL_OBJS)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(if $(V),,@echo "  AR      $@";) ar rcs $@ $^

$(FUZZ_OUT)/fuzz-%: $(FUZZ_DIR)/fuzz-%.c $(FUZZ_DIR)/fuzz-util.h $(FUZZ_UTIL_LIB)
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  FUZZLD  $@";) $(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_LDFLAGS) -o $@ $< $(FUZZ_UTIL_LIB) $(LDLIBS)

-include $(FUZZ_UTIL_OBJS:.o=.d)

.PHONY: fuzz-build fuzz-corpus
fuzz-build: $(FUZZ_BINS)

# Seeds from real files: committed ones in corpus/<target>/ plus those
# mk-corpus.sh makes from the workloads, tracefs and perf 6.1 recordings.
fuzz-corpus: $(FUZZ_BINS) $(TEST_TARGETS)
	@bash $(FUZZ_DIR)/mk-corpus.sh $(FUZZ_OUT)/seeds

# Only when clang and its libFuzzer runtime are there: `make test` must not
# need them (the fuzz tests then skip, saying why).
FUZZ_RT := $(shell $(FUZZ_CC) -print-file-name=libclang_rt.fuzzer-$(shell uname -m).a 2>/dev/null)
ifneq ($(wildcard $(FUZZ_RT)),)
TEST_TARGETS += $(FUZZ_BINS)
endif

fuzz: fuzz-corpus
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash $(FUZZ_DIR)/run-fuzz.sh $(FUZZ_OUT) $(FUZZ_TARGETS)
