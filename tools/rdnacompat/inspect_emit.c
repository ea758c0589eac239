/* SPDX-License-Identifier: MIT */
/*
 * inspect_emit.c — how `rdnacompat inspect` writes a bundle: entries,
 * verdict, reason and (--kernels) each kernel's resources and check, as
 * text or as the JSON of docs/INSPECT.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/rules.h"

#include "inspect.h"
#include "inspect_rules.h"

static void print_kernel_text(struct ictx *c, const struct rdc_kernel *k,
			      const struct rdc_kernel_verdict *v)
{
	fprintf(c->out, "      kernel %s: vgpr %u sgpr %u lds %u scratch %u%s maxflat %u wave%u",
		k->name ? k->name : "?", k->vgpr_count, k->sgpr_count, k->group_segment_fixed_size,
		k->private_segment_fixed_size, k->uses_dynamic_stack ? "+dyn" : "",
		k->max_flat_workgroup_size, v ? v->wave : (k->wavefront_size ? k->wavefront_size : 0));
	if (v && v->ok)
		fprintf(c->out, " %s: %u x %u/SIMD = %u of %u: ok\n", v->wgp_mode ? "WGP" : "CU",
			v->vgprs_alloc, v->waves_per_simd, v->vgprs_needed, v->vgprs_have);
	else if (v)
		fprintf(c->out, ": %s (%s: %s)\n", v->held ? "held" : "refused", v->check, v->reason);
	else
		fputc('\n', c->out);
}

static void print_kernel_json(struct ictx *c, const struct rdc_kernel *k,
			      const struct rdc_kernel_verdict *v, struct rdc_inspect_rules *ir)
{
	struct rdc_json *j = &c->j;
	rdc_json_obj(j);
	rdc_json_key(j, "name"); rdc_json_str(j, k->name);
	rdc_json_key(j, "vgpr_count"); rdc_json_u64(j, k->vgpr_count);
	rdc_json_key(j, "sgpr_count"); rdc_json_u64(j, k->sgpr_count);
	rdc_json_key(j, "agpr_count"); rdc_json_u64(j, k->agpr_count);
	rdc_json_key(j, "lds"); rdc_json_u64(j, k->group_segment_fixed_size);
	rdc_json_key(j, "scratch"); rdc_json_u64(j, k->private_segment_fixed_size);
	rdc_json_key(j, "dynamic_stack"); rdc_json_bool(j, k->uses_dynamic_stack);
	rdc_json_key(j, "max_flat_workgroup_size"); rdc_json_u64(j, k->max_flat_workgroup_size);
	rdc_json_key(j, "wavefront_size"); rdc_json_u64(j, k->wavefront_size);
	rdc_json_key(j, "descriptor"); rdc_json_bool(j, k->kd.present);
	if (v) {
		rdc_json_key(j, "wgp_mode"); rdc_json_bool(j, v->wgp_mode);
		rdc_json_key(j, "vgprs_allocated"); rdc_json_u64(j, v->vgprs_alloc);
		rdc_json_key(j, "waves_per_simd"); rdc_json_u64(j, v->waves_per_simd);
		rdc_json_key(j, "vgprs_needed"); rdc_json_u64(j, v->vgprs_needed);
		rdc_json_key(j, "vgprs_device"); rdc_json_u64(j, v->vgprs_have);
		rdc_json_key(j, "ok"); rdc_json_bool(j, v->ok);
		rdc_json_key(j, "held"); rdc_json_bool(j, v->held);
		rdc_json_key(j, "check"); rdc_json_str(j, v->ok ? NULL : v->check);
		rdc_json_key(j, "reason"); rdc_json_str(j, v->ok ? NULL : v->reason);
	}
	rdc_inspect_rules_kernel(ir, c, k); /* .args, kernarg layout, rules (inspect_rules.c) */
	rdc_json_obj_end(j);
}

/* "key": v, or null without one. */
static void key_u64_or_null(struct rdc_json *j, const char *key, bool have, uint64_t v)
{
	rdc_json_key(j, key);
	if (have)
		rdc_json_u64(j, v);
	else
		rdc_json_null(j);
}

/* "key": the target's name, or null when t is NULL. */
static void key_target_or_null(struct rdc_json *j, const char *key, const struct rdc_target *t)
{
	char tt[64];
	if (t)
		rdc_target_format(t, tt, sizeof tt);
	rdc_json_key(j, key);
	rdc_json_str(j, t ? tt : NULL);
}

