/* SPDX-License-Identifier: MIT */
/*
 * fmtmatch.c — format strings as patterns over pasted text (fmtmatch.h).
 * Sections: compiling a pattern into tokens, matching (a small backtracking
 * matcher: only %s and {} holes backtrack, at most HOLE_MAX characters
 * each), text cleaning.
 */
#include "fmtmatch.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

enum { FMT_LIT, FMT_WS, FMT_STR, FMT_INT, FMT_HEX, FMT_FLT, FMT_CHR };

#define HOLE_MAX 256

static bool word_char(int c)
{
	return isalnum(c) || c == '_';
}

static bool blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* ---- compiling ------------------------------------------------------------------- */

/* A conversion at p ('%'): its token kind, *len its length; -1 for none. */
static int conversion(const char *p, size_t *len)
{
	const char *q = p + 1;
	while (*q && strchr("-+ #0", *q))
		q++;
	if (*q == '*')
		q++;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q == '.') {
		q++;
		if (*q == '*')
			q++;
		while (isdigit((unsigned char)*q))
			q++;
	}
	while (*q && strchr("hlzjtL", *q))
		q++;
	int k = -1;
	switch (*q) {
	case 's': k = FMT_STR; break;
	case 'd': case 'i': case 'u': k = FMT_INT; break;
	case 'x': case 'X': case 'o': case 'p': k = FMT_HEX; break;
	case 'f': case 'g': case 'e': case 'G': case 'E': k = FMT_FLT; break;
	case 'c': k = FMT_CHR; break;
	default: return -1;
	}
	*len = (size_t)(q - p) + 1;
	return k;
}

static void push(struct rdc_fmt *f, size_t *cap, int kind, int c)
{
	if (f->n == *cap) {
		*cap = *cap ? *cap * 2 : 32;
		f->tok = rdc_xrealloc(f->tok, *cap * sizeof *f->tok);
	}
	f->tok[f->n].kind = (unsigned char)kind;
	f->tok[f->n].c = (unsigned char)tolower(c);
	f->n++;
}

int rdc_fmt_compile(const char *pat, struct rdc_fmt *f)
{
	memset(f, 0, sizeof *f);
	size_t cap = 0, len = strlen(pat);
	while (len && blank((unsigned char)pat[len - 1]))
		len--;
	const char *p = pat, *end = pat + len;
	while (p < end && blank((unsigned char)*p))
		p++;
	size_t word = 0, best = 0;
	const char *wstart = NULL, *bstart = NULL;
	while (p < end) {
		size_t l = 1;
		int k = -1;
		if (*p == '%' && p[1] == '%') {
			push(f, &cap, FMT_LIT, '%');
			l = 2;
		} else if (*p == '%' && (k = conversion(p, &l)) >= 0 && p + l <= end) {
			push(f, &cap, k, 0);
		} else if (*p == '{' && p[1] == '}') {
			push(f, &cap, FMT_STR, 0);
			l = 2;
		} else if (blank((unsigned char)*p)) {
			while (p + l < end && blank((unsigned char)p[l]))
				l++;
			push(f, &cap, FMT_WS, ' ');
		} else {
			l = 1;
			push(f, &cap, FMT_LIT, (unsigned char)*p);
			if (isalnum((unsigned char)*p))
				f->literals++;
		}
		/* the anchor: the longest run of literal letters and digits */
		if (l == 1 && isalnum((unsigned char)*p) && (k < 0)) {
			if (!word)
				wstart = p;
			word++;
			if (word > best && word < sizeof f->anchor) {
				best = word;
				bstart = wstart;
			}
		} else {
			word = 0;
		}
		p += l;
	}
	if (!f->literals) {
		rdc_fmt_free(f);
		return -1;
	}
	/* a leading %s or {} (and the blank after it) matches the empty string in a search
	 * for the rest: drop it, or every offset of the text starts a match attempt */
	size_t lead = 0;
	while (lead < f->n && (f->tok[lead].kind == FMT_STR || f->tok[lead].kind == FMT_WS))
		lead++;
	memmove(f->tok, f->tok + lead, (f->n - lead) * sizeof *f->tok);
	f->n -= lead;
	for (size_t i = 0; i < best; i++)
		f->anchor[i] = (char)tolower((unsigned char)bstart[i]);
	f->anchor[best] = '\0';
	return 0;
}

void rdc_fmt_free(struct rdc_fmt *f)
{
	free(f->tok);
	memset(f, 0, sizeof *f);
}

/* ---- matching ---------------------------------------------------------------------- */

