/* SPDX-License-Identifier: MIT */
/*
 * config.c — the environment, parsed once into struct rdc_config.
 *
 *   RDNACOMPAT_MODE=map|spoof|audit|off        (default map)
 *   RDNACOMPAT_DEVICE_<N>=map|spoof|audit|off  (per HIP device ordinal)
 *   RDNACOMPAT_SPOOF_FOR=librocblas.so,libMIOpen.so   ('*' = every caller)
 *   RDNACOMPAT_LOG=error|warn|info|debug       (default warn; info in audit mode)
 *   RDNACOMPAT_LOG_FILE=path  RDNACOMPAT_LOG_FORMAT=text|json
 *   RDNACOMPAT_TABLES=path    RDNACOMPAT_REDIRECT_FILES=bool (default 1)
 *   RDNACOMPAT_OPT_IN=bool (default 0)  RDNACOMPAT_CACHE=bool (default 1)
 *   RDNACOMPAT_ISA_FILTER=all|native
 *   RDNACOMPAT_FALLBACK=bool (default 0)  RDNACOMPAT_FALLBACK_BUNDLE=path
 *
 * One parser for every boolean (bool: 0/1, off/on, no/yes, false/true, any
 * case) and one for every enumeration.  Pure: the lookup function is a
 * parameter, so unit tests need no setenv.  A bad value never stops the
 * program: the default stays — for RDNACOMPAT_OPT_IN that is off, the safe
 * side — and the problem is described in cfg->problems (warned about once,
 * by a process that reaches a HIP/HSA hook).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rdnacompat/boolstr.h"
#include "shim.h"

struct rdc_config rdc_cfg = { .mode = RDC_MODE_MAP, .level = RDC_LOG_WARN };

static const char *const mode_names[] = { "map", "spoof", "audit", "off" };
static const char *const level_names[] = { "error", "warn", "info", "debug" };

int rdc_mode_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (s && strcasecmp(s, mode_names[i]) == 0)
			return i;
	return -1;
}

const char *rdc_mode_name(int mode)
{
	return mode >= 0 && mode < 4 ? mode_names[mode] : "?";
}

int rdc_level_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (s && strcasecmp(s, level_names[i]) == 0)
			return i;
	if (s && strcasecmp(s, "warning") == 0)
		return RDC_LOG_WARN;
	return -1;
}

/* Append one problem ("VAR=VALUE is not ... (using X)"), the value with its
 * control characters escaped so it cannot forge or break a log line. */
static void problem(struct rdc_config *c, const char *var, const char *val, const char *expect,
		    const char *kept)
{
	size_t used = strlen(c->problems);
	if (used + 2 >= sizeof c->problems)
		return;
	char esc[96];
	size_t k = 0, j = 0;
	for (; val[j] && k + 5 < sizeof esc; j++) {
		unsigned char ch = (unsigned char)val[j];
		if (ch < 0x20 || ch == 0x7f)
			k += (size_t)snprintf(esc + k, sizeof esc - k, "\\x%02x", ch);
		else
			esc[k++] = (char)ch;
	}
	esc[k] = 0;
	snprintf(c->problems + used, sizeof c->problems - used, "%s%s=%s%s is not %s (%s)",
		 used ? "; " : "", var, esc, val[j] ? "..." : "", expect, kept);
}

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

/* One boolean variable: unset or empty keeps `*out` (the default); a value
 * that is not a documented spelling is a problem and keeps it too. */
static void get_bool(struct rdc_config *c, const char *(*get)(const char *, void *), void *arg,
		     const char *name, bool *out)
{
	const char *v = get(name, arg);
	if (!v || !*v)
		return;
	int b = rdc_bool_parse(v);
	if (b < 0)
		problem(c, name, v, "0|1|off|on|no|yes|false|true", *out ? "using 1" : "using 0");
	else
		*out = b == 1;
}

/* One enumerated variable: the index of its value in `names` (any case), or
 * `def` when unset/empty, or `def` and a problem when not one of them.
 * `alias`/`alias_val`: one extra spelling (NULL for none). */
static int get_enum(struct rdc_config *c, const char *(*get)(const char *, void *), void *arg,
		    const char *name, const char *const *names, int n, int def, const char *kept,
		    const char *alias, int alias_val)
{
	const char *v = get(name, arg);
	if (!v || !*v)
		return def;
	for (int i = 0; i < n; i++)
		if (strcasecmp(v, names[i]) == 0)
			return i;
	if (alias && strcasecmp(v, alias) == 0)
		return alias_val;
	char expect[64] = "";
	for (int i = 0; i < n; i++)
		snprintf(expect + strlen(expect), sizeof expect - strlen(expect), "%s%s", i ? "|" : "",
			 names[i]);
	problem(c, name, v, expect, kept);
	return def;
}

