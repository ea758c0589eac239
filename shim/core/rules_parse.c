/* SPDX-License-Identifier: MIT */
/*
 * rules_parse.c — the syntax of the kernel-rule columns that need more than
 * a string (include/rdnacompat/rules.h): the HIP runtime range, the scope
 * (library glob and/or code-object hash) and the action (the name after
 * fallback: or prefer:).  Called by the
 * table parser (tables_parse.c row_kernel) at build and at run time, so both
 * accept the same rows.  Pure.
 */
#include "rdnacompat/rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((format(printf, 3, 4)))
static int bad(char *err, size_t n, const char *fmt, ...)
{
	if (err && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, n, fmt, ap);
		va_end(ap);
	}
	return RDC_E_FORMAT;
}

long long rdc_rule_version(const char *s, size_t len)
{
	/* major.minor[.patch]: HIP_VERSION = major*10^7 + minor*10^5 + patch */
	unsigned long long part[3] = { 0, 0, 0 };
	size_t np = 0, digits = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c >= '0' && c <= '9') {
			part[np] = part[np] * 10 + (unsigned)(c - '0');
			if (++digits > 6)
				return -1;
		} else if (c == '.' && digits && np < 2) {
			np++;
			digits = 0;
		} else {
			return -1;
		}
	}
	if (!digits || np < 1)
		return -1;
	if (part[0] > 400 || part[1] > 99 || part[2] > 99999)
		return -1;
	return (long long)(part[0] * 10000000ull + part[1] * 100000ull + part[2]);
}

int rdc_rule_parse_runtime(const char *s, uint32_t *min, uint32_t *max, char *err, size_t n)
{
	*min = 0;
	*max = UINT32_MAX;
	if (!strcmp(s, "*"))
		return 0;
	bool have_min = false, have_max = false;
	const char *p = s;
	for (;;) {
		size_t l = strcspn(p, ",");
		const char *e = p + l;
		if (l > 2 && p[0] == '>' && p[1] == '=') {
			long long v = rdc_rule_version(p + 2, l - 2);
			if (v < 0)
				return bad(err, n, "runtime: '%.*s' is not a version (major.minor[.patch])",
					   (int)(l - 2), p + 2);
			if (have_min)
				return bad(err, n, "runtime: two lower bounds in '%s'", s);
			*min = (uint32_t)v;
			have_min = true;
		} else if (l > 1 && p[0] == '<' && p[1] != '=') {
			long long v = rdc_rule_version(p + 1, l - 1);
			if (v < 0)
				return bad(err, n, "runtime: '%.*s' is not a version (major.minor[.patch])",
					   (int)(l - 1), p + 1);
			if (have_max)
				return bad(err, n, "runtime: two upper bounds in '%s'", s);
			*max = (uint32_t)v;
			have_max = true;
		} else {
			long long v = rdc_rule_version(p, l);
			if (v < 0 || have_min || have_max)
				return bad(err, n, "runtime: '%s' (want *, >=X.Y, <X.Y, both joined by a comma, "
					   "or one X.Y series)", s);
			/* "7.1": the 7.1 series; "7.1.52802": exactly that build */
			*min = (uint32_t)v;
			size_t dots = 0;
			for (size_t i = 0; i < l; i++)
				dots += p[i] == '.';
			*max = dots == 1 ? (uint32_t)v + 100000u : (uint32_t)v + 1u;
			have_min = have_max = true;
		}
		if (!*e)
			break;
		p = e + 1;
		if (!*p)
			return bad(err, n, "runtime: trailing comma in '%s'", s);
	}
	if (*min >= *max)
		return bad(err, n, "runtime: '%s' is an empty range", s);
	return 0;
}

static bool is_hex64(const char *s)
{
	size_t i;
	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 64;
}

int rdc_rule_parse_scope(const char *s, size_t *lib_len, size_t *sha_off, char *err, size_t n)
{
	*lib_len = 0;
	*sha_off = 0;
	if (!strcmp(s, "*"))
		return 0;
	const char *sha = NULL;
	size_t ll;
	if (!strncmp(s, "sha256:", 7)) {
		sha = s + 7;
		ll = 0;
	} else {
		const char *plus = strstr(s, "+sha256:");
		ll = plus ? (size_t)(plus - s) : strlen(s);
		if (plus)
			sha = plus + 8;
	}
	for (size_t i = 0; i < ll; i++)
		if (s[i] == '/' || s[i] == ' ' || s[i] == ',')
			return bad(err, n, "scope: library glob '%.*s' must be a file name (no '/', ' ' or ',')",
				   (int)ll, s);
	if (sha && !is_hex64(sha))
		return bad(err, n, "scope: sha256 must be 64 lowercase hex digits");
	*lib_len = ll;
	*sha_off = sha ? (size_t)(sha - s) : 0;
	return 0;
}

int rdc_rule_parse_action(const char *s, int *action, size_t *name_off, char *err, size_t n)
{
	*name_off = 0;
	if (!strcmp(s, "occupancy"))
		*action = RDC_RULE_OCCUPANCY;
	else if (!strcmp(s, "deny"))
		*action = RDC_RULE_DENY;
	else if (!strcmp(s, "allow"))
		*action = RDC_RULE_ALLOW;
	else if (!strncmp(s, "fallback:", 9)) {
		const char *p = s + 9;
		if (!*p || (*p >= '0' && *p <= '9'))
			return bad(err, n, "action: '%s' needs a kernel name after fallback:", s);
		for (; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '$'))
				return bad(err, n, "action: bad character '%c' in fallback kernel name", *p);
		*action = RDC_RULE_FALLBACK;
		*name_off = 9;
	} else if (!strncmp(s, "prefer:", 7)) {
		/* a processor name; whether isa.tsv has it and whether the rows'
		 * targets may run its code is rdc_tables_validate's check */
		const char *p = s + 7;
		if (strncmp(p, "gfx", 3) || !p[3])
			return bad(err, n, "action: '%s' needs a processor after prefer: (prefer:gfx1151)", s);
		for (; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
				return bad(err, n, "action: bad character '%c' in prefer target '%s' (a processor "
					   "name such as gfx1151, without features)", *p, s + 7);
		*action = RDC_RULE_PREFER;
		*name_off = 7;
	} else {
		return bad(err, n, "action: '%s' (want occupancy, deny, allow, fallback:<kernel> or "
			   "prefer:<processor>)", s);
	}
	return 0;
}

const char *rdc_rule_action_name(int action)
{
	switch (action) {
	case RDC_RULE_OCCUPANCY: return "occupancy";
	case RDC_RULE_FALLBACK: return "fallback";
	case RDC_RULE_DENY: return "deny";
	case RDC_RULE_ALLOW: return "allow";
	case RDC_RULE_PREFER: return "prefer";
	default: return "?";
	}
}
