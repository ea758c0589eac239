/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dcache.c — libFuzzer target for the decision-cache loader
 * (shim/hooks/dcache_file.c, what the shim runs on a cache file at load).
 * Input byte 0 chooses: odd — the rest is the whole file as is; even — the
 * rest is the body after a header with the right key and a record count
 * taken from bytes 1-2, and the checksum is made right, so the fuzzer gets
 * past the checksum to the record checks (where audit C1 was).  Beyond "no
 * crash": every record the loader keeps is safe for decide.c to use —
 * verdict and entry agree, patches only with "mapped", at most
 * RDC_DC_MAX_PATCHES of at most 64 bytes each (every byte readable),
 * strings terminated, refused-kernel triples exactly filling their bytes.  Built and run by `make fuzz-smoke`
 * (tests/fuzz/smoke-all.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "dcache_file.h"

static int keep(void *arg, const struct rdc_dc_rec *r, const char *ref, const uint8_t *patches)
{
	(void)arg;
	bool has_entry = r->verdict == RDC_VERDICT_NATIVE || r->verdict == RDC_VERDICT_MAPPED;
	if (!has_entry && r->verdict != RDC_VERDICT_MISSING)
		abort();
	if (!memchr(r->entry_id, 0, sizeof r->entry_id) || !memchr(r->refused_id, 0, sizeof r->refused_id))
		abort();
	if (has_entry != (r->entry_id[0] != 0))
		abort();
	if (r->have_patches && r->verdict != RDC_VERDICT_MAPPED)
		abort();
	if (r->n_patches > RDC_DC_MAX_PATCHES)
		abort();
	for (uint32_t i = 0; i < r->n_patches; i++) {
		struct rdc_patch p;
		memcpy(&p, patches + (size_t)i * sizeof p, sizeof p);   /* readable (ASan) */
		if (p.len > sizeof p.bytes)
			abort();
	}
	if (!memchr(r->reason, 0, sizeof r->reason) || !memchr(r->target.proc, 0, sizeof r->target.proc))
		abort();
	size_t strs = 0;
	for (uint32_t i = 0; i < r->ref_bytes; i++)
		strs += ref[i] == 0;   /* every byte readable (ASan) */
	if (strs != (size_t)r->n_ref * 3)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdc_dc_hdr key;
	memset(&key, 0, sizeof key);
	memcpy(key.magic, RDC_DC_MAGIC, 8);
	key.hdr_size = sizeof key;
	key.rec_size = sizeof(struct rdc_dc_rec);
	key.shim_id = 42;
	if (size < 3)
		return 0;
	if (data[0] & 1) {
		(void)rdc_dc_parse(data + 1, size - 1, &key, keep, NULL);
		return 0;
	}
	size_t body = size - 3, len = sizeof key + body + 8;
	uint8_t *f = malloc(len);
	if (!f)
		return 0;
	struct rdc_dc_hdr h = key;
	h.n_recs = (uint32_t)data[1] | (uint32_t)data[2] << 8;
	memcpy(f, &h, sizeof h);
	memcpy(f + sizeof h, data + 3, body);
	uint64_t sum = rdc_dc_fnv(RDC_DC_FNV0, f, len - 8);
	memcpy(f + len - 8, &sum, 8);
	(void)rdc_dc_parse(f, len, &key, keep, NULL);
	free(f);
	return 0;
}
