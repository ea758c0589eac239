/* SPDX-License-Identifier: MIT */
/*
 * decode_dump.c — the execution engine's decoder on real code objects, for
 * tests/decode/decode-diff.py (which holds it against llvm-objdump):
 *
 *   decode_dump extract FILE DIR [EVERY [PROCS]]
 *       writes each code object of FILE that the engine has a generation
 *       for (gfx103x, gfx11) to DIR/b<bundle>-e<entry>-<proc>.co, every
 *       EVERY-th bundle only (default 1), of the processors in the comma-
 *       separated list PROCS only (default all); prints "PATH PROC" each.
 *   decode_dump decode CO
 *       decodes the .text of code object CO at every 4-byte offset and
 *       prints "ADDR OK LEN LINE": ADDR in hex (the .text load address
 *       plus the offset), OK 1 when the decoder knows the word (0: LINE is
 *       the word), LEN in bytes, LINE from rdc_disasm.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/container.h"

#include "codeobj_walk.h"
#include "wave.h"

struct ex { const char *dir; long every; const char *procs; unsigned n; };

/* Is proc in the comma-separated list (NULL or "all": every processor)? */
static bool wanted(const char *list, const char *proc)
{
	if (!list || !strcmp(list, "all"))
		return true;
	size_t n = strlen(proc);
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t k = e ? (size_t)(e - p) : strlen(p);
		if (k == n && !strncmp(p, proc, n))
			return true;
		p += k + (e != NULL);
	}
	return false;
}

static int on_co(const struct rdc_co_ref *r, void *arg)
{
	struct ex *x = arg;
	if (!rdc_co_engine_gen(r->proc) || (r->bundle >= 0 && r->bundle % x->every) || !wanted(x->procs, r->proc))
		return 0;
	char path[4096];
	snprintf(path, sizeof path, "%s/b%ld-e%ld-%s.co", x->dir, r->bundle, r->entry, r->proc);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(r->data, 1, r->size, f) != r->size || fclose(f)) {
		fprintf(stderr, "decode_dump: %s: %s\n", path, strerror(errno));
		return 2;
	}
	printf("%s %s\n", path, r->proc);
	x->n++;
	return 0;
}

static int decode(const char *path)
{
	struct rdc_container ct;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	const uint8_t *text;
	size_t len;
	uint64_t addr;
	if (rdc_container_open(path, &ct, &d) || ct.kind != RDC_CONT_CODE_OBJECT ||
	    rdc_co_text(ct.data, ct.size, &text, &len, &addr, &d)) {
		fprintf(stderr, "decode_dump: %s: %s\n", path, d.msg[0] ? d.msg : "not a code object");
		rdc_container_close(&ct);
		return 2;
	}
	uint32_t ef;
	memcpy(&ef, ct.data + 48, 4); /* e_flags */
	const char *proc = rdc_mach_to_proc((uint8_t)(ef & 0xff));
	unsigned gfx = rdc_co_engine_gen(proc ? proc : "");
	if (!gfx) {
		fprintf(stderr, "decode_dump: %s: %s is no engine target\n", path, proc ? proc : "?");
		rdc_container_close(&ct);
		return 2;
	}
	char line[1024];
	for (size_t off = 0; off + 4 <= len; off += 4) {
		struct rdc_inst in;
		int rc = rdc_decode(gfx, text + off, len - off, &in);
		if (rc == 0)
			rdc_disasm(gfx, &in, line, sizeof line);
		else {
			uint32_t w;
			memcpy(&w, text + off, 4);
			snprintf(line, sizeof line, "%08x %s", w, in.mnemonic);
		}
		printf("%" PRIx64 " %d %u %s\n", addr + off, rc == 0, in.len, line);
	}
	rdc_container_close(&ct);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "extract")) {
		struct ex x = { argv[3], argc > 4 ? atol(argv[4]) : 1, argc > 5 ? argv[5] : NULL, 0 };
		if (x.every < 1)
			x.every = 1;
		struct rdc_diag d;
		rdc_diag_clear(&d);
		int rc = rdc_co_walk(argv[2], on_co, &x, &d);
		if (rc) {
			fprintf(stderr, "decode_dump: %s: %s\n", argv[2], d.msg[0] ? d.msg : "walk failed");
			return 2;
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "decode"))
		return decode(argv[2]);
	fprintf(stderr, "usage: decode_dump extract FILE DIR [EVERY [PROCS]] | decode CO\n");
	return 2;
}
