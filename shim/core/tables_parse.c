/* SPDX-License-Identifier: MIT */
/*
 * tables_parse.c — parser and validator of the table text formats
 * (include/rdnacompat/tables_parse.h, tables/README.md).  Used by
 * tools/tablegen at build time and by rdc_tables_load at run time, so both
 * accept and refuse exactly the same rows.  Never references the generated
 * built-in tables.  File I/O only in rdc_tables_read_file.
 */
#include "rdnacompat/tables_parse.h"
#include "rdnacompat/features.h"
#include "rdnacompat/fileopen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "rdnacompat/rules.h"
#include "rdnacompat/target.h"

#define MAX_FIELDS 20
#define MAX_LINE 4096
#define MAX_ROWS 8192 /* per table */

static const char *const kind_names[RDC_TAB_N] = { "isa", "compat", "cards", "badkernels", "kernels" };
static const char *const kind_cols[RDC_TAB_N] = {
	("name\tfamily\tmach\tgeneric\tgeneric_of\tgeneric_version\twave\txnack\tsramecc\tlds"
	 "\tvgprs_w32\tvgprs_w64\tgranule_w32\tgranule_w64\tmax_waves\tsource"),
	"device\tcode\trank\tcondition\tsource",
	"vendor\tdevice\trevision\tname\ttarget\tstatus\tkind\tsource",
	"target\tcode_target\tkernel_glob\taction\treason\tsource",
	"pattern\tscope\ttargets\truntime\taction\tstatus\treason\tsource",
};
static const size_t kind_ncols[RDC_TAB_N] = { 16, 5, 8, 6, 8 };

bool rdc_table_has_file(enum rdc_table_kind k)
{
	return (unsigned)k < RDC_TAB_N && k != RDC_TAB_BAD;
}

const char *rdc_table_kind_name(enum rdc_table_kind k)
{
	return (unsigned)k < RDC_TAB_N ? kind_names[k] : NULL;
}

const char *rdc_table_columns(enum rdc_table_kind k)
{
	return (unsigned)k < RDC_TAB_N ? kind_cols[k] : NULL;
}

/* ---- string pool -------------------------------------------------------- */

struct pool_chunk {
	struct pool_chunk *next;
	char data[];
};

static const char *pool_strndup(struct rdc_tables_build *b, const char *s, size_t n)
{
	struct pool_chunk *c = malloc(sizeof *c + n + 1);
	if (!c)
		return NULL;
	memcpy(c->data, s, n);
	c->data[n] = '\0';
	c->next = b->pool;
	b->pool = c;
	return c->data;
}

void rdc_tables_build_init(struct rdc_tables_build *b)
{
	memset(b, 0, sizeof *b);
}

void rdc_tables_build_free(struct rdc_tables_build *b)
{
	if (!b)
		return;
	free((void *)b->t.isa);
	free((void *)b->t.edges);
	free((void *)b->t.cards);
	free((void *)b->t.bad);
	free((void *)b->t.rules);
	for (int k = 0; k < RDC_TAB_N; k++)
		free(b->origin[k]);
	struct pool_chunk *c = b->pool;
	while (c) {
		struct pool_chunk *n = c->next;
		free(c);
		c = n;
	}
	memset(b, 0, sizeof *b);
}

/* ---- row storage and keys ----------------------------------------------- */

static size_t *count_of(struct rdc_tables_build *b, enum rdc_table_kind k)
{
	switch (k) {
	case RDC_TAB_ISA: return &b->t.n_isa;
	case RDC_TAB_COMPAT: return &b->t.n_edges;
	case RDC_TAB_CARDS: return &b->t.n_cards;
	case RDC_TAB_KERNELS: return &b->t.n_rules;
	default: return &b->t.n_bad;
	}
}

static void **array_of(struct rdc_tables_build *b, enum rdc_table_kind k)
{
	switch (k) {
	case RDC_TAB_ISA: return (void **)&b->t.isa;
	case RDC_TAB_COMPAT: return (void **)&b->t.edges;
	case RDC_TAB_CARDS: return (void **)&b->t.cards;
	case RDC_TAB_KERNELS: return (void **)&b->t.rules;
	default: return (void **)&b->t.bad;
	}
}

static size_t elem_size(enum rdc_table_kind k)
{
	switch (k) {
	case RDC_TAB_ISA: return sizeof(struct rdc_isa);
	case RDC_TAB_COMPAT: return sizeof(struct rdc_compat_edge);
	case RDC_TAB_CARDS: return sizeof(struct rdc_card);
	case RDC_TAB_KERNELS: return sizeof(struct rdc_kernel_rule);
	default: return sizeof(struct rdc_bad_kernel);
	}
}

static int streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static int same_key(enum rdc_table_kind k, const void *x, const void *y)
{
	switch (k) {
	case RDC_TAB_ISA:
		return streq(((const struct rdc_isa *)x)->name, ((const struct rdc_isa *)y)->name);
	case RDC_TAB_COMPAT: {
		const struct rdc_compat_edge *a = x, *c = y;
		return streq(a->device, c->device) && streq(a->code, c->code);
	}
	case RDC_TAB_CARDS: {
		const struct rdc_card *a = x, *c = y;
		return a->vendor == c->vendor && a->device == c->device && a->revision == c->revision;
	}
	case RDC_TAB_KERNELS: {
		const struct rdc_kernel_rule *a = x, *c = y;
		return streq(a->pattern, c->pattern) && streq(a->scope, c->scope) &&
		       streq(a->targets, c->targets) && streq(a->runtime, c->runtime) &&
		       a->action == c->action;
	}
	default: {
		const struct rdc_bad_kernel *a = x, *c = y;
		return streq(a->target, c->target) && streq(a->code_target, c->code_target) &&
		       streq(a->kernel_glob, c->kernel_glob);
	}
	}
}

/* Add or replace one row.  Same key from the same file: error. */
static int put_row(struct rdc_tables_build *b, enum rdc_table_kind k, const void *row,
		   struct rdc_row_origin org, struct rdc_diag *d)
{
	size_t *n = count_of(b, k);
	void **arr = array_of(b, k);
	size_t es = elem_size(k);
	for (size_t i = 0; i < *n; i++) {
		char *slot = (char *)*arr + i * es;
		if (!same_key(k, slot, row))
			continue;
		struct rdc_row_origin *o = &b->origin[k][i];
		if (o->file && org.file && strcmp(o->file, org.file) == 0)
			return rdc_diag_setl(d, RDC_E_FORMAT, org.file, org.line,
					     "duplicate %s row (same key as line %u)", kind_names[k],
					     o->line);
		memcpy(slot, row, es);
		*o = org;
		return 0;
	}
	if (*n >= MAX_ROWS) /* keeps the quadratic key checks bounded */
		return rdc_diag_setl(d, RDC_E_RANGE, org.file, org.line, "more than %d %s rows", MAX_ROWS,
				     kind_names[k]);
	if (*n == b->cap[k]) {
		size_t nc = b->cap[k] ? b->cap[k] * 2 : 64;
		void *na = realloc(*arr, nc * es);
		if (!na)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
		*arr = na;
		struct rdc_row_origin *no = realloc(b->origin[k], nc * sizeof *no);
		if (!no)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
		b->origin[k] = no;
		b->cap[k] = nc;
	}
	memcpy((char *)*arr + *n * es, row, es);
	b->origin[k][*n] = org;
	(*n)++;
	return 0;
}

