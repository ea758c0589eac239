/* SPDX-License-Identifier: MIT */
/*
 * tablegen.c — compiles tables/{isa,compat,cards,kernels}.tsv into
 * build/gen/tables_data.c: const arrays and rdc_tables_builtin().
 * Usage: tablegen TABLES_DIR OUT.c
 *
 * Rows are parsed and validated by the same code as the run-time override
 * loader (shim/core/tables_parse.c); any bad row prints "file:line: reason"
 * and fails the build.  Output order is file order.  Every compat edge is
 * then proven from tables/features.tsv (derive.c): an edge the features do
 * not support fails the build with the features that break it.  The
 * features themselves are not compiled in (nothing at run time needs them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/features.h"
#include "rdnacompat/tables_parse.h"

#include "derive.h"

static void cstr(FILE *f, const char *s)
{
	if (!s) {
		fputs("NULL", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\%03o", *p);
		else if (*p == '?' && p[1] == '?')
			fputs("?\"\"", f); /* no trigraphs */
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static const char *b(bool v) { return v ? "true" : "false"; }

/* prefix, then s as a C string literal (or NULL). */
static void put_str(FILE *f, const char *prefix, const char *s)
{
	fputs(prefix, f);
	cstr(f, s);
}

/* The comment and declaration that open array `var` from tables/<file>.tsv. */
static void open_array(FILE *f, const char *file, const char *type, const char *var)
{
	fprintf(f, "/* generated from tables/%s.tsv — do not edit */\nstatic const struct %s %s[] = {\n",
		file, type, var);
}

