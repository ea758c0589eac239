/* SPDX-License-Identifier: MIT */
/*
 * diagtab.c — loads the harvested diagnosis tables and finds their statuses
 * and messages in pasted text (diagtab.h).  Sections: loading (one reader
 * for both harvested tables, the classes through tsvtab.c), patterns (one
 * per distinct name or text), searching.
 */
#include "diagtab.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tool_util.h"
#include "tsvtab.h"

void rdc_unescape(char *s)
{
	char *o = s;
	for (char *p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			*o++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

/* ---- loading ------------------------------------------------------------------------ */

typedef int (*row_fn)(struct rdc_diagtab *t, char **col, const char *path, unsigned ln, struct rdc_diag *d);

/* A harvested table: `#` comments, the header `head`, rows of `ncols`
 * tab-separated non-empty fields, each given to fn. */
static int read_rows(struct rdc_diagtab *t, const char *path, const char *head, size_t ncols, row_fn fn,
		     struct rdc_diag *d)
{
	struct rdc_diag od = { 0 };
	FILE *f = rdc_fopen_input(path, &od);
	if (!f)
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "cannot read %s", od.msg);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned ln = 0;
	int rc = 0;
	bool have_head = false;
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		ln++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (!have_head) {
			if (strcmp(line, head))
				rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "header is not '%s'", head);
			have_head = true;
			continue;
		}
		char *col[8];
		size_t n = 0;
		for (char *p = line;;) {
			char *tab = strchr(p, '\t');
			if (n < 8)
				col[n] = p;
			n++;
			if (!tab)
				break;
			*tab = '\0';
			p = tab + 1;
		}
		if (n != ncols) {
			rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "%zu columns, expected %zu", n, ncols);
			break;
		}
		for (size_t i = 0; i < n && !rc; i++)
			if (!*col[i])
				rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "column %zu is empty", i + 1);
		if (!rc)
			rc = fn(t, col, path, ln, d);
	}
	free(line);
	fclose(f);
	if (!rc && !have_head)
		rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "no header line");
	return rc;
}

static const struct rdc_dclass *find_class(const struct rdc_diagtab *t, const char *id)
{
	for (size_t i = 0; i < t->n_classes; i++)
		if (!strcmp(t->classes[i].id, id))
			return &t->classes[i];
	return NULL;
}

static int class_of(const struct rdc_diagtab *t, const char *id, const char *path, unsigned ln,
		    const struct rdc_dclass **out, struct rdc_diag *d)
{
	*out = find_class(t, id);
	if (*out)
		return 0;
	if (!strcmp(id, "unreviewed"))
		return rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "row not reviewed: give it a class of error-classes.tsv");
	return rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "class '%s' is not in error-classes.tsv", id);
}

static int status_row(struct rdc_diagtab *t, char **col, const char *path, unsigned ln, struct rdc_diag *d)
{
	if (strcmp(col[0], "hip") && strcmp(col[0], "hsa"))
		return rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "kind '%s' is not hip or hsa", col[0]);
	char *end;
	long v = strtol(col[2], &end, 0);
	if (*end || end == col[2])
		return rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "value '%s' is no number", col[2]);
	const struct rdc_dclass *c;
	int rc = class_of(t, col[5], path, ln, &c, d);
	if (rc)
		return rc;
	t->statuses = rdc_xrealloc(t->statuses, (t->n_status + 1) * sizeof *t->statuses);
	struct rdc_dstatus *s = &t->statuses[t->n_status++];
	memset(s, 0, sizeof *s);
	snprintf(s->kind, sizeof s->kind, "%s", col[0]);
	s->name = rdc_xstrdup(col[1]);
	s->value_s = rdc_xstrdup(col[2]);
	s->value = v;
	s->release = rdc_xstrdup(col[3]);
	s->text = rdc_xstrdup(strcmp(col[4], "-") ? col[4] : "");
	rdc_unescape(s->text);
	s->cls = c;
	return 0;
}

static int msg_row(struct rdc_diagtab *t, char **col, const char *path, unsigned ln, struct rdc_diag *d)
{
	if (!strcmp(col[4], "ignore"))
		return 0;
	const struct rdc_dclass *c;
	int rc = class_of(t, col[4], path, ln, &c, d);
	if (rc)
		return rc;
	t->msgs = rdc_xrealloc(t->msgs, (t->n_msgs + 1) * sizeof *t->msgs);
	struct rdc_dmsg *m = &t->msgs[t->n_msgs++];
	m->lib = rdc_xstrdup(col[0]);
	m->release = rdc_xstrdup(col[1]);
	m->file = rdc_xstrdup(col[2]);
	m->text = rdc_xstrdup(col[3]);
	rdc_unescape(m->text);
	m->cls = c;
	return 0;
}

