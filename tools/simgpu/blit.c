/* SPDX-License-Identifier: MIT */
/*
 * blit.c — ROCR's own blit kernels.  ROCR 5.2 copies and fills device
 * memory with three small kernels of its own (BlitKernel: CopyAligned,
 * CopyMisaligned, Fill; raw machine code with an amd_kernel_code_t header, no
 * ELF, its kernel object in no code object) — the loader uses them to put code objects into VRAM, and all copies
 * use them when SDMA is off.  The simulator executes no kernel, but without
 * their effect no code object would ever reach "device memory", so these
 * three are recognised by the exact argument layout ROCR builds
 * (amd_blit_kernel.h KernelArgs: monotonic phase pointers, a constant
 * dst - src offset, num_workitems == grid size) and their effect is applied
 * with memmove/fill.  User kernels are never executed.
 *
 * HIP 6/7 (ROCclr) copy and fill with kernels of their own blit code object
 * instead (clr rocclr/device/blitcl.cpp), found by name in the loaded ELF:
 *   __amd_rocclr_copyBuffer(src, dst, ulong size, uint remainder,
 *       uint aligned_size, ulong end_ptr, uint next_chunk[, uint wg]):
 *       the aligned part [dst, end_ptr) and the remainder up to dst + size,
 *       i.e. size bytes;
 *   __amd_rocclr_fillBufferAligned(buf, pattern, uint pattern_size,
 *       uint alignment, ulong end_ptr, uint next_chunk[, uint wg]): the
 *       pattern (pattern_size elements of alignment bytes) repeated over
 *       [buf, end_ptr).
 * The layouts are checked (sizes, alignment 1/2/4/8/16, end_ptr inside
 * the range) before anything is written.  HIP 5.2's older layouts of the
 * same names (below) are tried when the newer one does not fit.
 */
#include <hsa.h>
#include <string.h>

#include "sim.h"

static uint64_t u64at(const uint8_t *p, unsigned off)
{
	uint64_t v;
	memcpy(&v, p + off, 8);
	return v;
}

static uint32_t u32at(const uint8_t *p, unsigned off)
{
	uint32_t v;
	memcpy(&v, p + off, 4);
	return v;
}

/* memmove between two GPU ranges, each inside one buffer object. */
static bool copy(uint64_t src, uint64_t dst, uint64_t n)
{
	void *s = rdc_sim_mem_ptr(src, n), *d = rdc_sim_mem_ptr(dst, n);
	if (!s || !d)
		return false;
	memmove(d, s, n);
	return true;
}

/* Fill len bytes at simulated address dst with the unit-byte pattern at
 * pat (unit <= 1024), repeated; false when either range is not mapped. */
static bool fill_repeat(uint64_t pat, uint64_t unit, uint64_t dst, uint64_t len)
{
	const uint8_t *pp = rdc_sim_mem_ptr(pat, unit);
	uint8_t *d = rdc_sim_mem_ptr(dst, len);
	if (!pp || !d || unit > 1024)
		return false;
	uint8_t pattern[1024];
	memcpy(pattern, pp, unit);
	for (uint64_t i = 0; i < len; i += unit)
		memcpy(d + i, pattern, unit);
	return true;
}

static const char *rocclr_copy(const uint8_t *ka)
{
	uint64_t src = u64at(ka, 0), dst = u64at(ka, 8), size = u64at(ka, 16), end = u64at(ka, 32);
	uint32_t rem = u32at(ka, 24), al = u32at(ka, 28);
	if ((al != 4 && al != 16) || rem >= al * 4 || rem > size || end < dst || end - dst > size ||
	    !size || !copy(src, dst, size))
		return NULL;
	return "rocclr-blit:copyBuffer";
}

static const char *rocclr_fill(const uint8_t *ka)
{
	uint64_t buf = u64at(ka, 0), pat = u64at(ka, 8), end = u64at(ka, 24);
	uint32_t n = u32at(ka, 16), al = u32at(ka, 20);
	if (!al || al > 16 || (al & (al - 1)) || !n || n > 64 || end <= buf)
		return NULL;
	uint64_t unit = (uint64_t)n * al, len = end - buf;
	len = (len + unit - 1) / unit * unit;
	if (!fill_repeat(pat, unit, buf, len))
		return NULL;
	return "rocclr-blit:fillBufferAligned";
}

/* HIP 5.2's layouts (clr rocm-5.2 blitcl.cpp; device-libs amdblit.cl):
 * copyBuffer(srcI, dstI, ulong srcOrigin, ulong dstOrigin, ulong size,
 * uint remain): remain 8 means size bytes; otherwise size - 1 uints and
 * remain (< 4) trailing bytes. */