static void emit(FILE *f, const struct rdc_tables *t, const char *dir)
{
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n"
		   "/*\n * tables_data.c — generated from %s/isa.tsv, %s/compat.tsv, %s/cards.tsv\n"
		   " * and %s/kernels.tsv by tools/tablegen — do not edit.\n */\n",
		dir, dir, dir, dir);
	fputs("#include <stddef.h>\n#include \"rdnacompat/tables.h\"\n\n", f);

	if (t->n_isa) {
		open_array(f, "isa", "rdc_isa", "isa");
		for (size_t i = 0; i < t->n_isa; i++) {
			const struct rdc_isa *r = &t->isa[i];
			put_str(f, "\t{ .name = ", r->name);
			put_str(f, ", .family = ", r->family);
			fprintf(f, ", .mach = 0x%03x, .generic = %s", r->mach, b(r->generic));
			put_str(f, ", .generic_target = ", r->generic_target);
			fprintf(f,
				", .min_generic_version = %u, .default_wave = %u, .xnack_supported = %s, "
				".sramecc_supported = %s, .lds_per_workgroup = %u, .vgprs_per_simd_w32 = %u, "
				".vgprs_per_simd_w64 = %u, .vgpr_granule_w32 = %u, .vgpr_granule_w64 = %u, "
				".max_waves_per_simd = %u",
				r->min_generic_version, r->default_wave, b(r->xnack_supported),
				b(r->sramecc_supported), r->lds_per_workgroup, r->vgprs_per_simd_w32,
				r->vgprs_per_simd_w64, r->vgpr_granule_w32, r->vgpr_granule_w64,
				r->max_waves_per_simd);
			put_str(f, ", .source = ", r->source);
			fputs(" },\n", f);
		}
		fputs("};\n\n", f);
	}
	if (t->n_edges) {
		open_array(f, "compat", "rdc_compat_edge", "edges");
		for (size_t i = 0; i < t->n_edges; i++) {
			const struct rdc_compat_edge *r = &t->edges[i];
			put_str(f, "\t{ .device = ", r->device);
			put_str(f, ", .code = ", r->code);
			fprintf(f, ", .rank = %u", r->rank);
			put_str(f, ", .condition = ", r->condition);
			put_str(f, ", .source = ", r->source);
			fputs(" },\n", f);
		}
		fputs("};\n\n", f);
	}
	if (t->n_cards) {
		open_array(f, "cards", "rdc_card", "cards");
		for (size_t i = 0; i < t->n_cards; i++) {
			const struct rdc_card *r = &t->cards[i];
			fprintf(f, "\t{ .vendor = 0x%04x, .device = 0x%04x, .revision = %d", r->vendor,
				r->device, r->revision);
			put_str(f, ", .name = ", r->name);
			put_str(f, ", .target = ", r->target);
			fprintf(f, ", .status = %d", r->status);
			put_str(f, ", .kind = ", r->kind);
			put_str(f, ", .source = ", r->source);
			fputs(" },\n", f);
		}
		fputs("};\n\n", f);
	}
	if (t->n_bad) {
		open_array(f, "badkernels", "rdc_bad_kernel", "bad");
		for (size_t i = 0; i < t->n_bad; i++) {
			const struct rdc_bad_kernel *r = &t->bad[i];
			put_str(f, "\t{ .target = ", r->target);
			put_str(f, ", .code_target = ", r->code_target);
			put_str(f, ", .kernel_glob = ", r->kernel_glob);
			put_str(f, ", .action = ", r->action);
			put_str(f, ", .reason = ", r->reason);
			put_str(f, ", .source = ", r->source);
			fputs(" },\n", f);
		}
		fputs("};\n\n", f);
	}
	if (t->n_rules) {
		open_array(f, "kernels", "rdc_kernel_rule", "rules");
		for (size_t i = 0; i < t->n_rules; i++) {
			const struct rdc_kernel_rule *r = &t->rules[i];
			put_str(f, "\t{ .pattern = ", r->pattern);
			put_str(f, ", .scope = ", r->scope);
			put_str(f, ", .scope_lib = ", r->scope_lib);
			put_str(f, ", .scope_sha256 = ", r->scope_sha256);
			put_str(f, ", .targets = ", r->targets);
			put_str(f, ", .runtime = ", r->runtime);
			fprintf(f, ", .rt_min = %uu, .rt_max = %uu, .action = %d", r->rt_min, r->rt_max,
				r->action);
			put_str(f, ", .fallback = ", r->fallback);
			put_str(f, ", .prefer = ", r->prefer);
			fprintf(f, ", .provisional = %s", b(r->provisional));
			put_str(f, ", .reason = ", r->reason);
			put_str(f, ", .source = ", r->source);
			fputs(" },\n", f);
		}
		fputs("};\n\n", f);
	}
	fputs("static const struct rdc_tables builtin = {\n", f);
	fprintf(f, "\t.isa = %s, .n_isa = %zu,\n", t->n_isa ? "isa" : "NULL", t->n_isa);
	fprintf(f, "\t.edges = %s, .n_edges = %zu,\n", t->n_edges ? "edges" : "NULL", t->n_edges);
	fprintf(f, "\t.cards = %s, .n_cards = %zu,\n", t->n_cards ? "cards" : "NULL", t->n_cards);
	fprintf(f, "\t.bad = %s, .n_bad = %zu,\n", t->n_bad ? "bad" : "NULL", t->n_bad);
	fprintf(f, "\t.rules = %s, .n_rules = %zu,\n", t->n_rules ? "rules" : "NULL", t->n_rules);
	fputs("\t.owned_ = NULL,\n};\n\n"
	      "const struct rdc_tables *rdc_tables_builtin(void)\n{\n\treturn &builtin;\n}\n", f);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: tablegen TABLES_DIR OUT.c\n");
		return 2;
	}
	struct rdc_tables_build bld;
	rdc_tables_build_init(&bld);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	for (int k = 0; k < RDC_TAB_N; k++) {
		if (!rdc_table_has_file((enum rdc_table_kind)k))
			continue; /* [badkernels]: override files only */
		char path[4096];
		int n = snprintf(path, sizeof path, "%s/%s.tsv", argv[1], rdc_table_kind_name(k));
		if (n < 0 || (size_t)n >= sizeof path) {
			fprintf(stderr, "tablegen: path too long\n");
			return 1;
		}
		char *text = NULL;
		size_t len = 0;
		int rc = rdc_tables_read_file(path, &text, &len, &d);
		if (!rc)
			rc = rdc_tables_parse_tsv(&bld, (enum rdc_table_kind)k, text, len, path, &d);
		free(text);
		if (rc) {
			fprintf(stderr, "%s\n", d.msg);
			rdc_tables_build_free(&bld);
			return 1;
		}
	}
	if (rdc_tables_validate(&bld, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		rdc_tables_build_free(&bld);
		return 1;
	}
	/* prove every edge from LLVM's features */
	char fpath[4096];
	int fn = snprintf(fpath, sizeof fpath, "%s/features.tsv", argv[1]);
	if (fn < 0 || (size_t)fn >= sizeof fpath) {
		fprintf(stderr, "tablegen: path too long\n");
		rdc_tables_build_free(&bld);
		return 1;
	}
	char *ftext = NULL;
	size_t flen = 0;
	struct rdc_features feats;
	memset(&feats, 0, sizeof feats);
	int frc = rdc_tables_read_file(fpath, &ftext, &flen, &d);
	if (!frc)
		frc = rdc_features_parse(&feats, ftext, flen, fpath, &d);
	free(ftext);
	struct rdc_tg_stats st;
	if (frc) {
		fprintf(stderr, "%s\n", d.msg);
	} else if ((frc = rdc_tg_prove(&bld, &feats, stderr, &st)) > 0) {
		fprintf(stderr, "tablegen: %d compat edge failure%s: the features (%s) do not support %s; "
			"docs/TABLES.md says how an edge is proven\n", frc, frc == 1 ? "" : "s", fpath,
			frc == 1 ? "it" : "them");
	}
	size_t n_feat = feats.n_feat;
	rdc_features_free(&feats);
	if (frc) {
		rdc_tables_build_free(&bld);
		return 1;
	}
	FILE *f = fopen(argv[2], "w");
	if (!f) {
		perror(argv[2]);
		rdc_tables_build_free(&bld);
		return 1;
	}
	emit(f, &bld.t, argv[1]);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		perror(argv[2]);
		rdc_tables_build_free(&bld);
		return 1;
	}
	fprintf(stderr,
		"tablegen: %zu isa, %zu compat, %zu cards, %zu kernel rules; %zu features prove %u edges "
		"(%u with a per-kernel condition, %u opt-in; %u exempt and %u moot workarounds)\n",
		bld.t.n_isa, bld.t.n_edges, bld.t.n_cards, bld.t.n_rules, n_feat, st.edges, st.conditional,
		st.opt_in, st.exempt, st.moot);
	rdc_tables_build_free(&bld);
	return 0;
}