int rdc_tables_build_add(struct rdc_tables_build *b, const struct rdc_tables *src,
			 const char *label, struct rdc_diag *d)
{
	if (!b || !src)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "tables: NULL argument");
	struct rdc_row_origin org = { label ? label : "<built-in>", 0 };
	int rc = 0;
	for (size_t i = 0; !rc && i < src->n_isa; i++)
		rc = put_row(b, RDC_TAB_ISA, &src->isa[i], org, d);
	for (size_t i = 0; !rc && i < src->n_edges; i++)
		rc = put_row(b, RDC_TAB_COMPAT, &src->edges[i], org, d);
	for (size_t i = 0; !rc && i < src->n_cards; i++)
		rc = put_row(b, RDC_TAB_CARDS, &src->cards[i], org, d);
	for (size_t i = 0; !rc && i < src->n_bad; i++)
		rc = put_row(b, RDC_TAB_BAD, &src->bad[i], org, d);
	for (size_t i = 0; !rc && i < src->n_rules; i++)
		rc = put_row(b, RDC_TAB_KERNELS, &src->rules[i], org, d);
	return rc;
}

int rdc_tables_build_copy(struct rdc_tables_build *dst, const struct rdc_tables_build *src,
			  struct rdc_diag *d)
{
	if (!dst || !src)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "tables: NULL argument");
	rdc_tables_build_init(dst);
	if (src->pool)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET,
				    "tables: a build holding parsed strings cannot be copied");
	for (int k = 0; k < RDC_TAB_N; k++) {
		size_t n = *count_of((struct rdc_tables_build *)src, (enum rdc_table_kind)k);
		if (!n)
			continue;
		size_t es = elem_size((enum rdc_table_kind)k);
		void *arr = malloc(n * es);
		struct rdc_row_origin *org = malloc(n * sizeof *org);
		if (!arr || !org) {
			free(arr);
			free(org);
			rdc_tables_build_free(dst);
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
		}
		memcpy(arr, *array_of((struct rdc_tables_build *)src, (enum rdc_table_kind)k), n * es);
		memcpy(org, src->origin[k], n * sizeof *org);
		*array_of(dst, (enum rdc_table_kind)k) = arr;
		*count_of(dst, (enum rdc_table_kind)k) = n;
		dst->origin[k] = org;
		dst->cap[k] = n;
	}
	return 0;
}

/* ---- field parsers ------------------------------------------------------ */

struct ctx {
	struct rdc_tables_build *b;
	const char *file;
	unsigned line;
	struct rdc_diag *d;
};

#define FAIL(c, ...) rdc_diag_setl((c)->d, RDC_E_FORMAT, (c)->file, (c)->line, __VA_ARGS__)

static int is_none(const char *s)
{
	return strcmp(s, "-") == 0;
}

static int get_uint(struct ctx *c, const char *col, const char *s, unsigned long max, int allow_none,
		    uint32_t *out)
{
	if (allow_none && is_none(s)) {
		*out = 0;
		return 0;
	}
	int base = 10;
	const char *p = s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	if (!*p)
		return FAIL(c, "%s: '%s' is not a number", col, s);
	unsigned long v = 0;
	for (; *p; p++) {
		int dv;
		if (*p >= '0' && *p <= '9')
			dv = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			dv = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			dv = *p - 'A' + 10;
		else
			return FAIL(c, "%s: '%s' is not a number", col, s);
		v = v * (unsigned long)base + (unsigned long)dv;
		if (v > max)
			return FAIL(c, "%s: %s is out of range (max %lu)", col, s, max);
	}
	*out = (uint32_t)v;
	return 0;
}

static int get_bool(struct ctx *c, const char *col, const char *s, bool *out)
{
	if (!strcmp(s, "yes"))
		*out = true;
	else if (!strcmp(s, "no"))
		*out = false;
	else
		return FAIL(c, "%s: '%s' must be yes or no", col, s);
	return 0;
}

/* A processor name without features; generic ones allowed when `generic`
 * is -1 (either), 0 (must be a processor) or 1 (must be a generic). */
static int get_proc(struct ctx *c, const char *col, const char *s, int generic, const char **out)
{
	struct rdc_target t;
	if (strncmp(s, "gfx", 3) || strchr(s, ':') || rdc_target_parse(s, (size_t)-1, &t, NULL) != 0)
		return FAIL(c, "%s: '%s' is not a processor name", col, s);
	int is_gen = strstr(s, "-generic") != NULL;
	if (generic == 0 && is_gen)
		return FAIL(c, "%s: '%s' is a generic target; a processor is needed here", col, s);
	if (generic == 1 && !is_gen)
		return FAIL(c, "%s: '%s' is not a generic target", col, s);
	*out = pool_strndup(c->b, s, strlen(s));
	return *out ? 0 : rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
}

static int get_str(struct ctx *c, const char *col, const char *s, int allow_none, const char **out)
{
	if (!*s)
		return FAIL(c, "%s: empty", col);
	if (is_none(s)) {
		if (!allow_none)
			return FAIL(c, "%s: a value is required", col);
		*out = NULL;
		return 0;
	}
	*out = pool_strndup(c->b, s, strlen(s));
	return *out ? 0 : rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
}

static int get_word(struct ctx *c, const char *col, const char *s, const char *const *allowed,
		    const char **out)
{
	for (size_t i = 0; allowed[i]; i++)
		if (!strcmp(s, allowed[i])) {
			*out = allowed[i]; /* static storage */
			return 0;
		}
	return FAIL(c, "%s: '%s' is not one of the allowed values", col, s);
}

/* The compat condition tokens (tables/README.md).  point-sample, msaa-load
 * and mad-intra-fwd are the per-kernel instruction conditions of derived
 * edges: each names the LLVM workaround feature the code may lack
 * (tables/features.tsv, docs/TABLES.md). */
static const char *const cond_toks[] = { "vgpr-fit", "user-sgpr-16", "opt-in", "point-sample",
					 "msaa-load", "mad-intra-fwd" };
enum { N_COND_TOKS = sizeof cond_toks / sizeof cond_toks[0] };

