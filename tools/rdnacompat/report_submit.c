/* SPDX-License-Identifier: MIT */
/*
 * report_submit.c — the prefilled new-issue link of a report
 * (report_submit.h): percent-encoding (RFC 3986: all but the unreserved
 * characters), the body (a header naming the full file, the report in a
 * code block), and trimming whole lines from the end until the link fits.
 */
#include "report_submit.h"

#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

static void enc(struct rdc_sbuf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
		    c == '.' || c == '_' || c == '~') {
			rdc_sb_addn(b, (const char *)&c, 1);
		} else {
			char e[3] = { '%', hex[c >> 4], hex[c & 15] };
			rdc_sb_addn(b, e, 3);
		}
	}
}

/* The link with the first `keep` bytes of text (whole lines), `left` lines left out. */
static char *make(const char *base, const char *title, const char *text, size_t keep, size_t left,
		  const char *path)
{
	struct rdc_sbuf body = { 0 }, url = { 0 };
	rdc_sb_printf(&body,
		      "Card report written by `rdnacompat report --submit` (schema: tables/reports/SCHEMA.md). "
		      "Maintainers: `rdnacompat db add FILE` validates it and adds it as a row (docs/DB.md).\n\n");
	if (left)
		rdc_sb_printf(&body,
			      "**%zu line(s) at the end were left out to fit the link; the full report is `%s` on the "
			      "reporter's machine: please attach it.**\n\n",
			      left, path);
	rdc_sb_add(&body, "```\n");
	rdc_sb_addn(&body, text, keep);
	if (keep && text[keep - 1] != '\n')
		rdc_sb_add(&body, "\n");
	rdc_sb_add(&body, "```\n");
	rdc_sb_printf(&url, "%s%stitle=", base, strchr(base, '?') ? "&" : "?");
	enc(&url, title, strlen(title));
	rdc_sb_add(&url, "&body=");
	enc(&url, body.s, body.len);
	rdc_sb_free(&body);
	return url.s;
}

char *rdc_report_submit_url(const char *base, const char *title, const char *text, const char *path, size_t cap,
			    size_t *trimmed)
{
	size_t keep = strlen(text), left = 0;
	for (;;) {
		char *u = make(base, title, text, keep, left, path);
		if (strlen(u) <= cap) {
			*trimmed = left;
			return u;
		}
		free(u);
		if (!keep)
			return NULL;
		/* drop the last whole line */
		size_t k = keep - 1;
		while (k > 0 && text[k - 1] != '\n')
			k--;
		keep = k;
		left++;
	}
}
