/* SPDX-License-Identifier: MIT */
/*
 * kpack.c — reading a `.kpack` archive: the 16-byte header, the MessagePack
 * TOC at its end and the index of its blob (include/rdnacompat/kpack.h).
 *
 * Sections: string pool · header · TOC fields · blob index (none, zstd) ·
 * entry lookup.
 *
 * What librocm_kpack reads (ROCm/rocm-kpack@e3483286 runtime/src/
 * archive.cpp, toc_parser.cpp, compression.cpp) is what is checked here,
 * with the same limits (zstd blob <= 4 GiB, <= 2^20 frames); this reader is
 * stricter in one way: every entry's ordinal must name a blob and every
 * blob must lie inside the file, so a listing never shows what cannot be
 * extracted.  MessagePack goes through the size pre-check of
 * codeobj_msgpack_bounds.c before msgpack-c allocates anything.
 */
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"
#include "rdnacompat/kpack.h"

/* ---- string pool ----------------------------------------------------------- */
struct owned {
	char **strs;
	size_t n, cap;
	const char **arches;
};

static const char *pool_str(struct owned *o, const char *s, size_t len)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 32;
		char **v = realloc(o->strs, cap * sizeof *v);
		if (!v)
			return NULL;
		o->strs = v;
		o->cap = cap;
	}
	char *c = malloc(len + 1);
	if (!c)
		return NULL;
	memcpy(c, s, len);
	c[len] = 0;
	o->strs[o->n++] = c;
	return c;
}

void rdc_kpack_free(struct rdc_kpack *k)
{
	if (!k)
		return;
	struct owned *o = k->owned_;
	if (o) {
		for (size_t i = 0; i < o->n; i++)
			free(o->strs[i]);
		free(o->strs);
		free(o->arches);
		free(o);
	}
	free(k->entries);
	memset(k, 0, sizeof *k);
}

bool rdc_is_kpack(const void *p, uint64_t n)
{
	return p && n >= 4 && memcmp(p, RDC_KPACK_MAGIC, 4) == 0;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* ---- TOC fields -------------------------------------------------------------- */
struct ctx {
	struct rdc_kpack *k;
	struct owned *o;
	const uint8_t *p;
	uint64_t n;
	struct rdc_diag *d;
	/* blobs (scheme none) before the index is built */
	const msgpack_object *blobs;
	const msgpack_object *scheme;
	bool have_zoff, have_zsize;
};

static bool key_is(const msgpack_object *k, const char *s)
{
	size_t l = strlen(s);
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == l && memcmp(k->via.str.ptr, s, l) == 0;
}

static const char *str_of(struct ctx *c, const msgpack_object *v, const char *what)
{
	if (v->type != MSGPACK_OBJECT_STR) {
		rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset, "kpack TOC: %s is not a string (type %d)",
			     what, (int)v->type);
		return NULL;
	}
	const char *s = pool_str(c->o, v->via.str.ptr, v->via.str.size);
	if (!s)
		rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack TOC: out of memory");
	return s;
}

static int uint_of(struct ctx *c, const msgpack_object *v, const char *what, uint64_t *out)
{
	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
				    "kpack TOC: %s is not a non-negative integer (type %d)", what, (int)v->type);
	*out = v->via.u64;
	return 0;
}

static int read_arches(struct ctx *c, const msgpack_object *v)
{
	if (v->type != MSGPACK_OBJECT_ARRAY)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
				    "kpack TOC: gfx_arches is not an array (type %d)", (int)v->type);
	size_t n = v->via.array.size;
	c->o->arches = calloc(n ? n : 1, sizeof *c->o->arches);
	if (!c->o->arches)
		return rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack TOC: out of memory");
	for (size_t i = 0; i < n; i++)
		if (!(c->o->arches[i] = str_of(c, &v->via.array.ptr[i], "a gfx_arches element")))
			return c->d ? c->d->code : RDC_E_FORMAT;
	c->k->arches = c->o->arches;
	c->k->n_arches = n;
	return 0;
}

