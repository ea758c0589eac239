/* SPDX-License-Identifier: MIT */
/*
 * datafile.c — rdc_datafile_of / rdc_datafile_rename (datafile.h): the
 * per-arch data files of rocBLAS, hipBLASLt and MIOpen, recognised by base
 * name alone, one row per kind in `kinds`; rdc_datafile_is_dso says which
 * of them are shared objects a library dlopens (MIOpen's per-arch
 * composable-kernel libraries).  A program's own file that merely
 * carries a target in its name or its directory (…/gfx1031/settings.txt,
 * cache_gfx1031.bin) is none of them.
 */
#include "rdnacompat/datafile.h"

#include <stdbool.h>
#include <string.h>

#include "rdnacompat/error.h"

/* One kind: the base name starts with `prefix` (NULL: with the processor
 * itself) and ends with `suffix`, and holds the processor in between. */
static const struct kind {
	const char *lib;
	const char *prefix;
	const char *suffix;
	bool dso;           /* a shared object the library dlopens */
} kinds[] = {
	{ "Tensile", "TensileLibrary", ".dat", false },   /* TensileLibrary_lazy_gfx1031.dat */
	{ "Tensile", "TensileLibrary", ".yaml", false },  /* the same library as YAML */
	{ "Tensile", "TensileLibrary", ".co", false },    /* TensileLibrary_Type_..._gfx1031.co */
	{ "Tensile", "TensileLibrary", ".hsaco", false }, /* ..._fallback_gfx1031.hsaco */
	{ "Tensile", "Kernels.so-", ".hsaco", false },    /* Kernels.so-000-gfx1031.hsaco */
	{ "Tensile", "extop_", ".co", false },            /* hipBLASLt's extop_gfx1031.co */
	{ "MIOpen", NULL, ".kdb", false },                /* gfx1031_40.kdb */
	{ "MIOpen", NULL, ".fdb.txt", false },            /* gfx1031_40.HIP.fdb.txt */
	{ "MIOpen", NULL, ".db", false },                 /* gfx1031_40.db */
	/* MIOpen's per-arch CK grouped-convolution library, dlopen'ed by
	 * "lib" "MIOpenCKGroupedConv_" <target without :features> ".so"
	 * (ROCm/rocm-libraries@60d7c5f8 projects/miopen/src/solver/
	 * ck_impl_lib_loader.cpp, MakeLibraryFilename) */
	{ "MIOpen", "libMIOpenCKGroupedConv_", ".so", true },
};

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static bool delim(char c)
{
	return c == '_' || c == '-' || c == '.';
}

/* The first place in base, at or after `from` and ending at or before
 * `to`, where proc stands as a token: delimited before and after (every
 * suffix begins with '.', so a token right before it ends there). */
static const char *token(const char *base, size_t from, size_t to, const char *proc)
{
	size_t pl = strlen(proc);
	for (const char *h = strstr(base + from, proc); h && (size_t)(h - base) + pl <= to;
	     h = strstr(h + 1, proc))
		if ((h == base || delim(h[-1])) && delim(h[pl]))
			return h;
	return NULL;
}

/* Where proc stands in base (NULL: not a data file), and its library and
 * kind (NULL for the glob pattern). */
static const char *locate(const char *base, const char *proc, const char **lib,
			  const struct kind **kind)
{
	size_t bl = strlen(base), pl = strlen(proc);
	if (pl < 4 || strncmp(proc, "gfx", 3) != 0)
		return NULL;
	/* rocBLAS and hipBLASLt list their code objects with glob() of <dir>, "*", the processor, "*co" */
	if (bl == pl + 4 && base[0] == '*' && !strncmp(base + 1, proc, pl) &&
	    !strcmp(base + 1 + pl, "*co")) {
		*lib = "Tensile";
		*kind = NULL;
		return base + 1;
	}
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		const struct kind *k = &kinds[i];
		size_t sl = strlen(k->suffix);
		const char *pre = k->prefix ? k->prefix : proc;
		size_t xl = strlen(pre);
		if (bl < xl + sl || strncmp(base, pre, xl) != 0 || strcmp(base + bl - sl, k->suffix) != 0)
			continue;
		/* MIOpen's names start with the processor, delimited by what follows */
		const char *h = k->prefix ? token(base, xl, bl - sl, proc) : delim(base[pl]) ? base : NULL;
		if (h) {
			*lib = k->lib;
			*kind = k;
			return h;
		}
	}
	return NULL;
}

const char *rdc_datafile_of(const char *path, const char *proc)
{
	const char *lib = NULL;
	const struct kind *k;
	if (!path || !proc || !locate(base_of(path), proc, &lib, &k))
		return NULL;
	return lib;
}

bool rdc_datafile_is_dso(const char *path, const char *proc)
{
	const char *lib = NULL;
	const struct kind *k = NULL;
	return path && proc && locate(base_of(path), proc, &lib, &k) && k && k->dso;
}

int rdc_datafile_rename(const char *path, const char *proc, const char *code, char *out, size_t n)
{
	if (!path || !proc || !code || !out)
		return RDC_E_INVAL;
	const char *lib = NULL;
	const struct kind *k;
	const char *h = locate(base_of(path), proc, &lib, &k);
	if (!h)
		return RDC_E_NOTFOUND;
	size_t pre = (size_t)(h - path), pl = strlen(proc), cl = strlen(code), rest = strlen(h + pl);
	if (pre + cl + rest + 1 > n)
		return RDC_E_RANGE;
	memmove(out, path, pre);
	memcpy(out + pre, code, cl);
	memcpy(out + pre + cl, h + pl, rest + 1);
	return 0;
}