/* ---- patterns ------------------------------------------------------------------------- */

/* text without the blanks and line breaks at its ends (malloc'd): what the
 * pattern matches (fmtmatch drops them), so "x \n" and "x" are one pattern */
static char *trimmed(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		n--;
	char *o = rdc_xmalloc(n + 1);
	memcpy(o, s, n);
	o[n] = '\0';
	return o;
}

static void add_pat(struct rdc_diagtab *t, const char *raw, enum rdc_dhow how, size_t row)
{
	bool msg = how == RDC_DHOW_MESSAGE;
	char *text = trimmed(raw);
	for (size_t i = 0; i < t->n_pats; i++) {
		struct rdc_dpat *p = &t->pats[i];
		if ((p->how == RDC_DHOW_MESSAGE) != msg || strcmp(p->text, text))
			continue;
		free(text);
		for (size_t k = 0; k < p->n; k++)
			if (p->rows[k] == row)
				return;
		p->rows = rdc_xrealloc(p->rows, (p->n + 1) * sizeof *p->rows);
		p->rows[p->n++] = row;
		return;
	}
	struct rdc_dpat p = { 0 };
	if (rdc_fmt_compile(text, &p.fmt) != 0) {
		free(text);
		return;
	}
	p.text = text;
	p.how = how;
	p.rows = rdc_xmalloc(sizeof *p.rows);
	p.rows[0] = row;
	p.n = 1;
	t->pats = rdc_xrealloc(t->pats, (t->n_pats + 1) * sizeof *t->pats);
	t->pats[t->n_pats++] = p;
}

static void build_patterns(struct rdc_diagtab *t)
{
	for (size_t i = 0; i < t->n_status; i++)
		add_pat(t, t->statuses[i].name, RDC_DHOW_NAME, i);
	for (size_t i = 0; i < t->n_status; i++) {
		const char *tx = t->statuses[i].text;
		if (!*tx)
			continue;
		add_pat(t, tx, RDC_DHOW_TEXT, i);
		/* ROCR: "HSA_STATUS_ERROR_INVALID_ISA: The instruction set ..." — also the sentence alone */
		const char *colon = strstr(tx, ": ");
		if (!strcmp(t->statuses[i].kind, "hsa") && colon && !strncmp(tx, t->statuses[i].name, (size_t)(colon - tx)))
			add_pat(t, colon + 2, RDC_DHOW_TEXT, i);
	}
	for (size_t i = 0; i < t->n_msgs; i++)
		add_pat(t, t->msgs[i].text, RDC_DHOW_MESSAGE, i);
}

int rdc_diagtab_load(const char *dir, struct rdc_diagtab *t, struct rdc_diag *d)
{
	memset(t, 0, sizeof *t);
	static const char *const ccols[] = { "class", "card", "title", "check", "does", "sources", NULL };
	struct rdc_sbuf p = { 0 };
	rdc_sb_printf(&p, "%s/error-classes.tsv", dir);
	struct rdc_tsvtab ct;
	int rc = rdc_tsvtab_load(p.s, ccols, &ct, d);
	rdc_sb_free(&p);
	if (rc)
		return rc;
	t->classes = rdc_xmalloc((ct.n ? ct.n : 1) * sizeof *t->classes);
	for (size_t i = 0; i < ct.n && !rc; i++) {
		struct rdc_dclass *c = &t->classes[t->n_classes++];
		char **f[] = { &c->id, &c->card, &c->title, &c->check, &c->does, &c->sources };
		for (size_t k = 0; k < 6; k++)
			*f[k] = rdc_xstrdup(rdc_tsv_cell(&ct, i, k));
		if (strcmp(c->card, "yes") && strcmp(c->card, "possible") && strcmp(c->card, "no"))
			rc = rdc_diag_setl(d, RDC_E_FORMAT, ct.path, ct.lines[i], "card '%s' is not yes, possible or no",
					   c->card);
	}
	rdc_tsvtab_free(&ct);
	if (!rc) {
		rdc_sb_printf(&p, "%s/status.tsv", dir);
		rc = read_rows(t, p.s, "kind\tname\tvalue\trelease\ttext\tclass", 6, status_row, d);
		rdc_sb_free(&p);
	}
	if (!rc) {
		rdc_sb_printf(&p, "%s/lib-messages.tsv", dir);
		rc = read_rows(t, p.s, "lib\trelease\tfile\ttext\tclass", 5, msg_row, d);
		rdc_sb_free(&p);
	}
	if (rc) {
		rdc_diagtab_free(t);
		return rc;
	}
	build_patterns(t);
	return 0;
}