static const char *rocclr52_copy(const uint8_t *ka)
{
	uint64_t src = u64at(ka, 0) + u64at(ka, 16), dst = u64at(ka, 8) + u64at(ka, 24);
	uint64_t size = u64at(ka, 32);
	uint32_t rem = u32at(ka, 40);
	if (!size || (rem != 8 && rem >= 4) || size > (1ull << 40))
		return NULL;
	uint64_t n = rem == 8 ? size : (size - 1) * 4 + rem;
	if (!n || !copy(src, dst, n))
		return NULL;
	return "rocclr-blit:copyBuffer(5.2)";
}

/* fillBufferAligned(uchar*, ushort*, uint*, ulong*, pattern, uint
 * patternSize, ulong offset, ulong size): the one non-null buffer pointer
 * gives the element width; size repetitions of patternSize elements from
 * element offset. */
static const char *rocclr52_fill(const uint8_t *ka)
{
	uint64_t buf = 0, pat = u64at(ka, 32), off = u64at(ka, 48), size = u64at(ka, 56);
	uint32_t n = u32at(ka, 40), w = 0, set = 0;
	for (unsigned i = 0; i < 4; i++)
		if (u64at(ka, 8 * i)) {
			buf = u64at(ka, 8 * i);
			w = 1u << i;
			set++;
		}
	if (set != 1 || !n || n > 16 || !size || size > (1ull << 40) || off > (1ull << 40))
		return NULL;
	uint64_t unit = (uint64_t)n * w, len = size * unit;
	if (!fill_repeat(pat, unit, buf + off * w, len))
		return NULL;
	return "rocclr-blit:fillBufferAligned(5.2)";
}

const char *rdc_sim_blit_emulate(const void *packet, const char *kernel, uint32_t *kernarg_size)
{
	hsa_kernel_dispatch_packet_t pk;
	memcpy(&pk, packet, sizeof pk);
	if (kernel[0] && pk.kernarg_address) {
		const uint8_t *ka = rdc_sim_mem_ptr((uint64_t)(uintptr_t)pk.kernarg_address, 64);
		if (!ka)
			return NULL;
		/* The 6.x/7.x layout first; HIP 5.2's fails its checks (its
		 * aligned_size would be the high half of srcOrigin/dstOrigin). */
		const char *r = NULL;
		if (!strcmp(kernel, "__amd_rocclr_copyBuffer") && !(r = rocclr_copy(ka)))
			r = rocclr52_copy(ka);
		if (!strcmp(kernel, "__amd_rocclr_fillBufferAligned") && !(r = rocclr_fill(ka)))
			r = rocclr52_fill(ka);
		return r;
	}
	/* ROCR's kernels lie in no ELF code object. */
	if (kernel[0] || !pk.kernel_object || !pk.kernarg_address)
		return NULL;
	const uint8_t *ka = rdc_sim_mem_ptr((uint64_t)(uintptr_t)pk.kernarg_address, 88);
	if (!ka)
		return NULL;
	uint64_t grid = pk.grid_size_x;

	/* CopyAligned: 10 pointers (src/dst pairs), num_workitems at 80. */
	if (u32at(ka, 80) == grid) {
		uint64_t s[5], d[5];
		bool ok = true;
		for (int i = 0; i < 5; i++) {
			s[i] = u64at(ka, (unsigned)i * 16);
			d[i] = u64at(ka, (unsigned)i * 16 + 8);
			if (i && (s[i] < s[i - 1] || d[i] < d[i - 1] || d[i] - s[i] != d[0] - s[0]))
				ok = false;
		}
		if (ok && s[4] > s[0]) {
			if (copy(s[0], d[0], s[4] - s[0])) {
				*kernarg_size = 84;
				return "rocr-blit:copy-aligned";
			}
		}
	}
	/* CopyMisaligned: 6 pointers, num_workitems at 48. */
	if (u32at(ka, 48) == grid) {
		uint64_t s[3], d[3];
		bool ok = true;
		for (int i = 0; i < 3; i++) {
			s[i] = u64at(ka, (unsigned)i * 16);
			d[i] = u64at(ka, (unsigned)i * 16 + 8);
			if (i && (s[i] < s[i - 1] || d[i] < d[i - 1] || d[i] - s[i] != d[0] - s[0]))
				ok = false;
		}
		if (ok && s[2] > s[0] && copy(s[0], d[0], s[2] - s[0])) {
			*kernarg_size = 52;
			return "rocr-blit:copy-misaligned";
		}
	}
	/* Fill: 3 pointers, fill_value at 24, num_workitems at 28. */
	if (u32at(ka, 28) == grid) {
		uint64_t d0 = u64at(ka, 0), d1 = u64at(ka, 8), end = u64at(ka, 16);
		uint32_t v = u32at(ka, 24);
		uint32_t *p = d0 <= d1 && d1 <= end && end > d0 && (end - d0) % 4 == 0
				      ? rdc_sim_mem_ptr(d0, end - d0) : NULL;
		if (p) {
			for (uint64_t i = 0; i < (end - d0) / 4; i++)
				p[i] = v;
			*kernarg_size = 32;
			return "rocr-blit:fill";
		}
	}
	return NULL;
}
