/* SPDX-License-Identifier: MIT */
/*
 * codeobj_meta.c — the NT_AMDGPU_METADATA note (code object v3..v6), a
 * MessagePack map, decoded and re-encoded with msgpack-c.
 *
 * Read: "amdhsa.version", "amdhsa.target", and per entry of
 * "amdhsa.kernels": .name .symbol .kernarg_segment_size
 * .kernarg_segment_align .group_segment_fixed_size
 * .private_segment_fixed_size .vgpr_count .sgpr_count .agpr_count
 * .wavefront_size .max_flat_workgroup_size .uses_dynamic_stack and .args
 * (.name .offset .size .value_kind).  Unknown keys are ignored; a known key
 * with the wrong type is an error.  Source: LLVM AMDGPUUsage "Code Object
 * V3 Metadata" .. "V5 Metadata" (.uses_dynamic_stack is V5, backported by
 * LLVM into V4 output too).
 *
 * msgpack_unpack_next leaves strings pointing into the input buffer, which
 * is how error messages get byte offsets and how the retargeter finds the
 * "amdhsa.target" bytes; every such pointer is range-checked before use.
 */
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"

/* Offset of a string object's bytes within [desc, desc+size), or -1. */
static int64_t str_pos(const msgpack_object *o, const uint8_t *desc, size_t size)
{
	if (o->type != MSGPACK_OBJECT_STR)
		return -1;
	const uint8_t *s = (const uint8_t *)o->via.str.ptr;
	if (s < desc || s > desc + size || o->via.str.size > (size_t)(desc + size - s))
		return -1;
	return s - desc;
}

static uint64_t where(const msgpack_object *key, const uint8_t *desc, size_t size, uint64_t base)
{
	int64_t pos = str_pos(key, desc, size);
	return pos < 0 ? base : base + (uint64_t)pos;
}

static bool key_is_(const msgpack_object *k, const char *s, size_t l)
{
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == l && memcmp(k->via.str.ptr, s, l) == 0;
}
/* Keys are literals: their length is known at compile time. */
#define key_is(k, lit) key_is_((k), "" lit, sizeof(lit) - 1)

static char *dup_str(const msgpack_object *o)
{
	char *s = malloc(o->via.str.size + 1);
	if (s) {
		memcpy(s, o->via.str.ptr, o->via.str.size);
		s[o->via.str.size] = '\0';
	}
	return s;
}

struct ctx {
	const uint8_t *desc;
	size_t size;
	uint64_t base;
	struct rdc_diag *d;
	bool no_args;            /* RDC_CO_NO_ARGS: .args only type-checked */
};

/* Which object an error is about ("root", "kernel 3", "kernel 3 arg 1"):
 * kept as numbers and written out only when an error is reported (16.6 MB
 * of librocsparse metadata holds 165k args; formatting a label for each
 * was 13% of decoding). */
struct what {
	long kernel;             /* -1: the root map */
	long arg;                /* -1: the kernel itself */
};

static const char *what_str(const struct what *w, char *buf, size_t n)
{
	if (w->kernel < 0)
		return "root";
	if (w->arg < 0)
		snprintf(buf, n, "kernel %ld", w->kernel);
	else
		snprintf(buf, n, "kernel %ld arg %ld", w->kernel, w->arg);
	return buf;
}

static int bad_type(struct ctx *c, const msgpack_object *key, const struct what *w, const char *want)
{
	char buf[64];
	return rdc_diag_set(c->d, RDC_E_FORMAT, where(key, c->desc, c->size, c->base),
			    "metadata %s: %.*s is not %s", what_str(w, buf, sizeof buf),
			    key->type == MSGPACK_OBJECT_STR ? (int)(key->via.str.size > 64 ? 64 : key->via.str.size) : 1,
			    key->type == MSGPACK_OBJECT_STR ? key->via.str.ptr : "?", want);
}

static int get_u32(struct ctx *c, const msgpack_object *key, const msgpack_object *v,
		   const struct what *w, uint32_t *out)
{
	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > UINT32_MAX)
		return bad_type(c, key, w, "an unsigned 32-bit integer");
	*out = (uint32_t)v->via.u64;
	return 0;
}

