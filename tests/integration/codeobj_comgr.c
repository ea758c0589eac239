/* SPDX-License-Identifier: MIT */
/*
 * codeobj_comgr.c — helper of codeobj_comgr.sh: retarget a code object with
 * rdc_codeobj_retarget and ask Debian's real comgr (libamd_comgr.so.2, the
 * library CLR reads code objects with) what the result is: its ISA name
 * (amd_comgr_get_data_isa_name, from e_flags) and its metadata
 * (amd_comgr_get_data_metadata: amdhsa.target and the kernel count).
 *   codeobj_comgr IN.co TARGET-ID [OUT.co]   exit 0 when comgr agrees
 */
#include <amd_comgr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/codeobj.h"

#define CHK(x) do { amd_comgr_status_t s_ = (x); if (s_ != AMD_COMGR_STATUS_SUCCESS) { \
	fprintf(stderr, "comgr: %s failed (%d)\n", #x, (int)s_); return 1; } } while (0)

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	size_t n = (size_t)ftell(f);
	rewind(f);
	unsigned char *b = malloc(n);
	if (fread(b, 1, n, f) != n)
		return 2;
	fclose(f);
	struct rdc_target to;
	struct rdc_diag d;
	if (rdc_target_parse(argv[2], (size_t)-1, &to, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return 2;
	}
	uint8_t *o;
	size_t on;
	if (rdc_codeobj_retarget(b, n, &to, &o, &on, &d)) {
		fprintf(stderr, "retarget: %s\n", d.msg);
		return 1;
	}
	if (argc > 3) {
		FILE *w = fopen(argv[3], "wb");
		if (!w || fwrite(o, 1, on, w) != on)
			return 2;
		fclose(w);
	}
	char want[96];
	rdc_target_format_isa_name(&to, want, sizeof want);

	amd_comgr_data_t data;
	CHK(amd_comgr_create_data(AMD_COMGR_DATA_KIND_EXECUTABLE, &data));
	CHK(amd_comgr_set_data(data, on, (const char *)o));
	size_t len = 0;
	CHK(amd_comgr_get_data_isa_name(data, &len, NULL));
	char *isa = calloc(1, len + 1);
	CHK(amd_comgr_get_data_isa_name(data, &len, isa));
	amd_comgr_metadata_node_t root, tgt, kernels;
	CHK(amd_comgr_get_data_metadata(data, &root));
	CHK(amd_comgr_metadata_lookup(root, "amdhsa.target", &tgt));
	len = 0;
	CHK(amd_comgr_get_metadata_string(tgt, &len, NULL));
	char *mt = calloc(1, len + 1);
	CHK(amd_comgr_get_metadata_string(tgt, &len, mt));
	CHK(amd_comgr_metadata_lookup(root, "amdhsa.kernels", &kernels));
	size_t nk = 0;
	CHK(amd_comgr_get_metadata_list_size(kernels, &nk));
	struct rdc_codeobj in;
	if (rdc_codeobj_parse(b, n, RDC_CO_METADATA, &in, &d))
		return 2;
	printf("comgr isa %s, metadata target %s, %zu kernels (input %zu)\n", isa, mt, nk, in.n_kernels);
	int ok = strcmp(mt, want) == 0 && nk == in.n_kernels && strncmp(isa, want, strlen(isa)) == 0;
	/* comgr's ISA name comes from e_flags and spells features the way the
	 * e_flags say them; compare the processor part exactly. */
	ok = ok && strlen(isa) >= strlen("amdgcn-amd-amdhsa--") + strlen(to.proc);
	rdc_codeobj_free(&in);
	amd_comgr_destroy_metadata(kernels);
	amd_comgr_destroy_metadata(tgt);
	amd_comgr_destroy_metadata(root);
	amd_comgr_release_data(data);
	free(isa);
	free(mt);
	free(o);
	free(b);
	if (!ok)
		fprintf(stderr, "mismatch: want %s\n", want);
	return ok ? 0 : 1;
}
