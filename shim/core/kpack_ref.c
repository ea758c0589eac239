/* SPDX-License-Identifier: MIT */
/*
 * kpack_ref.c — the `.rocm_kpack_ref` marker of a kpack'd host binary:
 * parsing and encoding its MessagePack map, finding it (and the HIPK
 * wrappers) in a host ELF, and the @GFXARCH@ expansion of a search path.
 *
 * Marker: {"kpack_search_paths": [path, ...], "kernel_name": name} packed
 * by msgpack-python with use_bin_type=True (ROCm/rocm-kpack@e3483286
 * python/rocm_kpack/elf/kpack_transform.py:44-89).  librocm_kpack requires
 * kernel_name (str) and kpack_search_paths (an array; its non-string
 * elements are skipped, and at least one string must remain), else
 * KPACK_ERROR_INVALID_METADATA (runtime/src/loader.cpp parse_hipk_metadata);
 * so does rdc_kpack_ref_parse.  Wrappers: `.hipFatBinSegment` holds 24-byte
 * {u32 magic, u32 version, binary, reserved1}; a kpack'd binary's magic is
 * HIPK (kpack_transform.py:92-182).
 */
#include <gelf.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"
#include "rdnacompat/kpack.h"

void rdc_kpack_ref_free(struct rdc_kpack_ref *r)
{
	if (!r)
		return;
	free(r->kernel_name);
	for (size_t i = 0; r->paths && i < r->n_paths; i++)
		free(r->paths[i]);
	free(r->paths);
	memset(r, 0, sizeof *r);
}

static bool key_is(const msgpack_object *k, const char *s)
{
	size_t l = strlen(s);
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == l && memcmp(k->via.str.ptr, s, l) == 0;
}

static char *dup_obj(const msgpack_object *o)
{
	char *s = malloc(o->via.str.size + 1);
	if (s) {
		memcpy(s, o->via.str.ptr, o->via.str.size);
		s[o->via.str.size] = 0;
	}
	return s;
}

static int ref_fields(const msgpack_object *root, struct rdc_kpack_ref *r, struct rdc_diag *d)
{
	if (root->type != MSGPACK_OBJECT_MAP)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "kpack marker is not a map (type %d)", (int)root->type);
	const msgpack_object *name = NULL, *paths = NULL;
	for (uint32_t i = 0; i < root->via.map.size; i++) {
		if (key_is(&root->via.map.ptr[i].key, "kernel_name"))
			name = &root->via.map.ptr[i].val;
		else if (key_is(&root->via.map.ptr[i].key, "kpack_search_paths"))
			paths = &root->via.map.ptr[i].val;
	}
	if (!name || name->type != MSGPACK_OBJECT_STR)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "kpack marker: kernel_name is %s",
				    name ? "not a string" : "missing");
	if (!paths || paths->type != MSGPACK_OBJECT_ARRAY)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "kpack marker: kpack_search_paths is %s",
				    !paths ? "missing" : "not an array");
	/* As the loader: elements that are not strings are skipped; none left
	 * is an error. */
	size_t n_str = 0;
	for (uint32_t i = 0; i < paths->via.array.size; i++)
		n_str += paths->via.array.ptr[i].type == MSGPACK_OBJECT_STR;
	if (!n_str)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "kpack marker: kpack_search_paths has no string (empty)");
	if (!(r->kernel_name = dup_obj(name)) || !(r->paths = calloc(n_str, sizeof *r->paths)))
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack marker: out of memory");
	for (uint32_t i = 0; i < paths->via.array.size; i++) {
		if (paths->via.array.ptr[i].type != MSGPACK_OBJECT_STR)
			continue;
		if (!(r->paths[r->n_paths] = dup_obj(&paths->via.array.ptr[i])))
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack marker: out of memory");
		r->n_paths++;
	}
	return 0;
}

