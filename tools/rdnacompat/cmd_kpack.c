/* SPDX-License-Identifier: MIT */
/*
 * cmd_kpack.c — `rdnacompat kpack`: make and take apart TheRock's split
 * device code (docs/KPACK.md), mainly to build test trees without
 * TheRock's Python tools.
 *
 *   pack    -o OUT [--group G] [--family F] [--arch A]... [--compression none|zstd]
 *           [--source-prefix P] [--no-metadata] KEY=ARCH=FILE...
 *           an archive as rocm_kpack's PackedKernelArchive writes it
 *           (shim/core/kpack_write.c; byte-identical on rocm-kpack's test assets)
 *   split   -o DIR --group G --key-prefix K [--compression none|zstd] LIB
 *           every code object of LIB's offload bundles into DIR/G_<arch>.kpack,
 *           keyed K#n as TheRock's splitter keys them (n: the code object's
 *           index among the same arch's in the binary)
 *   ref     -o OUT --kernel-name NAME SEARCH_PATH...   the .rocm_kpack_ref bytes
 *   hipk    -o OUT LIB   a copy whose .hipFatBinSegment wrappers say HIPK with
 *           their index in reserved1 and whose .hip_fatbin bytes are zeros
 *           (add the marker with objcopy --add-section; the wrappers'
 *           binary pointers are not repointed: enough for a program that
 *           reads its own marker, not for CLR's __hipRegisterFatBinary)
 *   extract -o OUT ARCHIVE KEY ARCH   one code object
 *
 * Exit: 0 done, 1 input problem, 2 usage.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codeobj_walk.h"
#include "commands.h"
#include "rdnacompat/kpack.h"
#include "tool_util.h"

#define MAX_IN 4096
#define MAX_FILE (1ull << 31)

static int usage(FILE *f, int rc)
{
	fprintf(f,
		"usage: rdnacompat kpack pack -o OUT [--group G] [--family F] [--arch A]...\n"
		"                             [--compression none|zstd] [--source-prefix P] [--no-metadata]\n"
		"                             KEY=ARCH=FILE...\n"
		"       rdnacompat kpack split -o DIR --group G --key-prefix K [--compression none|zstd] LIB\n"
		"       rdnacompat kpack ref -o OUT --kernel-name NAME SEARCH_PATH...\n"
		"       rdnacompat kpack hipk -o OUT LIB\n"
		"       rdnacompat kpack extract -o OUT ARCHIVE KEY ARCH\n"
		"Archives are written as TheRock's rocm_kpack writes them (zstd level 3 per\n"
		"code object by default); see docs/KPACK.md.  Exit 0 done, 1 error, 2 usage.\n");
	return rc;
}

static int write_out(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "rdnacompat kpack: %s: cannot write\n", path);
		if (f)
			fclose(f);
		return 1;
	}
	return 0;
}

static int scheme_of(const char *s)
{
	if (strcmp(s, "none") == 0)
		return RDC_KPACK_SCHEME_NONE;
	if (strcmp(s, "zstd") == 0 || strcmp(s, "zstd-per-kernel") == 0)
		return RDC_KPACK_SCHEME_ZSTD;
	return -1;
}

/* Arches of the inputs in first-seen order (gfx_arches when none given). */
static size_t arches_of(const struct rdc_kpack_input *in, size_t n, const char **out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		for (j = 0; j < k && strcmp(out[j], in[i].arch) != 0; j++)
			;
		if (j == k && k < max)
			out[k++] = in[i].arch;
	}
	return k;
}

static int emit(const char *out, const char *group, const char *family, const char **arches,
		size_t n_arches, const struct rdc_kpack_input *in, size_t n, int scheme)
{
	const char *derived[64];
	if (!n_arches) {
		n_arches = arches_of(in, n, derived, 64);
		arches = derived;
	}
	if (!family)
		family = n_arches ? arches[0] : "";
	uint8_t *b = NULL;
	size_t len = 0;
	struct rdc_diag d = { 0 };
	if (rdc_kpack_write(group, family, arches, n_arches, in, n, scheme, &b, &len, &d) != 0) {
		fprintf(stderr, "rdnacompat kpack: %s\n", d.msg);
		return 1;
	}
	int rc = write_out(out, b, len);
	free(b);
	if (rc == 0)
		printf("%s: %zu code objects, %zu bytes\n", out, n, len);
	return rc;
}

