/* SPDX-License-Identifier: MIT */
/*
 * container.h — open a file and say what it holds, for the tool and tests:
 *
 *   RDC_CONT_HOST_ELF    a host ELF (shared library, executable, object);
 *                        its `.hip_fatbin` section, if any, is the region
 *                        of bundles back to back (walk it with
 *                        rdc_bundle_scan); without one, the section
 *                        .rdc_fallback of rdnacompat's own binaries
 *   RDC_CONT_BUNDLE      a raw offload bundle file (plain or CCOB), as
 *                        clang-offload-bundler writes it
 *   RDC_CONT_CODE_OBJECT a raw AMDGPU code object (ELF, e_machine 224)
 *
 * Files are mapped read-only and MAP_PRIVATE, and only what is needed: for a
 * host ELF, libelf reads the ELF and section headers (and the section name
 * table) with pread, then only the `.hip_fatbin` bytes are mapped — a 1.3 GB
 * librocsparse costs a few page reads until a bundle is looked at.  Bundles
 * and code objects are mapped whole (the mapping touches no page by itself).
 *
 * This is the only file of the core that does file I/O.  Errors name the
 * file and, where there is one, the byte offset in the file.
 */
#ifndef RDNACOMPAT_CONTAINER_H
#define RDNACOMPAT_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/error.h"

/* The section holding the shim's embedded fallback bundle
 * (shim/fallback/build-bundle.sh writes it; shim/fallback/fallback_blob.h). */
#define RDC_FALLBACK_SECTION ".rdc_fallback"

enum rdc_container_kind {
	RDC_CONT_UNKNOWN = 0,
	RDC_CONT_HOST_ELF,
	RDC_CONT_BUNDLE,
	RDC_CONT_CODE_OBJECT,
};

struct rdc_container {
	enum rdc_container_kind kind;
	uint64_t file_size;

	/* The bytes of interest: the whole file for a bundle or code object;
	 * the `.hip_fatbin` section for a host ELF (NULL, size 0 when it has
	 * none).  `offset` is where they start in the file. */
	const uint8_t *data;
	uint64_t size;
	uint64_t offset;

	/* Host ELF only. */
	bool has_fatbin;
	/* No .hip_fatbin, but section RDC_FALLBACK_SECTION: the fallback
	 * kernels librdnacompat.so (and the rdnacompat tool) carry, one offload
	 * bundle; data/offset/size and fatbin_addr/align are that section's. */
	bool has_fallback;
	uint64_t fatbin_addr;    /* sh_addr of .hip_fatbin (virtual address) */
	uint64_t fatbin_align;   /* sh_addralign */
	uint16_t e_type;         /* ET_DYN, ET_EXEC, ET_REL (also set for code objects) */
	uint16_t e_machine;      /* EM_X86_64, ... / 224 (EM_AMDGPU) for code objects */

	/* The mapping: base/size as mmap returned them (page-aligned). */
	const void *map_base;
	size_t map_size;
};

/* Open `path` and fill `c` (close with rdc_container_close, also after a
 * failure — it is then empty).  Errors: RDC_E_IO (open/stat/mmap, with
 * errno's text), RDC_E_FORMAT (empty file, not ELF/bundle, broken ELF
 * headers), RDC_E_RANGE (.hip_fatbin outside the file), RDC_E_INVAL. */
int rdc_container_open(const char *path, struct rdc_container *c, struct rdc_diag *d);

void rdc_container_close(struct rdc_container *c);

/* "host ELF", "offload bundle", "AMDGPU code object", "unknown". */
const char *rdc_container_kind_name(enum rdc_container_kind k);

#endif
