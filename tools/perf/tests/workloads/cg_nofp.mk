# no frame pointers: the callers of cg_leaf are only reachable through .eh_frame
WORKLOAD_CFLAGS_cg_nofp := -O2 -fomit-frame-pointer
