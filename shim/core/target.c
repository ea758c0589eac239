/* SPDX-License-Identifier: MIT */
/*
 * target.c — AMDGPU target ids in every spelling (include/rdnacompat/target.h).
 *
 * Grammar (LLVM AMDGPUUsage "Target ID"; clang offload bundle ids):
 *   target-id  := processor ( ":" feature ("+"|"-") )*      feature: xnack | sramecc
 *   processor  := "gfx" hexdigits | "gfx" N ( "-" N )? "-generic"
 *   isa-name   := "amdgcn-amd-amdhsa--" target-id           (HSA_ISA_INFO_NAME)
 *   bundle-id  := kind "-" triple [ "-" target-id ]          kind: host hip hipv4 hcc openmp
 * where an amdgcn triple is "amdgcn-amd-amdhsa" followed by an environment
 * component that is usually empty ("--gfx1030"); old HIP wrote the 3-part
 * triple ("hip-amdgcn-amd-amdhsa-gfx906").
 *
 * Versions: major and minor decimal, stepping one hex digit in the name
 * (gfx90a = 9.0.10, gfx90c = 9.0.12); HSA_OVERRIDE_GFX_VERSION and KFD's
 * gfx_target_version write all three in decimal (ROCR libhsakmt/src/topology.c,
 * libhsakmt.h HSA_GET_GFX_VERSION_*).  Pure functions, no allocation.
 */
#include "rdnacompat/target.h"

#include <stdio.h>
#include <string.h>

#define ISA_PREFIX "amdgcn-amd-amdhsa--"
#define AMDGCN_TRIPLE "amdgcn-amd-amdhsa"

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_hex_lower(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

/* A processor name as it may appear in a target id (no features). */
static int proc_valid(const char *p, size_t n)
{
	if (n < 4 || n >= RDC_PROC_MAX || memcmp(p, "gfx", 3) != 0)
		return 0;
	const char *q = p + 3, *end = p + n;
	static const char gen[] = "-generic";
	size_t gl = sizeof gen - 1;
	if ((size_t)(end - q) > gl && memcmp(end - gl, gen, gl) == 0) {
		/* gfxN-generic or gfxN-M-generic, N and M decimal */
		const char *e = end - gl;
		size_t digits = 0;
		while (q < e && is_digit(*q))
			q++, digits++;
		if (!digits || digits > 2)
			return 0;
		if (q == e)
			return 1;
		if (*q++ != '-')
			return 0;
		digits = 0;
		while (q < e && is_digit(*q))
			q++, digits++;
		return digits && digits <= 2 && q == e;
	}
	/* gfx + 3 or 4 lowercase hex digits, first decimal (gfx900, gfx90a, gfx1031) */
	if (end - q < 3 || end - q > 4 || !is_digit(*q))
		return 0;
	for (; q < end; q++)
		if (!is_hex_lower(*q))
			return 0;
	return 1;
}

static int parse_target_id(const char *s, size_t len, struct rdc_target *out,
			   struct rdc_diag *d, const char *what)
{
	memset(out, 0, sizeof *out);
	size_t plen = 0;
	while (plen < len && s[plen] != ':')
		plen++;
	if (plen == 0)
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "%s: empty processor name", what);
	if (!proc_valid(s, plen))
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
				    "%s: '%.*s' is not an AMDGPU processor name", what,
				    (int)(plen > 40 ? 40 : plen), s);
	memcpy(out->proc, s, plen);
	out->proc[plen] = '\0';
	size_t i = plen;
	while (i < len) {
		/* s[i] == ':' */
		size_t st = ++i;
		while (i < len && s[i] != ':')
			i++;
		size_t fl = i - st;
		const char *f = s + st;
		uint8_t *slot = NULL;
		const char *fname = NULL;
		if (fl >= 2 && fl - 1 == 5 && memcmp(f, "xnack", 5) == 0)
			slot = &out->xnack, fname = "xnack";
		else if (fl >= 2 && fl - 1 == 7 && memcmp(f, "sramecc", 7) == 0)
			slot = &out->sramecc, fname = "sramecc";
		if (!slot || (f[fl - 1] != '+' && f[fl - 1] != '-'))
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "%s: unknown target feature '%.*s' (want xnack+/- or sramecc+/-)",
					    what, (int)(fl > 40 ? 40 : fl), f);
		if (*slot != RDC_FEAT_ANY)
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "%s: feature %s given twice", what, fname);
		*slot = f[fl - 1] == '+' ? RDC_FEAT_ON : RDC_FEAT_OFF;
	}
	return 0;
}