/* Does tokens [k, n) match at s?  *end gets the end of the match. */
static bool match_at(const struct rdc_fmt *f, size_t k, const char *s, const char **end)
{
	while (k < f->n) {
		const struct rdc_fmt_tok *t = &f->tok[k];
		switch (t->kind) {
		case FMT_LIT:
			if (tolower((unsigned char)*s) == t->c) {
				s++;
			} else if (*s == '\n' && s[1] && tolower((unsigned char)s[1]) == t->c) {
				s += 2;    /* hard-wrapped between two characters */
			} else {
				return false;
			}
			k++;
			break;
		case FMT_WS:
			if (!blank((unsigned char)*s))
				return false;
			while (blank((unsigned char)*s))
				s++;
			k++;
			break;
		case FMT_STR:
			if (k + 1 == f->n) {
				/* a last hole takes the rest of the line: what the program filled in */
				while (*s && *s != '\n')
					s++;
				k++;
				break;
			}
			for (size_t i = 0; i <= HOLE_MAX; i++) {
				if (match_at(f, k + 1, s + i, end))
					return true;
				if (!s[i] || s[i] == '\n')
					break;
			}
			return false;
		case FMT_INT: {
			const char *q = s + (*s == '-' || *s == '+');
			if (!isdigit((unsigned char)*q))
				return false;
			while (isdigit((unsigned char)*q))
				q++;
			s = q;
			k++;
			break;
		}
		case FMT_HEX: {
			const char *q = s;
			if (!strncmp(q, "(nil)", 5)) {
				s = q + 5;
				k++;
				break;
			}
			if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && isxdigit((unsigned char)q[2]))
				q += 2;
			if (!isxdigit((unsigned char)*q))
				return false;
			while (isxdigit((unsigned char)*q))
				q++;
			s = q;
			k++;
			break;
		}
		case FMT_FLT: {
			const char *q = s + (*s == '-' || *s == '+');
			const char *st = q;
			while (isdigit((unsigned char)*q) || *q == '.')
				q++;
			if (q == st)
				return false;
			if ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) ||
			    ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
				q += 2;
				while (isdigit((unsigned char)*q))
					q++;
			}
			s = q;
			k++;
			break;
		}
		default: /* FMT_CHR */
			if (!*s || *s == '\n')
				return false;
			s++;
			k++;
			break;
		}
	}
	*end = s;
	return true;
}

bool rdc_fmt_find(const struct rdc_fmt *f, const char *text, const char *folded, size_t from, size_t *ms,
		  size_t *me)
{
	if (!f->n || (folded && from == 0 && f->anchor[0] && !strstr(folded, f->anchor)))
		return false;
	const struct rdc_fmt_tok *first = &f->tok[0], *last = &f->tok[f->n - 1];
	bool wb_start = first->kind == FMT_LIT && word_char(first->c);
	bool wb_end = last->kind == FMT_LIT && word_char(last->c);
	for (size_t i = from; text[i]; i++) {
		if (first->kind == FMT_LIT && tolower((unsigned char)text[i]) != first->c)
			continue;
		if (wb_start && i > 0 && word_char((unsigned char)text[i - 1]))
			continue;
		const char *e;
		if (!match_at(f, 0, text + i, &e))
			continue;
		if (wb_end && word_char((unsigned char)*e))
			continue;
		*ms = i;
		*me = (size_t)(e - text);
		return true;
	}
	return false;
}

/* ---- text ---------------------------------------------------------------------------- */

char *rdc_text_clean(const char *in)
{
	size_t n = strlen(in);
	char *out = rdc_xmalloc(n + 1), *o = out;
	for (const char *p = in; *p;) {
		if (*p == '\r') {
			p++;
		} else if (*p == '\033' && p[1] == '[') {
			/* CSI: parameters and intermediates, then one final byte 0x40-0x7e */
			p += 2;
			while (*p && (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x40)
				p++;
			if (*p && (unsigned char)*p >= 0x40 && (unsigned char)*p <= 0x7e)
				p++;
		} else if (*p == '\033' && p[1] == ']') {
			/* OSC: up to BEL or ESC \ */
			p += 2;
			while (*p && *p != '\a' && !(*p == '\033' && p[1] == '\\'))
				p++;
			p += *p == '\a' ? 1 : *p ? 2 : 0;
		} else if (*p == '\033' && p[1]) {
			p += 2;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

char *rdc_text_fold(const char *text)
{
	char *out = rdc_xmalloc(strlen(text) + 1), *o = out;
	for (const char *p = text; *p; p++)
		if (*p != '\n')
			*o++ = (char)tolower((unsigned char)*p);
	*o = '\0';
	return out;
}

unsigned rdc_text_line(const char *text, size_t off)
{
	unsigned n = 1;
	for (size_t i = 0; i < off && text[i]; i++)
		n += text[i] == '\n';
	return n;
}
