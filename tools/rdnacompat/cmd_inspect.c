/* SPDX-License-Identifier: MIT */
/*
 * cmd_inspect.c — `rdnacompat inspect`: what device code a file carries and,
 * for a GPU, what the shim would run per bundle (native / mapped / missing)
 * and why.  Reads host ELFs (.hip_fatbin), raw bundles and raw code objects
 * through container.h (mmap); only the entries a decision needs are parsed
 * past their ELF header, so a 1.3 GB library costs a few pages per bundle.
 *
 * Exit: 0 every bundle native or mapped (or listing only), 1 any missing,
 * 2 usage error or unreadable input (the message names the file and the byte
 * offset).  Text or --json (schema in docs/INSPECT.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/codeobj.h"
#include "rdnacompat/container.h"
#include "rdnacompat/policy.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

#include "commands.h"
#include "inspect.h"
#include "inspect_dir.h"
#include "rdnacompat/boolstr.h"
#include "inspect_gpu.h"
#include "inspect_kpack.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rdnacompat inspect [--gpu TARGET | --card NAME | --pci ID] [--kernels] [--opt-in] [--json]\n"
		"                          [--stats] [--sha256] FILE...\n"
		"\n"
		"List the offload bundles and code objects in each FILE (host ELF with .hip_fatbin,\n"
		"raw bundle, or raw AMDGPU code object) and, for a GPU, say per bundle whether its\n"
		"code runs natively, runs mapped from a compatible entry (every kernel checked\n"
		"against the device's limits), or is missing.\n"
		"\n"
		"  --gpu TARGET   device target id: gfx1031, gfx90a:xnack-, amdgcn-amd-amdhsa--gfx1030\n"
		"  --card NAME    a card from the card table (\"RX 6700 XT\"); must name one target\n"
		"  --pci ID       PCI id [VENDOR:]DEVICE[:REV], hex (1002:73df, 73df, 73df:c1)\n"
		"  --kernels      list each kernel with its resources and verdict\n"
		"  --opt-in       also try compatibility edges marked opt-in (as the shim does\n"
		"                 with RDNACOMPAT_OPT_IN=1, which inspect also honours)\n"
		"  --json         one JSON object on stdout (see docs/INSPECT.md)\n"
		"  --stats        at the end, on stderr: code objects hashed and kernel names\n"
		"                 demangled for the kernel rules (both only when a rule needs them)\n"
		"  --sha256       with --kernels --json: each bundle's \"kernels_sha256\", the SHA-256\n"
		"                 of the entry whose kernels are listed (what a rule's sha256: scope\n"
		"                 names; tools/fallback-scope.py)\n"
		"\n"
		"Tables: the built-in ones, merged with $RDNACOMPAT_TABLES when set.\n"
		"Exit: 0 all native or mapped (or no GPU given), 1 any bundle missing,\n"
		"      2 usage error or unreadable input (file and byte offset named).\n");
}

/* ---- errors ------------------------------------------------------------------ */

/* "PATH: at byte N: what", whatever form the diag came in. */
/* Text output is one line per item: control characters in a file name
 * (or a message quoting one) become \xNN (JSON escapes its own). */
static void escape_ctl(const char *s, char *out, size_t n)
{
	size_t k = 0;
	for (; *s && k + 5 < n; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch < 0x20 || ch == 0x7f)
			k += (size_t)snprintf(out + k, n - k, "\\x%02x", ch);
		else
			out[k++] = (char)ch;
	}
	out[k] = 0;
}

static void report_diag(struct ictx *c, const struct rdc_diag *d, uint64_t base)
{
	const char *m = d->msg;
	if (!strncmp(m, "at byte ", 8)) {
		const char *colon = strstr(m, ": ");
		if (colon)
			m = colon + 2;
	}
	size_t pl = strlen(c->path);
	if (!strncmp(m, c->path, pl) && !strncmp(m + pl, ": ", 2))
		m += pl + 2;
	if (!*m)
		m = rdc_strerror(d->code);
	char msg[512];
	if (d->offset != RDC_NO_OFFSET)
		snprintf(msg, sizeof msg, "%s: at byte %" PRIu64 ": %s", c->path, base + d->offset, m);
	else
		snprintf(msg, sizeof msg, "%s: %s", c->path, m);
	char esc[1024];
	escape_ctl(msg, esc, sizeof esc);
	fprintf(stderr, "rdnacompat inspect: %s\n", esc);
	if (c->json) {
		rdc_json_key(&c->j, "error");
		rdc_json_str(&c->j, msg);
		rdc_json_key(&c->j, "error_offset");
		if (d->offset != RDC_NO_OFFSET)
			rdc_json_u64(&c->j, base + d->offset);
		else
			rdc_json_null(&c->j);
	}
}

