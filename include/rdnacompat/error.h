/* SPDX-License-Identifier: MIT */
/*
 * error.h — the one error convention of rdnacompat.
 *
 * Every internal function returns 0 on success or a negative RDC_E_* code.
 * Functions that read untrusted bytes also take an optional `struct rdc_diag *`
 * which, on failure, receives a human sentence saying what was wrong and where
 * (byte offset into the input, or file:line for text tables).  A NULL diag is
 * always allowed.  Nothing here touches errno or process state.
 */
#ifndef RDNACOMPAT_ERROR_H
#define RDNACOMPAT_ERROR_H

#include <stdint.h>
#include <stddef.h>

enum rdc_err {
	RDC_OK            = 0,
	RDC_E_INVAL       = -4001, /* bad argument from the caller */
	RDC_E_NOMEM       = -4002, /* allocation failed */
	RDC_E_IO          = -4003, /* open/read/mmap failed (errno in the message) */
	RDC_E_FORMAT      = -4004, /* input is not what it claims to be (magic, type) */
	RDC_E_TRUNCATED   = -4005, /* input ends before a structure it declares */
	RDC_E_RANGE       = -4006, /* an offset/size points outside the input or overflows */
	RDC_E_UNSUPPORTED = -4007, /* well-formed but a version/method we do not handle */
	RDC_E_NOTFOUND    = -4008, /* the thing asked for is not there */
	RDC_E_CORRUPT     = -4009, /* checksums/decompressed sizes disagree */
	RDC_E_REFUSED     = -4010, /* a policy check said no (reason in the message) */
};

/* Where and why an operation failed.  `offset` is UINT64_MAX when not
 * applicable; `line` is 0 when not applicable. */
struct rdc_diag {
	int code;
	uint64_t offset;
	unsigned line;
	char msg[320];
};

#define RDC_NO_OFFSET UINT64_MAX

/* A static English sentence for an RDC_E_* code (never NULL). */
const char *rdc_strerror(int err);

/* Record a failure in `d` (may be NULL) and return `err` so callers can write
 * `return rdc_diag_set(d, RDC_E_RANGE, off, "entry %zu size %llu ...", ...)`. */
int rdc_diag_set(struct rdc_diag *d, int err, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Like rdc_diag_set but for text input: "file:line: reason". */
int rdc_diag_setl(struct rdc_diag *d, int err, const char *file, unsigned line,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Clear `d` (may be NULL). */
void rdc_diag_clear(struct rdc_diag *d);

/* Overflow-safe bounds test: true when [off, off+len) lies within [0, total). */
static inline int rdc_in_bounds(uint64_t off, uint64_t len, uint64_t total)
{
	return off <= total && len <= total - off;
}

#endif