static int cmd_pack(int argc, char **argv)
{
	const char *out = NULL, *group = "", *family = NULL, *prefix = "";
	const char *arches[64];
	size_t n_arches = 0, n = 0;
	int scheme = RDC_KPACK_SCHEME_ZSTD;
	bool meta = true;
	static struct rdc_kpack_input in[MAX_IN];
	char *bufs[MAX_IN], targets[MAX_IN][96];
	int i;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--no-metadata")) {
			meta = false;
			continue;
		}
		if (!v)
			return usage(stderr, 2);
		if (!strcmp(a, "-o"))
			out = v;
		else if (!strcmp(a, "--group"))
			group = v;
		else if (!strcmp(a, "--family"))
			family = v;
		else if (!strcmp(a, "--source-prefix"))
			prefix = v;
		else if (!strcmp(a, "--arch") && n_arches < 64)
			arches[n_arches++] = v;
		else if (!strcmp(a, "--compression") && (scheme = scheme_of(v)) >= 0)
			;
		else
			return usage(stderr, 2);
		i++;
	}
	if (!out || i >= argc)
		return usage(stderr, 2);
	int rc = 0;
	for (; i < argc && n < MAX_IN && rc == 0; i++) {
		char *spec = argv[i], *e1 = strchr(spec, '='), *e2 = e1 ? strchr(e1 + 1, '=') : NULL;
		if (!e2) {
			fprintf(stderr, "rdnacompat kpack pack: %s: want KEY=ARCH=FILE\n", spec);
			rc = 2;
			break;
		}
		*e1 = *e2 = 0;
		size_t len = 0;
		bufs[n] = rdc_read_file(e2 + 1, MAX_FILE, &len);
		if (!bufs[n]) {
			fprintf(stderr, "rdnacompat kpack pack: %s: cannot read\n", e2 + 1);
			rc = 1;
			break;
		}
		snprintf(targets[n], sizeof targets[n], "hipv4-amdgcn-amd-amdhsa--%s", e1 + 1);
		in[n] = (struct rdc_kpack_input){ spec, e1 + 1, meta ? targets[n] : NULL, prefix, bufs[n], len };
		n++;
	}
	if (rc == 0)
		rc = emit(out, group, family, arches, n_arches, in, n, scheme);
	for (size_t j = 0; j < n; j++)
		free(bufs[j]);
	return rc;
}

/* ---- split ----------------------------------------------------------------- */
struct split {
	struct rdc_kpack_input in[MAX_IN];
	char keys[MAX_IN][512], archs[MAX_IN][64], targets[MAX_IN][128];
	uint8_t *data[MAX_IN];
	size_t n;
	const char *key_prefix;
	bool full;
};

static int on_co(const struct rdc_co_ref *r, void *arg)
{
	struct split *s = arg;
	if (s->n >= MAX_IN) {
		s->full = true;
		return 1;
	}
	/* arch: the entry id after its last "--" (rocm_kpack artifact_utils) */
	const char *arch = r->proc;
	size_t alen = strlen(arch);
	for (size_t i = r->id_len; i >= 2; i--)
		if (r->id[i - 1] == '-' && r->id[i - 2] == '-') {
			arch = r->id + i;
			alen = r->id_len - i;
			break;
		}
	if (!alen || alen >= sizeof s->archs[0])
		return 0;
	size_t k = s->n;
	memcpy(s->archs[k], arch, alen);
	s->archs[k][alen] = 0;
	size_t idx = 0;
	for (size_t j = 0; j < k; j++)
		idx += strcmp(s->archs[j], s->archs[k]) == 0;
	snprintf(s->keys[k], sizeof s->keys[k], "%s#%zu", s->key_prefix, idx);
	snprintf(s->targets[k], sizeof s->targets[k], "%.*s", (int)(r->id_len < 127 ? r->id_len : 127), r->id);
	s->data[k] = malloc(r->size ? r->size : 1);
	if (!s->data[k])
		return RDC_E_NOMEM;
	memcpy(s->data[k], r->data, r->size);
	s->in[k] = (struct rdc_kpack_input){ s->keys[k], s->archs[k], s->targets[k], "", s->data[k], r->size };
	s->n++;
	return 0;
}