static int read_entry(struct ctx *c, const char *key, const char *arch, const msgpack_object *m,
		      struct rdc_kpack_entry *e)
{
	if (m->type != MSGPACK_OBJECT_MAP)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
				    "kpack TOC: toc[%s][%s] is not a map", key, arch);
	memset(e, 0, sizeof *e);
	e->key = key;
	e->arch = arch;
	e->type = "";
	bool have_ord = false;
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key, *v = &m->via.map.ptr[i].val;
		uint64_t u = 0;
		int rc;
		if (key_is(k, "ordinal")) {
			if ((rc = uint_of(c, v, "an entry's ordinal", &u)) != 0)
				return rc;
			if (u > UINT32_MAX)
				return rdc_diag_set(c->d, RDC_E_RANGE, c->k->toc_offset,
						    "kpack TOC: toc[%s][%s] ordinal %llu exceeds 32 bits", key, arch,
						    (unsigned long long)u);
			e->ordinal = (uint32_t)u;
			have_ord = true;
		} else if (key_is(k, "original_size")) {
			if ((rc = uint_of(c, v, "an entry's original_size", &e->original_size)) != 0)
				return rc;
		} else if (key_is(k, "type")) {
			if (!(e->type = str_of(c, v, "an entry's type")))
				return c->d ? c->d->code : RDC_E_FORMAT;
		} else if (key_is(k, "metadata") && v->type == MSGPACK_OBJECT_MAP) {
			for (uint32_t j = 0; j < v->via.map.size; j++)
				if (key_is(&v->via.map.ptr[j].key, "target") &&
				    v->via.map.ptr[j].val.type == MSGPACK_OBJECT_STR &&
				    !(e->target = str_of(c, &v->via.map.ptr[j].val, "metadata.target")))
					return c->d ? c->d->code : RDC_E_NOMEM;
		}
	}
	if (!have_ord)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
				    "kpack TOC: toc[%s][%s] has no ordinal", key, arch);
	return 0;
}

static int read_toc(struct ctx *c, const msgpack_object *v)
{
	if (v->type != MSGPACK_OBJECT_MAP)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset, "kpack TOC: toc is not a map");
	size_t total = 0;
	for (uint32_t i = 0; i < v->via.map.size; i++) {
		const msgpack_object *a = &v->via.map.ptr[i].val;
		if (a->type != MSGPACK_OBJECT_MAP)
			return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
					    "kpack TOC: toc entry %u is not a map of architectures", i);
		total += a->via.map.size;
	}
	c->k->entries = calloc(total ? total : 1, sizeof *c->k->entries);
	if (!c->k->entries)
		return rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack TOC: out of memory");
	for (uint32_t i = 0; i < v->via.map.size; i++) {
		const char *key = str_of(c, &v->via.map.ptr[i].key, "a toc key");
		if (!key)
			return c->d ? c->d->code : RDC_E_FORMAT;
		const msgpack_object *a = &v->via.map.ptr[i].val;
		for (uint32_t j = 0; j < a->via.map.size; j++) {
			const char *arch = str_of(c, &a->via.map.ptr[j].key, "a toc architecture");
			if (!arch)
				return c->d ? c->d->code : RDC_E_FORMAT;
			int rc = read_entry(c, key, arch, &a->via.map.ptr[j].val,
					    &c->k->entries[c->k->n_entries]);
			if (rc != 0)
				return rc;
			c->k->n_entries++;
		}
		c->k->n_keys++;
	}
	return 0;
}

static int read_root(struct ctx *c, const msgpack_object *root)
{
	if (root->type != MSGPACK_OBJECT_MAP)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset, "kpack TOC is not a map (type %d)",
				    (int)root->type);
	const msgpack_object *toc = NULL, *arches = NULL;
	c->k->group_name = "";
	c->k->arch_family = "";
	for (uint32_t i = 0; i < root->via.map.size; i++) {
		const msgpack_object *k = &root->via.map.ptr[i].key, *v = &root->via.map.ptr[i].val;
		int rc = 0;
		if (key_is(k, "group_name")) {
			if (!(c->k->group_name = str_of(c, v, "group_name")))
				return c->d ? c->d->code : RDC_E_FORMAT;
		} else if (key_is(k, "gfx_arch_family")) {
			if (!(c->k->arch_family = str_of(c, v, "gfx_arch_family")))
				return c->d ? c->d->code : RDC_E_FORMAT;
		} else if (key_is(k, "gfx_arches")) {
			arches = v;
		} else if (key_is(k, "toc")) {
			toc = v;
		} else if (key_is(k, "compression_scheme")) {
			c->scheme = v;
		} else if (key_is(k, "blobs")) {
			c->blobs = v;
		} else if (key_is(k, "zstd_offset")) {
			rc = uint_of(c, v, "zstd_offset", &c->k->blob_offset);
			c->have_zoff = true;
		} else if (key_is(k, "zstd_size")) {
			rc = uint_of(c, v, "zstd_size", &c->k->blob_size);
			c->have_zsize = true;
		}
		if (rc != 0)
			return rc;
	}
	if (!arches || !toc || !c->scheme)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
				    "kpack TOC lacks %s", !arches ? "gfx_arches" : !toc ? "toc" : "compression_scheme");
	int rc = read_arches(c, arches);
	if (rc == 0)
		rc = read_toc(c, toc);
	return rc;
}

