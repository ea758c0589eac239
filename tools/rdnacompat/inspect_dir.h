/* SPDX-License-Identifier: MIT */
/*
 * inspect_dir.h — `rdnacompat inspect DIR`: a ROCm library directory, rocBLAS's
 * library directory or a venv's torch/lib, as a whole (inspect_dir.c).
 */
#ifndef RDC_TOOL_INSPECT_DIR_H
#define RDC_TOOL_INSPECT_DIR_H

#include <stdbool.h>

#include "inspect.h"

/* Inspect one file as `rdnacompat inspect FILE` does; 0, or 2 when unreadable. */
typedef int (*rdc_inspect_file_fn)(struct ictx *c, const char *path);

/* Whether path is a directory (following a final symlink, as a user means it). */
bool rdc_inspect_is_dir(const char *path);

/* Walk the directory (subdirectories too, symlinks not followed): every
 * file with device code through `one` (per library a line: what the card
 * gets), every per-arch data file (Tensile .dat/.yaml, per-arch code
 * objects, MIOpen databases) counted by the target its name carries, and
 * what the shim's per-arch file redirection would do for the card.  One
 * summary line for the directory (text), or one {"kind":"directory"} object
 * in the files array (--json).  Returns 0, or 2 when something could not be
 * read (named on stderr). */
int rdc_inspect_dir(struct ictx *c, const char *path, rdc_inspect_file_fn one);

#endif
