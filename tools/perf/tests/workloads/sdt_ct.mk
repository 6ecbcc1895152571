# sdt_ct runs alone in a container's root: linked statically
WORKLOAD_CFLAGS_sdt_ct := -static
