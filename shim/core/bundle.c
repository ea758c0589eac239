/* SPDX-License-Identifier: MIT */
/*
 * bundle.c — reading clang offload bundles: the plain
 * "__CLANG_OFFLOAD_BUNDLE__" layout (zero-copy), the dispatch to the CCOB
 * code in bundle_ccob.c, the extent that __hipRegisterFatBinary's hook needs,
 * and the walk over a `.hip_fatbin` region of bundles back to back.
 *
 * Untrusted input: every count, offset and size is checked against `avail`
 * with overflow-safe arithmetic before it is used; errors say what and at
 * which byte.  Pure: no I/O, no globals; allocates only the entry array.
 */
#include "rdnacompat/bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle_internal.h"

bool rdc_is_bundle(const void *p, uint64_t avail)
{
	if (!p)
		return false;
	if (avail >= RDC_BUNDLE_MAGIC_LEN && memcmp(p, RDC_BUNDLE_MAGIC, RDC_BUNDLE_MAGIC_LEN) == 0)
		return true;
	return rdc_is_ccob(p, avail);
}

bool rdc_is_ccob(const void *p, uint64_t avail)
{
	return p && avail >= RDC_CCOB_MAGIC_LEN && memcmp(p, RDC_CCOB_MAGIC, RDC_CCOB_MAGIC_LEN) == 0;
}

/* Where an error inside a bundle is reported: the real offset for input
 * bytes, the CCOB start (0) for decompressed bytes. */
static uint64_t where(const char *ctx, uint64_t off)
{
	return ctx ? 0 : off;
}

/* Prefix " (decompressed byte N)" style context; returns "" for input. */
static const char *ctxs(const char *ctx, uint64_t off, char *buf, size_t n)
{
	if (!ctx)
		return "";
	snprintf(buf, n, " (%s byte %llu)", ctx, (unsigned long long)off);
	return buf;
}

/* One pass over the entry table: validates the table itself and, when `e`
 * is not NULL, fills it.  Returns the end of the table in *table_end. */
static int walk_table(const uint8_t *p, uint64_t avail, uint64_t n, const char *ctx,
		      struct rdc_bundle_entry *e, uint64_t *table_end, struct rdc_diag *d)
{
	char cb[64];
	uint64_t off = RDC_BUNDLE_HDR_LEN;
	for (uint64_t i = 0; i < n; i++) {
		if (!rdc_in_bounds(off, RDC_BUNDLE_DESC_LEN, avail))
			return rdc_diag_set(d, RDC_E_TRUNCATED, where(ctx, off),
					    "bundle entry %llu of %llu: its 24-byte descriptor needs "
					    "bytes up to %llu but the bundle has %llu%s",
					    (unsigned long long)i, (unsigned long long)n,
					    (unsigned long long)off + RDC_BUNDLE_DESC_LEN,
					    (unsigned long long)avail, ctxs(ctx, off, cb, sizeof cb));
		uint64_t id_len = rdc_ld64(p + off + 16);
		if (id_len == 0)
			return rdc_diag_set(d, RDC_E_FORMAT, where(ctx, off + 16),
					    "bundle entry %llu has an empty id%s",
					    (unsigned long long)i, ctxs(ctx, off + 16, cb, sizeof cb));
		if (!rdc_in_bounds(off + RDC_BUNDLE_DESC_LEN, id_len, avail))
			return rdc_diag_set(d, RDC_E_RANGE, where(ctx, off + 16),
					    "bundle entry %llu: id length %llu runs past the end of the "
					    "bundle (%llu bytes)%s",
					    (unsigned long long)i, (unsigned long long)id_len,
					    (unsigned long long)avail, ctxs(ctx, off + 16, cb, sizeof cb));
		if (e) {
			e[i].offset = rdc_ld64(p + off);
			e[i].size = rdc_ld64(p + off + 8);
			e[i].id = (const char *)p + off + RDC_BUNDLE_DESC_LEN;
			e[i].id_len = (size_t)id_len;
		}
		off += RDC_BUNDLE_DESC_LEN + id_len;
	}
	*table_end = off;
	return 0;
}

/* Entry data must lie inside the bundle and, when non-empty, after the
 * table.  `desc_off` is where entry i's descriptor starts (for messages). */
