/* SPDX-License-Identifier: MIT */
/*
 * json_out.c — the tool's streaming JSON writer (see json_out.h).  Strings
 * are escaped per RFC 8259 and sanitised to valid UTF-8, since kernel names
 * and entry ids come from untrusted files.
 */
#include "json_out.h"

#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void rdc_json_init(struct rdc_json *j, FILE *f)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->first[0] = true;
}

void rdc_json_buffer(struct rdc_json *j, size_t size)
{
	if (j->buf || size < 256)
		return;
	j->buf = malloc(size);
	j->cap = j->buf ? size : 0;
	j->len = 0;
}

void rdc_json_flush(struct rdc_json *j)
{
	if (j->len)
		fwrite_unlocked(j->buf, 1, j->len, j->f);
	j->len = 0;
}

/* Every byte goes through these two: into the buffer when there is one,
 * else straight to the stream. */
static void put(struct rdc_json *j, const void *p, size_t n)
{
	if (!j->buf) {
		fwrite_unlocked(p, 1, n, j->f);
		return;
	}
	if (j->len + n > j->cap) {
		rdc_json_flush(j);
		if (n > j->cap) {
			fwrite_unlocked(p, 1, n, j->f);
			return;
		}
	}
	memcpy(j->buf + j->len, p, n);
	j->len += n;
}

static void putch(struct rdc_json *j, char c)
{
	if (!j->buf) {
		fputc_unlocked(c, j->f);
		return;
	}
	if (j->len == j->cap)
		rdc_json_flush(j);
	j->buf[j->len++] = c;
}

#define PUTS(j, lit) put((j), "" lit, sizeof(lit) - 1)

/* Separator before a value (not after a key). */
static void sep(struct rdc_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		putch(j, ',');
	j->first[j->depth] = false;
}

static void open_(struct rdc_json *j, char c)
{
	sep(j);
	putch(j, c);
	if (j->depth + 1 < RDC_JSON_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct rdc_json *j, char c)
{
	putch(j, c);
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

/* Escape `n` bytes of `s` as a JSON string body (no quotes) into j's output. */
static void escape(struct rdc_json *j, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	if (j->buf && j->cap - j->len >= n) {
		/* the common case, printable ASCII: copied as it is checked */
		char *o = j->buf + j->len;
		size_t i = 0;
		for (; i < n; i++) {
			unsigned c = p[i];
			if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
				break;
			o[i] = (char)c;
		}
		j->len += i;
		p += i;
		n -= i;
	}
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
			put(j, p + run, i - run);
		switch (c) {
		case '"': PUTS(j, "\\\""); break;
		case '\\': PUTS(j, "\\\\"); break;
		case '\b': PUTS(j, "\\b"); break;
		case '\f': PUTS(j, "\\f"); break;
		case '\n': PUTS(j, "\\n"); break;
		case '\r': PUTS(j, "\\r"); break;
		case '\t': PUTS(j, "\\t"); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				char u[8];
				snprintf(u, sizeof u, "\\u%04x", c);
				put(j, u, 6);
			} else {
				PUTS(j, "\\ufffd"); /* not valid UTF-8 */
			}
			break;
		}
		i++;
		run = i;
	}
	if (n > run)
		put(j, p + run, n - run);
}

void rdc_json_keyn(struct rdc_json *j, const char *k, size_t n)
{
	sep(j);
	putch(j, '"');
	escape(j, k, n);
	PUTS(j, "\":");
	j->after_key = true;
}

void rdc_json_strn(struct rdc_json *j, const char *s, size_t n)
{
	if (!s) {
		rdc_json_null(j);
		return;
	}
	sep(j);
	putch(j, '"');
	escape(j, s, n);
	putch(j, '"');
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
	put(j, buf + i, sizeof buf - i);
}

void rdc_json_i64(struct rdc_json *j, int64_t v)
{
	char buf[24];
	int n = snprintf(buf, sizeof buf, "%" PRId64, v);
	sep(j);
	put(j, buf, (size_t)n);
}

void rdc_json_f64(struct rdc_json *j, double v)
{
	if (!isfinite(v)) { /* JSON has no NaN or infinity */
		rdc_json_null(j);
		return;
	}
	char buf[40];
	int n = snprintf(buf, sizeof buf, "%.9g", v);
	sep(j);
	put(j, buf, (size_t)n);
}

void rdc_json_bool(struct rdc_json *j, bool v)
{
	sep(j);
	if (v)
		PUTS(j, "true");
	else
		PUTS(j, "false");
}

void rdc_json_null(struct rdc_json *j)
{
	sep(j);
	PUTS(j, "null");
}

void rdc_json_end(struct rdc_json *j)
{
	putch(j, '\n');
	rdc_json_flush(j);
	free(j->buf);
	j->buf = NULL;
	j->cap = 0;
}