static int get_str(struct ctx *c, const msgpack_object *key, const msgpack_object *v,
		   const struct what *w, char **out)
{
	if (v->type != MSGPACK_OBJECT_STR)
		return bad_type(c, key, w, "a string");
	if (!out)
		return 0;        /* checked, not kept */
	free(*out);
	*out = dup_str(v);
	return *out ? 0 : rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
}

/* The value kinds of AMDGPUUsage ("Code Object V3 Metadata" .. "V5"): an
 * argument's .value_kind points at one of these instead of a copy (a
 * library's chosen entries have ~10^5 arguments); anything else is copied.
 * One array, so that kind_shared can tell them from a copy. */
static const char kinds[][32] = {
	"by_value", "global_buffer", "dynamic_shared_pointer", "sampler", "image", "pipe", "queue",
	"hidden_global_offset_x", "hidden_global_offset_y", "hidden_global_offset_z", "hidden_none",
	"hidden_printf_buffer", "hidden_hostcall_buffer", "hidden_default_queue",
	"hidden_completion_action", "hidden_multigrid_sync_arg", "hidden_heap_v1",
	"hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
	"hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z",
	"hidden_remainder_x", "hidden_remainder_y", "hidden_remainder_z", "hidden_grid_dims",
	"hidden_private_base", "hidden_shared_base", "hidden_queue_ptr", "hidden_dynamic_lds_size",
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static bool kind_shared(const char *p)
{
	uintptr_t a = (uintptr_t)p, lo = (uintptr_t)kinds[0], hi = (uintptr_t)kinds[N_KINDS - 1];
	return p && a >= lo && a <= hi;
}

static void free_kind(char *p)
{
	if (!kind_shared(p))
		free(p);
}

/* .value_kind: one of `kinds`, else a copy (as get_str). */
static int get_kind(struct ctx *c, const msgpack_object *key, const msgpack_object *v,
		    const struct what *w, char **out)
{
	if (v->type != MSGPACK_OBJECT_STR)
		return bad_type(c, key, w, "a string");
	if (!out)
		return 0;
	free_kind(*out);
	*out = NULL;
	size_t l = v->via.str.size;
	for (size_t i = 0; i < N_KINDS; i++)
		if (l < sizeof kinds[i] && !memcmp(kinds[i], v->via.str.ptr, l) && !kinds[i][l]) {
			*out = (char *)kinds[i];
			return 0;
		}
	*out = dup_str(v);
	return *out ? 0 : rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
}

/* One .args entry into `a`; with c->no_args only checked (a is scratch). */
static int decode_arg(struct ctx *c, const msgpack_object *m, struct rdc_kernel_arg *a,
		      const struct what *what)
{
	char buf[64];
	if (m->type != MSGPACK_OBJECT_MAP)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->base, "metadata %s is not a map",
				    what_str(what, buf, sizeof buf));
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key, *v = &m->via.map.ptr[i].val;
		int rc = 0;
		if (key_is(k, ".name"))
			rc = get_str(c, k, v, what, c->no_args ? NULL : &a->name);
		else if (key_is(k, ".value_kind"))
			rc = get_kind(c, k, v, what, c->no_args ? NULL : &a->value_kind);
		else if (key_is(k, ".offset"))
			rc = get_u32(c, k, v, what, &a->offset);
		else if (key_is(k, ".size"))
			rc = get_u32(c, k, v, what, &a->size);
		if (rc)
			return rc;
	}
	return 0;
}

