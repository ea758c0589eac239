/* SPDX-License-Identifier: MIT */
/*
 * inspect_rules.c — per kernel, for `inspect --kernels --json`: its kernarg
 * layout and the kernel rules that apply on the given card
 * (inspect_rules.h).  The library is the inspected file; the hash is that of
 * the entry shown; the HIP runtime is not known here, so each rule carries its
 * range ("runtime") and applies only under it.
 */
#include "inspect_rules.h"

#include <string.h>

#include "rdnacompat/rules.h"

void rdc_inspect_rules_begin(struct rdc_inspect_rules *ir, struct ictx *c, const struct bundle_view *bv,
			     long ei)
{
	memset(ir, 0, sizeof *ir);
	if (!bv || ei < 0 || (size_t)ei >= bv->n || !bv->data || !bv->data[ei] || !bv->e[ei].size)
		return;
	const uint8_t *p = bv->data[ei];
	size_t n = (size_t)bv->e[ei].size;
	if (rdc_codeobj_parse(p, n, RDC_CO_METADATA, &ir->co, &c->d) != 0) {
		rdc_codeobj_free(&ir->co);
		return;
	}
	rdc_sha256(p, n, ir->sha256);
	ir->ok = true;
}

void rdc_inspect_rules_end(struct rdc_inspect_rules *ir)
{
	if (ir->ok)
		rdc_codeobj_free(&ir->co);
	memset(ir, 0, sizeof *ir);
}

static const struct rdc_kernel *find(const struct rdc_inspect_rules *ir, const char *name)
{
	for (size_t i = 0; ir->ok && name && i < ir->co.n_kernels; i++)
		if (ir->co.kernels[i].name && !strcmp(ir->co.kernels[i].name, name))
			return &ir->co.kernels[i];
	return NULL;
}

static void rule_json(struct rdc_json *j, const struct rdc_kernel_rule *r)
{
	rdc_json_obj(j);
	rdc_json_key(j, "action"); rdc_json_str(j, rdc_rule_action_name(r->action));
	rdc_json_key(j, "fallback"); rdc_json_str(j, r->fallback);
	rdc_json_key(j, "prefer"); rdc_json_str(j, r->prefer);
	rdc_json_key(j, "pattern"); rdc_json_str(j, r->pattern);
	rdc_json_key(j, "scope"); rdc_json_str(j, r->scope);
	rdc_json_key(j, "runtime"); rdc_json_str(j, r->runtime);
	rdc_json_key(j, "provisional"); rdc_json_bool(j, r->provisional);
	rdc_json_key(j, "reason"); rdc_json_str(j, r->reason);
	rdc_json_key(j, "source"); rdc_json_str(j, r->source);
	rdc_json_obj_end(j);
}

void rdc_inspect_rules_kernel(const struct rdc_inspect_rules *ir, struct ictx *c,
			      const struct rdc_kernel *k)
{
	struct rdc_json *j = &c->j;
	const struct rdc_kernel *full = find(ir, k->name);
	rdc_json_key(j, "kernarg_size");
	if (full)
		rdc_json_u64(j, full->kernarg_size);
	else
		rdc_json_null(j);
	rdc_json_key(j, "kernarg_align");
	if (full)
		rdc_json_u64(j, full->kernarg_align);
	else
		rdc_json_null(j);
	rdc_json_key(j, "args");
	if (!full) {
		rdc_json_null(j);
	} else {
		rdc_json_arr(j);
		for (size_t i = 0; i < full->n_args; i++) {
			const struct rdc_kernel_arg *a = &full->args[i];
			rdc_json_obj(j);
			rdc_json_key(j, "offset"); rdc_json_u64(j, a->offset);
			rdc_json_key(j, "size"); rdc_json_u64(j, a->size);
			rdc_json_key(j, "value_kind"); rdc_json_str(j, a->value_kind);
			rdc_json_key(j, "name"); rdc_json_str(j, a->name);
			rdc_json_obj_end(j);
		}
		rdc_json_arr_end(j);
	}
	/* the rules on this card, whatever the runtime (each says its range) */
	rdc_json_key(j, "rules");
	if (!c->have_dev || !k->name) {
		rdc_json_null(j);
		return;
	}
	char dem[1024];
	struct rdc_rule_subject s = { .name = k->name, .lib = c->path, .device = c->dev.proc,
				      .sha256 = ir->ok ? ir->sha256 : NULL, .runtime_later = true,
				      .provisional = true };
	if (rdc_demangle(k->name, dem, sizeof dem) == 0)
		s.demangled = dem;
	struct rdc_rule_match m;
	rdc_json_arr(j);
	if (rdc_rules_match(c->t, &s, &m) >= 0) {
		const struct rdc_kernel_rule *all[] = { m.allow, m.deny, m.fallback, m.occupancy, m.prefer };
		for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
			if (all[i])
				rule_json(j, all[i]);
	}
	rdc_json_arr_end(j);
}
