/* SPDX-License-Identifier: MIT */
/*
 * standin_kpack.c — a test-only stand-in for TheRock's librocm_kpack.so.0
 * (no ROCm with it is in Debian): kpack_cache_create/destroy,
 * kpack_load_code_object and kpack_free_code_object with the real
 * loader's behaviour as its source has it (ROCm/rocm-kpack@e3483286
 * runtime/src/loader.cpp:193-477, isa_target_match.cpp; docs/KPACK.md):
 *
 *  - ROCM_KPACK_PATH / ROCM_KPACK_PATH_PREFIX (':'-separated archive files),
 *    ROCM_KPACK_DISABLE and ROCM_KPACK_DEBUG ("set, non-empty, not '0'")
 *    read once at cache creation; disabled -> 8 (NOT_IMPLEMENTED);
 *  - marker: kernel_name + kpack_search_paths required, else 12; key =
 *    kernel_name "#" co_index;
 *  - paths: the override alone, else prefix paths then each embedded path
 *    resolved against dirname(binary_path) (absolute kept), @GFXARCH@
 *    expanded per arch_list entry ("amdgcn-amd-amdhsa--" stripped) and per
 *    feature subset, most specific first;
 *  - archives that exist and open are kept per canonical path with their
 *    gfx_arches; none -> 13 (ARCHIVE_NOT_FOUND);
 *  - arch first: for each arch_list entry and compatible target, the first
 *    archive whose gfx_arches has it; toc[key][target] missing -> 5; none
 *    -> 14 (ARCH_NOT_FOUND); the code object is a malloc'd copy.
 *
 * The archive itself is read with rdnacompat's core reader (the stand-in
 * checks the shim's handling of the loader, not the reader).  Not thread
 * safe (the tests are single-threaded).
 */
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rdnacompat/kpack.h"

#define API __attribute__((visibility("default")))

struct arch_cache {
	char path[PATH_MAX];
	uint8_t *bytes;
	size_t n;
	struct rdc_kpack k;
};

struct kpack_cache {
	bool disabled, debug;
	char *override_, *prefix;
	struct arch_cache ar[64];
	size_t n_ar;
};

