/* SPDX-License-Identifier: MIT */
/*
 * rules.c — which kernel rules (tables/kernels.tsv) apply to one kernel:
 * symbol glob over the mangled and the demangled name, scope (library file
 * name glob, code-object SHA-256), the device's true processor or its
 * family, the HIP runtime range, provisional rows only when asked.  A
 * user's row (RDNACOMPAT_TABLES) comes before a built-in one of its kind
 * (`prefer` rows too: they are matched here, acted on by policy_prefer.c);
 * a user's `allow` cancels every other row, a built-in `allow` only the
 * built-in ones (rules.h).  Pure; called once per (code object, kernel) by
 * the shim, never per launch.
 */
#include "rdnacompat/rules.h"

#include <fnmatch.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

static bool hex_equal(const char *hex, const uint8_t sum[32])
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < 32; i++)
		if (hex[2 * i] != digits[sum[i] >> 4] || hex[2 * i + 1] != digits[sum[i] & 15])
			return false;
	return true;
}

/* Is `device` (or its family) in the ","-joined list? */
static bool target_listed(const struct rdc_tables *t, const char *list, const char *device)
{
	if (!strcmp(list, "*"))
		return true;
	const struct rdc_isa *isa = rdc_isa_find(t, device);
	const char *family = isa ? isa->family : NULL;
	size_t dl = strlen(device), fl = family ? strlen(family) : 0;
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if ((l == dl && !strncmp(p, device, l)) || (family && l == fl && !strncmp(p, family, l)))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

bool rdc_rule_runtime_ok(const struct rdc_kernel_rule *r, uint32_t runtime)
{
	if (r->rt_min == 0 && r->rt_max == UINT32_MAX)
		return true;
	return runtime && runtime >= r->rt_min && runtime < r->rt_max;
}

/* Everything but the symbol and the hash. */
static bool where_admits(const struct rdc_tables *t, const struct rdc_kernel_rule *r,
			 const struct rdc_rule_subject *s)
{
	if (r->provisional && !s->provisional)
		return false;
	if (!target_listed(t, r->targets, s->device) || (!s->runtime_later && !rdc_rule_runtime_ok(r, s->runtime)))
		return false;
	if (r->scope_lib && (!s->lib || fnmatch(r->scope_lib, base_name(s->lib), 0) != 0))
		return false;
	return true;
}

/* Everything but the symbol. */
static bool where_matches(const struct rdc_tables *t, const struct rdc_kernel_rule *r,
			  const struct rdc_rule_subject *s)
{
	if (!where_admits(t, r, s))
		return false;
	if (r->scope_sha256 && (!s->sha256 || !hex_equal(r->scope_sha256, s->sha256)))
		return false;
	return true;
}

static bool name_matches(const struct rdc_kernel_rule *r, const struct rdc_rule_subject *s)
{
	return fnmatch(r->pattern, s->name, 0) == 0 ||
	       (s->demangled && fnmatch(r->pattern, s->demangled, 0) == 0);
}

/* The first matching row of each action kind among user rows (user) or
 * built-in rows (!user); in `unchecked` the first hash-scoped fallback row
 * that matches in everything but the hash, when no fallback row matches. */
static void match_rows(const struct rdc_tables *t, const struct rdc_rule_subject *s, bool user,
		       struct rdc_rule_match *m)
{
	memset(m, 0, sizeof *m);
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (r->user != user || !name_matches(r, s))
			continue;
		if (!where_matches(t, r, s)) {
			if (r->action == RDC_RULE_FALLBACK && r->scope_sha256 && !m->unchecked &&
			    where_admits(t, r, s))
				m->unchecked = r;
			continue;
		}
		const struct rdc_kernel_rule **slot =
			r->action == RDC_RULE_ALLOW	   ? &m->allow
			: r->action == RDC_RULE_DENY	   ? &m->deny
			: r->action == RDC_RULE_FALLBACK  ? &m->fallback
			: r->action == RDC_RULE_OCCUPANCY ? &m->occupancy
			: r->action == RDC_RULE_PREFER	   ? &m->prefer
							  : NULL;
		if (slot && !*slot)
			*slot = r;
	}
	if (m->fallback)
		m->unchecked = NULL;
}