static int check_entry(uint64_t i, uint64_t eoff, uint64_t esize, const char *id, size_t id_len,
		       uint64_t desc_off, uint64_t table_end, uint64_t avail, const char *ctx,
		       struct rdc_diag *d)
{
	char cb[64];
	int shown = id_len > 80 ? 80 : (int)id_len;
	if (!rdc_in_bounds(eoff, esize, avail)) {
		bool ovf = esize > UINT64_MAX - eoff;
		return rdc_diag_set(d, RDC_E_RANGE, where(ctx, desc_off),
				    "bundle entry %llu (%.*s): offset %llu + size %llu %s the "
				    "bundle's %llu bytes%s",
				    (unsigned long long)i, shown, id, (unsigned long long)eoff,
				    (unsigned long long)esize, ovf ? "overflows 64 bits, past" : "ends past",
				    (unsigned long long)avail, ctxs(ctx, desc_off, cb, sizeof cb));
	}
	if (esize > 0 && eoff < table_end)
		return rdc_diag_set(d, RDC_E_RANGE, where(ctx, desc_off),
				    "bundle entry %llu (%.*s): data at offset %llu overlaps the "
				    "bundle header, which ends at %llu%s",
				    (unsigned long long)i, shown, id, (unsigned long long)eoff,
				    (unsigned long long)table_end, ctxs(ctx, desc_off, cb, sizeof cb));
	return 0;
}

/* The magic, the entry count, and one validating pass over the entry table
 * (walk_table), which ends at *table_end. */
static int read_header(const uint8_t *p, uint64_t avail, const char *ctx, uint64_t *n,
		       uint64_t *table_end, struct rdc_diag *d)
{
	char cb[64];
	if (avail < RDC_BUNDLE_MAGIC_LEN || memcmp(p, RDC_BUNDLE_MAGIC, RDC_BUNDLE_MAGIC_LEN) != 0)
		return rdc_diag_set(d, avail < RDC_BUNDLE_MAGIC_LEN ? RDC_E_TRUNCATED : RDC_E_FORMAT,
				    where(ctx, 0), "no \"%s\" magic (%llu bytes available)%s",
				    RDC_BUNDLE_MAGIC, (unsigned long long)avail, ctxs(ctx, 0, cb, sizeof cb));
	if (avail < RDC_BUNDLE_HDR_LEN)
		return rdc_diag_set(d, RDC_E_TRUNCATED, where(ctx, 24),
				    "bundle ends inside its entry count (%llu bytes available)%s",
				    (unsigned long long)avail, ctxs(ctx, 24, cb, sizeof cb));
	*n = rdc_ld64(p + 24);
	/* Each entry needs a 24-byte descriptor and at least one id byte. */
	uint64_t room = (avail - RDC_BUNDLE_HDR_LEN) / (RDC_BUNDLE_DESC_LEN + 1);
	if (*n > room)
		return rdc_diag_set(d, RDC_E_RANGE, where(ctx, 24),
				    "bundle claims %llu entries but its %llu bytes hold at most %llu "
				    "entry descriptors%s",
				    (unsigned long long)*n, (unsigned long long)avail,
				    (unsigned long long)room, ctxs(ctx, 24, cb, sizeof cb));
	return walk_table(p, avail, *n, ctx, NULL, table_end, d);
}

/* Extent of a plain bundle, headers only. */
static int extent_plain(const uint8_t *p, uint64_t avail, uint64_t *extent, struct rdc_diag *d)
{
	uint64_t n, table_end;
	int rc = read_header(p, avail, NULL, &n, &table_end, d);
	if (rc)
		return rc;
	uint64_t ext = table_end, off = RDC_BUNDLE_HDR_LEN;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t eoff = rdc_ld64(p + off), esize = rdc_ld64(p + off + 8);
		uint64_t id_len = rdc_ld64(p + off + 16);
		rc = check_entry(i, eoff, esize, (const char *)p + off + RDC_BUNDLE_DESC_LEN,
				 (size_t)id_len, off, table_end, avail, NULL, d);
		if (rc)
			return rc;
		if (eoff + esize > ext)
			ext = eoff + esize;
		off += RDC_BUNDLE_DESC_LEN + id_len;
	}
	*extent = ext;
	return 0;
}

static int cmp_by_offset(const void *a, const void *b)
{
	const struct rdc_bundle_entry *x = *(const struct rdc_bundle_entry *const *)a;
	const struct rdc_bundle_entry *y = *(const struct rdc_bundle_entry *const *)b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x < y ? -1 : (x > y);
}

