/* SPDX-License-Identifier: MIT */
/*
 * inspect_rules.c — per kernel, for `inspect --kernels --json`: its kernarg
 * layout and the kernel rules that apply on the given card
 * (inspect_rules.h).  The library is the inspected file; the hash is that of
 * the entry shown; the HIP runtime is not known here, so each rule carries its
 * range ("runtime") and applies only under it.
 *
 * Cost: a code object whose library no rule row admits on the card gets no
 * matching at all (rules []); otherwise a kernel's name is demangled, and
 * the code object hashed (once), only when a row that admits it could need
 * that to match (rdc_rules_needs) — the answer is the same as with both
 * always computed.  --stats counts both.  A fallback row that matches in
 * everything but its code-object hash is listed with "unchecked": true (it
 * does not apply to this build: docs/RULES.md).
 */
#include "inspect_rules.h"

#include <string.h>

#include "rdnacompat/rules.h"

static struct rdc_rule_subject subject(const struct ictx *c, const char *name)
{
	return (struct rdc_rule_subject){ .name = name, .lib = c->path, .device = c->dev.proc,
					  .runtime_later = true, .provisional = true };
}

void rdc_inspect_rules_begin(struct rdc_inspect_rules *ir, struct ictx *c, const struct bundle_view *bv,
			     long ei, const struct rdc_choice *ch)
{
	memset(ir, 0, sizeof *ir);
	if (c->have_dev) {
		struct rdc_rule_subject s = subject(c, NULL);
		ir->any_rule = rdc_rules_any_admit(c->t, &s);
	}
	if (!bv || ei < 0 || (size_t)ei >= bv->n || !bv->data || !bv->data[ei] || !bv->e[ei].size)
		return;
	ir->bytes = bv->data[ei];
	ir->size = (size_t)bv->e[ei].size;
	if (ch && ch->co && ch->args) {
		ir->co = ch->co;
	} else {
		if (rdc_codeobj_parse(ir->bytes, ir->size, RDC_CO_METADATA, &ir->parsed, &c->d) != 0) {
			rdc_codeobj_free(&ir->parsed);
			return;
		}
		ir->own = true;
		ir->co = &ir->parsed;
	}
	ir->ok = true;
}

void rdc_inspect_rules_end(struct rdc_inspect_rules *ir)
{
	if (ir->own)
		rdc_codeobj_free(&ir->parsed);
	memset(ir, 0, sizeof *ir);
}

/* k itself when it is one of ir->co's kernels, else the first of that name. */
static const struct rdc_kernel *find(const struct rdc_inspect_rules *ir, const struct rdc_kernel *k)
{
	if (!ir->ok)
		return NULL;
	if (!ir->own && ir->co->n_kernels && k >= ir->co->kernels && k < ir->co->kernels + ir->co->n_kernels)
		return k;
	for (size_t i = 0; k->name && i < ir->co->n_kernels; i++)
		if (ir->co->kernels[i].name && !strcmp(ir->co->kernels[i].name, k->name))
			return &ir->co->kernels[i];
	return NULL;
}

static void rule_json(struct rdc_json *j, const struct rdc_kernel_rule *r, bool unchecked)
{
	rdc_json_obj(j);
	rdc_json_key(j, "unchecked"); rdc_json_bool(j, unchecked);
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

static void hash(struct rdc_inspect_rules *ir, struct ictx *c)
{
	rdc_sha256(ir->bytes, ir->size, ir->sha256);
	ir->have_sum = true;
	c->n_hashed++;
}

bool rdc_inspect_rules_sha256_hex(struct rdc_inspect_rules *ir, struct ictx *c, char hex[65])
{
	if (!ir->ok)
		return false;
	if (!ir->have_sum)
		hash(ir, c);
	rdc_sha256_hex(ir->sha256, hex);
	return true;
}

/* The rules for kernel `name` into the open array. */
static void rules_json(struct rdc_inspect_rules *ir, struct ictx *c, const char *name)
{
	char dem[1024];
	struct rdc_rule_subject s = subject(c, name);
	unsigned need = rdc_rules_needs(c->t, &s);
	if (need & RDC_RULES_NEED_DEMANGLED) {
		c->n_demangled++;
		if (rdc_demangle(name, dem, sizeof dem) == 0) {
			s.demangled = dem;
			need = rdc_rules_needs(c->t, &s);
		}
	}
	/* the hash only of a code object read with its .args, as always */
	if ((need & RDC_RULES_NEED_SHA256) && ir->ok && !ir->have_sum)
		hash(ir, c);
	if (ir->have_sum)
		s.sha256 = ir->sha256;
	struct rdc_rule_match m;
	if (rdc_rules_match(c->t, &s, &m) >= 0) {
		const struct rdc_kernel_rule *all[] = { m.allow, m.deny, m.fallback, m.occupancy, m.prefer,
							m.unchecked };
		const size_t n_all = sizeof all / sizeof all[0];
		for (size_t i = 0; i < n_all; i++)
			if (all[i])
				rule_json(&c->j, all[i], i == n_all - 1);
	}
}

void rdc_inspect_rules_kernel(struct rdc_inspect_rules *ir, struct ictx *c, const struct rdc_kernel *k)
{
	struct rdc_json *j = &c->j;
	const struct rdc_kernel *full = find(ir, k);
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
	rdc_json_arr(j);
	if (ir->any_rule)
		rules_json(ir, c, k->name);
	rdc_json_arr_end(j);
}
