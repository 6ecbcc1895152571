#!/bin/bash
# compat matrix, perf script: every row of compat/script.tbl gives perf 6.1's stdout and exit status
CM_TABLES=script
. "$TOP/tools/perf/tests/shell/lib/compat-matrix.sh"