static size_t cond_tok_index(const char *p, size_t l)
{
	size_t t;
	for (t = 0; t < N_COND_TOKS; t++)
		if (strlen(cond_toks[t]) == l && !strncmp(p, cond_toks[t], l))
			break;
	return t;
}

bool rdc_compat_token_known(const char *tok, size_t n)
{
	return tok && cond_tok_index(tok, n) < N_COND_TOKS;
}

static int valid_condition(const char *s)
{
	if (!strcmp(s, "none"))
		return 1;
	const char *p = s;
	unsigned seen = 0;
	while (*p) {
		const char *e = strchr(p, '+');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		size_t t = cond_tok_index(p, l);
		if (t == N_COND_TOKS || (seen & (1u << t)))
			return 0;
		seen |= 1u << t;
		if (!e)
			return 1;
		p = e + 1;
		if (!*p)
			return 0;
	}
	return 0;
}

/* ---- rows --------------------------------------------------------------- */

static int row_isa(struct ctx *c, char **f)
{
	struct rdc_isa r;
	memset(&r, 0, sizeof r);
	uint32_t v;
	int rc;
	if ((rc = get_proc(c, "name", f[0], -1, &r.name)))
		return rc;
	int is_gen = strstr(r.name, "-generic") != NULL;
	for (const char *p = f[1]; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.'))
			return FAIL(c, "family: '%s' must be lowercase letters, digits and dots", f[1]);
	if ((rc = get_str(c, "family", f[1], 0, &r.family)))
		return rc;
	if ((rc = get_uint(c, "mach", f[2], 0xff, 0, &v)))
		return rc;
	if (v == 0 || strncmp(f[2], "0x", 2) != 0)
		return FAIL(c, "mach: '%s' must be a non-zero hex EF_AMDGPU_MACH value (0x..)", f[2]);
	r.mach = (uint8_t)v;
	if ((rc = get_bool(c, "generic", f[3], &r.generic)))
		return rc;
	if (r.generic != is_gen)
		return FAIL(c, "generic: '%s' for '%s' (generic targets end in -generic)", f[3], r.name);
	if (is_none(f[4]))
		r.generic_target = NULL;
	else if ((rc = get_proc(c, "generic_of", f[4], 1, &r.generic_target)))
		return rc;
	if (r.generic && r.generic_target)
		return FAIL(c, "generic_of: a generic target cannot belong to another generic");
	if ((rc = get_uint(c, "generic_version", f[5], 255, 1, &v)))
		return rc;
	if (r.generic && v == 0)
		return FAIL(c, "generic_version: a generic target needs its lowest accepted version (1..255)");
	if (!r.generic && v)
		return FAIL(c, "generic_version: only generic targets have one (use -)");
	r.min_generic_version = (uint8_t)v;
	if ((rc = get_uint(c, "wave", f[6], 64, 0, &v)))
		return rc;
	if (v != 32 && v != 64)
		return FAIL(c, "wave: %u must be 32 or 64", v);
	r.default_wave = (uint8_t)v;
	if ((rc = get_bool(c, "xnack", f[7], &r.xnack_supported)) ||
	    (rc = get_bool(c, "sramecc", f[8], &r.sramecc_supported)))
		return rc;
	if ((rc = get_uint(c, "lds", f[9], 1u << 20, 0, &r.lds_per_workgroup)))
		return rc;
	if (r.lds_per_workgroup == 0)
		return FAIL(c, "lds: must be > 0");
	if ((rc = get_uint(c, "vgprs_w32", f[10], 4096, 1, &r.vgprs_per_simd_w32)) ||
	    (rc = get_uint(c, "vgprs_w64", f[11], 4096, 1, &r.vgprs_per_simd_w64)) ||
	    (rc = get_uint(c, "granule_w32", f[12], 256, 1, &r.vgpr_granule_w32)) ||
	    (rc = get_uint(c, "granule_w64", f[13], 256, 1, &r.vgpr_granule_w64)) ||
	    (rc = get_uint(c, "max_waves", f[14], 32, 0, &r.max_waves_per_simd)))
		return rc;
	if (!r.vgprs_per_simd_w64 || !r.vgpr_granule_w64)
		return FAIL(c, "vgprs_w64/granule_w64: every processor runs wave64; both are required");
	if (!r.vgprs_per_simd_w32 != !r.vgpr_granule_w32)
		return FAIL(c, "vgprs_w32 and granule_w32 must both be given or both be -");
	if (r.default_wave == 32 && !r.vgprs_per_simd_w32)
		return FAIL(c, "wave 32 needs vgprs_w32 and granule_w32");
	if (r.vgprs_per_simd_w64 % r.vgpr_granule_w64 ||
	    (r.vgpr_granule_w32 && r.vgprs_per_simd_w32 % r.vgpr_granule_w32))
		return FAIL(c, "granule must divide the register file size");
	if (r.max_waves_per_simd == 0)
		return FAIL(c, "max_waves: must be > 0");
	if ((rc = get_str(c, "source", f[15], 0, &r.source)))
		return rc;
	return put_row(c->b, RDC_TAB_ISA, &r, (struct rdc_row_origin){ c->file, c->line }, c->d);
}

static int row_compat(struct ctx *c, char **f)
{
	struct rdc_compat_edge r;
	memset(&r, 0, sizeof r);
	uint32_t v;
	int rc;
	if ((rc = get_proc(c, "device", f[0], 0, &r.device)) ||
	    (rc = get_proc(c, "code", f[1], -1, &r.code)))
		return rc;
	if (!strcmp(r.device, r.code))
		return FAIL(c, "an edge from '%s' to itself", r.device);
	if ((rc = get_uint(c, "rank", f[2], 99, 0, &v)))
		return rc;
	if (v == 0)
		return FAIL(c, "rank: must be >= 1 (1 = most preferred)");
	r.rank = v;
	if (!valid_condition(f[3]))
		return FAIL(c, "condition: '%s' (want none, or vgpr-fit, user-sgpr-16, opt-in, point-sample, "
			    "msaa-load, mad-intra-fwd joined by +)", f[3]);
	if ((rc = get_str(c, "condition", f[3], 0, &r.condition)) ||
	    (rc = get_str(c, "source", f[4], 0, &r.source)))
		return rc;
	return put_row(c->b, RDC_TAB_COMPAT, &r, (struct rdc_row_origin){ c->file, c->line }, c->d);
}

static int row_card(struct ctx *c, char **f)
{
	static const char *const kinds[] = { "desktop", "mobile", "apu", "pro", "instinct", NULL };
	struct rdc_card r;
	memset(&r, 0, sizeof r);
	uint32_t v;
	int rc;
	if (strncmp(f[0], "0x", 2) || strlen(f[0]) != 6)
		return FAIL(c, "vendor: '%s' must be 0x followed by 4 hex digits", f[0]);
	if ((rc = get_uint(c, "vendor", f[0], 0xffff, 0, &v)))
		return rc;
	r.vendor = (uint16_t)v;
	if (strncmp(f[1], "0x", 2) || strlen(f[1]) != 6)
		return FAIL(c, "device: '%s' must be 0x followed by 4 hex digits", f[1]);
	if ((rc = get_uint(c, "device", f[1], 0xffff, 0, &v)))
		return rc;
	r.device = (uint16_t)v;
	if (!strcmp(f[2], "*")) {
		r.revision = -1;
	} else {
		if (strncmp(f[2], "0x", 2) || strlen(f[2]) != 4)
			return FAIL(c, "revision: '%s' must be * or 0x followed by 2 hex digits", f[2]);
		if ((rc = get_uint(c, "revision", f[2], 0xff, 0, &v)))
			return rc;
		r.revision = (int16_t)v;
	}
	if ((rc = get_str(c, "name", f[3], 0, &r.name)) ||
	    (rc = get_proc(c, "target", f[4], 0, &r.target)))
		return rc;
	if (!strcmp(f[5], "official"))
		r.status = RDC_STATUS_OFFICIAL;
	else if (!strcmp(f[5], "unofficial"))
		r.status = RDC_STATUS_UNOFFICIAL;
	else if (!strcmp(f[5], "unsupported"))
		r.status = RDC_STATUS_UNSUPPORTED;
	else
		return FAIL(c, "status: '%s' (want official, unofficial or unsupported)", f[5]);
	if ((rc = get_word(c, "kind", f[6], kinds, &r.kind)) ||
	    (rc = get_str(c, "source", f[7], 0, &r.source)))
		return rc;
	return put_row(c->b, RDC_TAB_CARDS, &r, (struct rdc_row_origin){ c->file, c->line }, c->d);
}

static int row_bad(struct ctx *c, char **f)
{
	struct rdc_bad_kernel r;
	memset(&r, 0, sizeof r);
	int rc;
	if (!strcmp(f[0], "*"))
		r.target = "*";
	else if ((rc = get_proc(c, "target", f[0], 0, &r.target)))
		return rc;
	if (!strcmp(f[1], "*"))
		r.code_target = "*";
	else if ((rc = get_proc(c, "code_target", f[1], -1, &r.code_target)))
		return rc;
	if ((rc = get_str(c, "kernel_glob", f[2], 0, &r.kernel_glob)))
		return rc;
	if (strcmp(f[3], "refuse") != 0) {
		if (strncmp(f[3], "fallback:", 9) != 0 || !f[3][9])
			return FAIL(c, "action: '%s' (want refuse or fallback:<kernel name>)", f[3]);
		for (const char *p = f[3] + 9; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '$'))
				return FAIL(c, "action: bad character '%c' in fallback kernel name", *p);
	}
	if ((rc = get_str(c, "action", f[3], 0, &r.action)) ||
	    (rc = get_str(c, "reason", f[4], 0, &r.reason)) ||
	    (rc = get_str(c, "source", f[5], 0, &r.source)))
		return rc;
	return put_row(c->b, RDC_TAB_BAD, &r, (struct rdc_row_origin){ c->file, c->line }, c->d);
}

