/* SPDX-License-Identifier: MIT */
/*
 * inspect_kpack.c — `rdnacompat inspect` on TheRock's split device code
 * (docs/KPACK.md): a `.kpack` archive, or a host binary whose device code
 * was moved out (a `.rocm_kpack_ref` marker; its archives are found the
 * way librocm_kpack finds them: each search path relative to the binary's
 * directory, @GFXARCH@ replaced by a target name).
 *
 * Every TOC key is shown as one bundle whose entries are the key's code
 * objects per arch, so the listing, the policy verdict (--gpu) and the
 * JSON are those of a fat binary's bundle (inspect_emit.c).  With a GPU,
 * each key also says what the loader itself gives the card: its own arch
 * or its generic in gfx_arches ("loader"), otherwise nothing unless the
 * shim maps a compatible target (tables/compat.tsv) — the same decision
 * the shim takes when kpack_load_code_object says 13/14 (hook_kpack.c).
 */
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/kpack.h"
#include "inspect_kpack.h"

struct map {
	uint8_t *p;
	size_t n;
};

static int map_file(const char *path, struct map *m)
{
	m->p = NULL;
	m->n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	m->p = p;
	m->n = (size_t)st.st_size;
	return 0;
}

static void unmap(struct map *m)
{
	if (m->p)
		munmap(m->p, m->n);
	m->p = NULL;
}

int rdc_inspect_kpack_sniff(const char *path)
{
	struct map m;
	if (map_file(path, &m) != 0)
		return 0;
	int kind = 0;
	struct rdc_kpack_host h;
	if (rdc_is_kpack(m.p, m.n))
		kind = 1;
	else if (m.n > 20 && !memcmp(m.p, "\177ELF", 4) && !rdc_is_codeobj(m.p, m.n) &&
		 rdc_kpack_host_scan(m.p, m.n, &h, NULL) == 0 && h.has_ref)
		kind = 2;
	unmap(&m);
	return kind;
}

/* The loader's own names for a processor: itself and its generic (from
 * the generic rows of the compat table, as CLR's TargetToGeneric). */
static const char *generic_of(const struct rdc_tables *t, const char *proc)
{
	const struct rdc_compat_edge *e[32];
	size_t n = rdc_compat_edges_for(t, proc, e, 32);
	for (size_t i = 0; i < n; i++)
		if (strstr(e[i]->code, "-generic"))
			return e[i]->code;
	return NULL;
}

/* One key of an archive as a bundle.  `soft`: a missing verdict is not
 * counted (an archive looked at on its own, e.g. in a directory of a
 * multi-arch install, is for the targets it names; the host binary's view
 * says what the card gets). */
