/* SPDX-License-Identifier: MIT */
/*
 * tool_util.h — small helpers shared by the tool's subcommands: a growable
 * string buffer, allocation that aborts on failure, reading small text files
 * (optionally under a re-rooted file system, for `--root` in tests), locating
 * the files that ship with the tool (tables/, librdnacompat.so) relative to
 * the executable or the install prefix, and the -h/--help test.
 */
#ifndef RDC_TOOL_UTIL_H
#define RDC_TOOL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rdnacompat/error.h"

/* Growable NUL-terminated string.  Allocation failure aborts the tool with a
 * message (the CLI has no way to recover from it). */
struct rdc_sbuf {
	char *s;
	size_t len, cap;
};
void rdc_sb_add(struct rdc_sbuf *b, const char *s);
void rdc_sb_addn(struct rdc_sbuf *b, const char *s, size_t n);
void rdc_sb_printf(struct rdc_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rdc_sb_free(struct rdc_sbuf *b);
/* Never NULL. */
const char *rdc_sb_str(const struct rdc_sbuf *b);

void *rdc_xmalloc(size_t n);
void *rdc_xrealloc(void *p, size_t n);
char *rdc_xstrdup(const char *s);

/* "root" + "path" (root may be NULL or ""); caller frees. */
char *rdc_rooted(const char *root, const char *path);

/* Open a file the user named, for reading: a regular file only (a symlink
 * to one is fine), never blocking on a FIFO or device (rdc_open_file);
 * NULL with "PATH: why" in d. */
FILE *rdc_fopen_input(const char *path, struct rdc_diag *d);
/* Read a whole small file (at most `max` bytes) into a malloc'd
 * NUL-terminated string; NULL when it cannot be read. *len may be NULL. */
char *rdc_read_file(const char *path, size_t max, size_t *len);
/* Same, trailing whitespace trimmed. */
char *rdc_read_line_file(const char *path);

/* Trim leading and trailing whitespace in place; returns s moved past the
 * leading space. */
char *rdc_trim(char *s);

/* Find a file shipped with the tool: tries $envvar (when non-NULL and set:
 * that path itself), then each of `rel` (NULL-terminated) relative to the
 * executable's directory (<prefix>/bin for the full tool in
 * <prefix>/libexec/rdnacompat/, where the front end execs it from).
 * Returns a malloc'd absolute path or NULL. */
char *rdc_find_shipped(const char *envvar, const char *const *rel);

/* The tables/ directory (RDNACOMPAT_TABLES_DIR, <exe>/../../tables for a
 * source-tree build, <exe>/../share/rdnacompat/tables when installed). */
char *rdc_tables_dir(void);
/* A path under the multiarch library directory relative to the tool
 * (<exe>/../lib/<triplet>/X, where Debian's package puts the shim and the
 * simulator); the triplet is RDC_MULTIARCH, set by the Makefile from
 * `$(CC) -print-multiarch`; without it the entry is NULL (the list ends). */
#ifdef RDC_MULTIARCH
#define RDC_MULTIARCH_REL(x) "../lib/" RDC_MULTIARCH "/" x
#else
#define RDC_MULTIARCH_REL(x) NULL
#endif

/* librdnacompat.so (RDNACOMPAT_SHIM, <exe>/../librdnacompat.so for a build
 * tree, <exe>/../lib/librdnacompat.so when installed with make install,
 * <exe>/../lib/<triplet>/librdnacompat.so from the Debian package). */
char *rdc_shim_path(void);

/* True when `arg` is "-h" or "--help". */
bool rdc_is_help(const char *arg);

/* Version of the tool and shim (the same release; main.c uses the same). */
#ifndef RDC_VERSION
#define RDC_VERSION "0.1.0"
#endif

#endif
