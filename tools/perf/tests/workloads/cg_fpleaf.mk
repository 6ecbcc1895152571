# gcc 12 -O2 keeps frame pointers but gives leaf functions no frame of their own
WORKLOAD_CFLAGS_cg_fpleaf := -O2 -fno-omit-frame-pointer