/* A kernel rule (tables/kernels.tsv, docs/RULES.md); the column syntax is
 * rules_parse.c's.  Targets are checked against isa in rdc_tables_validate. */
static int row_kernel(struct ctx *c, char **f)
{
	struct rdc_kernel_rule r;
	memset(&r, 0, sizeof r);
	char err[160];
	int rc;
	size_t lib_len, sha_off, name_off;
	if ((rc = get_str(c, "pattern", f[0], 0, &r.pattern)))
		return rc;
	if (rdc_rule_parse_scope(f[1], &lib_len, &sha_off, err, sizeof err) ||
	    rdc_rule_parse_runtime(f[3], &r.rt_min, &r.rt_max, err, sizeof err) ||
	    rdc_rule_parse_action(f[4], &r.action, &name_off, err, sizeof err))
		return FAIL(c, "%s", err);
	if ((rc = get_str(c, "scope", f[1], 0, &r.scope)))
		return rc;
	if (lib_len && !(r.scope_lib = pool_strndup(c->b, f[1], lib_len)))
		return rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
	if (sha_off && !(r.scope_sha256 = pool_strndup(c->b, f[1] + sha_off, 64)))
		return rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
	for (const char *p = f[2]; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == ',' || *p == '.' ||
		      *p == '-' || (*p == '*' && !strcmp(f[2], "*"))))
			return FAIL(c, "targets: '%s' (want *, or processors and families joined by ',')",
				    f[2]);
	if (f[2][0] == ',' || f[2][strlen(f[2]) - 1] == ',' || strstr(f[2], ",,"))
		return FAIL(c, "targets: '%s' has an empty entry", f[2]);
	if (!strcmp(f[5], "reviewed"))
		r.provisional = false;
	else if (!strcmp(f[5], "provisional"))
		r.provisional = true;
	else
		return FAIL(c, "status: '%s' (want reviewed or provisional)", f[5]);
	if ((rc = get_str(c, "targets", f[2], 0, &r.targets)) ||
	    (rc = get_str(c, "runtime", f[3], 0, &r.runtime)) ||
	    (rc = get_str(c, "reason", f[6], 0, &r.reason)) ||
	    (rc = get_str(c, "source", f[7], 0, &r.source)))
		return rc;
	if (name_off) {
		const char **arg = r.action == RDC_RULE_PREFER ? &r.prefer : &r.fallback;
		if (!(*arg = pool_strndup(c->b, f[4] + name_off, strlen(f[4] + name_off))))
			return rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
	}
	r.user = true;   /* tablegen does not emit it: compiled rows are built in */
	return put_row(c->b, RDC_TAB_KERNELS, &r, (struct rdc_row_origin){ c->file, c->line }, c->d);
}

/* ---- lines -------------------------------------------------------------- */

static char *trim(char *s)
{
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* Split a line (modified in place) on tabs. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;
	for (;;) {
		char *t = strchr(p, '\t');
		if (t)
			*t = '\0';
		if (n < max)
			f[n] = trim(p);
		n++;
		if (!t)
			break;
		p = t + 1;
	}
	return n;
}

static int is_header(enum rdc_table_kind k, const char *line)
{
	char buf[MAX_LINE];
	size_t l = strlen(line);
	if (l >= sizeof buf)
		return 0;
	memcpy(buf, line, l + 1);
	char *f[MAX_FIELDS];
	size_t n = split(buf, f, MAX_FIELDS);
	if (n != kind_ncols[k])
		return 0;
	const char *p = kind_cols[k];
	for (size_t i = 0; i < n; i++) {
		size_t cl = strcspn(p, "\t");
		if (strlen(f[i]) != cl || strncmp(f[i], p, cl))
			return 0;
		p += cl + (p[cl] == '\t');
	}
	return 1;
}

