# exported symbols so a stripped copy still has them in .dynsym
WORKLOAD_CFLAGS_sym_funcs := -rdynamic