static int decode_kernel(struct ctx *c, const msgpack_object *m, struct rdc_kernel *k, size_t idx)
{
	char buf[64];
	const struct what wk = { (long)idx, -1 }, *what = &wk;
	bool seen_args = false;
	if (m->type != MSGPACK_OBJECT_MAP)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->base, "metadata %s is not a map",
				    what_str(what, buf, sizeof buf));
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *key = &m->via.map.ptr[i].key, *v = &m->via.map.ptr[i].val;
		int rc = 0;
		if (key_is(key, ".name"))
			rc = get_str(c, key, v, what, &k->name);
		else if (key_is(key, ".symbol"))
			rc = get_str(c, key, v, what, &k->symbol);
		else if (key_is(key, ".kernarg_segment_size"))
			rc = get_u32(c, key, v, what, &k->kernarg_size);
		else if (key_is(key, ".kernarg_segment_align"))
			rc = get_u32(c, key, v, what, &k->kernarg_align);
		else if (key_is(key, ".group_segment_fixed_size"))
			rc = get_u32(c, key, v, what, &k->group_segment_fixed_size);
		else if (key_is(key, ".private_segment_fixed_size"))
			rc = get_u32(c, key, v, what, &k->private_segment_fixed_size);
		else if (key_is(key, ".vgpr_count"))
			rc = get_u32(c, key, v, what, &k->vgpr_count);
		else if (key_is(key, ".sgpr_count"))
			rc = get_u32(c, key, v, what, &k->sgpr_count);
		else if (key_is(key, ".agpr_count"))
			rc = get_u32(c, key, v, what, &k->agpr_count);
		else if (key_is(key, ".wavefront_size"))
			rc = get_u32(c, key, v, what, &k->wavefront_size);
		else if (key_is(key, ".max_flat_workgroup_size"))
			rc = get_u32(c, key, v, what, &k->max_flat_workgroup_size);
		else if (key_is(key, ".uses_dynamic_stack")) {
			if (v->type != MSGPACK_OBJECT_BOOLEAN)
				rc = bad_type(c, key, what, "a boolean");
			else
				k->uses_dynamic_stack = v->via.boolean;
		} else if (key_is(key, ".args")) {
			if (v->type != MSGPACK_OBJECT_ARRAY)
				return bad_type(c, key, what, "an array");
			if (seen_args)
				return rdc_diag_set(c->d, RDC_E_FORMAT, where(key, c->desc, c->size, c->base),
						    "metadata %s: .args given twice",
						    what_str(what, buf, sizeof buf));
			seen_args = true;
			size_t na = v->via.array.size;
			if (c->no_args) {
				/* Checked like the full parse, nothing kept or copied. */
				for (size_t j = 0; j < na; j++) {
					const struct what aw = { (long)idx, (long)j };
					struct rdc_kernel_arg scratch = { 0 };
					rc = decode_arg(c, &v->via.array.ptr[j], &scratch, &aw);
					if (rc)
						return rc;
				}
				continue;
			}
			k->args = calloc(na ? na : 1, sizeof *k->args);
			if (!k->args)
				return rdc_diag_set(c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
			k->n_args = na;
			for (size_t j = 0; j < na; j++) {
				const struct what aw = { (long)idx, (long)j };
				rc = decode_arg(c, &v->via.array.ptr[j], &k->args[j], &aw);
				if (rc)
					return rc;
			}
		}
		if (rc)
			return rc;
	}
	if (!k->name || !k->symbol)
		return rdc_diag_set(c->d, RDC_E_FORMAT, c->base, "metadata %s has no %s",
				    what_str(what, buf, sizeof buf),
				    k->name ? ".symbol" : ".name");
	return 0;
}

/* Unpack the whole desc into `up`; the root must be a map. */
static int unpack_root(const uint8_t *desc, size_t size, uint64_t base, msgpack_unpacked *up,
		       struct rdc_diag *d)
{
	size_t off = 0;
	msgpack_unpacked_init(up);
	if (size == 0)
		return rdc_diag_set(d, RDC_E_FORMAT, base, "metadata note is empty");
	uint64_t objects = 0;
	int rc = rdc_co_msgpack_bounds(desc, size, base, &objects, d);
	if (rc != 0)
		return rc;
	/* One zone chunk for the whole tree (msgpack-c keeps a zone it is
	 * given; its default of 8 KiB chunks made a large note's decode a
	 * series of mallocs).  Each object is at most one msgpack_object in
	 * the zone (bounded by the note's size, checked above). */
	size_t want = (size_t)objects * sizeof(msgpack_object) + 1024;
	if (want > 8192)
		up->zone = msgpack_zone_new(want); /* NULL: msgpack-c makes its own */
	msgpack_unpack_return r = msgpack_unpack_next(up, (const char *)desc, size, &off);
	switch (r) {
	case MSGPACK_UNPACK_SUCCESS:
	case MSGPACK_UNPACK_EXTRA_BYTES:
		break;
	case MSGPACK_UNPACK_CONTINUE:
		return rdc_diag_set(d, RDC_E_TRUNCATED, base + size,
				    "metadata MessagePack ends before its root object does (%zu bytes)", size);
	case MSGPACK_UNPACK_NOMEM_ERROR:
		return rdc_diag_set(d, RDC_E_NOMEM, base,
				    "metadata MessagePack: out of memory (a container declares more entries than fit)");
	default:
		return rdc_diag_set(d, RDC_E_FORMAT, base + off,
				    "metadata is not valid MessagePack (msgpack-c error %d)", (int)r);
	}
	if (up->data.type != MSGPACK_OBJECT_MAP)
		return rdc_diag_set(d, RDC_E_FORMAT, base, "metadata root is not a map (type %d)",
				    (int)up->data.type);
	return 0;
}

