/* SPDX-License-Identifier: MIT */
/*
 * json_out.c — the tool's streaming JSON writer (see json_out.h).  Strings
 * are escaped per RFC 8259 and sanitised to valid UTF-8, since kernel names
 * and entry ids come from untrusted files.
 */
#include "json_out.h"

#include <math.h>
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
		fputc_unlocked(',', j->f);
	j->first[j->depth] = false;
}

static void open_(struct rdc_json *j, char c)
{
	sep(j);
	fputc_unlocked(c, j->f);
	if (j->depth + 1 < RDC_JSON_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct rdc_json *j, char c)
{
	fputc_unlocked(c, j->f);
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

/* Escape `n` bytes of `s` as a JSON string body (no quotes) into `f`. */
static void escape(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t run = 0; /* start of the pending run of bytes written as they are */
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			continue;
		}
		size_t l = c >= 0x80 ? utf8_len(p + i, n - i) : 0;
		if (l) {
			i += l;
			continue;
		}
		if (i > run)
			fwrite_unlocked(p + run, 1, i - run, f);
		switch (c) {
		case '"': fputs_unlocked("\\\"", f); break;
		case '\\': fputs_unlocked("\\\\", f); break;
		case '\b': fputs_unlocked("\\b", f); break;
		case '\f': fputs_unlocked("\\f", f); break;
		case '\n': fputs_unlocked("\\n", f); break;
		case '\r': fputs_unlocked("\\r", f); break;
		case '\t': fputs_unlocked("\\t", f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\u%04x", c);
			else
				fputs_unlocked("\\ufffd", f); /* not valid UTF-8 */
			break;
		}
		i++;
		run = i;
	}
	if (n > run)
		fwrite_unlocked(p + run, 1, n - run, f);
}

void rdc_json_key(struct rdc_json *j, const char *k)
{
	sep(j);
	fputc_unlocked('"', j->f);
	escape(j->f, k, strlen(k));
	fputs_unlocked("\":", j->f);
	j->after_key = true;
}

void rdc_json_strn(struct rdc_json *j, const char *s, size_t n)
{
	if (!s) {
		rdc_json_null(j);
		return;
	}
	sep(j);
	fputc_unlocked('"', j->f);
	escape(j->f, s, n);
	fputc_unlocked('"', j->f);
}

void rdc_json_str(struct rdc_json *j, const char *s)
{
	rdc_json_strn(j, s, s ? strlen(s) : 0);
}

void rdc_json_u64(struct rdc_json *j, uint64_t v)
{
	char buf[24];
	size_t i = sizeof buf;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sep(j);
	fwrite_unlocked(buf + i, 1, sizeof buf - i, j->f);
}

void rdc_json_i64(struct rdc_json *j, int64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRId64, v);
}

void rdc_json_f64(struct rdc_json *j, double v)
{
	if (!isfinite(v)) { /* JSON has no NaN or infinity */
		rdc_json_null(j);
		return;
	}
	sep(j);
	fprintf(j->f, "%.9g", v);
}

void rdc_json_bool(struct rdc_json *j, bool v)
{
	sep(j);
	fputs_unlocked(v ? "true" : "false", j->f);
}

void rdc_json_null(struct rdc_json *j)
{
	sep(j);
	fputs_unlocked("null", j->f);
}

void rdc_json_end(struct rdc_json *j)
{
	fputc_unlocked('\n', j->f);
}