int rdc_target_parse(const char *s, size_t len, struct rdc_target *out, struct rdc_diag *d)
{
	if (!s || !out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "target: NULL argument");
	if (len == (size_t)-1)
		len = strlen(s);
	if (memchr(s, '\0', len))
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "target: embedded NUL");
	size_t pl = sizeof ISA_PREFIX - 1;
	if (len >= pl && memcmp(s, ISA_PREFIX, pl) == 0) {
		s += pl;
		len -= pl;
	}
	return parse_target_id(s, len, out, d, "target");
}

int rdc_bundle_id_parse(const char *s, size_t len, struct rdc_bundle_id *out, struct rdc_diag *d)
{
	if (!s || !out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "bundle id: NULL argument");
	memset(out, 0, sizeof *out);
	if (memchr(s, '\0', len))
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "bundle id: embedded NUL");
	static const struct { const char *name; enum rdc_offload_kind kind; } kinds[] = {
		{ "host-", RDC_KIND_HOST },   { "hipv4-", RDC_KIND_HIPV4 },
		{ "hip-", RDC_KIND_HIP },     { "hcc-", RDC_KIND_HCC },
		{ "openmp-", RDC_KIND_OPENMP },
	};
	size_t k, kl = 0;
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		kl = strlen(kinds[k].name);
		if (len > kl && memcmp(s, kinds[k].name, kl) == 0)
			break;
	}
	if (k == sizeof kinds / sizeof kinds[0])
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
				    "bundle id '%.*s': unknown offload kind", (int)(len > 60 ? 60 : len), s);
	out->kind = kinds[k].kind;
	const char *r = s + kl;
	size_t rl = len - kl;
	size_t al = sizeof AMDGCN_TRIPLE - 1;
	if (rl >= al && memcmp(r, AMDGCN_TRIPLE, al) == 0 && (rl == al || r[al] == '-')) {
		if (out->kind == RDC_KIND_HOST)
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "bundle id: host entry with a GPU triple");
		/* The target is what follows the last "-gfx". */
		size_t pos = rl;
		for (size_t i = al; i + 4 <= rl; i++)
			if (r[i] == '-' && memcmp(r + i + 1, "gfx", 3) == 0)
				pos = i;
		if (pos == rl)
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "bundle id '%.*s': amdgcn entry without a target",
					    (int)(len > 60 ? 60 : len), s);
		size_t tl = pos; /* triple is r[0..pos), minus one empty environment dash */
		if (tl > al && r[tl - 1] == '-')
			tl--;
		if (tl >= sizeof out->triple)
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "bundle id: triple too long");
		/* between "amdgcn-amd-amdhsa" and the target: nothing, or "-<env>" */
		for (size_t i = al + 1; i < tl; i++)
			if (r[i] == '-')
				return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
						    "bundle id '%.*s': malformed triple",
						    (int)(len > 60 ? 60 : len), s);
		memcpy(out->triple, r, tl);
		out->triple[tl] = '\0';
		int rc = parse_target_id(r + pos + 1, rl - pos - 1, &out->target, d, "bundle id");
		if (rc)
			return rc;
		out->has_target = true;
		return 0;
	}
	/* A host (or other non-GPU) triple: no target. */
	if (rl == 0 || rl >= sizeof out->triple)
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "bundle id: bad triple length %zu", rl);
	for (size_t i = 0; i < rl; i++) {
		char c = r[i];
		if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
		      c == '_' || c == '.'))
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "bundle id: bad character 0x%02x in triple", (unsigned char)c);
	}
	memcpy(out->triple, r, rl);
	out->triple[rl] = '\0';
	out->has_target = false;
	return 0;
}