/* Non-empty entries must not share bytes.  O(n log n). */
static int check_overlaps(struct rdc_bundle_entry *e, size_t n, const char *ctx,
			  struct rdc_diag *d)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += e[i].size > 0;
	if (m < 2)
		return 0;
	struct rdc_bundle_entry **v = malloc(m * sizeof *v);
	if (!v)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory sorting %zu entries", m);
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (e[i].size > 0)
			v[m++] = &e[i];
	qsort(v, m, sizeof *v, cmp_by_offset);
	int rc = 0;
	for (size_t i = 0; i + 1 < m; i++) {
		if (v[i]->offset + v[i]->size > v[i + 1]->offset) {
			char cb[64];
			size_t a = (size_t)(v[i] - e), b = (size_t)(v[i + 1] - e);
			rc = rdc_diag_set(d, RDC_E_RANGE, where(ctx, 24),
					  "bundle entries %zu [%llu, +%llu) and %zu [%llu, +%llu) "
					  "overlap%s",
					  a, (unsigned long long)v[i]->offset,
					  (unsigned long long)v[i]->size, b,
					  (unsigned long long)v[i + 1]->offset,
					  (unsigned long long)v[i + 1]->size, ctxs(ctx, 24, cb, sizeof cb));
			break;
		}
	}
	free(v);
	return rc;
}

int rdc_bundle_parse_plain_(const uint8_t *p, uint64_t avail, uint64_t whole, const char *ctx,
			    struct rdc_bundle *b, struct rdc_diag *d)
{
	uint64_t n, table_end;
	int rc = read_header(p, avail, ctx, &n, &table_end, d);
	if (rc)
		return rc;
	struct rdc_bundle_entry *e = NULL;
	if (n > 0) {
		if (n > SIZE_MAX / sizeof *e)
			return rdc_diag_set(d, RDC_E_NOMEM, where(ctx, 24),
					    "%llu entries do not fit in memory", (unsigned long long)n);
		e = calloc((size_t)n, sizeof *e);
		if (!e)
			return rdc_diag_set(d, RDC_E_NOMEM, where(ctx, 24),
					    "out of memory for %llu bundle entries", (unsigned long long)n);
		walk_table(p, avail, n, ctx, e, &table_end, NULL);
	}
	uint64_t ext = table_end, off = RDC_BUNDLE_HDR_LEN;
	for (uint64_t i = 0; i < n; i++) {
		rc = check_entry(i, e[i].offset, e[i].size, e[i].id, e[i].id_len, off, table_end,
				 whole, ctx, d);
		if (rc)
			goto fail;
		if (e[i].offset + e[i].size > ext)
			ext = e[i].offset + e[i].size;
		e[i].data = e[i].size && whole == avail ? p + e[i].offset : NULL;
		if (rdc_bundle_id_parse(e[i].id, e[i].id_len, &e[i].parsed, NULL) != 0)
			memset(&e[i].parsed, 0, sizeof e[i].parsed);
		off += RDC_BUNDLE_DESC_LEN + e[i].id_len;
	}
	rc = check_overlaps(e, (size_t)n, ctx, d);
	if (rc)
		goto fail;
	b->bytes = p;
	b->size = avail;
	b->n_entries = (size_t)n;
	b->entries = e;
	if (!ctx)
		b->extent = ext;
	return 0;
fail:
	free(e);
	return rc;
}

static int parse(const void *p, uint64_t avail, bool check_hash, struct rdc_bundle *b,
		 struct rdc_diag *d)
{
	if (!b)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no bundle to fill");
	memset(b, 0, sizeof *b);
	b->method = RDC_COMP_NONE;
	if (!p)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no input");
	const uint8_t *u = p;
	int rc;
	if (avail >= RDC_CCOB_MAGIC_LEN && memcmp(u, RDC_CCOB_MAGIC, RDC_CCOB_MAGIC_LEN) == 0)
		rc = rdc_bundle_parse_ccob_(u, avail, check_hash, b, d);
	else
		rc = rdc_bundle_parse_plain_(u, avail, avail, NULL, b, d);
	if (rc) {
		rdc_bundle_free(b);
		return rc;
	}
	/* A plain bundle's bytes are exactly its extent. */
	if (!b->compressed)
		b->size = b->extent;
	return 0;
}