static void entry_fill(struct entry_view *v, const uint8_t *data, uint64_t size, bool device,
		       const struct rdc_target *t)
{
	v->device = device;
	v->size = size;
	v->cov = 0;
	v->kernels = -1;
	if (t)
		v->target = *t;
	if (!device || !data || !size)
		return;
	struct rdc_codeobj h;
	if (rdc_codeobj_parse(data, (size_t)size, RDC_CO_HEADER_ONLY, &h, NULL) == 0) {
		v->cov = h.cov;
		if (!t)
			v->target = h.target;
		rdc_codeobj_free(&h);
	}
}

static void count_kernels(struct entry_view *v, const uint8_t *data)
{
	struct rdc_codeobj co;
	if (v->device && data && v->size &&
	    rdc_codeobj_parse(data, (size_t)v->size, RDC_CO_METADATA, &co, NULL) == 0) {
		v->kernels = (long)co.n_kernels;
		rdc_codeobj_free(&co);
	}
}

/* --kernels: every kernel checked; with --json also its .args, read by the
 * policy's own parse rather than a second one.  Kernels are held as the
 * shim holds them (RDC_POLICY_HOLD): an entry whose only failures are
 * instruction conditions is shown mapped, those kernels held. */
static unsigned policy_flags(const struct ictx *c)
{
	unsigned f = c->flags | RDC_POLICY_HOLD;
	if (c->kernels)
		f |= RDC_POLICY_KERNELS | (c->json ? RDC_POLICY_ARGS : 0);
	return f;
}

static void tally(struct ictx *c, const struct rdc_choice *ch)
{
	c->bundles++;
	if (!ch)
		return;
	if (ch->verdict == RDC_VERDICT_NATIVE)
		c->native++;
	else if (ch->verdict == RDC_VERDICT_MAPPED)
		c->mapped++;
	else
		c->missing++;
}

/* Write one bundle (the choice, or without a GPU its kernels with --kernels),
 * count it, and free the choice. */
static void emit_and_tally(struct ictx *c, const struct bundle_view *bv, struct rdc_choice *ch)
{
	rdc_inspect_emit_bundle(c, bv, ch);
	if (!ch && c->kernels && !c->json)
		rdc_inspect_list_kernels(c, bv);
	tally(c, ch);
	if (ch)
		rdc_choice_free(ch);
}

