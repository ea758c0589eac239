/* SPDX-License-Identifier: MIT */
/*
 * rtcnames.c — rdc_rtcnames_parse / _find / rdc_rtcname_knows (rtcnames.h):
 * the rows of tables/rtc-names.tsv, checked as the other tables are (a
 * header naming the columns, single tabs, no empty field, processor names
 * well formed, a lib given once).
 */
#include "rdnacompat/rtcnames.h"

#include <string.h>

static bool proc_ok(const char *p, size_t n)
{
	if (n < 4 || n >= 16 || strncmp(p, "gfx", 3) != 0)
		return false;
	for (size_t i = 3; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return false;
	return true;
}

/* Split the line [s, s+n) at tabs into at most 3 fields; the count. */
static int split(const char *s, size_t n, const char *f[3], size_t fl[3])
{
	int k = 0;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '\t') {
			if (k == 3)
				return 4;
			f[k] = s + start;
			fl[k] = i - start;
			k++;
			start = i + 1;
		}
	}
	return k;
}

static int parse_row(const char *f[3], const size_t fl[3], struct rdc_rtcname *r, unsigned line,
		     struct rdc_diag *d)
{
	memset(r, 0, sizeof *r);
	if (fl[0] == 0 || fl[0] >= sizeof r->lib || memchr(f[0], '/', fl[0]))
		return rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: bad lib", line);
	memcpy(r->lib, f[0], fl[0]);
	const char *p = f[1], *end = f[1] + fl[1];
	if (end[-1] == ',')
		return rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: empty processor name", line);
	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t n = (size_t)((c ? c : end) - p);
		if (!proc_ok(p, n))
			return rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: bad processor name '%.*s'", line,
					    (int)(n < 32 ? n : 32), p);
		if (r->n_knows == RDC_RTCNAMES_KNOWS)
			return rdc_diag_set(d, RDC_E_RANGE, line, "line %u: more than %d names", line,
					    RDC_RTCNAMES_KNOWS);
		memcpy(r->knows[r->n_knows++], p, n);
		p = c ? c + 1 : end;
	}
	if (r->n_knows == 0)
		return rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: no names", line);
	return 0;
}

int rdc_rtcnames_parse(const char *text, size_t len, struct rdc_rtcnames *out, struct rdc_diag *d)
{
	if (!text || !out)
		return rdc_diag_set(d, RDC_E_INVAL, 0, "no table");
	memset(out, 0, sizeof *out);
	bool header = false;
	unsigned line = 0;
	int rc = 0;
	for (size_t pos = 0; pos < len && rc == 0;) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + 1;
		line++;
		size_t b = 0;
		while (b < n && (s[b] == ' ' || s[b] == '\r'))
			b++;
		if (b == n || s[b] == '#')
			continue;
		if (memchr(s, 0, n))
			rc = rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: NUL byte", line);
		else if (n && s[n - 1] == '\r')
			n--;
		const char *f[3];
		size_t fl[3];
		if (rc)
			break;
		if (split(s, n, f, fl) != 3 || !fl[0] || !fl[1] || !fl[2]) {
			rc = rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: want 3 non-empty tab-separated fields",
					  line);
		} else if (!header) {
			if (!(fl[0] == 3 && !memcmp(f[0], "lib", 3) && fl[1] == 5 && !memcmp(f[1], "knows", 5) &&
			      fl[2] == 6 && !memcmp(f[2], "source", 6)))
				rc = rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: header must be lib knows source",
						  line);
			header = true;
		} else if (out->n == RDC_RTCNAMES_MAX) {
			rc = rdc_diag_set(d, RDC_E_RANGE, line, "line %u: more than %d rows", line,
					  RDC_RTCNAMES_MAX);
		} else if ((rc = parse_row(f, fl, &out->rows[out->n], line, d)) == 0) {
			for (size_t i = 0; i < out->n && rc == 0; i++)
				if (!strcmp(out->rows[i].lib, out->rows[out->n].lib))
					rc = rdc_diag_set(d, RDC_E_FORMAT, line, "line %u: lib %s given twice", line,
							  out->rows[i].lib);
			out->n++;
		}
	}
	if (rc == 0 && !header)
		rc = rdc_diag_set(d, RDC_E_FORMAT, line, "no header line");
	if (rc)
		out->n = 0;
	return rc;
}

const struct rdc_rtcname *rdc_rtcnames_find(const struct rdc_rtcnames *t, const char *path)
{
	if (!t || !path)
		return NULL;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < t->n; i++) {
		size_t n = strlen(t->rows[i].lib);
		if (!strncmp(base, t->rows[i].lib, n) && (base[n] == 0 || base[n] == '.'))
			return &t->rows[i];
	}
	return NULL;
}

bool rdc_rtcname_knows(const struct rdc_rtcname *r, const char *proc)
{
	for (size_t i = 0; r && proc && i < r->n_knows; i++)
		if (!strcmp(r->knows[i], proc))
			return true;
	return false;
}