static int cmd_split(int argc, char **argv)
{
	const char *out = NULL, *group = NULL, *kp = NULL;
	int scheme = RDC_KPACK_SCHEME_ZSTD, i;
	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-o"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "--group"))
			group = argv[i + 1];
		else if (!strcmp(argv[i], "--key-prefix"))
			kp = argv[i + 1];
		else if (!strcmp(argv[i], "--compression") && (scheme = scheme_of(argv[i + 1])) >= 0)
			;
		else
			return usage(stderr, 2);
	}
	if (!out || !group || !kp || i + 1 != argc)
		return usage(stderr, 2);
	struct split *s = calloc(1, sizeof *s);
	if (!s)
		return 1;
	s->key_prefix = kp;
	struct rdc_diag d = { 0 };
	int rc = rdc_co_walk(argv[i], on_co, s, &d);
	if (rc != 0 || s->full) {
		fprintf(stderr, "rdnacompat kpack split: %s: %s\n", argv[i], s->full ? "too many code objects" : d.msg);
		rc = 1;
	} else if (s->n == 0) {
		fprintf(stderr, "rdnacompat kpack split: %s: no AMDGPU code objects\n", argv[i]);
		rc = 1;
	}
	/* one archive per arch, as TheRock writes them */
	for (size_t a = 0; rc == 0 && a < s->n; a++) {
		size_t j;
		for (j = 0; j < a && strcmp(s->archs[j], s->archs[a]) != 0; j++)
			;
		if (j < a)
			continue;
		static struct rdc_kpack_input sel[MAX_IN];
		size_t m = 0;
		for (size_t k = a; k < s->n; k++)
			if (strcmp(s->archs[k], s->archs[a]) == 0)
				sel[m++] = s->in[k];
		char path[4096];
		snprintf(path, sizeof path, "%s/%s_%s.kpack", out, group, s->archs[a]);
		const char *one[1] = { s->archs[a] };
		rc = emit(path, group, s->archs[a], one, 1, sel, m, scheme);
	}
	for (size_t k = 0; k < s->n; k++)
		free(s->data[k]);
	free(s);
	return rc;
}

static int cmd_ref(int argc, char **argv)
{
	const char *out = NULL, *name = NULL;
	int i;
	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-o"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "--kernel-name"))
			name = argv[i + 1];
		else
			return usage(stderr, 2);
	}
	if (!out || !name || i >= argc)
		return usage(stderr, 2);
	uint8_t *m = NULL;
	size_t len = 0;
	struct rdc_diag d = { 0 };
	if (rdc_kpack_ref_encode(name, (const char *const *)argv + i, (size_t)(argc - i), &m, &len, &d) != 0) {
		fprintf(stderr, "rdnacompat kpack ref: %s\n", d.msg);
		return 1;
	}
	int rc = write_out(out, m, len);
	free(m);
	return rc;
}

