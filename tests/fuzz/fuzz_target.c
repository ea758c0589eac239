/* SPDX-License-Identifier: MIT */
/*
 * fuzz_target.c — libFuzzer target for the target-id and bundle-id parsers
 * (include/rdnacompat/target.h): every RDNACOMPAT_SIM_GPUS/--gpu value and
 * every bundle entry id goes through them.  Beyond "no crash": a target id
 * that parses formats to text that parses back to the same target, in both
 * the bare and the ISA-name form.  Built and run by `make fuzz-smoke`
 * (tests/fuzz/smoke-all.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/target.h"

static void same(const struct rdc_target *a, const struct rdc_target *b)
{
	if (strcmp(a->proc, b->proc) != 0 || a->xnack != b->xnack || a->sramecc != b->sramecc)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdc_target t, u;
	struct rdc_diag d;
	char buf[256];
	if (rdc_target_parse((const char *)data, size, &t, &d) == 0) {
		if (!memchr(t.proc, 0, sizeof t.proc))
			abort();
		size_t n = rdc_target_format(&t, buf, sizeof buf);
		if (n >= sizeof buf || rdc_target_parse(buf, (size_t)-1, &u, &d) != 0)
			abort();
		same(&t, &u);
		n = rdc_target_format_isa_name(&t, buf, sizeof buf);
		if (n >= sizeof buf || rdc_target_parse(buf, n, &u, &d) != 0)
			abort();
		same(&t, &u);
	}
	struct rdc_bundle_id id;
	if (rdc_bundle_id_parse((const char *)data, size, &id, &d) == 0 && id.has_target &&
	    !memchr(id.target.proc, 0, sizeof id.target.proc))
		abort();
	return 0;
}
