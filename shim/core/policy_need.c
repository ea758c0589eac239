/* SPDX-License-Identifier: MIT */
/*
 * policy_need.c — rdc_policy_need: what code a device would need, from the
 * tables' compat edges (opt-in edges excluded): its own processor and every
 * edge's code processor, contiguous runs as "a..b", all members of its
 * generic as "<generic> family", then the generics.  Shared helpers of the
 * policy (text appending, condition words).  Pure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_internal.h"

void rdc_pol_cat(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	if (*len >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	if (k > 0)
		*len = (size_t)k >= n - *len ? n - 1 : *len + (size_t)k;
}

static bool in_list(const char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

bool rdc_pol_has_cond(const char *cond, const char *what)
{
	size_t l = strlen(what);
	for (const char *p = cond; p && (p = strstr(p, what)); p += l)
		if ((p == cond || p[-1] == '+') && (p[l] == '\0' || p[l] == '+'))
			return true;
	return false;
}

static int proc_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

/* b directly follows a: same length, same but the last character, +1. */
static bool follows(const char *a, const char *b)
{
	size_t l = strlen(a);
	if (l < 2 || strlen(b) != l || strncmp(a, b, l - 1))
		return false;
	char x = a[l - 1], y = b[l - 1];
	return y == x + 1 || (x == '9' && y == 'a');
}

#define NEED_MAX 64

size_t rdc_policy_need(const struct rdc_tables *t, const char *device_proc, char *out, size_t on)
{
	const char *procs[NEED_MAX], *gens[NEED_MAX];
	size_t np = 0, ng = 0, len = 0;
	char buf[1024];
	size_t n = sizeof buf;
	buf[0] = '\0';
	const struct rdc_isa *dev = rdc_isa_find(t, device_proc);
	if (!dev || !dev->generic)
		procs[np++] = device_proc;
	for (size_t i = 0; i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		if (strcmp(e->device, device_proc) || rdc_pol_has_cond(e->condition, "opt-in"))
			continue;
		const struct rdc_isa *ci = rdc_isa_find(t, e->code);
		if (ci && ci->generic) {
			if (ng < NEED_MAX && !in_list(gens, ng, e->code))
				gens[ng++] = e->code;
		} else if (np < NEED_MAX && !in_list(procs, np, e->code)) {
			procs[np++] = e->code;
		}
	}
	qsort(procs, np, sizeof procs[0], proc_cmp);

	/* All members of the device's generic target: name it as one group. */
	const char *gen = dev ? dev->generic_target : NULL;
	size_t members = 0;
	bool all = gen != NULL;
	for (size_t i = 0; gen && i < t->n_isa; i++) {
		const struct rdc_isa *r = &t->isa[i];
		if (r->generic || !r->generic_target || strcmp(r->generic_target, gen))
			continue;
		members++;
		if (!in_list(procs, np, r->name))
			all = false;
	}
	bool contiguous = true;
	for (size_t i = 1; i < np; i++)
		if (!follows(procs[i - 1], procs[i]))
			contiguous = false;
	size_t parts = 0;
	if (all && members == np && np > 2 && !contiguous) {
		const char *dash = strstr(gen, "-generic");
		int pl = dash ? (int)(dash - gen) : (int)strlen(gen);
		rdc_pol_cat(buf, n, &len, "%.*s family", pl, gen);
		parts = 1;
	} else {
		for (size_t i = 0; i < np;) {
			size_t j = i;
			while (j + 1 < np && follows(procs[j], procs[j + 1]))
				j++;
			bool last = j + 1 >= np && ng == 0;
			rdc_pol_cat(buf, n, &len, "%s", parts == 0 ? "" : last ? " or " : ", ");
			if (j - i >= 2)
				rdc_pol_cat(buf, n, &len, "%s..%s", procs[i], procs[j]);
			else if (j == i + 1)
				rdc_pol_cat(buf, n, &len, "%s, %s", procs[i], procs[j]);
			else
				rdc_pol_cat(buf, n, &len, "%s", procs[i]);
			parts++;
			i = j + 1;
		}
	}
	for (size_t i = 0; i < ng; i++) {
		rdc_pol_cat(buf, n, &len, "%s%s", parts == 0 ? "" : i + 1 == ng ? " or " : ", ", gens[i]);
		parts++;
	}
	rdc_pol_cat(buf, n, &len, " code");
	if (on)
		snprintf(out, on, "%s", buf);
	return len;
}
