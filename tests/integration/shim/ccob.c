// SPDX-License-Identifier: MIT
// ccob.c — wraps a plain offload bundle as a compressed one (CCOB), the way
// clang-offload-bundler --compress does for HIP >= 6.x, with the core's
// rdc_bundle_compress.  Usage: ccob IN OUT [zlib|zstd] [VERSION].
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/bundle.h"

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int method = argc > 3 && strcmp(argv[3], "zlib") == 0 ? RDC_COMP_ZLIB : RDC_COMP_ZSTD;
	unsigned version = argc > 4 ? (unsigned)atoi(argv[4]) : 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *in = malloc((size_t)n);
	if (!in || fread(in, 1, (size_t)n, f) != (size_t)n)
		return 2;
	fclose(f);
	uint8_t *out = NULL;
	size_t len = 0;
	struct rdc_diag d = { 0 };
	if (rdc_bundle_compress(in, (size_t)n, method, version, &out, &len, &d) != 0) {
		fprintf(stderr, "ccob: %s\n", d.msg);
		return 1;
	}
	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(out, 1, len, o) != len || fclose(o) != 0)
		return 1;
	free(out);
	free(in);
	return 0;
}