/* snprintf-like append: returns the length the full text needs. */
static size_t put(char *buf, size_t n, size_t at, const char *s)
{
	size_t l = strlen(s);
	if (n && at < n - 1) {
		size_t room = n - 1 - at;
		memcpy(buf + at, s, l < room ? l : room);
		buf[at + (l < room ? l : room)] = '\0';
	}
	return at + l;
}

static size_t format_with_prefix(const struct rdc_target *t, const char *prefix, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	if (!t)
		return 0;
	size_t at = put(buf, n, 0, prefix);
	char proc[RDC_PROC_MAX];
	memcpy(proc, t->proc, sizeof proc);
	proc[RDC_PROC_MAX - 1] = '\0';
	at = put(buf, n, at, proc);
	if (t->sramecc == RDC_FEAT_ON || t->sramecc == RDC_FEAT_OFF)
		at = put(buf, n, at, t->sramecc == RDC_FEAT_ON ? ":sramecc+" : ":sramecc-");
	if (t->xnack == RDC_FEAT_ON || t->xnack == RDC_FEAT_OFF)
		at = put(buf, n, at, t->xnack == RDC_FEAT_ON ? ":xnack+" : ":xnack-");
	return at;
}

size_t rdc_target_format(const struct rdc_target *t, char *buf, size_t n)
{
	return format_with_prefix(t, "", buf, n);
}

size_t rdc_target_format_isa_name(const struct rdc_target *t, char *buf, size_t n)
{
	return format_with_prefix(t, ISA_PREFIX, buf, n);
}

size_t rdc_target_format_bundle_id(const struct rdc_target *t, char *buf, size_t n)
{
	return format_with_prefix(t, "hipv4-" ISA_PREFIX, buf, n);
}

static bool feat_ok(uint8_t code, uint8_t dev)
{
	return code == RDC_FEAT_ANY || code == dev;
}

bool rdc_target_features_match(const struct rdc_target *code, const struct rdc_target *device)
{
	if (!code || !device)
		return false;
	return feat_ok(code->xnack, device->xnack) && feat_ok(code->sramecc, device->sramecc);
}

bool rdc_target_matches(const struct rdc_target *code, const struct rdc_target *device)
{
	if (!code || !device)
		return false;
	return strncmp(code->proc, device->proc, RDC_PROC_MAX) == 0 &&
	       rdc_target_features_match(code, device);
}

int rdc_proc_to_version(const char *proc, unsigned *major, unsigned *minor, unsigned *step)
{
	if (!proc)
		return RDC_E_INVAL;
	size_t n = strnlen(proc, RDC_PROC_MAX);
	if (n == RDC_PROC_MAX || !proc_valid(proc, n) || strstr(proc, "generic"))
		return RDC_E_INVAL;
	/* gfx + major (1 or 2 decimal digits) + minor (1 decimal) + stepping (1 hex):
	 * 3 digits -> 1-digit major, 4 -> 2-digit major. */
	const char *v = proc + 3;
	size_t dl = n - 3;
	if (dl != 3 && dl != 4)
		return RDC_E_INVAL;
	unsigned ma = 0;
	for (size_t i = 0; i + 2 < dl; i++) {
		if (!is_digit(v[i]))
			return RDC_E_INVAL;
		ma = ma * 10 + (unsigned)(v[i] - '0');
	}
	char mc = v[dl - 2], sc = v[dl - 1];
	if (!is_digit(mc) || !is_hex_lower(sc) || ma == 0)
		return RDC_E_INVAL;
	if (major)
		*major = ma;
	if (minor)
		*minor = (unsigned)(mc - '0');
	if (step)
		*step = is_digit(sc) ? (unsigned)(sc - '0') : (unsigned)(sc - 'a' + 10);
	return 0;
}