static int parse_row(struct ctx *c, enum rdc_table_kind k, char *line)
{
	char *f[MAX_FIELDS];
	size_t n = split(line, f, MAX_FIELDS);
	if (n != kind_ncols[k])
		return FAIL(c, "%s row has %zu fields, want %zu (%s)", kind_names[k], n, kind_ncols[k],
			    "columns separated by single tabs");
	for (size_t i = 0; i < n; i++)
		if (!*f[i])
			return FAIL(c, "field %zu is empty (write - for none)", i + 1);
	switch (k) {
	case RDC_TAB_ISA: return row_isa(c, f);
	case RDC_TAB_COMPAT: return row_compat(c, f);
	case RDC_TAB_CARDS: return row_card(c, f);
	case RDC_TAB_KERNELS: return row_kernel(c, f);
	default: return row_bad(c, f);
	}
}

/* Iterate lines; `section` = -1 for the sections format. */
static int parse_text(struct rdc_tables_build *b, int fixed_kind, const char *text, size_t len,
		      const char *file, struct rdc_diag *d)
{
	if (!b || !text)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "tables: NULL argument");
	if (!file)
		file = "<input>";
	/* The file name lives as long as the build (rows point at it). */
	const char *fname = pool_strndup(b, file, strlen(file));
	if (!fname)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
	struct ctx c = { b, fname, 0, d };
	int kind = fixed_kind;
	int want_header = fixed_kind >= 0; /* 1: header required next; 2: header allowed next */
	size_t pos = 0;
	char line[MAX_LINE];
	while (pos < len) {
		size_t e = pos;
		while (e < len && text[e] != '\n')
			e++;
		c.line++;
		size_t l = e - pos;
		if (l >= sizeof line)
			return FAIL(&c, "line longer than %d bytes", MAX_LINE - 1);
		memcpy(line, text + pos, l);
		line[l] = '\0';
		pos = e + (e < len);
		if (memchr(line, '\0', l))
			return FAIL(&c, "NUL byte in text");
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#' || (*s == '\r' && !s[1]))
			continue;
		if (fixed_kind < 0 && *s == '[') {
			char *t = trim(s);
			size_t tl = strlen(t);
			int k;
			for (k = 0; k < RDC_TAB_N; k++)
				if (tl == strlen(kind_names[k]) + 2 && t[tl - 1] == ']' &&
				    !strncmp(t + 1, kind_names[k], tl - 2))
					break;
			if (k == RDC_TAB_N)
				return FAIL(&c, "unknown section '%s' (want [isa], [compat], [cards], [kernels] or [badkernels])",
					    t);
			kind = k;
			want_header = 2;
			continue;
		}
		if (kind < 0)
			return FAIL(&c, "row before any [section] line");
		if (want_header) {
			int hdr = is_header((enum rdc_table_kind)kind, s);
			if (want_header == 1 && !hdr)
				return FAIL(&c, "first line must be the %s header: %s", kind_names[kind],
					    "columns as in tables/README.md");
			want_header = 0;
			if (hdr)
				continue;
		}
		int rc = parse_row(&c, (enum rdc_table_kind)kind, s);
		if (rc)
			return rc;
	}
	if (want_header == 1)
		return rdc_diag_setl(d, RDC_E_FORMAT, fname, c.line ? c.line : 1,
				     "no %s header line", kind_names[kind]);
	return 0;
}

int rdc_tables_parse_tsv(struct rdc_tables_build *b, enum rdc_table_kind kind, const char *text,
			 size_t len, const char *file, struct rdc_diag *d)
{
	if ((unsigned)kind >= RDC_TAB_N)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "tables: bad table kind %d", (int)kind);
	return parse_text(b, (int)kind, text, len, file, d);
}

int rdc_tables_parse_sections(struct rdc_tables_build *b, const char *text, size_t len,
			      const char *file, struct rdc_diag *d)
{
	return parse_text(b, -1, text, len, file, d);
}

/* ---- cross-row validation ----------------------------------------------- */

static const struct rdc_isa *find_isa(const struct rdc_tables *t, const char *name)
{
	for (size_t i = 0; i < t->n_isa; i++)
		if (streq(t->isa[i].name, name))
			return &t->isa[i];
	return NULL;
}