static int on_bundle(size_t index, uint64_t offset, const struct rdc_bundle *b, void *arg)
{
	struct ictx *c = arg;
	struct bundle_view bv = {
		.index = index, .offset = c->base + offset, .size = b->extent,
		.compressed = b->compressed, .n = b->n_entries,
	};
	bv.e = calloc(b->n_entries ? b->n_entries : 1, sizeof *bv.e);
	bv.data = calloc(b->n_entries ? b->n_entries : 1, sizeof *bv.data);
	if (!bv.e || !bv.data) {
		free(bv.e);
		free(bv.data);
		c->rc = rdc_diag_set(&c->d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		return 1;
	}
	for (size_t i = 0; i < b->n_entries; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		struct entry_view *v = &bv.e[i];
		v->id = e->id;
		v->id_len = e->id_len;
		v->offset = b->compressed ? UINT64_MAX : bv.offset + e->offset;
		bool dev = e->parsed.kind != RDC_KIND_HOST && e->parsed.kind != RDC_KIND_UNKNOWN &&
			   e->size > 0 && rdc_is_codeobj(e->data, e->size);
		entry_fill(v, e->data, e->size, dev, e->parsed.has_target ? &e->parsed.target : NULL);
		bv.data[i] = e->data;
	}
	struct rdc_choice ch;
	bool have = false;
	if (c->have_dev) {
		struct rdc_diag d;
		rdc_diag_clear(&d);
		int rc = rdc_policy_choose(c->t, &c->dev, b, policy_flags(c), &ch, &d);
		if (rc) {
			rdc_choice_free(&ch);
			free(bv.e);
			free(bv.data);
			c->rc = rc;
			c->d = d;
			c->d.offset = RDC_NO_OFFSET;
			return 1;
		}
		have = true;
		/* a `prefer` row over the choice, as the shim applies it (the
		 * runtime is not known here: every range counts) */
		struct rdc_prefer_ctx px = { .lib = c->path,
					     .provisional = (c->flags & RDC_POLICY_OPT_IN) != 0 };
		if (rdc_policy_prefer(c->t, &c->dev, b, (c->kernels ? RDC_POLICY_KERNELS : 0) | c->flags,
				      &px, &ch, &d) < 0) {
			rdc_choice_free(&ch);
			free(bv.e);
			free(bv.data);
			c->rc = RDC_E_NOMEM;
			c->d = d;
			return 1;
		}
		long ei = ch.entry >= 0 ? ch.entry : ch.refused_entry;
		if (ch.co && ei >= 0 && (size_t)ei < bv.n)
			bv.e[ei].kernels = (long)ch.co->n_kernels;
	} else {
		for (size_t i = 0; i < bv.n; i++)
			count_kernels(&bv.e[i], bv.data[i]);
	}
	emit_and_tally(c, &bv, have ? &ch : NULL);
	free(bv.e);
	free(bv.data);
	return 0;
}

static int do_codeobj(struct ictx *c, const struct rdc_container *ct)
{
	struct entry_view ev = { .offset = ct->offset };
	entry_fill(&ev, ct->data, ct->size, true, NULL);
	const uint8_t *data = ct->data;
	struct bundle_view bv = {
		.index = 0, .offset = ct->offset, .size = ct->size, .is_codeobj = true,
		.n = 1, .e = &ev, .data = &data,
	};
	struct rdc_choice ch;
	bool have = false;
	if (c->have_dev) {
		struct rdc_diag d;
		rdc_diag_clear(&d);
		int rc = rdc_policy_choose_codeobj(c->t, &c->dev, ct->data, (size_t)ct->size,
						   policy_flags(c), &ch, &d);
		if (rc) {
			rdc_choice_free(&ch);
			c->d = d;
			return rc;
		}
		have = true;
		if (ch.co)
			ev.kernels = (long)ch.co->n_kernels;
	} else {
		count_kernels(&ev, data);
	}
	if (c->json) {
		rdc_json_key(&c->j, "bundles");
		rdc_json_arr(&c->j);
	}
	emit_and_tally(c, &bv, have ? &ch : NULL);
	if (c->json)
		rdc_json_arr_end(&c->j);
	return 0;
}

/* Returns 0, or 2 when the file is unreadable. */
static int do_file(struct ictx *c, const char *path)
{
	struct rdc_container ct;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	c->path = path;
	c->rc = 0;
	rdc_diag_clear(&c->d);
	size_t before = c->bundles;
	if (c->json) {
		rdc_json_obj(&c->j);
		rdc_json_key(&c->j, "path");
		rdc_json_str(&c->j, path);
	}
	int kp = rdc_inspect_kpack_sniff(path);
	if (kp) {   /* TheRock's split device code (inspect_kpack.c) */
		int krc = rdc_inspect_kpack(c, path, kp);
		if (krc)
			report_diag(c, &c->d, 0);
		if (c->json)
			rdc_json_obj_end(&c->j);
		return krc ? 2 : 0;
	}
	int rc = rdc_container_open(path, &ct, &d);
	if (rc) {
		if (c->json) {
			rdc_json_key(&c->j, "kind");
			rdc_json_null(&c->j);
			rdc_json_key(&c->j, "section");
			rdc_json_null(&c->j);
		}
		report_diag(c, &d, 0);
		if (c->json)
			rdc_json_obj_end(&c->j);
		rdc_container_close(&ct);
		return 2;
	}
	const char *kind = rdc_container_kind_name(ct.kind);
	c->files_read++;
	char epath[1024];
	escape_ctl(path, epath, sizeof epath);
	const char *section = ct.has_fatbin ? ".hip_fatbin" : ct.has_fallback ? RDC_FALLBACK_SECTION : NULL;
	if (c->json) {
		rdc_json_key(&c->j, "kind");
		rdc_json_str(&c->j, kind);
		rdc_json_key(&c->j, "section");
		rdc_json_str(&c->j, section);
	} else if (ct.kind == RDC_CONT_HOST_ELF) {
		if (ct.has_fatbin)
			fprintf(c->out, "%s: %s, .hip_fatbin at byte %" PRIu64 " (%" PRIu64 " bytes)\n", epath,
				kind, ct.offset, ct.size);
		else if (ct.has_fallback)
			fprintf(c->out, "%s: %s, rdnacompat's fallback kernels (section %s) at byte %" PRIu64
				" (%" PRIu64 " bytes)\n", epath, kind, section, ct.offset, ct.size);
		else
			fprintf(c->out, "%s: %s without .hip_fatbin (no device code)\n", epath, kind);
	} else {
		fprintf(c->out, "%s: %s, %" PRIu64 " bytes\n", epath, kind, ct.file_size);
	}

	int ret = 0;
	if (ct.kind == RDC_CONT_CODE_OBJECT) {
		rc = do_codeobj(c, &ct);
		if (rc) {
			report_diag(c, &c->d, ct.offset);
			ret = 2;
		}
	} else if ((ct.kind == RDC_CONT_HOST_ELF || ct.kind == RDC_CONT_BUNDLE) && ct.data && ct.size) {
		c->base = ct.offset;
		if (c->json) {
			rdc_json_key(&c->j, "bundles");
			rdc_json_arr(&c->j);
		}
		rc = rdc_bundle_scan(ct.data, ct.size, on_bundle, c, &d);
		if (c->json)
			rdc_json_arr_end(&c->j);
		if (rc) {
			report_diag(c, c->rc ? &c->d : &d, ct.offset);
			ret = 2;
		}
	} else if (c->json) {
		rdc_json_key(&c->j, "bundles");
		rdc_json_arr(&c->j);
		rdc_json_arr_end(&c->j);
	}
	if (!c->json && ct.kind != RDC_CONT_CODE_OBJECT && ct.data)
		fprintf(c->out, "%s: %zu bundle%s\n", path, c->bundles - before,
			c->bundles - before == 1 ? "" : "s");
	if (c->json)
		rdc_json_obj_end(&c->j);
	rdc_container_close(&ct);
	return ret;
}

int rdc_cmd_inspect(int argc, char **argv)
{
	struct ictx c;
	memset(&c, 0, sizeof c);
	c.out = stdout;
	/* Each parsed code object's metadata is allocated and freed in turn:
	 * keep the freed memory for the next one instead of handing it back to
	 * the kernel (and taking fresh zeroed pages) every time. */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	const char *gpu = NULL, *card = NULL, *pci = NULL;
	/* Options and files in any order; everything after "--" is a file. */
	char **files = calloc((size_t)argc, sizeof *files);
	int nfiles = 0;
	if (!files) {
		fprintf(stderr, "rdnacompat inspect: out of memory\n");
		return 2;
	}
	bool only_files = false;
	int opt_in = -1;         /* --opt-in; -1: from RDNACOMPAT_OPT_IN */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_files || a[0] != '-' || !a[1]) {
			files[nfiles++] = argv[i];
		} else if (!strcmp(a, "--")) {
			only_files = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			free(files);
			return 0;
		} else if (!strcmp(a, "--gpu") || !strcmp(a, "--card") || !strcmp(a, "--pci")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "rdnacompat inspect: %s needs a value\n", a);
				free(files);
				return 2;
			}
			const char **slot = a[2] == 'g' ? &gpu : a[2] == 'c' ? &card : &pci;
			*slot = argv[++i];
		} else if (!strncmp(a, "--gpu=", 6)) {
			gpu = a + 6;
		} else if (!strncmp(a, "--card=", 7)) {
			card = a + 7;
		} else if (!strncmp(a, "--pci=", 6)) {
			pci = a + 6;
		} else if (!strcmp(a, "--kernels")) {
			c.kernels = true;
		} else if (!strcmp(a, "--opt-in")) {
			opt_in = 1;
		} else if (!strcmp(a, "--json")) {
			c.json = true;
		} else if (!strcmp(a, "--stats")) {
			c.stats = true;
		} else if (!strcmp(a, "--sha256")) {
			c.sha256 = true;
		} else {
			fprintf(stderr, "rdnacompat inspect: unknown option '%s'\n", a);
			usage(stderr);
			free(files);
			return 2;
		}
	}
	if (nfiles == 0) {
		usage(stderr);
		free(files);
		return 2;
	}
	if ((gpu != NULL) + (card != NULL) + (pci != NULL) > 1) {
		fprintf(stderr, "rdnacompat inspect: give one of --gpu, --card, --pci\n");
		free(files);
		return 2;
	}

	/* Opt-in edges as the shim decides them: --opt-in, else
	 * RDNACOMPAT_OPT_IN with the shim's spellings (anything else: off). */
	if (opt_in < 0) {
		const char *v = getenv("RDNACOMPAT_OPT_IN");
		opt_in = v && *v ? rdc_bool_parse(v) : 0;
		if (opt_in < 0) {
			fprintf(stderr, "rdnacompat inspect: warning: RDNACOMPAT_OPT_IN=%s is not "
				"0|1|off|on|no|yes|false|true (using 0, as the shim does)\n", v);
			opt_in = 0;
		}
	}
	if (opt_in)
		c.flags |= RDC_POLICY_OPT_IN;

	struct rdc_tables *loaded = NULL;
	const char *tp = getenv("RDNACOMPAT_TABLES");
	if (tp && *tp) {
		struct rdc_diag d;
		rdc_diag_clear(&d);
		if (rdc_tables_load(tp, &loaded, &d)) {
			fprintf(stderr, "rdnacompat inspect: RDNACOMPAT_TABLES: %s\n", d.msg);
			free(files);
			return 2;
		}
		c.t = loaded;
	} else {
		c.t = rdc_tables_builtin();
	}

	char err[1024];
	int rc = rdc_inspect_resolve_gpu(c.t, gpu, card, pci, &c.dev, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "rdnacompat inspect: %s\n", err);
		rdc_tables_free(loaded);
		free(files);
		return 2;
	}
	c.have_dev = rc > 0;
	if (c.have_dev)
		rdc_target_format(&c.dev, c.dev_text, sizeof c.dev_text);

	if (c.json) {
		rdc_json_init(&c.j, stdout);
		rdc_json_buffer(&c.j, 1 << 16); /* nothing else writes to stdout with --json */
		rdc_json_obj(&c.j);
		rdc_json_key(&c.j, "gpu");
		rdc_json_str(&c.j, c.have_dev ? c.dev_text : NULL);
		rdc_json_key(&c.j, "files");
		rdc_json_arr(&c.j);
	}
	int worst = 0;
	for (int i = 0; i < nfiles; i++)
		if ((rdc_inspect_is_dir(files[i]) ? rdc_inspect_dir(&c, files[i], do_file)
						  : do_file(&c, files[i])) == 2)
			worst = 2;
	free(files);
	if (c.json) {
		rdc_json_arr_end(&c.j);
		rdc_json_key(&c.j, "summary");
		rdc_json_obj(&c.j);
		rdc_json_key(&c.j, "bundles"); rdc_json_u64(&c.j, c.bundles);
		if (c.have_dev) {
			rdc_json_key(&c.j, "native"); rdc_json_u64(&c.j, c.native);
			rdc_json_key(&c.j, "mapped"); rdc_json_u64(&c.j, c.mapped);
			rdc_json_key(&c.j, "missing"); rdc_json_u64(&c.j, c.missing);
		} else {
			rdc_json_key(&c.j, "native"); rdc_json_null(&c.j);
			rdc_json_key(&c.j, "mapped"); rdc_json_null(&c.j);
			rdc_json_key(&c.j, "missing"); rdc_json_null(&c.j);
		}
		rdc_json_obj_end(&c.j);
		rdc_json_obj_end(&c.j);
		rdc_json_end(&c.j);
	} else if (c.files_read == 0) {
		;   /* nothing was read: a summary of nothing would only mislead */
	} else if (c.have_dev) {
		printf("summary: %s: %zu bundles: %zu native, %zu mapped, %zu missing\n", c.dev_text,
		       c.bundles, c.native, c.mapped, c.missing);
	} else {
		printf("summary: %zu bundles (no --gpu: listing only)\n", c.bundles);
	}
	rdc_tables_free(loaded);
	if (c.stats)
		fprintf(stderr, "rdnacompat inspect: stats: %zu code object%s hashed, %zu kernel name%s demangled\n",
			c.n_hashed, c.n_hashed == 1 ? "" : "s", c.n_demangled, c.n_demangled == 1 ? "" : "s");
	if (fflush(stdout) != 0) {
		fprintf(stderr, "rdnacompat inspect: writing output: %s\n", strerror(errno));
		return 2;
	}
	if (worst)
		return worst;
	return c.missing ? 1 : 0;
}
