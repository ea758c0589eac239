/* SPDX-License-Identifier: MIT */
/*
 * error.c — rdc_strerror and the rdc_diag helpers (see include/rdnacompat/error.h).
 * Pure: formats into caller-owned memory only.
 */
#include "rdnacompat/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *rdc_strerror(int err)
{
	switch (err) {
	case RDC_OK: return "success";
	case RDC_E_INVAL: return "invalid argument";
	case RDC_E_NOMEM: return "out of memory";
	case RDC_E_IO: return "input/output error";
	case RDC_E_FORMAT: return "unrecognised or malformed format";
	case RDC_E_TRUNCATED: return "input truncated";
	case RDC_E_RANGE: return "offset or size out of range";
	case RDC_E_UNSUPPORTED: return "unsupported version or method";
	case RDC_E_NOTFOUND: return "not found";
	case RDC_E_CORRUPT: return "corrupt data";
	case RDC_E_REFUSED: return "refused by policy";
	default: return "unknown error";
	}
}

void rdc_diag_clear(struct rdc_diag *d)
{
	if (!d)
		return;
	d->code = 0;
	d->offset = RDC_NO_OFFSET;
	d->line = 0;
	d->msg[0] = '\0';
}

static void diag_vfmt(struct rdc_diag *d, const char *prefix, const char *fmt, va_list ap)
{
	size_t n = 0;
	if (prefix) {
		int k = snprintf(d->msg, sizeof d->msg, "%s", prefix);
		n = k < 0 ? 0 : ((size_t)k >= sizeof d->msg ? sizeof d->msg - 1 : (size_t)k);
	}
	vsnprintf(d->msg + n, sizeof d->msg - n, fmt, ap);
}

int rdc_diag_set(struct rdc_diag *d, int err, uint64_t offset, const char *fmt, ...)
{
	if (!d)
		return err;
	va_list ap;
	d->code = err;
	d->offset = offset;
	d->line = 0;
	char prefix[48];
	const char *p = NULL;
	if (offset != RDC_NO_OFFSET) {
		snprintf(prefix, sizeof prefix, "at byte %llu: ", (unsigned long long)offset);
		p = prefix;
	}
	va_start(ap, fmt);
	diag_vfmt(d, p, fmt, ap);
	va_end(ap);
	return err;
}

int rdc_diag_setl(struct rdc_diag *d, int err, const char *file, unsigned line,
		  const char *fmt, ...)
{
	if (!d)
		return err;
	va_list ap;
	d->code = err;
	d->offset = RDC_NO_OFFSET;
	d->line = line;
	char prefix[160];
	snprintf(prefix, sizeof prefix, "%s:%u: ", file ? file : "<input>", line);
	va_start(ap, fmt);
	diag_vfmt(d, prefix, fmt, ap);
	va_end(ap);
	return err;
}
