/* SPDX-License-Identifier: MIT */
/*
 * json_out.c — the tool's streaming JSON writer (see json_out.h).  Strings
 * are escaped per RFC 8259 and sanitised to valid UTF-8, since kernel names
 * and entry ids come from untrusted files.
 */
#include "json_out.h"

#include <inttypes.h>
#include <string.h>

void rdc_json_init(struct rdc_json *j, FILE *f)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->first[0] = true;
}

/* Separator before a value (not after a key). */
static void sep(struct rdc_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void open_(struct rdc_json *j, char c)
{
	sep(j);
	fputc(c, j->f);
	if (j->depth + 1 < RDC_JSON_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct rdc_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void rdc_json_obj(struct rdc_json *j) { open_(j, '{'); }
void rdc_json_obj_end(struct rdc_json *j) { close_(j, '}'); }
void rdc_json_arr(struct rdc_json *j) { open_(j, '['); }
void rdc_json_arr_end(struct rdc_json *j) { close_(j, ']'); }

/* Length of a valid UTF-8 sequence at s (max n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void rdc_json_escape(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		switch (c) {
		case '"': fputs("\\\"", f); i++; continue;
		case '\\': fputs("\\\\", f); i++; continue;
		case '\b': fputs("\\b", f); i++; continue;
		case '\f': fputs("\\f", f); i++; continue;
		case '\n': fputs("\\n", f); i++; continue;
		case '\r': fputs("\\r", f); i++; continue;
		case '\t': fputs("\\t", f); i++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		size_t l = utf8_len(p + i, n - i);
		if (l == 0) {
			fputs("\\ufffd", f);
			i++;
			continue;
		}
		fwrite(p + i, 1, l, f);
		i += l;
	}
}

void rdc_json_key(struct rdc_json *j, const char *k)
{
	sep(j);
	fputc('"', j->f);
	rdc_json_escape(j->f, k, strlen(k));
	fputs("\":", j->f);
	j->after_key = true;
}

void rdc_json_strn(struct rdc_json *j, const char *s, size_t n)
{
	if (!s) {
		rdc_json_null(j);
		return;
	}
	sep(j);
	fputc('"', j->f);
	rdc_json_escape(j->f, s, n);
	fputc('"', j->f);
}

void rdc_json_str(struct rdc_json *j, const char *s)
{
	rdc_json_strn(j, s, s ? strlen(s) : 0);
}

void rdc_json_u64(struct rdc_json *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

void rdc_json_i64(struct rdc_json *j, int64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRId64, v);
}

void rdc_json_bool(struct rdc_json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void rdc_json_null(struct rdc_json *j)
{
	sep(j);
	fputs("null", j->f);
}

void rdc_json_end(struct rdc_json *j)
{
	fputc('\n', j->f);
}
