/* SPDX-License-Identifier: MIT */
/*
 * sim_coverage.c — `rdnacompat sim --coverage [--json] [--target PROC]
 * FILE...`: for each code object in the files (bundle entries of host ELFs
 * and bundle files, bare code objects) whose processor the execution engine
 * runs (gfx103x, gfx11), the instructions of its .text the engine cannot
 * execute yet (mnemonic, count, first offset), from rdc_exec_coverage()
 * (tools/simgpu/exec/coverage.c: decode only, no simulator); then a summary
 * over all of them: N of M distinct instructions executable, K
 * instructions, and the missing instructions by count; and the engine's
 * opcode table per generation (rdc_exec_optable: of the opcodes LLVM
 * decodes in the compute formats, how many are executable, how many left
 * out on purpose).
 *
 * --target PROC keeps the code objects a PROC card runs as they are: those
 * built for PROC and those built for the generic target PROC belongs to
 * (tables/isa.tsv: gfx1030 runs gfx10-3-generic code, gfx1100 and gfx1151
 * gfx11-generic code); the listing says which generic it took in.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/tables.h"

#include "codeobj_walk.h"
#include "json_out.h"
#include "sim_coverage.h"
#include "tool_util.h"

#include "../simgpu/exec/exec.h"

struct mn { char *name; bool ok; uint64_t count, first; unsigned cos; };

struct tally { struct mn *v; size_t n, cap; };

static struct mn *find(struct tally *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct mn *v = realloc(t->v, cap * sizeof *v);
		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	char *dup = strdup(name);
	if (!dup)
		return NULL;
	t->v[t->n] = (struct mn){ dup, false, 0, UINT64_MAX, 0 };
	return &t->v[t->n++];
}

static void tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	memset(t, 0, sizeof *t);
}

static int by_count(const void *a, const void *b)
{
	const struct mn *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

struct cov {
	bool json;
	const char *target;     /* only this processor, or NULL */
	const char *generic;    /* and the generic target it runs, or NULL */
	size_t generic_cos;     /* code objects taken in for the generic */
	struct rdc_json j;
	struct tally all;       /* over every code object */
	struct tally one;       /* the current code object */
	size_t cos, skipped;
	uint64_t words, bad_words;
	bool nomem;
};

static void on_inst(void *ctx, const char *mnemonic, bool executable, uint64_t count, uint64_t first)
{
	struct cov *c = ctx;
	struct mn *m = find(&c->one, mnemonic);
	if (!m) {
		c->nomem = true;
		return;
	}
	m->ok = executable;
	m->count += count;
	if (first < m->first)
		m->first = first;
}

static int on_co(const struct rdc_co_ref *r, void *arg)
{
	struct cov *c = arg;
	unsigned gfx = rdc_co_engine_gen(r->proc);
	bool generic = c->generic && !strcmp(c->generic, r->proc);
	if (!gfx || (c->target && strcmp(c->target, r->proc) && !generic)) {
		c->skipped++;
		return 0;
	}
	c->generic_cos += generic;
	const uint8_t *text;
	size_t len;
	uint64_t addr;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	char where[160];
	if (r->bundle < 0)
		snprintf(where, sizeof where, "code object (%s)", r->proc);
	else
		snprintf(where, sizeof where, "bundle %ld entry %ld %.*s", r->bundle, r->entry,
			 (int)(r->id_len > 100 ? 100 : r->id_len), r->id);
	if (rdc_co_text(r->data, r->size, &text, &len, &addr, &d)) {
		fprintf(stderr, "rdnacompat sim --coverage: %s: %s\n", where, d.msg);
		c->skipped++;
		return 0;
	}
	c->one.n = 0;
	long n = rdc_exec_coverage(gfx, text, len, on_inst, c);
	if (n < 0 || c->nomem) {
		fprintf(stderr, "rdnacompat sim --coverage: out of memory\n");
		return 2;
	}
	c->cos++;
	c->words += (uint64_t)n;
	size_t ok = 0;
	for (size_t i = 0; i < c->one.n; i++) {
		struct mn *m = &c->one.v[i], *a = find(&c->all, m->name);
		if (!a)
			return 2;
		a->ok = m->ok;
		a->count += m->count;
		a->cos++;
		ok += m->ok;
		if (!m->ok)
			c->bad_words += m->count;
	}
	qsort(c->one.v, c->one.n, sizeof *c->one.v, by_count);
	if (c->json) {
		rdc_json_obj(&c->j);
		rdc_json_key(&c->j, "bundle");
		rdc_json_i64(&c->j, r->bundle);
		rdc_json_key(&c->j, "entry");
		rdc_json_i64(&c->j, r->entry);
		rdc_json_key(&c->j, "id");
		rdc_json_strn(&c->j, r->id, r->id_len);
		rdc_json_key(&c->j, "processor");
		rdc_json_str(&c->j, r->proc);
		rdc_json_key(&c->j, "instructions");
		rdc_json_u64(&c->j, (uint64_t)n);
		rdc_json_key(&c->j, "distinct");
		rdc_json_u64(&c->j, c->one.n);
		rdc_json_key(&c->j, "executable");
		rdc_json_u64(&c->j, ok);
		rdc_json_key(&c->j, "missing");
		rdc_json_arr(&c->j);
		for (size_t i = 0; i < c->one.n; i++) {
			if (c->one.v[i].ok)
				continue;
			rdc_json_obj(&c->j);
			rdc_json_key(&c->j, "mnemonic");
			rdc_json_str(&c->j, c->one.v[i].name);
			rdc_json_key(&c->j, "count");
			rdc_json_u64(&c->j, c->one.v[i].count);
			rdc_json_key(&c->j, "first");
			rdc_json_u64(&c->j, c->one.v[i].first);
			rdc_json_obj_end(&c->j);
		}
		rdc_json_arr_end(&c->j);
		rdc_json_obj_end(&c->j);
	} else {
		printf("  %s: %ld instructions, %zu of %zu distinct executable\n", where, n, ok,
		       c->one.n);
		for (size_t i = 0; i < c->one.n; i++)
			if (!c->one.v[i].ok)
				printf("    not executable: %-36s %8" PRIu64 "  first at .text+0x%" PRIx64 "\n",
				       c->one.v[i].name, c->one.v[i].count, c->one.v[i].first);
	}
	for (size_t i = 0; i < c->one.n; i++)
		free(c->one.v[i].name);
	c->one.n = 0;
	return 0;
}