static int emit_key(struct ictx *c, const struct rdc_kpack *k, const uint8_t *p, size_t n,
		    const char *key, size_t index, bool soft)
{
	size_t m = 0;
	for (size_t i = 0; i < k->n_entries; i++)
		m += strcmp(k->entries[i].key, key) == 0;
	struct rdc_bundle_entry *be = calloc(m + 1, sizeof *be);
	struct entry_view *ev = calloc(m + 1, sizeof *ev);
	const uint8_t **data = calloc(m + 1, sizeof *data);
	uint8_t **owned = calloc(m + 1, sizeof *owned);
	char (*ids)[128] = calloc(m + 1, sizeof *ids);
	int rc = 0;
	if (!be || !ev || !data || !owned || !ids) {
		rc = rdc_diag_set(&c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		goto out;
	}
	size_t j = 0;
	for (size_t i = 0; i < k->n_entries && rc == 0; i++) {
		const struct rdc_kpack_entry *e = &k->entries[i];
		if (strcmp(e->key, key) != 0)
			continue;
		size_t len = 0;
		rc = rdc_kpack_extract(k, p, n, e, &owned[j], &len, &c->d);
		if (rc != 0)
			break;
		snprintf(ids[j], sizeof ids[j], "hipv4-amdgcn-amd-amdhsa--%s", e->arch);
		be[j].id = ids[j];
		be[j].id_len = strlen(ids[j]);
		be[j].size = len;
		be[j].data = owned[j];
		be[j].offset = e->offset;
		rdc_bundle_id_parse(be[j].id, be[j].id_len, &be[j].parsed, NULL);
		ev[j].id = be[j].id;
		ev[j].id_len = be[j].id_len;
		ev[j].device = rdc_is_codeobj(owned[j], len);
		ev[j].size = len;
		ev[j].offset = k->scheme == RDC_KPACK_SCHEME_NONE ? e->offset : UINT64_MAX;
		ev[j].kernels = -1;
		if (be[j].parsed.has_target)
			ev[j].target = be[j].parsed.target;
		data[j] = owned[j];
		struct rdc_codeobj co;
		if (ev[j].device && rdc_codeobj_parse(owned[j], len, RDC_CO_HEADER_ONLY, &co, NULL) == 0) {
			ev[j].target = co.target;
			ev[j].cov = co.cov;
			rdc_codeobj_free(&co);
		}
		j++;
	}
	if (rc != 0)
		goto out;
	struct rdc_bundle b = { .entries = be, .n_entries = j, .extent = 0 };
	uint64_t stored = 0, first = UINT64_MAX;
	for (size_t i = 0; i < k->n_entries; i++)
		if (strcmp(k->entries[i].key, key) == 0) {
			stored += k->entries[i].size;
			first = k->entries[i].offset < first ? k->entries[i].offset : first;
		}
	struct bundle_view bv = { .index = index, .offset = first, .size = stored, .n = j, .e = ev, .data = data,
				  .compressed = k->scheme == RDC_KPACK_SCHEME_ZSTD };
	if (!c->json)
		fprintf(c->out, "  key %s\n", key);
	struct rdc_choice ch;
	bool have = false;
	if (c->have_dev) {
		struct rdc_diag d;
		rdc_diag_clear(&d);
		if (rdc_policy_choose(c->t, &c->dev, &b, (c->kernels ? RDC_POLICY_KERNELS : 0) | c->flags,
				      &ch, &d) == 0) {
			have = true;
			long ei = ch.entry >= 0 ? ch.entry : ch.refused_entry;
			if (ch.co && ei >= 0 && (size_t)ei < j)
				ev[ei].kernels = (long)ch.co->n_kernels;
		} else {
			rdc_choice_free(&ch);
		}
	}
	if (!have)
		for (size_t i = 0; i < j; i++) {
			struct rdc_codeobj co;
			if (ev[i].device && rdc_codeobj_parse(data[i], (size_t)ev[i].size, RDC_CO_METADATA, &co,
							      NULL) == 0) {
				ev[i].kernels = (long)co.n_kernels;
				rdc_codeobj_free(&co);
			}
		}
	rdc_inspect_emit_bundle(c, &bv, have ? &ch : NULL);
	if (!have && c->kernels && !c->json)
		rdc_inspect_list_kernels(c, &bv);
	c->bundles++;
	if (have) {
		if (ch.verdict == RDC_VERDICT_NATIVE)
			c->native++;
		else if (ch.verdict == RDC_VERDICT_MAPPED)
			c->mapped++;
		else if (!soft)
			c->missing++;
		else if (!c->json)
			fprintf(c->out, "    (an archive for other targets: not counted as missing)\n");
		rdc_choice_free(&ch);
	}
out:
	for (size_t i = 0; owned && i <= m; i++)
		free(owned[i]);
	free(owned);
	free(be);
	free(ev);
	free(data);
	free(ids);
	return rc;
}

/* What librocm_kpack itself gives the card from this archive. */
static const char *loader_verdict(const struct ictx *c, const struct rdc_kpack *k)
{
	if (!c->have_dev)
		return NULL;
	if (rdc_kpack_has_arch(k, c->dev.proc))
		return "own arch";
	const char *g = generic_of(c->t, c->dev.proc);
	if (g && rdc_kpack_has_arch(k, g))
		return "generic";
	return "none (error 14 without the shim)";
}

/* One archive: header facts, then each key (or only `only_prefix#*`). */
static int do_archive(struct ictx *c, const char *path, const char *only_prefix, bool nested)
{
	struct map m;
	if (map_file(path, &m) != 0)
		return rdc_diag_set(&c->d, RDC_E_IO, RDC_NO_OFFSET, "%s: cannot read", path);
	struct rdc_kpack k;
	int rc = rdc_kpack_parse(m.p, m.n, &k, &c->d);
	if (rc != 0) {
		rdc_kpack_free(&k);
		unmap(&m);
		return rc;
	}
	const char *lv = loader_verdict(c, &k);
	if (c->json) {
		if (nested) {
			rdc_json_obj(&c->j);
			rdc_json_key(&c->j, "path");
			rdc_json_str(&c->j, path);
		}
		rdc_json_key(&c->j, "kpack");
		rdc_json_obj(&c->j);
		rdc_json_key(&c->j, "group"); rdc_json_str(&c->j, k.group_name);
		rdc_json_key(&c->j, "scheme");
		rdc_json_str(&c->j, k.scheme == RDC_KPACK_SCHEME_ZSTD ? "zstd-per-kernel" : "none");
		rdc_json_key(&c->j, "gfx_arches");
		rdc_json_arr(&c->j);
		for (size_t i = 0; i < k.n_arches; i++)
			rdc_json_str(&c->j, k.arches[i]);
		rdc_json_arr_end(&c->j);
		rdc_json_key(&c->j, "keys"); rdc_json_u64(&c->j, k.n_keys);
		rdc_json_key(&c->j, "code_objects"); rdc_json_u64(&c->j, k.n_entries);
		rdc_json_key(&c->j, "loader"); rdc_json_str(&c->j, lv);
		rdc_json_obj_end(&c->j);
		rdc_json_key(&c->j, "bundles");
		rdc_json_arr(&c->j);
	} else {
		fprintf(c->out, "%s%s: kpack archive, group %s, %s, gfx_arches", nested ? "  " : "", path,
			k.group_name[0] ? k.group_name : "-",
			k.scheme == RDC_KPACK_SCHEME_ZSTD ? "zstd-per-kernel" : "uncompressed");
		for (size_t i = 0; i < k.n_arches; i++)
			fprintf(c->out, "%s%s", i ? "," : " ", k.arches[i]);
		fprintf(c->out, "; %zu keys, %zu code objects\n", k.n_keys, k.n_entries);
		if (lv)
			fprintf(c->out, "  loader for %s: %s\n", c->dev_text, lv);
	}
	size_t idx = 0;
	for (size_t i = 0; i < k.n_entries && rc == 0; i++) {
		const char *key = k.entries[i].key;
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(k.entries[j].key, key) != 0;
		size_t pl = only_prefix ? strlen(only_prefix) : 0;
		if (!first || (only_prefix && (strncmp(key, only_prefix, pl) != 0 || key[pl] != '#')))
			continue;
		rc = emit_key(c, &k, m.p, m.n, key, idx++, !nested && lv && strncmp(lv, "none", 4) == 0);
	}
	if (c->json) {
		rdc_json_arr_end(&c->j);
		if (nested)
			rdc_json_obj_end(&c->j);
	}
	rdc_kpack_free(&k);
	unmap(&m);
	return rc;
}

/* Candidate archive names for one search path of a marker. */
static size_t candidates(struct ictx *c, const char *dir, const char *sp, char out[][4096], size_t max)
{
	char full[4096];
	if (sp[0] == '/')
		snprintf(full, sizeof full, "%s", sp);
	else
		snprintf(full, sizeof full, "%s/%s", dir, sp);
	size_t n = 0;
	if (!strstr(full, RDC_KPACK_GFXARCH)) {
		snprintf(out[n++], 4096, "%s", full);
		return n;
	}
	char pat[4096];
	if (rdc_kpack_expand(full, "*", pat, sizeof pat) < 0)
		return 0;
	glob_t g;
	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && n < max; i++)
			snprintf(out[n++], 4096, "%s", g.gl_pathv[i]);
		globfree(&g);
	}
	(void)c;
	return n;
}