int rdc_rules_match(const struct rdc_tables *t, const struct rdc_rule_subject *s,
		    struct rdc_rule_match *m)
{
	if (!t || !s || !m || !s->name || !s->device)
		return RDC_E_INVAL;
	struct rdc_rule_match u, b;
	match_rows(t, s, true, &u);
	match_rows(t, s, false, &b);
	memset(m, 0, sizeof *m);
	if (u.allow) {          /* the user's allow: nothing else */
		m->allow = u.allow;
		return 0;
	}
	if (b.allow) {          /* a built-in allow: the built-in rows are off */
		if (!u.deny && !u.fallback && !u.occupancy && !u.prefer) {
			m->allow = b.allow;
			return 0;
		}
		*m = u;
		m->overruled = b.allow;
	} else {                /* per kind: the user's row, else the built-in one */
		m->deny = u.deny ? u.deny : b.deny;
		m->fallback = u.fallback ? u.fallback : b.fallback;
		m->occupancy = u.occupancy ? u.occupancy : b.occupancy;
		m->prefer = u.prefer ? u.prefer : b.prefer;
		if (!m->fallback)
			m->unchecked = u.unchecked ? u.unchecked : b.unchecked;
	}
	return !!m->deny + !!m->fallback + !!m->occupancy;
}

bool rdc_rules_any_for(const struct rdc_tables *t, const char *device, uint32_t runtime,
		       bool provisional)
{
	if (!t || !device)
		return false;
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (r->action == RDC_RULE_ALLOW || r->action == RDC_RULE_PREFER ||
		    (r->provisional && !provisional))
			continue;
		if (target_listed(t, r->targets, device) && (!runtime || rdc_rule_runtime_ok(r, runtime)))
			return true;
	}
	return false;
}

bool rdc_rules_prefer_any(const struct rdc_tables *t, const char *device, const char *lib,
			  uint32_t runtime, bool provisional)
{
	if (!t || !device)
		return false;
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (r->action != RDC_RULE_PREFER || (r->provisional && !provisional))
			continue;
		if (r->scope_lib && (!lib || fnmatch(r->scope_lib, base_name(lib), 0) != 0))
			continue;
		if (target_listed(t, r->targets, device) && (!runtime || rdc_rule_runtime_ok(r, runtime)))
			return true;
	}
	return false;
}

bool rdc_rules_any_admit(const struct rdc_tables *t, const struct rdc_rule_subject *s)
{
	if (!t || !s || !s->device)
		return false;
	for (size_t i = 0; i < t->n_rules; i++)
		if (where_admits(t, &t->rules[i], s))
			return true;
	return false;
}

/* Can `pattern` match the demangled form of the mangled `name`?  Only a
 * pattern that starts with a literal "_Z" is ruled out, for a name with no
 * "_Z" past its start: the demangler writes "_Z" only inside an identifier
 * it copies, each of which is spelled out in the mangled name after its
 * length, and a demangled name starts with its first identifier, a type
 * keyword or a phrase ("vtable for "), never with "_Z" otherwise. */
static bool may_match_demangled(const char *pattern, const char *name)
{
	if (pattern[0] == '_' && pattern[1] == 'Z')
		return strstr(name + 1, "_Z") != NULL;
	return true;
}

unsigned rdc_rules_needs(const struct rdc_tables *t, const struct rdc_rule_subject *s)
{
	if (!t || !s || !s->name || !s->device)
		return 0;
	bool mangled = !strncmp(s->name, "_Z", 2);
	unsigned need = 0;
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (!where_admits(t, r, s))
			continue;
		bool may = fnmatch(r->pattern, s->name, 0) == 0;
		if (!may && mangled) {
			if (s->demangled) {
				may = fnmatch(r->pattern, s->demangled, 0) == 0;
			} else if (may_match_demangled(r->pattern, s->name)) {
				need |= RDC_RULES_NEED_DEMANGLED;
				may = true;
			}
		}
		if (may && r->scope_sha256 && !s->sha256)
			need |= RDC_RULES_NEED_SHA256;
	}
	return need;
}
