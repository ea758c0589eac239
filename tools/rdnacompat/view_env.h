/* SPDX-License-Identifier: MIT */
/*
 * view_env.h — `rdnacompat run --view-arch-files`: a private view of a
 * program's library directories in which the names a program checks for
 * the card's target exist (view_env.c).
 */
#ifndef RDC_TOOL_VIEW_ENV_H
#define RDC_TOOL_VIEW_ENV_H

#include <stddef.h>

/* Before exec'ing prog: for each rocBLAS library directory in `dirs`
 * (':'-separated; NULL or "": found from prog's location, Ollama's layout)
 * and each target of the card(s) — the --gpu value `gpu` when it names
 * targets, else the KFD nodes' gfx_target_version — that has no
 * TensileLibrary_lazy_<target>.dat there but a compatible target (the
 * compat table, as the shim's file redirection ranks it) that has one, the
 * name is listed, as a link to nothing, in a private mount namespace (an
 * overlay of the directory; the real one is never written).  Opening the
 * name fails as before; the preloaded shim then loads the compatible
 * target's file and says so at warn.  Says on stderr what it listed.
 * Returns 0 (also when nothing needed listing), or -1 with a message on
 * stderr. */
int rdc_view_arch_files(const char *dirs, const char *prog, const char *gpu);

#endif