static int do_host(struct ictx *c, const char *path)
{
	struct map m;
	if (map_file(path, &m) != 0)
		return rdc_diag_set(&c->d, RDC_E_IO, RDC_NO_OFFSET, "%s: cannot read", path);
	struct rdc_kpack_host h;
	struct rdc_kpack_ref r = { 0 };
	int rc = rdc_kpack_host_scan(m.p, m.n, &h, &c->d);
	if (rc == 0)
		rc = rdc_kpack_ref_parse(m.p + h.ref_offset, (size_t)h.ref_size, &r, &c->d);
	unmap(&m);
	if (rc != 0)
		return rc;
	char *dcopy = strdup(path);
	const char *dir = dcopy ? dirname(dcopy) : ".";
	if (c->json) {
		rdc_json_key(&c->j, "kpack_ref");
		rdc_json_obj(&c->j);
		rdc_json_key(&c->j, "kernel_name"); rdc_json_str(&c->j, r.kernel_name);
		rdc_json_key(&c->j, "search_paths");
		rdc_json_arr(&c->j);
		for (size_t i = 0; i < r.n_paths; i++)
			rdc_json_str(&c->j, r.paths[i]);
		rdc_json_arr_end(&c->j);
		rdc_json_key(&c->j, "hipk_wrappers"); rdc_json_u64(&c->j, h.n_hipk);
		rdc_json_key(&c->j, "wrappers"); rdc_json_u64(&c->j, h.n_wrappers);
		rdc_json_key(&c->j, "archives");
		rdc_json_arr(&c->j);
	} else {
		fprintf(c->out, "%s: host ELF with device code in kpack archives: kernel_name %s, %zu of %zu "
			"wrappers HIPK%s\n", path, r.kernel_name, h.n_hipk, h.n_wrappers,
			h.fatbin_nobits ? ", .hip_fatbin cut out" : "");
		for (size_t i = 0; i < r.n_paths; i++)
			fprintf(c->out, "  search path %s\n", r.paths[i]);
	}
	static char cands[64][4096];
	size_t found = 0;
	if (c->have_dev) {
		/* As the loader (own arch, generic) and then the shim (compatible
		 * targets in table order) look: the first archive naming one. */
		const char *names[34];
		size_t nn = 0;
		names[nn++] = c->dev.proc;
		const struct rdc_compat_edge *e[32];
		size_t ne = rdc_compat_edges_for(c->t, c->dev.proc, e, 32);
		const char *g = generic_of(c->t, c->dev.proc);
		if (g)
			names[nn++] = g;
		for (size_t i = 0; i < ne && nn < 34; i++)
			if (!g || strcmp(e[i]->code, g) != 0)
				names[nn++] = e[i]->code;
		for (size_t a = 0; a < nn && !found && rc == 0; a++)
			for (size_t i = 0; i < r.n_paths && !found && rc == 0; i++) {
				char full[4096], x[4096];
				snprintf(full, sizeof full, "%s%s%s", r.paths[i][0] == '/' ? "" : dir,
					 r.paths[i][0] == '/' ? "" : "/", r.paths[i]);
				if (rdc_kpack_expand(full, names[a], x, sizeof x) < 0)
					snprintf(x, sizeof x, "%s", full);
				struct map am;
				if (map_file(x, &am) != 0)
					continue;
				struct rdc_kpack ak;
				bool has = rdc_kpack_parse(am.p, am.n, &ak, NULL) == 0 &&
					   rdc_kpack_has_arch(&ak, names[a]);
				rdc_kpack_free(&ak);
				unmap(&am);
				if (!has)
					continue;
				found++;
				if (!c->json)
					fprintf(c->out, "  for %s: %s archive (%s)\n", c->dev_text, names[a],
						a == 0 ? "the loader's own" : a == 1 && g ? "the loader's generic" :
						"through the shim");
				rc = do_archive(c, x, r.kernel_name, true);
			}
	} else {
		for (size_t i = 0; i < r.n_paths && rc == 0; i++) {
			size_t n = candidates(c, dir, r.paths[i], cands, 64);
			for (size_t j = 0; j < n && rc == 0; j++) {
				if (access(cands[j], R_OK) != 0)
					continue;
				found++;
				rc = do_archive(c, cands[j], r.kernel_name, true);
			}
		}
	}
	if (c->have_dev && !found) {   /* nothing for the card: one missing */
		c->bundles++;
		c->missing++;
	}
	if (c->json) {
		rdc_json_arr_end(&c->j);
		rdc_json_obj_end(&c->j);
	} else if (!found) {
		fprintf(c->out, "  no archive found%s%s (librocm_kpack: error 13 or 14)\n",
			c->have_dev ? " for " : "", c->have_dev ? c->dev_text : "");
	}
	free(dcopy);
	rdc_kpack_ref_free(&r);
	return rc;
}

int rdc_inspect_kpack(struct ictx *c, const char *path, int kind)
{
	if (c->json) {
		rdc_json_key(&c->j, "kind");
		rdc_json_str(&c->j, kind == 1 ? "kpack archive" : "kpack host");
		rdc_json_key(&c->j, "section");
		rdc_json_null(&c->j);
	}
	c->files_read++;
	size_t before = c->bundles;
	int rc = kind == 1 ? do_archive(c, path, NULL, false) : do_host(c, path);
	if (rc == 0 && !c->json)
		fprintf(c->out, "%s: %zu bundle%s\n", path, c->bundles - before,
			c->bundles - before == 1 ? "" : "s");
	return rc;
}