/* Byte patches on a copy: wrappers -> HIPK + index, .hip_fatbin -> zeros. */
static int cmd_hipk(int argc, char **argv)
{
	if (argc != 4 || strcmp(argv[1], "-o") != 0)
		return usage(stderr, 2);
	size_t n = 0;
	char *b = rdc_read_file(argv[3], MAX_FILE, &n);
	if (!b) {
		fprintf(stderr, "rdnacompat kpack hipk: %s: cannot read\n", argv[3]);
		return 1;
	}
	int rc = 1;
	size_t wrappers = 0;
	uint64_t zeroed = 0;
	Elf *e = NULL;
	if (elf_version(EV_CURRENT) != EV_NONE && (e = elf_memory(b, n)) && elf_kind(e) == ELF_K_ELF) {
		size_t shstr = 0;
		Elf_Scn *scn = NULL;
		rc = elf_getshdrstrndx(e, &shstr) == 0 ? 0 : 1;
		while (rc == 0 && (scn = elf_nextscn(e, scn)) != NULL) {
			GElf_Shdr sh;
			const char *nm;
			if (!gelf_getshdr(scn, &sh) || !(nm = elf_strptr(e, shstr, sh.sh_name)) ||
			    sh.sh_type == SHT_NOBITS || !rdc_in_bounds(sh.sh_offset, sh.sh_size, n))
				continue;
			uint8_t *s = (uint8_t *)b + sh.sh_offset;
			if (!strcmp(nm, ".hip_fatbin")) {
				memset(s, 0, sh.sh_size);
				zeroed += sh.sh_size;
			} else if (!strcmp(nm, ".hipFatBinSegment")) {
				for (uint64_t o = 0; o + 24 <= sh.sh_size; o += 24, wrappers++) {
					uint32_t m = RDC_KPACK_HIPK_MAGIC, idx = (uint32_t)wrappers;
					memcpy(s + o, &m, 4);
					memcpy(s + o + 16, &idx, 4);
				}
			}
		}
	}
	if (e)
		elf_end(e);
	if (rc != 0 || !wrappers) {
		fprintf(stderr, "rdnacompat kpack hipk: %s: no ELF with .hipFatBinSegment wrappers\n", argv[3]);
		rc = 1;
	} else if ((rc = write_out(argv[2], b, n)) == 0) {
		printf("%s: %zu wrappers now HIPK, %llu bytes of .hip_fatbin zeroed\n", argv[2], wrappers,
		       (unsigned long long)zeroed);
		chmod(argv[2], 0755);
	}
	free(b);
	return rc;
}

static int cmd_extract(int argc, char **argv)
{
	if (argc != 6 || strcmp(argv[1], "-o") != 0)
		return usage(stderr, 2);
	size_t n = 0;
	char *b = rdc_read_file(argv[3], MAX_FILE, &n);
	if (!b) {
		fprintf(stderr, "rdnacompat kpack extract: %s: cannot read\n", argv[3]);
		return 1;
	}
	struct rdc_kpack k;
	struct rdc_diag d = { 0 };
	int rc = rdc_kpack_parse(b, n, &k, &d);
	const struct rdc_kpack_entry *e = rc == 0 ? rdc_kpack_find(&k, argv[4], argv[5]) : NULL;
	uint8_t *o = NULL;
	size_t len = 0;
	if (rc == 0 && !e)
		snprintf(d.msg, sizeof d.msg, "no %s for %s", argv[4], argv[5]), rc = RDC_E_NOTFOUND;
	if (rc == 0)
		rc = rdc_kpack_extract(&k, b, n, e, &o, &len, &d);
	if (rc == 0)
		rc = write_out(argv[2], o, len);
	else
		fprintf(stderr, "rdnacompat kpack extract: %s: %s\n", argv[3], d.msg), rc = 1;
	free(o);
	rdc_kpack_free(&k);
	free(b);
	return rc;
}

int rdc_cmd_kpack(int argc, char **argv)
{
	if (argc < 2 || rdc_is_help(argv[1]))
		return usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
	if (!strcmp(argv[1], "pack"))
		return cmd_pack(argc - 1, argv + 1);
	if (!strcmp(argv[1], "split"))
		return cmd_split(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ref"))
		return cmd_ref(argc - 1, argv + 1);
	if (!strcmp(argv[1], "hipk"))
		return cmd_hipk(argc - 1, argv + 1);
	if (!strcmp(argv[1], "extract"))
		return cmd_extract(argc - 1, argv + 1);
	return usage(stderr, 2);
}
