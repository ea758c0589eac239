/* SPDX-License-Identifier: MIT */
/*
 * exec_optable.c — the opcode table of the compute formats, generated from
 * the engine's own tables (isa_optab_gen.c, which tools/isagen/gen_optab.py harvests from
 * Debian's LLVM): every opcode LLVM decodes for gfx1030 and gfx1100 (with
 * gfx1150's additions) in SOP1/SOP2/SOPC/SOPK/SOPP, SMEM, VOP1/VOP2/VOP3/
 * VOP3P/VOPC, VOPD, DS, FLAT/GLOBAL/SCRATCH and MUBUF, with three
 * columns: decoded (it is in the tables), executed (the semantic core has
 * a handler: rdc_sem_lookup) and tested (a passing instruction test's body
 * holds it on that generation: exec_harness.c).
 *
 * The check: an opcode that is not executed and tested must be left out on
 * purpose (tools/simgpu/exec/scope.c says why) or be listed, with what it
 * lacks, in tests/exec/not-yet.txt; an entry of that list whose opcode is
 * now executed and tested everywhere it exists is stale and fails too, so
 * the list only shrinks.  MIMG (image) opcodes are outside the compute
 * formats: counted apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_harness.h"
#include "wave.h"

static const enum rdc_fmt compute[] = {
	RDC_FMT_SOP1, RDC_FMT_SOP2, RDC_FMT_SOPC, RDC_FMT_SOPK, RDC_FMT_SOPP, RDC_FMT_SMEM,
	RDC_FMT_VOP1, RDC_FMT_VOP2, RDC_FMT_VOP3, RDC_FMT_VOP3P, RDC_FMT_VOPC, RDC_FMT_VOPD,
	RDC_FMT_VOPDY, RDC_FMT_DS, RDC_FMT_FLAT, RDC_FMT_GLOBAL, RDC_FMT_SCRATCH, RDC_FMT_MUBUF,
	RDC_FMT_MTBUF, RDC_FMT_MTBUFHI,
};
#define NCOMPUTE (sizeof compute / sizeof compute[0])

struct row {
	bool present[2];     /* decoded on gfx10 / gfx11 */
	char where[2][48];   /* "VOP3 0x174" (first format) */
	bool listed;         /* in not-yet.txt */
	char why[160];
};

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

int xt_optable(const bool *tested10, const bool *tested11, const char *notyet, const char *out_md)
{
	const bool *tested[2] = { tested10, tested11 };
	struct row *rows = calloc(RDC_OP_COUNT, sizeof *rows);
	if (!rows)
		return 1;
	int bad = 0;
	for (unsigned g = 0; g < 2; g++) {
		for (size_t f = 0; f < NCOMPUTE; f++) {
			const struct rdc_optab *t = &rdc_optab[g][compute[f]];
			for (unsigned o = 0; t->op && o < t->size; o++) {
				uint16_t op = t->op[o];
				if (!op || rows[op].present[g])
					continue;
				rows[op].present[g] = true;
				snprintf(rows[op].where[g], sizeof rows[op].where[g], "%s %s 0x%x", g ? "gfx1100" : "gfx1030",
					 rdc_fmt_name[compute[f]], o);
			}
		}
	}
	FILE *fp = fopen(notyet, "r");
	if (!fp) {
		printf("FAIL opcode table: cannot read %s\n", notyet);
		free(rows);
		return 1;
	}
	char line[512];
	unsigned lineno = 0, listed = 0;
	while (fgets(line, sizeof line, fp)) {
		lineno++;
		char *hash = strchr(line, '#'), *why = "";
		if (hash) {
			*hash = 0;
			why = trim(hash + 1);
		}
		char *name = trim(line);
		if (!*name)
			continue;
		uint16_t op = 0;
		for (uint16_t i = 1; i < RDC_OP_COUNT; i++)
			if (!strcmp(rdc_op_name[i], name))
				op = i;
		if (!op || (!rows[op].present[0] && !rows[op].present[1])) {
			printf("FAIL opcode table: %s:%u: '%s' is no opcode of the compute formats\n", notyet, lineno, name);
			bad++;
			continue;
		}
		rows[op].listed = true;
		snprintf(rows[op].why, sizeof rows[op].why, "%s", why);
		listed++;
	}
	fclose(fp);
	FILE *md = out_md ? fopen(out_md, "w") : NULL;
	if (md)
		fprintf(md, "| operation | gfx1030 | gfx1100 | executed | tested gfx1030 | tested gfx1100 | status |\n"
			    "|---|---|---|---|---|---|---|\n");
	unsigned n[2] = { 0, 0 }, ex[2] = { 0, 0 }, te[2] = { 0, 0 }, sc[2] = { 0, 0 }, ny[2] = { 0, 0 };
	for (uint16_t op = 1; op < RDC_OP_COUNT; op++) {
		struct row *r = &rows[op];
		if (!r->present[0] && !r->present[1])
			continue;
		bool exe = rdc_sem_lookup(op) != NULL;
		const char *scope = rdc_exec_scope(op);
		bool done = exe;
		for (unsigned g = 0; g < 2; g++) {
			if (!r->present[g])
				continue;
			n[g]++;
			ex[g] += exe;
			te[g] += tested[g][op];
			sc[g] += scope != NULL;
			done &= tested[g][op];
			if (!scope && !(exe && tested[g][op]))
				ny[g]++;
		}
		const char *status = done ? "ok" : scope ? "out of scope" : r->listed ? "not yet" : "MISSING";
		if (!done && !scope && !r->listed) {
			printf("FAIL opcode table: %s (%s%s%s) is %s and not in %s\n", rdc_op_name[op], r->where[0],
			       r->present[0] && r->present[1] ? ", " : "", r->where[1],
			       !exe ? "not executed" : "not tested", notyet);
			bad++;
		}
		if (done && r->listed) {
			printf("FAIL opcode table: %s is executed and tested now: remove it from %s\n", rdc_op_name[op],
			       notyet);
			bad++;
		}
		if (scope && r->listed) {
			printf("FAIL opcode table: %s is out of scope (scope.c): remove it from %s\n", rdc_op_name[op],
			       notyet);
			bad++;
		}
		if (md)
			fprintf(md, "| %s | %s | %s | %s | %s | %s | %s%s%s |\n", rdc_op_name[op],
				r->present[0] ? r->where[0] : "-", r->present[1] ? r->where[1] : "-", exe ? "yes" : "no",
				!r->present[0] ? "-" : tested[0][op] ? "yes" : "no",
				!r->present[1] ? "-" : tested[1][op] ? "yes" : "no", status,
				scope ? ": " : r->listed && !done ? ": " : "", scope ? scope : r->listed && !done ? r->why : "");
	}
	if (md)
		fclose(md);
	for (unsigned g = 0; g < 2; g++)
		printf("opcode table %s: %u opcodes of the compute formats decoded, %u executed, %u tested, "
		       "%u out of scope, %u not yet (%s: %u entries)\n",
		       g ? "gfx1100" : "gfx1030", n[g], ex[g], te[g], sc[g], ny[g], "not-yet.txt", listed);
	free(rows);
	return bad ? 1 : 0;
}