int rdc_bundle_parse(const void *p, uint64_t avail, struct rdc_bundle *b, struct rdc_diag *d)
{
	return parse(p, avail, true, b, d);
}

int rdc_bundle_parse_as_runtime(const void *p, uint64_t avail, struct rdc_bundle *b,
				struct rdc_diag *d)
{
	return parse(p, avail, false, b, d);
}

int rdc_bundle_parse_table(const void *p, uint64_t avail, struct rdc_bundle *b,
			   struct rdc_diag *d)
{
	if (!b || !p || avail < RDC_CCOB_MAGIC_LEN || memcmp(p, RDC_CCOB_MAGIC, RDC_CCOB_MAGIC_LEN))
		return parse(p, avail, false, b, d);
	memset(b, 0, sizeof *b);
	b->method = RDC_COMP_NONE;
	int rc = rdc_bundle_parse_ccob_table_(p, avail, b, d);
	if (rc)
		rdc_bundle_free(b);
	return rc;
}

int rdc_bundle_extent(const void *p, uint64_t avail, uint64_t *extent, struct rdc_diag *d)
{
	if (!p || !extent)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no input or no output");
	const uint8_t *u = p;
	if (avail >= RDC_CCOB_MAGIC_LEN && memcmp(u, RDC_CCOB_MAGIC, RDC_CCOB_MAGIC_LEN) == 0)
		return rdc_bundle_extent_ccob_(u, avail, extent, d);
	return extent_plain(u, avail, extent, d);
}

void rdc_bundle_free(struct rdc_bundle *b)
{
	if (!b)
		return;
	free(b->entries);
	free(b->owned_);
	memset(b, 0, sizeof *b);
	b->method = RDC_COMP_NONE;
}

long rdc_bundle_find(const struct rdc_bundle *b, const char *id, size_t len)
{
	if (!b || !id)
		return -1;
	for (size_t i = 0; i < b->n_entries; i++)
		if (b->entries[i].id_len == len && memcmp(b->entries[i].id, id, len) == 0)
			return (long)i;
	return -1;
}

/* Re-home a diag from a bundle-relative report to the region. */
static void rebase_diag(struct rdc_diag *d, size_t index, uint64_t base)
{
	if (!d)
		return;
	char msg[sizeof d->msg];
	uint64_t inner = d->offset;
	/* Drop the "at byte N: " prefix that rdc_diag_set wrote. */
	const char *body = d->msg;
	if (inner != RDC_NO_OFFSET) {
		const char *colon = strstr(d->msg, ": ");
		if (colon)
			body = colon + 2;
	}
	int k = snprintf(msg, sizeof msg, "bundle %zu (region offset %llu): ", index,
			 (unsigned long long)base);
	size_t used = k < 0 ? 0 : (size_t)k >= sizeof msg ? sizeof msg - 1 : (size_t)k;
	size_t blen = strlen(body);
	if (blen > sizeof msg - 1 - used)
		blen = sizeof msg - 1 - used;
	memmove(msg + used, body, blen);
	msg[used + blen] = '\0';
	uint64_t off = inner == RDC_NO_OFFSET ? base : base + inner;
	rdc_diag_set(d, d->code, off, "%s", msg);
}

int rdc_bundle_scan(const void *region, uint64_t size, rdc_bundle_cb cb, void *arg,
		    struct rdc_diag *d)
{
	if (!region || !cb)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no region or no callback");
	const uint8_t *r = region;
	uint64_t off = 0;
	size_t idx = 0;
	for (;;) {
		while (off < size && r[off] == 0)
			off++;
		if (off >= size)
			return 0;
		if (!rdc_is_bundle(r + off, size - off))
			return rdc_diag_set(d, RDC_E_FORMAT, off,
					    "expected bundle %zu (a \"%s\" or \"CCOB\" magic) after "
					    "zero padding, found byte 0x%02x",
					    idx, RDC_BUNDLE_MAGIC, r[off]);
		struct rdc_bundle b;
		int rc = rdc_bundle_parse(r + off, size - off, &b, d);
		if (rc) {
			rebase_diag(d, idx, off);
			return rc;
		}
		rc = cb(idx, off, &b, arg);
		uint64_t ext = b.extent;
		rdc_bundle_free(&b);
		if (rc)
			return rc;
		off += ext;
		idx++;
	}
}
