/* SPDX-License-Identifier: MIT */
/*
 * fixture.h — what the unit tests share to reach the fixtures that
 * tests/fixtures/build.sh builds: their path under $RDC_FIXTURES (default
 * build/fixtures), reading a whole file, and whether a command-line tool
 * the test compares against is installed.  Header-only, static inline: each
 * test is one translation unit.
 */
#ifndef RDC_TEST_FIXTURE_H
#define RDC_TEST_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* malloc'd "$RDC_FIXTURES/rel", or NULL when that file is not readable. */
static inline char *fixture_path(const char *rel)
{
	const char *dir = getenv("RDC_FIXTURES");
	if (!dir)
		dir = "build/fixtures";
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *p = malloc(n);
	if (!p)
		return NULL;
	snprintf(p, n, "%s/%s", dir, rel);
	if (access(p, R_OK) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* The whole file, malloc'd (at least one byte), its size in *len; NULL when
 * path is NULL or the file cannot be read. */
static inline uint8_t *slurp(const char *path, size_t *len)
{
	*len = 0;
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = n >= 0 ? malloc(n > 0 ? (size_t)n : 1) : NULL;
	if (b && n > 0 && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (b)
		*len = (size_t)n;
	return b;
}

/* slurp(fixture_path(rel)). */
static inline uint8_t *load_fixture(const char *rel, size_t *len)
{
	char *p = fixture_path(rel);
	uint8_t *b = slurp(p, len);
	free(p);
	return b;
}

static inline bool have_tool(const char *t)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", t);
	return system(cmd) == 0;
}

#endif