static void free_kernel(struct rdc_kernel *k)
{
	free(k->name);
	free(k->symbol);
	for (size_t j = 0; j < k->n_args; j++) {
		free(k->args[j].name);
		free_kind(k->args[j].value_kind);
	}
	free(k->args);
}

void rdc_codeobj_free(struct rdc_codeobj *co)
{
	if (!co)
		return;
	for (size_t i = 0; i < co->n_kernels; i++)
		free_kernel(&co->kernels[i]);
	free(co->kernels);
	free(co->meta_target);
	free(co->note_target_offsets);
	memset(co, 0, sizeof *co);
}

int rdc_co_decode_metadata(const uint8_t *desc, size_t size, uint64_t base, unsigned flags,
			   struct rdc_codeobj *co, struct rdc_diag *d)
{
	msgpack_unpacked up;
	struct ctx c = { desc, size, base, d, (flags & RDC_CO_NO_ARGS) != 0 };
	const struct what root_w = { -1, -1 };
	int rc = unpack_root(desc, size, base, &up, d);
	if (rc)
		goto out;
	const msgpack_object_map *root = &up.data.via.map;
	for (uint32_t i = 0; i < root->size && !rc; i++) {
		const msgpack_object *key = &root->ptr[i].key, *v = &root->ptr[i].val;
		if (key_is(key, "amdhsa.target")) {
			rc = get_str(&c, key, v, &root_w, &co->meta_target);
			/* Its span, for patches (offset 0 = unknown: a desc is
			 * never at offset 0 of a code object). */
			int64_t pos = rc ? -1 : str_pos(v, desc, size);
			if (pos >= 0 && v->via.str.size <= UINT32_MAX) {
				co->meta_target_offset = base + (uint64_t)pos;
				co->meta_target_len = (uint32_t)v->via.str.size;
			}
		} else if (key_is(key, "amdhsa.version")) {
			if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size < 2) {
				rc = bad_type(&c, key, &root_w, "an array of two integers");
				break;
			}
			for (int j = 0; j < 2 && !rc; j++)
				rc = get_u32(&c, key, &v->via.array.ptr[j], &root_w, &co->meta_version[j]);
		} else if (key_is(key, "amdhsa.kernels")) {
			if (v->type != MSGPACK_OBJECT_ARRAY) {
				rc = bad_type(&c, key, &root_w, "an array");
				break;
			}
			if (co->kernels) {
				rc = rdc_diag_set(d, RDC_E_FORMAT, where(key, desc, size, base),
						  "metadata: amdhsa.kernels given twice");
				break;
			}
			size_t nk = v->via.array.size;
			co->kernels = calloc(nk ? nk : 1, sizeof *co->kernels);
			if (!co->kernels) {
				rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
				break;
			}
			co->n_kernels = nk;
			for (size_t j = 0; j < nk && !rc; j++)
				rc = decode_kernel(&c, &v->via.array.ptr[j], &co->kernels[j], j);
		}
	}
out:
	msgpack_unpacked_destroy(&up);
	return rc;
}

int rdc_co_meta_target_span(const uint8_t *desc, size_t size, uint64_t base, size_t *str_off,
			    size_t *str_len, struct rdc_diag *d)
{
	msgpack_unpacked up;
	*str_off = *str_len = 0;
	int rc = unpack_root(desc, size, base, &up, d);
	if (rc)
		goto out;
	const msgpack_object_map *root = &up.data.via.map;
	for (uint32_t i = 0; i < root->size; i++) {
		const msgpack_object *key = &root->ptr[i].key, *v = &root->ptr[i].val;
		if (!key_is(key, "amdhsa.target"))
			continue;
		int64_t pos = str_pos(v, desc, size);
		if (pos < 0) {
			rc = rdc_diag_set(d, RDC_E_FORMAT, where(key, desc, size, base),
					  "metadata amdhsa.target is not a string inside the note");
			goto out;
		}
		*str_off = (size_t)pos;
		*str_len = v->via.str.size;
		break;
	}
out:
	msgpack_unpacked_destroy(&up);
	return rc;
}

