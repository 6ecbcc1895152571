# dwarf_vars at -O0 and -O2 (the default -O1 build exists too): -O0 keeps
# everything in stack slots and has several line-table rows per statement,
# -O2 has location lists, inlined copies with constant parameters, structs
# in registers and variables described by DWARF expressions.
DWARF_VARS_VARIANTS := $(OUT)/workloads/dwarf_vars_O0 $(OUT)/workloads/dwarf_vars_O2
TEST_TARGETS += $(DWARF_VARS_VARIANTS)

$(OUT)/workloads/dwarf_vars_O%: tools/perf/tests/workloads/dwarf_vars.c
	@mkdir -p $(dir $@)
	$(if $(V),,@echo "  CC      $@";) $(CC) -O$* -g -fno-omit-frame-pointer -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<