int rdc_kpack_ref_parse(const void *p, size_t n, struct rdc_kpack_ref *r, struct rdc_diag *d)
{
	if (!r)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "kpack marker: no output");
	memset(r, 0, sizeof *r);
	if (!p || n == 0)
		return rdc_diag_set(d, RDC_E_TRUNCATED, 0, "kpack marker is empty");
	int rc = rdc_co_msgpack_bounds(p, n, 0, NULL, d);
	if (rc != 0)
		return rc;
	msgpack_unpacked up;
	msgpack_unpacked_init(&up);
	size_t used = 0;
	msgpack_unpack_return u = msgpack_unpack_next(&up, p, n, &used);
	if (u == MSGPACK_UNPACK_CONTINUE)
		rc = rdc_diag_set(d, RDC_E_TRUNCATED, n, "kpack marker ends before its map does");
	else if (u == MSGPACK_UNPACK_NOMEM_ERROR)
		rc = rdc_diag_set(d, RDC_E_NOMEM, 0, "kpack marker: out of memory");
	else if (u != MSGPACK_UNPACK_SUCCESS && u != MSGPACK_UNPACK_EXTRA_BYTES)
		rc = rdc_diag_set(d, RDC_E_FORMAT, used, "kpack marker is not valid MessagePack (%d)", (int)u);
	else
		rc = ref_fields(&up.data, r, d);
	r->used = used;
	msgpack_unpacked_destroy(&up);
	if (rc != 0)
		rdc_kpack_ref_free(r);
	return rc;
}

static void pack_cstr(msgpack_packer *pk, const char *s)
{
	size_t l = strlen(s);
	msgpack_pack_str(pk, l);
	msgpack_pack_str_body(pk, s, l);
}

int rdc_kpack_ref_encode(const char *kernel_name, const char *const *paths, size_t n_paths,
			 uint8_t **out, size_t *out_len, struct rdc_diag *d)
{
	if (!kernel_name || !paths || !n_paths || !out || !out_len || n_paths > UINT32_MAX)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET,
				    "kpack marker: a kernel name and at least one search path are needed");
	msgpack_sbuffer sb;
	msgpack_sbuffer_init(&sb);
	msgpack_packer pk;
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 2);
	pack_cstr(&pk, "kpack_search_paths");
	msgpack_pack_array(&pk, n_paths);
	for (size_t i = 0; i < n_paths; i++)
		pack_cstr(&pk, paths[i]);
	pack_cstr(&pk, "kernel_name");
	pack_cstr(&pk, kernel_name);
	if (!sb.data) {
		msgpack_sbuffer_destroy(&sb);
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack marker: out of memory");
	}
	*out = (uint8_t *)sb.data;   /* sbuffer memory is malloc'd: free() */
	*out_len = sb.size;
	return 0;
}

int rdc_kpack_expand(const char *pattern, const char *arch, char *buf, size_t n)
{
	const char *at = strstr(pattern, RDC_KPACK_GFXARCH);
	if (!at)
		return RDC_E_NOTFOUND;
	int l = snprintf(buf, n, "%.*s%s%s", (int)(at - pattern), pattern, arch,
			 at + sizeof RDC_KPACK_GFXARCH - 1);
	return l < 0 || (size_t)l >= n ? RDC_E_RANGE : l;
}

int rdc_kpack_host_scan(const void *p, size_t n, struct rdc_kpack_host *h, struct rdc_diag *d)
{
	memset(h, 0, sizeof *h);
	Elf *e = NULL;
	int rc = rdc_co_elf_open(p, n, &e, d);
	if (rc != 0)
		return rc;
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(e, &shstrndx) != 0) {
		elf_end(e);
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "ELF: unreadable section names: %s", elf_errmsg(-1));
	}
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name)
			continue;
		bool bits = sh.sh_type != SHT_NOBITS && rdc_in_bounds(sh.sh_offset, sh.sh_size, n);
		if (strcmp(name, RDC_KPACK_REF_SECTION) == 0 && bits && sh.sh_size) {
			h->has_ref = true;
			h->ref_offset = sh.sh_offset;
			h->ref_size = sh.sh_size;
			h->ref_addr = (sh.sh_flags & SHF_ALLOC) ? sh.sh_addr : 0;
		} else if (strcmp(name, ".hip_fatbin") == 0) {
			h->has_fatbin = true;
			h->fatbin_nobits = sh.sh_type == SHT_NOBITS;
		} else if (strcmp(name, ".hipFatBinSegment") == 0 && bits) {
			const uint8_t *s = (const uint8_t *)p + sh.sh_offset;
			for (uint64_t o = 0; o + 24 <= sh.sh_size; o += 24) {
				uint32_t m = (uint32_t)s[o] | (uint32_t)s[o + 1] << 8 |
					     (uint32_t)s[o + 2] << 16 | (uint32_t)s[o + 3] << 24;
				h->n_wrappers++;
				if (m == RDC_KPACK_HIPK_MAGIC)
					h->n_hipk++;
			}
		}
	}
	elf_end(e);
	return 0;
}
