# sdt_fp at -O0 and -O2: frame slots and registers for its floating-point operands
SDT_FP_VARIANTS := $(OUT)/workloads/sdt_fp_O0 $(OUT)/workloads/sdt_fp_O2
TEST_TARGETS += $(SDT_FP_VARIANTS)

$(OUT)/workloads/sdt_fp_O%: tools/perf/tests/workloads/sdt_fp.c
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  CC      $@";) $(CC) -O$* -g -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<
