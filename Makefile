# Top-level build of our perf. `make`, `make test`, `make demo`, `make bench`.
# Components add their own rules in a Build.mk beside their sources.

PREFIX  ?= /usr/local
CC      ?= gcc
SAN     ?=
V       ?=

ifeq ($(origin CC),default)
CC := gcc
endif

WARN    := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS  ?= -O2 -g
CFLAGS  += $(WARN) -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -fno-strict-aliasing
CPPFLAGS += -Itools/perf
LDLIBS  := -lelf -ldw -lz -lzstd -ldebuginfod -lstdc++ -lpthread -lm -ldl

ifeq ($(SAN),1)
FLAVOR  := san
CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
else
FLAVOR  := normal
endif

OUT     := build
OBJDIR  := $(OUT)/obj-$(FLAVOR)
PERF    := tools/perf/perf

PERF_SRCS := tools/perf/perf.c $(wildcard tools/perf/builtin-*.c) \
             $(wildcard tools/perf/util/*.c) $(wildcard tools/perf/tests/*.c)
# EXCLUDE=file.c leaves out a half-written file of someone else while you work
PERF_SRCS := $(filter-out $(EXCLUDE),$(PERF_SRCS))
PERF_OBJS := $(PERF_SRCS:%.c=$(OBJDIR)/%.o)

# what `make` builds; Build.mk fragments append to it
ALL_TARGETS := $(PERF)
# what `make test` needs besides ALL_TARGETS (workloads, fixtures)
TEST_TARGETS :=

.PHONY: all deps test demo bench clean install fuzz FORCE
all: deps
	@$(MAKE) --no-print-directory build-all


deps:
	@bash tools/build/install-deps.sh

# relink when switching between SAN=1 and a normal build
$(OUT)/.flavor-stamp: FORCE
	@mkdir -p $(OUT)
	@[ "$$(cat $@ 2>/dev/null)" = "$(FLAVOR)" ] || echo $(FLAVOR) > $@

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  CC      $<";) $(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(PERF): $(PERF_OBJS) $(OUT)/.flavor-stamp
	$(if $(V),,@echo "  LINK    $@";) $(CC) $(LDFLAGS) -o $@ $(PERF_OBJS) $(LDLIBS)

-include $(PERF_OBJS:.o=.d)
-include $(sort $(wildcard tools/perf/*/Build.mk tools/perf/tests/*/Build.mk tools/perf/tests/workloads/*.mk bench/Build.mk))

.PHONY: build-all
build-all: $(ALL_TARGETS)

# Under SAN=1 a leak at exit is not a failure (a command-line tool frees by
# exiting); memory errors and undefined behaviour are.
SAN_ENV := $(if $(filter 1,$(SAN)),PERF_TEST_SAN=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)

test: deps
	@$(MAKE) --no-print-directory build-all build-tests
	@$(SAN_ENV) PERF_TEST_TIMES=build/test-times$(if $(filter 1,$(SAN)),-san).txt $(PERF) test $(if $(V),-v) $(TESTS)

.PHONY: build-tests
build-tests: $(TEST_TARGETS)

demo: deps
	@$(MAKE) --no-print-directory build-all build-tests
	@bash tools/perf/tests/demo.sh

bench: deps
	@$(MAKE) --no-print-directory build-all build-tests
	@bash bench/run-all.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(PERF) $(DESTDIR)$(PREFIX)/bin/perf
	for f in $(wildcard tools/perf/jvmti/*.so); do install -m 755 $$f $(DESTDIR)$(PREFIX)/lib/; done
	for f in $(wildcard Documentation/perf*.txt); do \
	  install -m 644 $$f $(DESTDIR)$(PREFIX)/share/man/man1/$$(basename $$f .txt).1; done

clean:
	rm -rf $(OUT) $(PERF) $(CLEAN_FILES)