/* The engine generations the report covers: the target's, or both. */
static bool gen_wanted(const struct cov *c, unsigned g)
{
	return !c->target || rdc_co_engine_gen(c->target) == g;
}

static void usage(FILE *f)
{
	fputs("usage: rdnacompat sim --coverage [--json] [--target PROC] FILE...\n"
	      "\n"
	      "Lists, per code object in each FILE (a program or library with offload bundles, a\n"
	      "bundle file, a code object), the instructions the simulated card's execution engine\n"
	      "cannot execute yet: mnemonic, count, first offset in .text.  Code objects of\n"
	      "processors the engine does not run (other than gfx103x, gfx11) are skipped.\n"
	      "The summary: N of M distinct instructions executable, K instructions, and the\n"
	      "instructions not executable over all code objects by count.\n"
	      "\n"
	      "  --json           one JSON document\n"
	      "  --target PROC    only the code objects a PROC card runs: those for PROC (gfx1030,\n"
	      "                   gfx1100, ...) and for the generic target PROC belongs to\n"
	      "                   (gfx10-3-generic, gfx11-generic)\n"
	      "\n"
	      "exit: 0 every instruction is executable, 1 some are not, 2 usage or unreadable file\n",
	      f);
}

int rdc_sim_coverage(int argc, char **argv)
{
	struct cov c;
	memset(&c, 0, sizeof c);
	int nfiles = 0;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	if (!files)
		return 2;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (rdc_is_help(a)) {
			usage(stdout);
			free(files);
			return 0;
		} else if (!strcmp(a, "--json")) {
			c.json = true;
		} else if (!strcmp(a, "--target") && i + 1 < argc) {
			c.target = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "rdnacompat sim --coverage: unknown option '%s'\n", a);
			usage(stderr);
			free(files);
			return 2;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (c.target) {
		const struct rdc_isa *isa = rdc_isa_find(rdc_tables_builtin(), c.target);
		if (isa && !isa->generic && isa->generic_target && rdc_co_engine_gen(isa->generic_target))
			c.generic = isa->generic_target;
	}
	if (!nfiles) {
		fprintf(stderr, "rdnacompat sim --coverage: no file given\n");
		usage(stderr);
		free(files);
		return 2;
	}
	int ret = 0;
	if (c.json) {
		rdc_json_init(&c.j, stdout);
		rdc_json_obj(&c.j);
		rdc_json_key(&c.j, "target");
		rdc_json_str(&c.j, c.target);
		rdc_json_key(&c.j, "generic_target");
		rdc_json_str(&c.j, c.generic);
		rdc_json_key(&c.j, "files");
		rdc_json_arr(&c.j);
	}
	for (int f = 0; f < nfiles; f++) {
		size_t cos = c.cos, skipped = c.skipped, gcos = c.generic_cos;
		if (c.json) {
			rdc_json_obj(&c.j);
			rdc_json_key(&c.j, "path");
			rdc_json_str(&c.j, files[f]);
			rdc_json_key(&c.j, "code_objects");
			rdc_json_arr(&c.j);
		} else {
			printf("%s:\n", files[f]);
		}
		struct rdc_diag d;
		rdc_diag_clear(&d);
		int rc = rdc_co_walk(files[f], on_co, &c, &d);
		if (c.json) {
			rdc_json_arr_end(&c.j);
			rdc_json_key(&c.j, "skipped");
			rdc_json_u64(&c.j, c.skipped - skipped);
			rdc_json_key(&c.j, "generic_code_objects");
			rdc_json_u64(&c.j, c.generic_cos - gcos);
			rdc_json_key(&c.j, "error");
			rdc_json_str(&c.j, rc ? (d.msg[0] ? d.msg : "failed") : NULL);
			rdc_json_obj_end(&c.j);
		} else {
			printf("%s: %zu code object%s of the engine's processors", files[f], c.cos - cos,
			       c.cos - cos == 1 ? "" : "s");
			if (c.generic_cos - gcos)
				printf(" (%zu for %s, which %s runs)", c.generic_cos - gcos, c.generic, c.target);
			if (c.skipped - skipped)
				printf(", %zu of other processors skipped", c.skipped - skipped);
			printf("\n");
		}
		if (rc) {
			fprintf(stderr, "rdnacompat sim --coverage: %s: %s\n", files[f], d.msg[0] ? d.msg : "failed");
			ret = 2;
		}
	}
	size_t ok = 0;
	for (size_t i = 0; i < c.all.n; i++)
		ok += c.all.v[i].ok;
	qsort(c.all.v, c.all.n, sizeof *c.all.v, by_count);
	if (c.json) {
		rdc_json_arr_end(&c.j);
		rdc_json_key(&c.j, "summary");
		rdc_json_obj(&c.j);
		rdc_json_key(&c.j, "code_objects");
		rdc_json_u64(&c.j, c.cos);
		rdc_json_key(&c.j, "skipped");
		rdc_json_u64(&c.j, c.skipped);
		rdc_json_key(&c.j, "generic_code_objects");
		rdc_json_u64(&c.j, c.generic_cos);
		rdc_json_key(&c.j, "distinct");
		rdc_json_u64(&c.j, c.all.n);
		rdc_json_key(&c.j, "executable");
		rdc_json_u64(&c.j, ok);
		rdc_json_key(&c.j, "instructions");
		rdc_json_u64(&c.j, c.words);
		rdc_json_key(&c.j, "not_executable_instructions");
		rdc_json_u64(&c.j, c.bad_words);
		rdc_json_key(&c.j, "opcode_table");
		rdc_json_obj(&c.j);
		for (unsigned g = 10; g <= 11; g++) {
			if (!gen_wanted(&c, g))
				continue;
			struct rdc_exec_optable ot;
			rdc_exec_optable(g, &ot);
			rdc_json_key(&c.j, g == 10 ? "gfx10.3" : "gfx11");
			rdc_json_obj(&c.j);
			rdc_json_key(&c.j, "opcodes");
			rdc_json_u64(&c.j, ot.opcodes);
			rdc_json_key(&c.j, "executable");
			rdc_json_u64(&c.j, ot.executable);
			rdc_json_key(&c.j, "out_of_scope");
			rdc_json_u64(&c.j, ot.out_of_scope);
			rdc_json_obj_end(&c.j);
		}
		rdc_json_obj_end(&c.j);
		rdc_json_key(&c.j, "missing");
		rdc_json_arr(&c.j);
		for (size_t i = 0; i < c.all.n; i++) {
			if (c.all.v[i].ok)
				continue;
			rdc_json_obj(&c.j);
			rdc_json_key(&c.j, "mnemonic");
			rdc_json_str(&c.j, c.all.v[i].name);
			rdc_json_key(&c.j, "count");
			rdc_json_u64(&c.j, c.all.v[i].count);
			rdc_json_key(&c.j, "code_objects");
			rdc_json_u64(&c.j, c.all.v[i].cos);
			rdc_json_obj_end(&c.j);
		}
		rdc_json_arr_end(&c.j);
		rdc_json_obj_end(&c.j);
		rdc_json_obj_end(&c.j);
		rdc_json_end(&c.j);
	} else {
		if (c.target && c.generic)
			printf("target %s: code objects for %s and for %s (the generic target %s runs: %zu)\n",
			       c.target, c.target, c.generic, c.target, c.generic_cos);
		printf("summary: %zu of %zu distinct instructions executable, %" PRIu64 " instructions "
		       "(%" PRIu64 " not executable) in %zu code objects (%zu skipped)\n",
		       ok, c.all.n, c.words, c.bad_words, c.cos, c.skipped);
		for (size_t i = 0; i < c.all.n; i++)
			if (!c.all.v[i].ok)
				printf("  not executable: %-36s %8" PRIu64 " in %u code object%s\n", c.all.v[i].name,
				       c.all.v[i].count, c.all.v[i].cos, c.all.v[i].cos == 1 ? "" : "s");
		for (unsigned g = 10; g <= 11; g++) {
			if (!gen_wanted(&c, g))
				continue;
			struct rdc_exec_optable ot;
			rdc_exec_optable(g, &ot);
			printf("engine %s: %u of %u opcodes of the compute formats executable (%u out of scope: "
			       "exports, interpolation, images, GWS, halts, trap-handler instructions)\n",
			       g == 10 ? "gfx10.3" : "gfx11", ot.executable, ot.opcodes, ot.out_of_scope);
		}
	}
	if (!ret && c.bad_words)
		ret = 1;
	tally_free(&c.all);
	tally_free(&c.one);
	free(files);
	return ret;
}