void rdc_diagtab_free(struct rdc_diagtab *t)
{
	for (size_t i = 0; i < t->n_classes; i++) {
		struct rdc_dclass *c = &t->classes[i];
		free(c->id);
		free(c->card);
		free(c->title);
		free(c->check);
		free(c->does);
		free(c->sources);
	}
	for (size_t i = 0; i < t->n_status; i++) {
		free(t->statuses[i].name);
		free(t->statuses[i].value_s);
		free(t->statuses[i].release);
		free(t->statuses[i].text);
	}
	for (size_t i = 0; i < t->n_msgs; i++) {
		free(t->msgs[i].lib);
		free(t->msgs[i].release);
		free(t->msgs[i].file);
		free(t->msgs[i].text);
	}
	for (size_t i = 0; i < t->n_pats; i++) {
		rdc_fmt_free(&t->pats[i].fmt);
		free(t->pats[i].text);
		free(t->pats[i].rows);
	}
	free(t->classes);
	free(t->statuses);
	free(t->msgs);
	free(t->pats);
	memset(t, 0, sizeof *t);
}

/* ---- searching ------------------------------------------------------------------------- */

bool rdc_diagtab_value_row(const struct rdc_diagtab *t, const struct rdc_dhit *h, size_t row)
{
	const struct rdc_dstatus *s = &t->statuses[row];
	return s->value == h->value && (h->hex || !strcmp(s->kind, "hip"));
}

static bool value_known(const struct rdc_diagtab *t, struct rdc_dhit *h)
{
	for (size_t i = 0; i < t->n_status; i++)
		if (rdc_diagtab_value_row(t, h, i))
			return true;
	return false;
}

static void push_hit(struct rdc_dhit **v, size_t *n, size_t *cap, const struct rdc_dhit *h)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = rdc_xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = *h;
}

