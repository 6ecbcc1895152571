#!/bin/bash
# compat matrix, perf annotate and buildid-list: every row of compat/annotate.tbl and buildid-list.tbl gives perf 6.1's stdout and exit status
CM_TABLES="annotate buildid-list"
. "$TOP/tools/perf/tests/shell/lib/compat-matrix.sh"
