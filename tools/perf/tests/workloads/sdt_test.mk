# sdt_test at -O0 and -O2 besides the default -O1 build: gcc picks other
# operand forms (stack slots, constants, %rip globals) at each level.
SDT_TEST_VARIANTS := $(OUT)/workloads/sdt_test_O0 $(OUT)/workloads/sdt_test_O2
TEST_TARGETS += $(SDT_TEST_VARIANTS)

$(OUT)/workloads/sdt_test_O%: tools/perf/tests/workloads/sdt_test.c
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  CC      $@";) $(CC) -O$* -g -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<