static bool parse_number(const char *s, size_t len, long *v, bool *hex)
{
	char buf[32];
	if (!len || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	*hex = len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
	*v = strtol(buf, &end, *hex ? 16 : 10);
	return *end == '\0';
}

/* Does the line around offset `off` name HIP, HSA, ROCm or the GPU? */
static bool line_is_gpu(const char *text, size_t off)
{
	size_t s = off, e = off;
	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (text[e] && text[e] != '\n')
		e++;
	static const char *const words[] = { "hip", "hsa", "rocm", "gpu", NULL };
	for (size_t i = s; i < e; i++)
		for (size_t w = 0; words[w]; w++)
			if (!strncasecmp(text + i, words[w], strlen(words[w])))
				return true;
	return false;
}

static void value_hits(const struct rdc_diagtab *t, const char *text, struct rdc_dhit **v, size_t *n, size_t *cap)
{
	/* the whole input a number: "98", "0x100f" */
	const char *a = text;
	while (isspace((unsigned char)*a))
		a++;
	size_t len = strlen(a);
	while (len && isspace((unsigned char)a[len - 1]))
		len--;
	struct rdc_dhit h = { .pat = (size_t)-1, .how = RDC_DHOW_VALUE };
	if (parse_number(a, len, &h.value, &h.hex) && (a[0] != '-' || len > 1)) {
		h.ms = (size_t)(a - text);
		h.me = h.ms + len;
		h.line = rdc_text_line(text, h.ms);
		if (value_known(t, &h))
			push_hit(v, n, cap, &h);
		return;
	}
	regex_t re;
	if (regcomp(&re, "(code|error|status|err|hipError_t)[ \t]*[:=#(]?[ \t]*(0[xX][0-9a-fA-F]+|[0-9]{1,4})([^0-9a-zA-Z.]|$)",
		    REG_EXTENDED | REG_ICASE | REG_NEWLINE))
		return;
	regmatch_t m[3];
	size_t off = 0;
	while (text[off] && regexec(&re, text + off, 3, m, off ? REG_NOTBOL : 0) == 0) {
		size_t ns = off + (size_t)m[2].rm_so, ne = off + (size_t)m[2].rm_eo;
		struct rdc_dhit x = { .pat = (size_t)-1, .how = RDC_DHOW_VALUE, .ms = ns, .me = ne };
		if (parse_number(text + ns, ne - ns, &x.value, &x.hex) && x.value && line_is_gpu(text, ns) &&
		    value_known(t, &x)) {
			x.line = rdc_text_line(text, ns);
			push_hit(v, n, cap, &x);
		}
		off = ne;
	}
	regfree(&re);
}

static int cmp_hit(const void *a, const void *b)
{
	const struct rdc_dhit *x = a, *y = b;
	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	size_t lx = x->me - x->ms, ly = y->me - y->ms;
	return lx == ly ? 0 : lx > ly ? -1 : 1;
}

/* Does hit h (a status pattern's) stand for a status with this value? */
static bool hit_has_value(const struct rdc_diagtab *t, const struct rdc_dhit *h, const struct rdc_dhit *val)
{
	if (h->pat == (size_t)-1 || t->pats[h->pat].how == RDC_DHOW_MESSAGE)
		return false;
	const struct rdc_dpat *p = &t->pats[h->pat];
	for (size_t i = 0; i < p->n; i++)
		if (rdc_diagtab_value_row(t, val, p->rows[i]))
			return true;
	return false;
}

/* Do hits a and b speak of the same thing: two messages, or two status
 * hits sharing a status name? */
static bool same_subject(const struct rdc_diagtab *t, const struct rdc_dhit *a, const struct rdc_dhit *b)
{
	bool ma = a->how == RDC_DHOW_MESSAGE, mb = b->how == RDC_DHOW_MESSAGE;
	if (ma || mb)
		return ma && mb;
	if (a->pat == (size_t)-1 || b->pat == (size_t)-1)
		return false;
	const struct rdc_dpat *pa = &t->pats[a->pat], *pb = &t->pats[b->pat];
	for (size_t i = 0; i < pa->n; i++)
		for (size_t k = 0; k < pb->n; k++)
			if (!strcmp(t->statuses[pa->rows[i]].name, t->statuses[pb->rows[k]].name))
				return true;
	return false;
}

/* Line starts of text, for line numbers by binary search. */
struct lines {
	size_t n, *start;
};

static void lines_init(struct lines *l, const char *text)
{
	l->n = 1;
	for (const char *p = text; *p; p++)
		l->n += *p == '\n';
	l->start = rdc_xmalloc(l->n * sizeof *l->start);
	size_t k = 0;
	l->start[k++] = 0;
	for (size_t i = 0; text[i]; i++)
		if (text[i] == '\n')
			l->start[k++] = i + 1;
}

static unsigned line_at(const struct lines *l, size_t off)
{
	size_t lo = 0, hi = l->n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (l->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (unsigned)lo + 1;
}

size_t rdc_diagtab_search(const struct rdc_diagtab *t, const char *text, struct rdc_dhit **out)
{
	struct rdc_dhit *v = NULL;
	size_t n = 0, cap = 0;
	char *folded = rdc_text_fold(text);
	struct lines ls;
	lines_init(&ls, text);
	for (size_t i = 0; i < t->n_pats; i++) {
		size_t from = 0, ms, me, k = 0;
		while (k++ < 64 && rdc_fmt_find(&t->pats[i].fmt, text, folded, from, &ms, &me)) {
			struct rdc_dhit h = { .pat = i, .how = t->pats[i].how, .ms = ms, .me = me,
					      .line = line_at(&ls, ms) };
			push_hit(&v, &n, &cap, &h);
			from = me > ms ? me : ms + 1;
		}
	}
	free(folded);
	free(ls.start);
	value_hits(t, text, &v, &n, &cap);
	if (n)
		qsort(v, n, sizeof *v, cmp_hit);
	/* drop a hit inside another one's span that says the same (a status
	 * name inside its text, a message piece inside a longer message), and
	 * a value hit whose line already names that status */
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		bool drop = false;
		for (size_t k = 0; k < w && !drop; k++)
			drop = v[k].ms <= v[i].ms && v[i].me <= v[k].me && same_subject(t, &v[k], &v[i]);
		for (size_t k = 0; k < n && !drop && v[i].how == RDC_DHOW_VALUE; k++)
			drop = k != i && v[k].line == v[i].line && hit_has_value(t, &v[k], &v[i]);
		if (!drop)
			v[w++] = v[i];
	}
	*out = v;
	return w;
}