static void dbg(struct kpack_cache *c, const char *fmt, ...)
{
	if (!c->debug)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("kpack: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static bool truthy(const char *v)
{
	return v && v[0] && v[0] != '0';
}

API int kpack_cache_create(struct kpack_cache **out)
{
	if (!out)
		return 1;
	struct kpack_cache *c = calloc(1, sizeof *c);
	if (!c)
		return 7;
	c->disabled = truthy(getenv("ROCM_KPACK_DISABLE"));
	c->debug = truthy(getenv("ROCM_KPACK_DEBUG"));
	const char *p = getenv("ROCM_KPACK_PATH"), *q = getenv("ROCM_KPACK_PATH_PREFIX");
	c->override_ = p && *p ? strdup(p) : NULL;
	c->prefix = q && *q ? strdup(q) : NULL;
	dbg(c, "cache created: disabled=%d, debug=%d", c->disabled, c->debug);
	*out = c;
	return 0;
}

API void kpack_cache_destroy(struct kpack_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_ar; i++) {
		rdc_kpack_free(&c->ar[i].k);
		free(c->ar[i].bytes);
	}
	free(c->override_);
	free(c->prefix);
	free(c);
}

static uint8_t *slurp(const char *path, size_t *n)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *b = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (b && fread(b, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*n = (size_t)st.st_size;
	return b;
}

/* Open (or find cached) the archive at path; index or -1. */
static int open_archive(struct kpack_cache *c, const char *path)
{
	char canon[PATH_MAX];
	if (!realpath(path, canon)) {
		dbg(c, "archive not found: %s", path);
		return -1;
	}
	for (size_t i = 0; i < c->n_ar; i++)
		if (strcmp(c->ar[i].path, canon) == 0)
			return (int)i;
	if (c->n_ar == 64)
		return -1;
	struct arch_cache *a = &c->ar[c->n_ar];
	a->bytes = slurp(canon, &a->n);
	if (!a->bytes || rdc_kpack_parse(a->bytes, a->n, &a->k, NULL) != 0) {
		dbg(c, "failed to open archive: %s", path);
		rdc_kpack_free(&a->k);
		free(a->bytes);
		a->bytes = NULL;
		return -1;
	}
	snprintf(a->path, sizeof a->path, "%s", canon);
	dbg(c, "opened and cached archive: %s", path);
	for (size_t i = 0; i < a->k.n_arches; i++)
		dbg(c, "  architecture: %s", a->k.arches[i]);
	return (int)c->n_ar++;
}

/* Compatible targets of an arch_list entry, most specific first:
 * "gfx942:sramecc+:xnack-" -> itself, "gfx942:sramecc+", "gfx942:xnack-",
 * "gfx942" (isa_target_match.cpp).  Returns the count (<= 4). */
static size_t compatible(const char *entry, char out[4][320])
{
	const char *s = entry;
	const char *pfx = "amdgcn-amd-amdhsa--";
	if (!strncmp(s, pfx, strlen(pfx)))
		s += strlen(pfx);
	char buf[96];
	snprintf(buf, sizeof buf, "%s", s);
	char *f1 = strchr(buf, ':'), *f2 = NULL;
	if (f1) {
		*f1++ = 0;
		f2 = strchr(f1, ':');
		if (f2)
			*f2++ = 0;
	}
	size_t n = 0;
	if (f1 && f2)
		snprintf(out[n++], 320, "%s:%s:%s", buf, f1, f2);
	if (f1)
		snprintf(out[n++], 320, "%s:%s", buf, f1);
	if (f2)
		snprintf(out[n++], 320, "%s:%s", buf, f2);
	snprintf(out[n++], 320, "%s", buf);
	return n;
}

static void add_list(struct kpack_cache *c, const char *list, int *idx, size_t *ni)
{
	char *dup = strdup(list), *save = NULL;
	for (char *t = dup ? strtok_r(dup, ":", &save) : NULL; t; t = strtok_r(NULL, ":", &save)) {
		int i = open_archive(c, t);
		if (i >= 0 && *ni < 256)
			idx[(*ni)++] = i;
	}
	free(dup);
}

API int kpack_load_code_object(struct kpack_cache *c, const void *meta, const char *binary_path,
			       uint32_t co_index, const char *const *arch_list, size_t arch_count,
			       void **out, size_t *out_size)
{
	if (!c || !meta || !binary_path || !arch_list || !arch_count || !out || !out_size)
		return 1;
	if (c->disabled) {
		dbg(c, "kpack disabled via ROCM_KPACK_DISABLE");
		return 8;
	}
	struct rdc_kpack_ref r;
	if (rdc_kpack_ref_parse(meta, 64 * 1024, &r, NULL) != 0) {
		dbg(c, "failed to parse HIPK metadata");
		return 12;
	}
	char key[1024];
	snprintf(key, sizeof key, "%s#%u", r.kernel_name, co_index);
	dbg(c, "parsed HIPK metadata: kernel_name='%s', co_index=%u, lookup_key='%s', %zu search paths",
	    r.kernel_name, co_index, key, r.n_paths);
	int idx[256];
	size_t ni = 0, tried = 0;
	if (c->override_) {
		add_list(c, c->override_, idx, &ni);
		tried++;
	} else {
		if (c->prefix)
			add_list(c, c->prefix, idx, &ni);
		char *bd = strdup(binary_path);
		const char *dir = bd ? dirname(bd) : ".";
		for (size_t p = 0; p < r.n_paths; p++) {
			char full[PATH_MAX];
			if (r.paths[p][0] == '/')
				snprintf(full, sizeof full, "%s", r.paths[p]);
			else
				snprintf(full, sizeof full, "%s/%s", dir, r.paths[p]);
			if (!strstr(full, RDC_KPACK_GFXARCH)) {
				int i = open_archive(c, full);
				tried++;
				if (i >= 0 && ni < 256)
					idx[ni++] = i;
				continue;
			}
			for (size_t a = 0; a < arch_count; a++) {
				char comp[4][320];
				size_t nc = arch_list[a] ? compatible(arch_list[a], comp) : 0;
				for (size_t k = 0; k < nc; k++) {
					char x[PATH_MAX];
					if (rdc_kpack_expand(full, comp[k], x, sizeof x) < 0)
						continue;
					dbg(c, "expanded pattern: %s -> %s", r.paths[p], x);
					tried++;
					int i = open_archive(c, x);
					if (i >= 0 && ni < 256)
						idx[ni++] = i;
				}
			}
		}
		free(bd);
	}
	rdc_kpack_ref_free(&r);
	if (!ni) {
		dbg(c, "no valid archives found in %zu kpack paths", tried);
		return 13;
	}
	for (size_t a = 0; a < arch_count; a++) {
		if (!arch_list[a])
			continue;
		dbg(c, "trying architecture: %s", arch_list[a]);
		char comp[4][320];
		size_t nc = compatible(arch_list[a], comp);
		for (size_t k = 0; k < nc; k++)
			for (size_t i = 0; i < ni; i++) {
				struct arch_cache *ar = &c->ar[idx[i]];
				if (!rdc_kpack_has_arch(&ar->k, comp[k]))
					continue;
				const struct rdc_kpack_entry *e = rdc_kpack_find(&ar->k, key, comp[k]);
				if (!e) {
					dbg(c, "  kernel not found in this archive (error 5)");
					return 5;
				}
				uint8_t *co = NULL;
				size_t n = 0;
				if (rdc_kpack_extract(&ar->k, ar->bytes, ar->n, e, &co, &n, NULL) != 0)
					return 6;
				dbg(c, "  found kernel: %zu bytes", n);
				*out = co;
				*out_size = n;
				return 0;
			}
	}
	dbg(c, "no archive with compatible architecture found");
	return 14;
}

API void kpack_free_code_object(void *p)
{
	free(p);
}