void rdc_inspect_emit_bundle(struct ictx *c, const struct bundle_view *bv, const struct rdc_choice *ch)
{
	const char *vname = ch ? rdc_verdict_name(ch->verdict) : NULL;
	char chosen[64] = "";
	if (ch && ch->verdict != RDC_VERDICT_MISSING)
		rdc_target_format(&ch->chosen, chosen, sizeof chosen);
	const struct rdc_codeobj *co = ch ? ch->co : NULL;

	if (c->json) {
		struct rdc_json *j = &c->j;
		rdc_json_obj(j);
		rdc_json_key(j, "index"); rdc_json_u64(j, bv->index);
		rdc_json_key(j, "offset"); rdc_json_u64(j, bv->offset);
		rdc_json_key(j, "size"); rdc_json_u64(j, bv->size);
		rdc_json_key(j, "compressed"); rdc_json_bool(j, bv->compressed);
		if (bv->is_codeobj) {
			rdc_json_key(j, "code_object"); rdc_json_bool(j, true);
		}
		rdc_json_key(j, "entries");
		rdc_json_arr(j);
		for (size_t i = 0; i < bv->n; i++) {
			const struct entry_view *e = &bv->e[i];
			rdc_json_obj(j);
			rdc_json_key(j, "id"); rdc_json_strn(j, e->id, e->id_len);
			key_target_or_null(j, "target", e->device ? &e->target : NULL);
			rdc_json_key(j, "size"); rdc_json_u64(j, e->size);
			key_u64_or_null(j, "offset", e->offset != UINT64_MAX, e->offset);
			key_u64_or_null(j, "cov", e->cov != 0, e->cov);
			key_u64_or_null(j, "kernels", e->kernels >= 0, (uint64_t)e->kernels);
			rdc_json_obj_end(j);
		}
		rdc_json_arr_end(j);
		if (ch) {
			rdc_json_key(j, "verdict"); rdc_json_str(j, vname);
			rdc_json_key(j, "chosen"); rdc_json_str(j, chosen[0] ? chosen : NULL);
			rdc_json_key(j, "reason"); rdc_json_str(j, ch->reason);
			rdc_json_key(j, "preferred"); rdc_json_bool(j, ch->preferred);
			rdc_json_key(j, "prefer"); rdc_json_str(j, ch->prefer_note[0] ? ch->prefer_note : NULL);
			rdc_json_key(j, "need");
			rdc_json_str(j, ch->verdict == RDC_VERDICT_MISSING ? ch->need : NULL);
			rdc_json_key(j, "refused_kernels"); rdc_json_u64(j, ch->n_refused);
			if (c->kernels) {
				long ei = ch->entry >= 0 ? ch->entry : ch->refused_entry;
				key_target_or_null(j, "kernels_of",
						   co && ei >= 0 && (size_t)ei < bv->n ? &bv->e[ei].target : NULL);
				struct rdc_inspect_rules ir;
				rdc_inspect_rules_begin(&ir, c, bv, ei, ch);
				/* --sha256: the hash a rule's sha256: scope names (docs/RULES.md) */
				if (c->sha256) {
					char hex[65];
					rdc_json_key(j, "kernels_sha256");
					rdc_json_str(j, rdc_inspect_rules_sha256_hex(&ir, c, hex) ? hex : NULL);
				}
				rdc_json_key(j, "kernels");
				rdc_json_arr(j);
				for (size_t k = 0; co && k < co->n_kernels; k++)
					print_kernel_json(c, &co->kernels[k], ch->kernels ? &ch->kernels[k] : NULL,
							  &ir);
				rdc_inspect_rules_end(&ir);
				rdc_json_arr_end(j);
			}
		}
		rdc_json_obj_end(j);
		return;
	}

	FILE *o = c->out;
	if (bv->is_codeobj)
		fprintf(o, "  code object, %" PRIu64 " bytes\n", bv->size);
	else
		fprintf(o, "  bundle %zu @ %" PRIu64 ", %" PRIu64 " bytes, %s, %zu entries\n", bv->index,
			bv->offset, bv->size, bv->compressed ? "compressed" : "plain", bv->n);
	for (size_t i = 0; i < bv->n; i++) {
		const struct entry_view *e = &bv->e[i];
		if (e->id)
			fprintf(o, "    [%zu] %-48.*s %10" PRIu64 " bytes", i,
				(int)(e->id_len > 200 ? 200 : e->id_len), e->id, e->size);
		else
			fprintf(o, "    [%zu] %-48s %10" PRIu64 " bytes", i, "(code object)", e->size);
		if (e->device && !e->id) {
			char tt[64];
			rdc_target_format(&e->target, tt, sizeof tt);
			fprintf(o, "  %s", tt);
		}
		if (e->cov)
			fprintf(o, "  v%u", e->cov);
		if (e->kernels >= 0)
			fprintf(o, "  %ld kernel%s", e->kernels, e->kernels == 1 ? "" : "s");
		fputc('\n', o);
	}
	if (ch) {
		if (ch->verdict == RDC_VERDICT_NATIVE)
			fprintf(o, "    %s: native (%s)\n", c->dev_text, ch->reason);
		else if (ch->verdict == RDC_VERDICT_MAPPED && ch->preferred)
			fprintf(o, "    %s: preferred %s (%s)\n", c->dev_text, chosen, ch->reason);
		else if (ch->verdict == RDC_VERDICT_MAPPED)
			fprintf(o, "    %s: mapped from %s (%s)\n", c->dev_text, chosen, ch->reason);
		else
			fprintf(o, "    %s: missing: needs %s; %s\n", c->dev_text, ch->need, ch->reason);
		if (ch->prefer_note[0] && !ch->preferred)
			fprintf(o, "    prefer: %s\n", ch->prefer_note);
		if (c->kernels && co)
			for (size_t k = 0; k < co->n_kernels; k++)
				print_kernel_text(c, &co->kernels[k], ch->kernels ? &ch->kernels[k] : NULL);
	}
}

/* Without a GPU, --kernels lists every entry's kernels (resources only). */
void rdc_inspect_list_kernels(struct ictx *c, const struct bundle_view *bv)
{
	for (size_t i = 0; i < bv->n; i++) {
		if (!bv->e[i].device || !bv->data[i])
			continue;
		struct rdc_codeobj co;
		if (rdc_codeobj_parse(bv->data[i], (size_t)bv->e[i].size,
				      RDC_CO_METADATA | RDC_CO_DESCRIPTORS, &co, NULL))
			continue;
		char tt[64];
		rdc_target_format(&bv->e[i].target, tt, sizeof tt);
		fprintf(c->out, "    kernels of [%zu] %s:\n", i, tt);
		for (size_t k = 0; k < co.n_kernels; k++)
			print_kernel_text(c, &co.kernels[k], NULL);
		rdc_codeobj_free(&co);
	}
}

