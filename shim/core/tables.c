/* SPDX-License-Identifier: MIT */
/*
 * tables.c — lookups over struct rdc_tables and the run-time override
 * loader rdc_tables_load (the RDNACOMPAT_TABLES file: built-in rows merged
 * with the user's, through the same parser and validator as tablegen,
 * shim/core/tables_parse.c).  The file is read by rdc_tables_read_file.
 */
#include "rdnacompat/tables.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rdnacompat/tables_parse.h"
#include "rdnacompat/target.h"

const struct rdc_isa *rdc_isa_find(const struct rdc_tables *t, const char *proc)
{
	if (!t || !proc)
		return NULL;
	for (size_t i = 0; i < t->n_isa; i++)
		if (t->isa[i].name && strcmp(t->isa[i].name, proc) == 0)
			return &t->isa[i];
	return NULL;
}

bool rdc_isa_has_wgp(const struct rdc_isa *isa)
{
	unsigned ma, mi, st;
	if (!isa)
		return false;
	if (isa->name && rdc_proc_to_version(isa->name, &ma, &mi, &st) == 0)
		return ma >= 10;
	return isa->vgprs_per_simd_w32 != 0;
}

const struct rdc_card *rdc_card_find_pci(const struct rdc_tables *t, uint16_t vendor,
					 uint16_t device, int revision)
{
	if (!t)
		return NULL;
	const struct rdc_card *any = NULL;
	for (size_t i = 0; i < t->n_cards; i++) {
		const struct rdc_card *c = &t->cards[i];
		if (c->vendor != vendor || c->device != device)
			continue;
		if (revision >= 0 && c->revision == revision)
			return c;
		if (c->revision < 0 && !any)
			any = c;
	}
	return any;
}

static int ci_contains(const char *hay, const char *needle)
{
	if (!hay)
		return 0;
	size_t n = strlen(needle);
	if (n == 0)
		return 1;
	for (const char *p = hay; *p; p++) {
		size_t i = 0;
		while (i < n && p[i]) {
			char a = p[i], b = needle[i];
			if (a >= 'A' && a <= 'Z')
				a = (char)(a - 'A' + 'a');
			if (b >= 'A' && b <= 'Z')
				b = (char)(b - 'A' + 'a');
			if (a != b)
				break;
			i++;
		}
		if (i == n)
			return 1;
	}
	return 0;
}

size_t rdc_card_search(const struct rdc_tables *t, const char *query,
		       const struct rdc_card **out, size_t max)
{
	if (!t || !query)
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < t->n_cards && n < max; i++) {
		const struct rdc_card *c = &t->cards[i];
		if (ci_contains(c->name, query) || ci_contains(c->target, query))
			out[n++] = c;
	}
	return n;
}

/* Is q one of the "; "-separated names, or the end of one after a space? */
static bool name_is(const char *names, const char *q)
{
	size_t lq = strlen(q);
	for (const char *p = names; p && *p;) {
		const char *end = strstr(p, "; ");
		size_t l = end ? (size_t)(end - p) : strlen(p);
		if ((l == lq && !strncasecmp(p, q, l)) ||
		    (l > lq && p[l - lq - 1] == ' ' && !strncasecmp(p + l - lq, q, lq)))
			return true;
		p = end ? end + 2 : NULL;
	}
	return false;
}

const struct rdc_card *rdc_card_by_name(const struct rdc_tables *t, const char *query,
					const struct rdc_card **hits, size_t max, size_t *n_hits)
{
	*n_hits = rdc_card_search(t, query, hits, max);
	for (size_t i = 0; i < *n_hits; i++)
		if (name_is(hits[i]->name, query))
			return hits[i];
	return *n_hits == 1 ? hits[0] : NULL;
}

const char *rdc_card_status_name(int status)
{
	switch (status) {
	case RDC_STATUS_OFFICIAL: return "official";
	case RDC_STATUS_UNOFFICIAL: return "unofficial";
	case RDC_STATUS_UNSUPPORTED: return "unsupported";
	default: return "unknown";
	}
}

size_t rdc_compat_edges_for(const struct rdc_tables *t, const char *device,
			    const struct rdc_compat_edge **out, size_t max)
{
	if (!t || !device)
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < t->n_edges && n < max; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		if (!e->device || strcmp(e->device, device))
			continue;
		size_t j = n++;
		while (j > 0 && out[j - 1]->rank > e->rank) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = e;
	}
	return n;
}

int rdc_tables_load(const char *path, struct rdc_tables **out, struct rdc_diag *d)
{
	if (!path || !out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "tables: NULL argument");
	*out = NULL;
	struct rdc_tables_build *b = malloc(sizeof *b);
	if (!b)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "tables: out of memory");
	rdc_tables_build_init(b);
	char *text = NULL;
	size_t len = 0;
	int rc = rdc_tables_build_add(b, rdc_tables_builtin(), "<built-in>", d);
	if (!rc)
		rc = rdc_tables_read_file(path, &text, &len, d);
	if (!rc)
		rc = rdc_tables_parse_sections(b, text, len, path, d);
	if (!rc)
		rc = rdc_tables_validate(b, d);
	free(text);
	if (rc) {
		rdc_tables_build_free(b);
		free(b);
		return rc;
	}
	b->t.owned_ = b;
	*out = &b->t;
	return 0;
}

void rdc_tables_free(struct rdc_tables *t)
{
	if (!t || !t->owned_)
		return;
	struct rdc_tables_build *b = t->owned_;
	rdc_tables_build_free(b);
	free(b);
}