int rdc_proc_from_version(unsigned major, unsigned minor, unsigned step, char *buf, size_t n)
{
	if (!buf || n == 0)
		return RDC_E_INVAL;
	buf[0] = '\0';
	if (major == 0 || major > 99 || minor > 9 || step > 15)
		return RDC_E_INVAL;
	char tmp[16];
	int k = snprintf(tmp, sizeof tmp, "gfx%u%u%x", major, minor, step);
	if (k < 0 || (size_t)k >= n)
		return RDC_E_RANGE;
	memcpy(buf, tmp, (size_t)k + 1);
	return 0;
}

/* One decimal field of "%u": optional leading whitespace, an optional sign
 * (scanf's %u accepts "-1" and wraps; the thunk does not check), then digits. */
static int scan_u(const char **pp, unsigned *out)
{
	const char *p = *pp;
	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	int neg = 0;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!is_digit(*p))
		return 0;
	unsigned long long v = 0;
	while (is_digit(*p)) {
		v = v * 10 + (unsigned)(*p++ - '0');
		if (v > 0xffffffffull)
			v = 0x100000000ull; /* saturate: rejected below */
	}
	if (v > 0xffffffffull)
		return 0;
	*out = neg ? (unsigned)(0u - (unsigned)v) : (unsigned)v;
	*pp = p;
	return 1;
}

int rdc_parse_gfx_override(const char *s, unsigned *major, unsigned *minor, unsigned *step,
			   struct rdc_diag *d)
{
	/* The thunk: sscanf(env, "%u.%u.%u%c", &major, &minor, &step, &dummy) != 3
	 * -> "HSA_OVERRIDE_GFX_VERSION %s is invalid"; then major & 0x3f, minor &
	 * 0xff, step & 0xff are stored (ROCR libhsakmt/src/topology.c).  We keep
	 * the same accept/reject set, and additionally refuse values the masks
	 * would silently change. */
	if (!s)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "HSA_OVERRIDE_GFX_VERSION: NULL");
	const char *p = s;
	unsigned v[3];
	for (int i = 0; i < 3; i++) {
		if (i && *p++ != '.')
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "HSA_OVERRIDE_GFX_VERSION '%.40s' is invalid: want major.minor.stepping", s);
		if (!scan_u(&p, &v[i]))
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "HSA_OVERRIDE_GFX_VERSION '%.40s' is invalid: want major.minor.stepping", s);
	}
	if (*p)
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
				    "HSA_OVERRIDE_GFX_VERSION '%.40s' is invalid: trailing characters", s);
	if (v[0] == 0 || v[0] > 0x3f || v[1] > 0xff || v[2] > 0xff)
		return rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET,
				    "HSA_OVERRIDE_GFX_VERSION '%.40s': %u.%u.%u is out of range", s, v[0],
				    v[1], v[2]);
	if (major)
		*major = v[0];
	if (minor)
		*minor = v[1];
	if (step)
		*step = v[2];
	return 0;
}

int rdc_proc_from_kfd_version(uint32_t v, char *buf, size_t n)
{
	if (buf && n)
		buf[0] = '\0';
	if (v == 0 || v > 999999)
		return RDC_E_INVAL;
	return rdc_proc_from_version((v / 10000) % 100, (v / 100) % 100, v % 100, buf, n);
}

uint32_t rdc_kfd_version_from_parts(unsigned major, unsigned minor, unsigned step)
{
	if (major > 99 || minor > 99 || step > 99)
		return 0;
	return (uint32_t)(major * 10000u + minor * 100u + step);
}

int rdc_proc_gcn_arch(const char *proc)
{
	unsigned ma, mi, st;
	if (rdc_proc_to_version(proc, &ma, &mi, &st))
		return -1;
	return (int)(ma * 100 + mi * 10 + st);
}