/* Is processor `proc` one of a rule's targets ("*", processors, families)? */
static bool prefer_target_listed(const struct rdc_tables *t, const char *list, const char *proc)
{
	if (!strcmp(list, "*"))
		return true;
	const struct rdc_isa *x = find_isa(t, proc);
	size_t pl = strlen(proc), fl = x && x->family ? strlen(x->family) : 0;
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if ((l == pl && !strncmp(p, proc, l)) || (fl && l == fl && !strncmp(p, x->family, l)))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

#define VFAIL(o, ...) rdc_diag_setl(d, RDC_E_FORMAT, (o).file, (o).line, __VA_ARGS__)

int rdc_tables_validate(const struct rdc_tables_build *b, struct rdc_diag *d)
{
	if (!b)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "tables: NULL argument");
	const struct rdc_tables *t = &b->t;
	for (size_t i = 0; i < t->n_isa; i++) {
		const struct rdc_isa *r = &t->isa[i];
		struct rdc_row_origin o = b->origin[RDC_TAB_ISA][i];
		for (size_t j = 0; j < i; j++)
			if (t->isa[j].mach == r->mach) {
				/* blame the row from the user's file, not the built-in one */
				struct rdc_row_origin oj = b->origin[RDC_TAB_ISA][j];
				int swap = o.line == 0 && oj.line > 0;
				return VFAIL(swap ? oj : o, "mach 0x%03x of %s is already used by %s", r->mach,
					     swap ? t->isa[j].name : r->name, swap ? r->name : t->isa[j].name);
			}
		if (r->generic_target) {
			const struct rdc_isa *g = find_isa(t, r->generic_target);
			if (!g || !g->generic)
				return VFAIL(o, "generic_of: %s names '%s', which is not a generic row of isa",
					     r->name, r->generic_target);
			if (g->default_wave != r->default_wave)
				return VFAIL(o, "%s and its generic %s disagree on the default wave size",
					     r->name, g->name);
		}
	}
	for (size_t i = 0; i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		struct rdc_row_origin o = b->origin[RDC_TAB_COMPAT][i];
		const struct rdc_isa *dv = find_isa(t, e->device), *cd = find_isa(t, e->code);
		if (!dv)
			return VFAIL(o, "device '%s' is not in isa", e->device);
		if (!cd)
			return VFAIL(o, "code '%s' is not in isa", e->code);
		if (dv->generic)
			return VFAIL(o, "device '%s' is a generic target", e->device);
		if (cd->generic ? !streq(dv->generic_target, cd->name)
				: (!dv->generic_target || !streq(dv->generic_target, cd->generic_target)))
			return VFAIL(o, "%s code on %s crosses ISA families (%s vs %s)", e->code, e->device,
				     cd->generic ? cd->name : cd->generic_target ? cd->generic_target : "none",
				     dv->generic_target ? dv->generic_target : "none");
		for (size_t j = 0; j < i; j++)
			if (streq(t->edges[j].device, e->device) && t->edges[j].rank == e->rank) {
				struct rdc_row_origin oj = b->origin[RDC_TAB_COMPAT][j];
				int swap = o.line == 0 && oj.line > 0;
				return VFAIL(swap ? oj : o, "rank %u for device %s is already used by the edge to %s",
					     e->rank, e->device, swap ? e->code : t->edges[j].code);
			}
	}
	for (size_t i = 0; i < t->n_cards; i++) {
		const struct rdc_card *r = &t->cards[i];
		const struct rdc_isa *x = find_isa(t, r->target);
		if (!x || x->generic)
			return VFAIL(b->origin[RDC_TAB_CARDS][i], "target '%s' of %s is not a processor in isa",
				     r->target, r->name);
	}
	for (size_t i = 0; i < t->n_bad; i++) {
		const struct rdc_bad_kernel *r = &t->bad[i];
		struct rdc_row_origin o = b->origin[RDC_TAB_BAD][i];
		if (strcmp(r->target, "*") && !find_isa(t, r->target))
			return VFAIL(o, "target '%s' is not in isa", r->target);
		if (strcmp(r->code_target, "*") && !find_isa(t, r->code_target))
			return VFAIL(o, "code_target '%s' is not in isa", r->code_target);
	}
	for (size_t i = 0; i < t->n_rules; i++) {
		const char *p = t->rules[i].targets;
		if (!strcmp(p, "*"))
			continue;
		while (*p) {
			size_t l = strcspn(p, ","), j;
			for (j = 0; j < t->n_isa; j++) {
				const struct rdc_isa *x = &t->isa[j];
				if ((strlen(x->name) == l && !strncmp(x->name, p, l) && !x->generic) ||
				    (x->family && strlen(x->family) == l && !strncmp(x->family, p, l)))
					break;
			}
			if (j == t->n_isa)
				return VFAIL(b->origin[RDC_TAB_KERNELS][i],
					     "targets: '%.*s' is neither a processor nor a family in isa",
					     (int)l, p);
			p += l + (p[l] == ',');
		}
	}
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (r->action != RDC_RULE_PREFER)
			continue;
		struct rdc_row_origin o = b->origin[RDC_TAB_KERNELS][i];
		if (!r->prefer || !find_isa(t, r->prefer))
			return VFAIL(o, "action: prefer:%s: '%s' is not a processor in isa", r->prefer ? r->prefer : "",
				     r->prefer ? r->prefer : "");
		bool some = false;
		for (size_t e = 0; e < t->n_edges && !some; e++)
			some = streq(t->edges[e].code, r->prefer) &&
			       prefer_target_listed(t, r->targets, t->edges[e].device);
		if (!some)
			return VFAIL(o, "action: prefer:%s: no compat edge lets %s run %s code (compat.tsv); "
				     "the preferred target must be one the row's targets may run",
				     r->prefer, strcmp(r->targets, "*") ? r->targets : "any card", r->prefer);
	}
	return 0;
}

/* ---- file helper -------------------------------------------------------- */

int rdc_tables_read_file(const char *path, char **text, size_t *len, struct rdc_diag *d)
{
	if (!path || !text || !len)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "tables: NULL argument");
	*text = NULL;
	*len = 0;
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, d);
	if (fd < 0)
		return RDC_E_IO;
	struct stat st;
	int e = fstat(fd, &st) != 0 ? errno : 0;
	if (e || st.st_size > (16 << 20)) {
		close(fd);
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: %s", path,
				    e ? strerror(e) : "larger than 16 MiB");
	}
	size_t n = (size_t)st.st_size, got = 0;
	char *buf = malloc(n + 1);
	if (!buf) {
		close(fd);
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
	}
	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int e = errno;
			free(buf);
			close(fd);
			return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: read: %s", path,
					    k == 0 ? "short read" : strerror(e));
		}
		got += (size_t)k;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* ---- tables/features.tsv (include/rdnacompat/features.h) ---------------- */

static const char feat_cols[] = "kind\tname\tclass\ttoken\tprotects\tmembers\tsince\tllvm\tsource";
enum { FEAT_NCOLS = 9, FEAT_MAX_DEPTH = 16, FEAT_MAX_ROWS = 4096 };

static const char *const feat_class_names[] = { NULL,	   "instruction", "capability", "abi",
						"register", "workaround",  "resource",   "target",
						"tuning" };

const char *rdc_features_columns(void)
{
	return feat_cols;
}

struct fpool {
	struct fpool *next;
	char data[];
};

static const char *fdup(struct rdc_features *f, const char *s)
{
	size_t n = strlen(s);
	struct fpool *c = malloc(sizeof *c + n + 1);
	if (!c)
		return NULL;
	memcpy(c->data, s, n + 1);
	c->next = f->pool_;
	f->pool_ = c;
	return c->data;
}

void rdc_features_free(struct rdc_features *f)
{
	if (!f)
		return;
	free(f->feat);
	free(f->list);
	struct fpool *c = f->pool_;
	while (c) {
		struct fpool *n = c->next;
		free(c);
		c = n;
	}
	memset(f, 0, sizeof *f);
}

static bool ident_ok(const char *s, const char *extra)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || (extra && strchr(extra, *p))))
			return false;
	return true;
}