/* ---- blob index ------------------------------------------------------------------ */
static int index_none(struct ctx *c)
{
	if (!c->blobs || c->blobs->type != MSGPACK_OBJECT_ARRAY)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
				    "kpack TOC: scheme \"none\" without a blobs array");
	const msgpack_object_array *a = &c->blobs->via.array;
	c->k->n_blobs = a->size;
	for (size_t i = 0; i < c->k->n_entries; i++) {
		struct rdc_kpack_entry *e = &c->k->entries[i];
		if (e->ordinal >= a->size)
			return rdc_diag_set(c->d, RDC_E_RANGE, c->k->toc_offset,
					    "kpack: toc[%s][%s] ordinal %u has no blob (%u blobs)", e->key,
					    e->arch, e->ordinal, a->size);
		const msgpack_object *b = &a->ptr[e->ordinal];
		if (b->type != MSGPACK_OBJECT_MAP)
			return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
					    "kpack TOC: blob %u is not a map", e->ordinal);
		bool ho = false, hs = false;
		for (uint32_t j = 0; j < b->via.map.size; j++) {
			int rc = 0;
			if (key_is(&b->via.map.ptr[j].key, "offset"))
				rc = uint_of(c, &b->via.map.ptr[j].val, "a blob offset", &e->offset), ho = true;
			else if (key_is(&b->via.map.ptr[j].key, "size"))
				rc = uint_of(c, &b->via.map.ptr[j].val, "a blob size", &e->size), hs = true;
			if (rc != 0)
				return rc;
		}
		if (!ho || !hs)
			return rdc_diag_set(c->d, RDC_E_FORMAT, c->k->toc_offset,
					    "kpack TOC: blob %u lacks %s", e->ordinal, ho ? "size" : "offset");
		if (!rdc_in_bounds(e->offset, e->size, c->n))
			return rdc_diag_set(c->d, RDC_E_RANGE, e->offset,
					    "kpack: blob %u (offset %llu, %llu bytes) lies outside the %llu-byte file",
					    e->ordinal, (unsigned long long)e->offset, (unsigned long long)e->size,
					    (unsigned long long)c->n);
	}
	return 0;
}

static int index_zstd(struct ctx *c)
{
	struct rdc_kpack *k = c->k;
	if (!c->have_zoff || !c->have_zsize)
		return rdc_diag_set(c->d, RDC_E_FORMAT, k->toc_offset,
				    "kpack TOC: scheme \"zstd-per-kernel\" without zstd_offset/zstd_size");
	if (k->blob_size > RDC_KPACK_MAX_ZSTD_BLOB)
		return rdc_diag_set(c->d, RDC_E_RANGE, k->blob_offset,
				    "kpack: zstd blob of %llu bytes exceeds the 4 GiB limit",
				    (unsigned long long)k->blob_size);
	if (!rdc_in_bounds(k->blob_offset, k->blob_size, c->n))
		return rdc_diag_set(c->d, RDC_E_RANGE, k->blob_offset,
				    "kpack: zstd blob (offset %llu, %llu bytes) lies outside the %llu-byte file",
				    (unsigned long long)k->blob_offset, (unsigned long long)k->blob_size,
				    (unsigned long long)c->n);
	if (k->blob_size < 4)
		return rdc_diag_set(c->d, RDC_E_TRUNCATED, k->blob_offset,
				    "kpack: zstd blob of %llu bytes has no frame count",
				    (unsigned long long)k->blob_size);
	const uint8_t *b = c->p + k->blob_offset;
	uint32_t count = le32(b);
	if (count > RDC_KPACK_MAX_KERNELS || (uint64_t)count * 4 > k->blob_size - 4)
		return rdc_diag_set(c->d, RDC_E_RANGE, k->blob_offset,
				    "kpack: zstd blob declares %u frames (limit %u, room for %llu)", count,
				    RDC_KPACK_MAX_KERNELS, (unsigned long long)((k->blob_size - 4) / 4));
	uint64_t *off = calloc(count ? count : 1, 2 * sizeof *off);
	if (!off)
		return rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack: out of memory");
	uint64_t pos = 4;
	int rc = 0;
	for (uint32_t i = 0; i < count && rc == 0; i++) {
		if (!rdc_in_bounds(pos, 4, k->blob_size)) {
			rc = rdc_diag_set(c->d, RDC_E_TRUNCATED, k->blob_offset + pos,
					  "kpack: zstd blob ends before frame %u's size", i);
			break;
		}
		uint32_t fs = le32(b + pos);
		pos += 4;
		if (!rdc_in_bounds(pos, fs, k->blob_size)) {
			rc = rdc_diag_set(c->d, RDC_E_RANGE, k->blob_offset + pos,
					  "kpack: zstd frame %u (%u bytes) runs past the blob's end", i, fs);
			break;
		}
		off[2 * i] = k->blob_offset + pos;
		off[2 * i + 1] = fs;
		pos += fs;
	}
	k->n_blobs = count;
	for (size_t i = 0; rc == 0 && i < k->n_entries; i++) {
		struct rdc_kpack_entry *e = &k->entries[i];
		if (e->ordinal >= count)
			rc = rdc_diag_set(c->d, RDC_E_RANGE, k->toc_offset,
					  "kpack: toc[%s][%s] ordinal %u has no frame (%u frames)", e->key,
					  e->arch, e->ordinal, count);
		else {
			e->offset = off[2 * e->ordinal];
			e->size = off[2 * e->ordinal + 1];
		}
	}
	free(off);
	return rc;
}

