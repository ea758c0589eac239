/* SPDX-License-Identifier: MIT */
/*
 * fallback_blob.h — the fallback kernels embedded in librdnacompat.so: one
 * clang offload bundle (__CLANG_OFFLOAD_BUNDLE__, entries
 * hipv4-amdgcn-amd-amdhsa--gfx1030/gfx1100/gfx1101/gfx1102, code object v5)
 * holding every kernel of shim/fallback/*.hip.  Generated at build time by
 * shim/fallback/build-bundle.sh into $(BUILD)/gen/fallback_blob.S (hidden
 * symbols, read-only data in its own section .rdc_fallback —
 * RDC_FALLBACK_SECTION of rdnacompat/container.h — so that `rdnacompat
 * inspect librdnacompat.so` lists it).  Kernels and their ABIs:
 * docs/FALLBACKS.md.
 *   rdnacompat_fb_fattn_combine       ggml flash_attn_combine_results<D>, any D
 *   rdnacompat_fb_fattn_tile_dv<DV>   ggml flash_attn_tile<DKQ, DV, *, *, *>,
 *                                     DV in 40 64 72 80 96 112 128 256 512
 */
#ifndef RDC_FALLBACK_BLOB_H
#define RDC_FALLBACK_BLOB_H

#include <stddef.h>

extern const unsigned char rdc_fallback_bundle[];
extern const size_t rdc_fallback_bundle_size;

#endif