/* "path@hexcommit": the LLVM file and the commit a row was read at. */
static bool llvm_ref_ok(const char *s)
{
	const char *at = strrchr(s, '@');
	if (!at || at == s || strchr(s, ' '))
		return false;
	size_t n = strlen(at + 1);
	if (n < 7 || n > 40)
		return false;
	for (const char *p = at + 1; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

const struct rdc_llvm_feature *rdc_llvm_feature_find(const struct rdc_features *f, const char *name)
{
	if (!f || !name)
		return NULL;
	for (size_t i = 0; i < f->n_feat; i++)
		if (!strcmp(f->feat[i].name, name))
			return &f->feat[i];
	return NULL;
}

static const struct rdc_feat_list *list_find(const struct rdc_features *f, const char *name, size_t n,
					     bool target)
{
	for (size_t i = 0; i < f->n_list; i++)
		if (f->list[i].target == target && strlen(f->list[i].name) == n &&
		    !strncmp(f->list[i].name, name, n))
			return &f->list[i];
	return NULL;
}

const struct rdc_feat_list *rdc_feat_target_find(const struct rdc_features *f, const char *name)
{
	return f && name ? list_find(f, name, strlen(name), true) : NULL;
}

static const struct rdc_llvm_feature *feature_findn(const struct rdc_features *f, const char *name, size_t n)
{
	for (size_t i = 0; i < f->n_feat; i++)
		if (strlen(f->feat[i].name) == n && !strncmp(f->feat[i].name, name, n))
			return &f->feat[i];
	return NULL;
}

#define FFAIL(line, ...) rdc_diag_setl(d, RDC_E_FORMAT, f->file, (line), __VA_ARGS__)

static int feat_row(struct rdc_features *f, char **c, unsigned line, struct rdc_diag *d)
{
	for (int i = 0; i < FEAT_NCOLS; i++)
		if (!*c[i])
			return FFAIL(line, "field %d is empty (write - for none)", i + 1);
	if (!llvm_ref_ok(c[7]))
		return FFAIL(line, "llvm: '%s' must be the LLVM file and the commit it was read at "
			     "(AMDGPU.td@001c38d0)", c[7]);
	const char *since = is_none(c[6]) ? NULL : c[6];
	if (!strcmp(c[0], "feature")) {
		if (!ident_ok(c[1], NULL))
			return FFAIL(line, "name: '%s' must be LLVM's feature name without 'Feature'", c[1]);
		if (rdc_llvm_feature_find(f, c[1]))
			return FFAIL(line, "feature %s is defined twice", c[1]);
		int cls = 0;
		for (int k = 1; k <= RDC_FC_TUNING; k++)
			if (!strcmp(c[2], feat_class_names[k]))
				cls = k;
		if (!cls)
			return FFAIL(line, "class: '%s' (want instruction, capability, abi, register, workaround, "
				     "resource, target or tuning)", c[2]);
		const char *tok = is_none(c[3]) ? NULL : c[3];
		if (tok && cls != RDC_FC_WORKAROUND && cls != RDC_FC_REGISTER)
			return FFAIL(line, "token: only workaround and register features name a condition (use -)");
		if (tok && strcmp(tok, "exempt") && !rdc_compat_token_known(tok, strlen(tok)))
			return FFAIL(line, "token: '%s' is no compat condition token (tables/README.md)", tok);
		if (tok && !strcmp(tok, "opt-in"))
			return FFAIL(line, "token: opt-in is a judgement, not a per-kernel condition");
		if (tok && !strcmp(tok, "exempt") && cls != RDC_FC_WORKAROUND)
			return FFAIL(line, "token: only a workaround can be exempt");
		if (cls == RDC_FC_REGISTER && !tok)
			return FFAIL(line, "token: a register feature needs the condition that checks it");
		if (!is_none(c[4]) && !ident_ok(c[4], "-."))
			return FFAIL(line, "protects: '%s' must be one word (letters, digits, - . _)", c[4]);
		if (!is_none(c[5]) && (cls != RDC_FC_WORKAROUND || !ident_ok(c[5], NULL)))
			return FFAIL(line, "members: only a workaround names the feature it guards ('%s')", c[5]);
		struct rdc_llvm_feature r = { .cls = cls, .line = line };
		if (!(r.name = fdup(f, c[1])) || (tok && !(r.token = fdup(f, tok))) ||
		    (!is_none(c[4]) && !(r.protects = fdup(f, c[4]))) ||
		    (!is_none(c[5]) && !(r.guards = fdup(f, c[5]))) || (since && !(r.since = fdup(f, since))) ||
		    !(r.llvm = fdup(f, c[7])) || !(r.source = fdup(f, c[8])))
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "features: out of memory");
		if (f->n_feat >= FEAT_MAX_ROWS)
			return FFAIL(line, "more than %d features", FEAT_MAX_ROWS);
		struct rdc_llvm_feature *na = realloc(f->feat, (f->n_feat + 1) * sizeof *na);
		if (!na)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "features: out of memory");
		f->feat = na;
		f->feat[f->n_feat++] = r;
		return 0;
	}
	bool target = !strcmp(c[0], "target");
	if (!target && strcmp(c[0], "set"))
		return FFAIL(line, "kind: '%s' (want feature, set or target)", c[0]);
	if (target ? (strncmp(c[1], "gfx", 3) || !ident_ok(c[1], "-")) : !ident_ok(c[1], NULL))
		return FFAIL(line, "name: '%s' is not a %s name", c[1], target ? "processor" : "set");
	if (list_find(f, c[1], strlen(c[1]), target))
		return FFAIL(line, "%s %s is defined twice", c[0], c[1]);
	if (!is_none(c[2]) || !is_none(c[3]) || !is_none(c[4]))
		return FFAIL(line, "class, token and protects are for feature rows (use -)");
	/* members: "@set" or "Feature" or "Feature^tag", joined by "," */
	for (const char *p = c[5];;) {
		size_t l = strcspn(p, ",");
		char item[128];
		if (!l || l >= sizeof item)
			return FFAIL(line, "members: empty or overlong entry in '%s'", c[5]);
		memcpy(item, p, l);
		item[l] = '\0';
		char *hat = strchr(item, '^');
		if (hat)
			*hat = '\0';
		const char *nm = item[0] == '@' ? item + 1 : item;
		if (!ident_ok(nm, NULL) || (hat && (item[0] == '@' || !ident_ok(hat + 1, "#.-"))))
			return FFAIL(line, "members: '%.*s' (want @set, Feature or Feature^tag)", (int)l, p);
		if (!p[l])
			break;
		p += l + 1;
	}
	struct rdc_feat_list r = { .target = target, .line = line };
	if (!(r.name = fdup(f, c[1])) || !(r.members = fdup(f, c[5])) ||
	    (since && !(r.since = fdup(f, since))) || !(r.llvm = fdup(f, c[7])) ||
	    !(r.source = fdup(f, c[8])))
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "features: out of memory");
	if (f->n_list >= FEAT_MAX_ROWS)
		return FFAIL(line, "more than %d sets and targets", FEAT_MAX_ROWS);
	struct rdc_feat_list *na = realloc(f->list, (f->n_list + 1) * sizeof *na);
	if (!na)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "features: out of memory");
	f->list = na;
	f->list[f->n_list++] = r;
	return 0;
}

/* Walk a list's members; `fn` gets each feature with its late tag (or NULL).
 * Checks references and depth (a cycle is deeper than any real nesting). */
typedef int (*feat_visit)(void *ctx, const struct rdc_llvm_feature *ft, const char *late, size_t late_len,
			  const struct rdc_feat_list *set);