int rdc_kpack_parse(const void *p, uint64_t n, struct rdc_kpack *k, struct rdc_diag *d)
{
	if (!k)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "kpack: no output");
	memset(k, 0, sizeof *k);
	if (!p)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "kpack: no input");
	if (n < 16)
		return rdc_diag_set(d, n >= 4 && rdc_is_kpack(p, n) ? RDC_E_TRUNCATED : RDC_E_FORMAT, 0,
				    "kpack: %llu bytes, shorter than the 16-byte header",
				    (unsigned long long)n);
	if (!rdc_is_kpack(p, n))
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "not a kpack archive (magic is not \"KPAK\")");
	const uint8_t *b = p;
	k->version = le32(b + 4);
	k->toc_offset = le64(b + 8);
	if (k->version != RDC_KPACK_VERSION)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, 4, "kpack: format version %u (only %u is known)",
				    k->version, RDC_KPACK_VERSION);
	if (k->toc_offset < 16 || k->toc_offset >= n)
		return rdc_diag_set(d, RDC_E_RANGE, 8,
				    "kpack: TOC offset %llu lies outside the %llu-byte file",
				    (unsigned long long)k->toc_offset, (unsigned long long)n);
	struct owned *o = calloc(1, sizeof *o);
	if (!o)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack: out of memory");
	k->owned_ = o;
	const uint8_t *toc = b + k->toc_offset;
	size_t toc_len = (size_t)(n - k->toc_offset);
	int rc = rdc_co_msgpack_bounds(toc, toc_len, k->toc_offset, NULL, d);
	if (rc != 0)
		return rc;
	msgpack_unpacked up;
	msgpack_unpacked_init(&up);
	size_t used = 0;
	msgpack_unpack_return r = msgpack_unpack_next(&up, (const char *)toc, toc_len, &used);
	struct ctx c = { .k = k, .o = o, .p = b, .n = n, .d = d };
	if (r == MSGPACK_UNPACK_CONTINUE)
		rc = rdc_diag_set(d, RDC_E_TRUNCATED, n, "kpack: TOC ends before its map does");
	else if (r == MSGPACK_UNPACK_NOMEM_ERROR)
		rc = rdc_diag_set(d, RDC_E_NOMEM, k->toc_offset, "kpack: TOC: out of memory");
	else if (r != MSGPACK_UNPACK_SUCCESS && r != MSGPACK_UNPACK_EXTRA_BYTES)
		rc = rdc_diag_set(d, RDC_E_FORMAT, k->toc_offset + used,
				  "kpack: TOC is not valid MessagePack (msgpack-c error %d)", (int)r);
	else
		rc = read_root(&c, &up.data);
	if (rc == 0) {
		if (key_is(c.scheme, "none"))
			k->scheme = RDC_KPACK_SCHEME_NONE, rc = index_none(&c);
		else if (key_is(c.scheme, "zstd-per-kernel"))
			k->scheme = RDC_KPACK_SCHEME_ZSTD, rc = index_zstd(&c);
		else {
			bool str = c.scheme->type == MSGPACK_OBJECT_STR;
			int l = str ? (int)(c.scheme->via.str.size > 64 ? 64 : c.scheme->via.str.size) : 9;
			rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, k->toc_offset,
					  "kpack: compression scheme \"%.*s\" is not known", l,
					  str ? c.scheme->via.str.ptr : "(no text)");
		}
	}
	msgpack_unpacked_destroy(&up);
	return rc;
}

/* ---- lookup --------------------------------------------------------------------- */
bool rdc_kpack_has_arch(const struct rdc_kpack *k, const char *arch)
{
	for (size_t i = 0; k && arch && i < k->n_arches; i++)
		if (strcmp(k->arches[i], arch) == 0)
			return true;
	return false;
}

const struct rdc_kpack_entry *rdc_kpack_find(const struct rdc_kpack *k, const char *key,
					      const char *arch)
{
	for (size_t i = 0; k && key && arch && i < k->n_entries; i++)
		if (strcmp(k->entries[i].key, key) == 0 && strcmp(k->entries[i].arch, arch) == 0)
			return &k->entries[i];
	return NULL;
}
