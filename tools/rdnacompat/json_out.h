/* SPDX-License-Identifier: MIT */
/*
 * json_out.h — a tiny streaming JSON writer for the tool's --json output:
 * objects, arrays, keys, strings (escaped per RFC 8259: quotes, backslash,
 * control characters as \u00XX; invalid UTF-8 bytes as \ufffd), numbers,
 * booleans and null.  Commas are inserted automatically.
 */
#ifndef RDC_TOOL_JSON_OUT_H
#define RDC_TOOL_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RDC_JSON_DEPTH 32

struct rdc_json {
	FILE *f;
	char *buf;                  /* rdc_json_buffer: output gathered here */
	size_t len, cap;
	int depth;
	bool first[RDC_JSON_DEPTH]; /* nothing written yet at this level */
	bool after_key;
};

void rdc_json_init(struct rdc_json *j, FILE *f);
/* Gather output in a buffer of `size` bytes, written to the stream when full,
 * by rdc_json_flush and by rdc_json_end (which frees it): for a large
 * document whose writer writes nothing else to the stream meanwhile.
 * Without it (or when it cannot be allocated) every call writes through. */
void rdc_json_buffer(struct rdc_json *j, size_t size);
void rdc_json_flush(struct rdc_json *j);
void rdc_json_obj(struct rdc_json *j);      /* { */
void rdc_json_obj_end(struct rdc_json *j);  /* } */
void rdc_json_arr(struct rdc_json *j);      /* [ */
void rdc_json_arr_end(struct rdc_json *j);  /* ] */
void rdc_json_keyn(struct rdc_json *j, const char *k, size_t n);
/* inline: a literal key's length is known at compile time */
static inline void rdc_json_key(struct rdc_json *j, const char *k) { rdc_json_keyn(j, k, strlen(k)); }
void rdc_json_str(struct rdc_json *j, const char *s);          /* NULL -> null */
void rdc_json_strn(struct rdc_json *j, const char *s, size_t n);
void rdc_json_u64(struct rdc_json *j, uint64_t v);
void rdc_json_i64(struct rdc_json *j, int64_t v);
void rdc_json_f64(struct rdc_json *j, double v);               /* NaN, inf -> null */
void rdc_json_bool(struct rdc_json *j, bool v);
void rdc_json_null(struct rdc_json *j);
/* Newline after the top-level value; flushes and frees the buffer. */
void rdc_json_end(struct rdc_json *j);

#endif