void rdc_config_parse(struct rdc_config *c, const char *(*get)(const char *, void *), void *arg)
{
	static const char *const formats[] = { "text", "json" };
	static const char *const filters[] = { "all", "native" };
	memset(c, 0, sizeof *c);
	c->redirect_files = true;
	c->cache = true;
	c->lazy = true;
	c->name_follows_code = true;
	memset(c->device_mode, -1, sizeof c->device_mode);

	c->mode = (enum rdc_mode)get_enum(c, get, arg, "RDNACOMPAT_MODE", mode_names, 4,
					  RDC_MODE_MAP, "using map", NULL, 0);
	for (int i = 0; i < RDC_MAX_DEVICES; i++) {
		char name[40];
		snprintf(name, sizeof name, "RDNACOMPAT_DEVICE_%d", i);
		c->device_mode[i] = (signed char)get_enum(c, get, arg, name, mode_names, 4, -1,
							  "ignored", NULL, 0);
	}
	const char *v = get("RDNACOMPAT_SPOOF_FOR", arg);
	if (!v || !*v)
		v = "librocblas.so,libMIOpen.so";
	if (strcmp(v, "*") == 0) {
		c->spoof_all = true;
	} else {
		const char *p = v;
		while (*p && c->n_spoof_for < RDC_MAX_SPOOF_FOR) {
			size_t len = strcspn(p, ",");
			if (len > 0 && len < sizeof c->spoof_for[0]) {
				memcpy(c->spoof_for[c->n_spoof_for], p, len);
				c->spoof_for[c->n_spoof_for][len] = 0;
				c->n_spoof_for++;
			}
			p += len;
			if (*p == ',')
				p++;
		}
	}
	/* audit exists to show the decisions: info unless told otherwise */
	int def_level = c->mode == RDC_MODE_AUDIT ? RDC_LOG_INFO : RDC_LOG_WARN;
	c->level = (enum rdc_level)get_enum(c, get, arg, "RDNACOMPAT_LOG", level_names, 4, def_level,
					    def_level == RDC_LOG_INFO ? "using info" : "using warn",
					    "warning", RDC_LOG_WARN);
	c->json = get_enum(c, get, arg, "RDNACOMPAT_LOG_FORMAT", formats, 2, 0, "using text", NULL,
			   0) == 1;
	copy_str(c->log_file, sizeof c->log_file, get("RDNACOMPAT_LOG_FILE", arg));
	copy_str(c->tables_file, sizeof c->tables_file, get("RDNACOMPAT_TABLES", arg));
	get_bool(c, get, arg, "RDNACOMPAT_REDIRECT_FILES", &c->redirect_files);
	get_bool(c, get, arg, "RDNACOMPAT_OPT_IN", &c->opt_in);   /* fails safe: off */
	get_bool(c, get, arg, "RDNACOMPAT_CACHE", &c->cache);
	get_bool(c, get, arg, "RDNACOMPAT_LAZY", &c->lazy);
	get_bool(c, get, arg, "RDNACOMPAT_NAME_FOLLOWS_CODE", &c->name_follows_code);
	get_bool(c, get, arg, "RDNACOMPAT_FALLBACK", &c->prefer_fallback);
	copy_str(c->fallback_bundle, sizeof c->fallback_bundle, get("RDNACOMPAT_FALLBACK_BUNDLE", arg));
	c->isa_filter_native = get_enum(c, get, arg, "RDNACOMPAT_ISA_FILTER", filters, 2, 0,
					"using all", NULL, 0) == 1;
}

void rdc_config_check_names(struct rdc_config *c, char *const *env)
{
	static const char pfx[] = "RDNACOMPAT_DEVICE_";
	for (size_t i = 0; env && env[i]; i++) {
		if (strncmp(env[i], pfx, sizeof pfx - 1) != 0)
			continue;
		const char *n = env[i] + sizeof pfx - 1, *eq = strchr(n, '=');
		size_t len = eq ? (size_t)(eq - n) : strlen(n);
		bool ok = len > 0 && len <= 3 && (len == 1 || n[0] != '0');
		for (size_t k = 0; ok && k < len; k++)
			ok = n[k] >= '0' && n[k] <= '9';
		if (ok && atoi(n) < RDC_MAX_DEVICES)
			continue;
		char name[48];
		snprintf(name, sizeof name, "%.*s", (int)(len > 24 ? 24 : len), n);
		char expect[48];
		snprintf(expect, sizeof expect, "a device number 0..%d", RDC_MAX_DEVICES - 1);
		problem(c, "RDNACOMPAT_DEVICE_", name, expect, "ignored");
	}
}

bool rdc_edge_usable(const struct rdc_compat_edge *e)
{
	return rdc_cfg.opt_in || !e->condition || !strstr(e->condition, "opt-in");
}

unsigned rdc_policy_flags(void)
{
	return RDC_POLICY_KERNELS | RDC_POLICY_SYMBOLS | (rdc_cfg.opt_in ? RDC_POLICY_OPT_IN : 0);
}

unsigned rdc_policy_flags_hold(enum rdc_hold hold)
{
	return rdc_policy_flags() | (hold != RDC_HOLD_NONE ? RDC_POLICY_HOLD : 0);
}

enum rdc_mode rdc_config_device_mode(const struct rdc_config *c, int index)
{
	if (index >= 0 && index < RDC_MAX_DEVICES && c->device_mode[index] >= 0)
		return (enum rdc_mode)c->device_mode[index];
	return c->mode;
}

const char *rdc_basename(const char *path)
{
	if (!path)
		return "";
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

bool rdc_config_spoof_matches(const struct rdc_config *c, const char *object_path)
{
	if (!object_path)
		return false;
	if (c->spoof_all)
		return true;
	const char *base = rdc_basename(object_path);
	for (size_t i = 0; i < c->n_spoof_for; i++) {
		size_t len = strlen(c->spoof_for[i]);
		/* "librocblas.so" matches librocblas.so, librocblas.so.0, ... */
		if (strncmp(base, c->spoof_for[i], len) == 0 && (base[len] == 0 || base[len] == '.'))
			return true;
	}
	return false;
}

/* HIP numbers the GPU agents it sees: all of them, or those listed in
 * HIP_VISIBLE_DEVICES (else CUDA_VISIBLE_DEVICES), in list order. */
int rdc_hip_ordinal(const char *visible, int agent_index)
{
	if (!visible)
		return agent_index;
	int ord = 0;
	const char *p = visible;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;   /* HIP stops at the first entry it cannot read */
		if (v == agent_index)
			return ord;
		ord++;
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	return -1;
}