static int feat_walk(const struct rdc_features *f, const struct rdc_feat_list *l, int depth,
		     feat_visit fn, void *ctx, struct rdc_diag *d)
{
	if (depth > FEAT_MAX_DEPTH)
		return FFAIL(l->line, "%s: sets nested more than %d deep (a cycle?)", l->name, FEAT_MAX_DEPTH);
	for (const char *p = l->members;;) {
		size_t len = strcspn(p, ",");
		const char *hat = memchr(p, '^', len);
		size_t nl = hat ? (size_t)(hat - p) : len;
		if (*p == '@') {
			const struct rdc_feat_list *s = list_find(f, p + 1, nl - 1, false);
			if (!s)
				return FFAIL(l->line, "%s: no set row '%.*s'", l->name, (int)(nl - 1), p + 1);
			int rc = feat_walk(f, s, depth + 1, fn, ctx, d);
			if (rc)
				return rc;
		} else {
			const struct rdc_llvm_feature *ft = feature_findn(f, p, nl);
			if (!ft)
				return FFAIL(l->line, "%s: no feature row '%.*s'", l->name, (int)nl, p);
			int rc = fn ? fn(ctx, ft, hat ? hat + 1 : NULL, hat ? len - nl - 1 : 0, l) : 0;
			if (rc)
				return rc;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

struct expand_ctx {
	struct rdc_features *f;
	struct rdc_feat_target *t;
	size_t cap;
	struct rdc_diag *d;
	unsigned line;
};

static int expand_one(void *vc, const struct rdc_llvm_feature *ft, const char *late, size_t late_len,
		      const struct rdc_feat_list *set)
{
	struct expand_ctx *c = vc;
	struct rdc_feat_target *t = c->t;
	struct rdc_diag *d = c->d;
	const struct rdc_features *f = c->f;
	if (!set->target) {
		if (!t->commit)
			t->commit = set->llvm;
		else if (strcmp(t->commit, set->llvm))
			return FFAIL(c->line, "%s: its sets were read at %s and at %s (one commit per target)",
				     t->row->name, t->commit, set->llvm);
	}
	char tag[64] = "";
	if (late) {
		if (late_len >= sizeof tag)
			return FFAIL(set->line, "%s: tag too long", set->name);
		memcpy(tag, late, late_len);
		tag[late_len] = '\0';
	}
	for (size_t i = 0; i < t->n; i++)
		if (t->m[i].f == ft) {
			if (t->m[i].late && !late) /* present from the start in another set */
				t->m[i].late = NULL;
			return 0;
		}
	if (t->n == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 64;
		struct rdc_feat_member *nm = realloc(t->m, nc * sizeof *nm);
		if (!nm)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "features: out of memory");
		t->m = nm;
		c->cap = nc;
	}
	const char *lt = NULL;
	if (late && !(lt = fdup(c->f, tag)))
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "features: out of memory");
	t->m[t->n++] = (struct rdc_feat_member){ ft, lt };
	return 0;
}

void rdc_feat_target_free(struct rdc_feat_target *t)
{
	if (!t)
		return;
	free(t->m);
	memset(t, 0, sizeof *t);
}

int rdc_feat_target_expand(const struct rdc_features *f, const char *name, struct rdc_feat_target *out,
			   struct rdc_diag *d)
{
	if (!f || !name || !out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "features: NULL argument");
	memset(out, 0, sizeof *out);
	const struct rdc_feat_list *row = rdc_feat_target_find(f, name);
	if (!row)
		return rdc_diag_set(d, RDC_E_NOTFOUND, RDC_NO_OFFSET, "features: no target row for %s", name);
	out->row = row;
	/* the pool grows with late tags: the features object is logically const */
	struct expand_ctx c = { (struct rdc_features *)f, out, 0, d, row->line };
	int rc = feat_walk(f, row, 0, expand_one, &c, d);
	if (!rc && !out->commit)
		out->commit = row->llvm;
	if (rc)
		rdc_feat_target_free(out);
	return rc;
}

const struct rdc_feat_member *rdc_feat_target_has(const struct rdc_feat_target *t, const char *name)
{
	if (!t || !name)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->m[i].f->name, name))
			return &t->m[i];
	return NULL;
}

int rdc_features_parse(struct rdc_features *f, const char *text, size_t len, const char *file,
		       struct rdc_diag *d)
{
	if (!f || !text)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "features: NULL argument");
	memset(f, 0, sizeof *f);
	if (!(f->file = fdup(f, file ? file : "<features>")))
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "features: out of memory");
	unsigned line = 0;
	bool header = false;
	size_t pos = 0;
	char buf[MAX_LINE];
	while (pos < len) {
		size_t e = pos;
		while (e < len && text[e] != '\n')
			e++;
		line++;
		size_t l = e - pos;
		if (l >= sizeof buf)
			return FFAIL(line, "line longer than %d bytes", MAX_LINE - 1);
		memcpy(buf, text + pos, l);
		buf[l] = '\0';
		pos = e + (e < len);
		if (memchr(buf, '\0', l))
			return FFAIL(line, "NUL byte in text");
		char *s = buf;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#' || (*s == '\r' && !s[1]))
			continue;
		char *c[MAX_FIELDS];
		size_t n = split(s, c, MAX_FIELDS);
		if (!header) {
			bool ok = n == FEAT_NCOLS;
			const char *p = feat_cols;
			for (size_t i = 0; ok && i < n; i++) {
				size_t cl = strcspn(p, "\t");
				ok = strlen(c[i]) == cl && !strncmp(c[i], p, cl);
				p += cl + (p[cl] == '\t');
			}
			if (!ok)
				return FFAIL(line, "first line must be the features header: %s", "columns as in docs/TABLES.md");
			header = true;
			continue;
		}
		if (n != FEAT_NCOLS)
			return FFAIL(line, "features row has %zu fields, want %d (columns separated by single tabs)",
				     n, FEAT_NCOLS);
		int rc = feat_row(f, c, line, d);
		if (rc)
			return rc;
	}
	if (!header)
		return FFAIL(line ? line : 1, "no features header line");
	for (size_t i = 0; i < f->n_feat; i++) {
		const struct rdc_llvm_feature *ft = &f->feat[i];
		if (ft->guards) {
			const struct rdc_llvm_feature *g = rdc_llvm_feature_find(f, ft->guards);
			if (!g || (g->cls != RDC_FC_INSTRUCTION && g->cls != RDC_FC_CAPABILITY))
				return FFAIL(ft->line, "%s guards '%s', which is no instruction feature row", ft->name,
					     ft->guards);
		}
	}
	for (size_t i = 0; i < f->n_list; i++) {
		int rc;
		if (f->list[i].target) {
			struct rdc_feat_target t;
			rc = rdc_feat_target_expand(f, f->list[i].name, &t, d);
			rdc_feat_target_free(&t);
		} else {
			rc = feat_walk(f, &f->list[i], 0, NULL, NULL, d);
		}
		if (rc)
			return rc;
	}
	return 0;
}