int rdc_co_meta_kernel_refs(const uint8_t *desc, size_t size, uint64_t base, const char *const *names,
			    size_t k, struct rdc_co_kernel_ref *refs, struct rdc_diag *d)
{
	msgpack_unpacked up;
	int rc = unpack_root(desc, size, base, &up, d);
	if (rc)
		goto out;
	const msgpack_object_map *root = &up.data.via.map;
	for (uint32_t i = 0; i < root->size && !rc; i++) {
		const msgpack_object *key = &root->ptr[i].key, *v = &root->ptr[i].val;
		if (!key_is(key, "amdhsa.kernels") || v->type != MSGPACK_OBJECT_ARRAY)
			continue;
		for (uint32_t j = 0; j < v->via.array.size; j++) {
			const msgpack_object *m = &v->via.array.ptr[j];
			if (m->type != MSGPACK_OBJECT_MAP)
				continue;
			const msgpack_object *nm = NULL, *sym = NULL;
			for (uint32_t f = 0; f < m->via.map.size; f++) {
				const msgpack_object *fk = &m->via.map.ptr[f].key;
				if (key_is(fk, ".name"))
					nm = &m->via.map.ptr[f].val;
				else if (key_is(fk, ".symbol"))
					sym = &m->via.map.ptr[f].val;
			}
			if (!nm || nm->type != MSGPACK_OBJECT_STR)
				continue;
			for (size_t x = 0; x < k; x++) {
				size_t l = strlen(names[x]);
				if (nm->via.str.size != l || memcmp(nm->via.str.ptr, names[x], l))
					continue;
				struct rdc_co_kernel_ref *r = &refs[x];
				int64_t np = str_pos(nm, desc, size), sp = sym ? str_pos(sym, desc, size) : -1;
				r->count++;
				if (np < 0 || sp < 0 || sym->via.str.size == 0 || sym->via.str.size >= sizeof r->symbol) {
					r->unusable = true;
					continue;
				}
				r->name_off = base + (uint64_t)np;
				r->symbol_off = base + (uint64_t)sp;
				memcpy(r->symbol, sym->via.str.ptr, sym->via.str.size);
				r->symbol[sym->via.str.size] = '\0';
			}
		}
	}
out:
	msgpack_unpacked_destroy(&up);
	return rc;
}

int rdc_co_meta_reencode(const uint8_t *desc, size_t size, uint64_t base, const char *new_target,
			 uint8_t **out, size_t *out_len, struct rdc_diag *d)
{
	msgpack_unpacked up;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	*out = NULL;
	*out_len = 0;
	msgpack_sbuffer_init(&sb);
	int rc = unpack_root(desc, size, base, &up, d);
	if (rc)
		goto out;
	const msgpack_object_map *root = &up.data.via.map;
	bool have = false;
	for (uint32_t i = 0; i < root->size; i++)
		if (key_is(&root->ptr[i].key, "amdhsa.target"))
			have = true;
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	size_t tl = strlen(new_target);
	bool ok = msgpack_pack_map(&pk, root->size + (have ? 0 : 1)) == 0;
	for (uint32_t i = 0; i < root->size && ok; i++) {
		const msgpack_object *key = &root->ptr[i].key;
		ok = msgpack_pack_object(&pk, *key) == 0;
		if (ok && key_is(key, "amdhsa.target"))
			ok = msgpack_pack_str(&pk, tl) == 0 && msgpack_pack_str_body(&pk, new_target, tl) == 0;
		else if (ok)
			ok = msgpack_pack_object(&pk, root->ptr[i].val) == 0;
	}
	if (ok && !have) {
		static const char k[] = "amdhsa.target";
		ok = msgpack_pack_str(&pk, sizeof k - 1) == 0 &&
		     msgpack_pack_str_body(&pk, k, sizeof k - 1) == 0 &&
		     msgpack_pack_str(&pk, tl) == 0 && msgpack_pack_str_body(&pk, new_target, tl) == 0;
	}
	if (!ok) {
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "re-encoding the metadata: out of memory");
		goto out;
	}
	*out_len = sb.size;
	*out = (uint8_t *)msgpack_sbuffer_release(&sb);
out:
	msgpack_sbuffer_destroy(&sb);
	msgpack_unpacked_destroy(&up);
	return rc;
}
