// SPDX-License-Identifier: MIT
/*
 * cg_nofp's call tree (main -> cg_a -> cg_b -> cg_leaf) at -O2
 * -fno-omit-frame-pointer (cg_fpleaf.mk): gcc 12 gives the leaf no frame of
 * its own, so a frame-pointer walk from inside it skips cg_b.
 */
#include "cg_nofp.c"
