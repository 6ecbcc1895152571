# libperf-jvmti.so, the JVMTI agent, and build/jitdump-check, the dump checker.
#
# The agent is built WITHOUT sanitizers, even with SAN=1: it is dlopen'ed by
# java, and ASan in a library loaded into an uninstrumented executable only
# works with the ASan runtime LD_PRELOADed into the JVM, which no user (and
# no test) does. So it gets its own flags, never $(CFLAGS).
#
# JDK headers: from the real path of javac (bin/javac -> JAVA_HOME), else
# the Debian default JDK. jvmti.h/jni.h are stable across 17..25; one
# build loads in every JDK on the machine.

JVMTI_JAVAC := $(shell readlink -f "$$(command -v javac 2>/dev/null)" 2>/dev/null)
JVMTI_JDK   := $(if $(JVMTI_JAVAC),$(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(JVMTI_JAVAC))))))
ifeq ($(wildcard $(JVMTI_JDK)/include/jvmti.h),)
JVMTI_JDK   := /usr/lib/jvm/default-java
endif

JVMTI_AGENT := tools/perf/jvmti/libperf-jvmti.so
JVMTI_SRCS  := tools/perf/jvmti/agent.c tools/perf/jvmti/dump-file.c \
               tools/perf/jvmti/method-cache.c tools/perf/jvmti/java-names.c \
               tools/perf/jvmti/toggle-signal.c
JVMTI_HDRS  := $(wildcard tools/perf/jvmti/*.h) tools/perf/util/jitdump.h
JVMTI_CFLAGS := -O2 -g $(WARN) -std=gnu11 -D_GNU_SOURCE -fPIC -fvisibility=hidden \
                -Itools/perf -I$(JVMTI_JDK)/include -I$(JVMTI_JDK)/include/linux

ALL_TARGETS += $(JVMTI_AGENT)
CLEAN_FILES += $(JVMTI_AGENT)

$(JVMTI_AGENT): $(JVMTI_SRCS) $(JVMTI_HDRS) tools/perf/jvmti/Build.mk
	@test -f $(JVMTI_JDK)/include/jvmti.h || { echo "no JDK headers (jvmti.h) in $(JVMTI_JDK)" >&2; exit 1; }
	$(if $(V),,@echo "  CC      $@";) $(CC) $(JVMTI_CFLAGS) -shared -Wl,-z,defs -Wl,-z,now \
		-o $@ $(JVMTI_SRCS) -lpthread -ldl

# The checker is an ordinary tool: it honours SAN=1 like perf itself.
JITDUMP_CHECK := $(OUT)/jitdump-check
JITDUMP_CHECK_SRCS := tools/perf/jvmti/jitdump-check.c tools/perf/util/jitdump.c \
                      tools/perf/util/util.c tools/perf/util/debug.c
ALL_TARGETS += $(JITDUMP_CHECK)

$(JITDUMP_CHECK): $(JITDUMP_CHECK_SRCS) tools/perf/util/jitdump.h $(OUT)/.flavor-stamp
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  CC      $@";) $(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(JITDUMP_CHECK_SRCS)
