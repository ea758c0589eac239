/* SPDX-License-Identifier: MIT */
/*
 * fmtmatch.h — a printf format string (or a plain message) as a pattern
 * over text the way users paste it: case-insensitive; a conversion (%s, %d,
 * %x, %p, %f, %c, with flags, width, precision and length) or a `{}` hole
 * matches what the program filled in (%s and {} within one line); a run of
 * blanks matches any run of blanks and line breaks (a line wrapped at a
 * space), and a line break may fall between any two literal characters (a
 * terminal's hard wrap); a pattern that begins or ends with a letter, digit
 * or '_' matches only at a word boundary.  rdc_text_clean removes ANSI
 * escape sequences and carriage returns first.
 */
#ifndef RDC_TOOL_FMTMATCH_H
#define RDC_TOOL_FMTMATCH_H

#include <stdbool.h>
#include <stddef.h>

struct rdc_fmt_tok {
	unsigned char kind;        /* FMT_* in fmtmatch.c */
	unsigned char c;           /* the literal, lower case */
};

struct rdc_fmt {
	size_t n;
	struct rdc_fmt_tok *tok;
	char anchor[48];           /* the longest literal word, lower case: a prefilter */
	size_t literals;           /* literal letters and digits */
};

/* Compile `pat` (leading and trailing blanks and line breaks dropped).
 * Returns 0, or -1 when nothing literal is left. */
int rdc_fmt_compile(const char *pat, struct rdc_fmt *f);
void rdc_fmt_free(struct rdc_fmt *f);

/* The first match of f in text at or after offset `from`: true with the
 * match's offsets [*ms, *me).  `folded` is rdc_text_fold(text) or NULL:
 * with it, a search from 0 first checks that the pattern's anchor word
 * occurs at all. */
bool rdc_fmt_find(const struct rdc_fmt *f, const char *text, const char *folded, size_t from, size_t *ms,
		  size_t *me);

/* text without ANSI escape sequences (CSI, OSC, two-byte ESC) and '\r'
 * (malloc'd). */
char *rdc_text_clean(const char *text);
/* text in lower case without line breaks (malloc'd): the anchor prefilter's view. */
char *rdc_text_fold(const char *text);

/* 1-based line number of offset `off` in text. */
unsigned rdc_text_line(const char *text, size_t off);

#endif
