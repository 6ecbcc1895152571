# frame pointers, but neither .eh_frame nor .debug_frame for this file's code
WORKLOAD_CFLAGS_cg_nocfi := -O2 -fno-omit-frame-pointer -g0 -fno-asynchronous-unwind-tables -fno-unwind-tables
