/* SPDX-License-Identifier: MIT */
/*
 * config.c — the environment, parsed once into struct rdc_config.
 *
 *   RDNACOMPAT_MODE=map|spoof|audit|off        (default map)
 *   RDNACOMPAT_DEVICE_<N>=map|spoof|audit|off  (per HIP device ordinal)
 *   RDNACOMPAT_SPOOF_FOR=librocblas.so,libMIOpen.so   ('*' = every caller)
 *   RDNACOMPAT_LOG=error|warn|info|debug       (default warn; info in audit mode)
 *   RDNACOMPAT_LOG_FILE=path  RDNACOMPAT_LOG_FORMAT=text|json
 *   RDNACOMPAT_TABLES=path    RDNACOMPAT_REDIRECT_FILES=0|1 (default 1)
 *
 * Pure: the lookup function is a parameter, so unit tests need no setenv.
 * A bad value never stops the program: the default stays and the problem is
 * described in cfg->problems (logged as a warning).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static void problem(struct rdc_config *c, const char *fmt, const char *var, const char *val)
{
	size_t used = strlen(c->problems);
	if (used + 2 >= sizeof c->problems)
		return;
	snprintf(c->problems + used, sizeof c->problems - used, fmt, used ? "; " : "", var, val);
}

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

void rdc_config_parse(struct rdc_config *c, const char *(*get)(const char *, void *), void *arg)
{
	memset(c, 0, sizeof *c);
	c->mode = RDC_MODE_MAP;
	c->level = RDC_LOG_WARN;
	c->redirect_files = true;
	memset(c->device_mode, -1, sizeof c->device_mode);

	const char *v = get("RDNACOMPAT_MODE", arg);
	if (v && *v) {
		int m = rdc_mode_parse(v);
		if (m < 0)
			problem(c, "%s%s=%s is not map|spoof|audit|off (using map)", "RDNACOMPAT_MODE", v);
		else
			c->mode = (enum rdc_mode)m;
	}
	for (int i = 0; i < RDC_MAX_DEVICES; i++) {
		char name[40];
		snprintf(name, sizeof name, "RDNACOMPAT_DEVICE_%d", i);
		v = get(name, arg);
		if (!v || !*v)
			continue;
		int m = rdc_mode_parse(v);
		if (m < 0)
			problem(c, "%s%s=%s is not map|spoof|audit|off (ignored)", name, v);
		else
			c->device_mode[i] = (signed char)m;
	}
	v = get("RDNACOMPAT_SPOOF_FOR", arg);
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
	v = get("RDNACOMPAT_LOG", arg);
	if (!(v && *v) && c->mode == RDC_MODE_AUDIT)
		c->level = RDC_LOG_INFO;   /* audit exists to show the decisions */
	if (v && *v) {
		int l = rdc_level_parse(v);
		if (l < 0)
			problem(c, "%s%s=%s is not error|warn|info|debug (using warn)", "RDNACOMPAT_LOG", v);
		else
			c->level = (enum rdc_level)l;
	}
	v = get("RDNACOMPAT_LOG_FORMAT", arg);
	if (v && *v) {
		if (strcasecmp(v, "json") == 0)
			c->json = true;
		else if (strcasecmp(v, "text") != 0)
			problem(c, "%s%s=%s is not text|json (using text)", "RDNACOMPAT_LOG_FORMAT", v);
	}
	copy_str(c->log_file, sizeof c->log_file, get("RDNACOMPAT_LOG_FILE", arg));
	copy_str(c->tables_file, sizeof c->tables_file, get("RDNACOMPAT_TABLES", arg));
	v = get("RDNACOMPAT_REDIRECT_FILES", arg);
	if (v && *v)
		c->redirect_files = strcmp(v, "0") != 0;
	v = get("RDNACOMPAT_OPT_IN", arg);
	c->opt_in = v && *v && strcmp(v, "0") != 0;
	v = get("RDNACOMPAT_ISA_FILTER", arg);
	if (v && *v) {
		if (strcasecmp(v, "native") == 0)
			c->isa_filter_native = true;
		else if (strcasecmp(v, "all") != 0)
			problem(c, "%s%s=%s is not all|native (using all)", "RDNACOMPAT_ISA_FILTER", v);
	}
}

bool rdc_edge_usable(const struct rdc_compat_edge *e)
{
	return rdc_cfg.opt_in || !e->condition || !strstr(e->condition, "opt-in");
}

unsigned rdc_policy_flags(void)
{
	return RDC_POLICY_KERNELS | (rdc_cfg.opt_in ? RDC_POLICY_OPT_IN : 0);
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
