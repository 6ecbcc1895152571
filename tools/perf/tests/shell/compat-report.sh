#!/bin/bash
# compat matrix, perf report: every row of compat/report.tbl gives perf 6.1's stdout and exit status
CM_TABLES=report
. "$TOP/tools/perf/tests/shell/lib/compat-matrix.sh"
