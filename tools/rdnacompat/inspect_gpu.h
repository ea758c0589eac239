/* SPDX-License-Identifier: MIT */
/*
 * inspect_gpu.h — turn the tool's --gpu / --card / --pci into a device
 * target through the card table (shared by commands that take a GPU).
 */
#ifndef RDC_TOOL_INSPECT_GPU_H
#define RDC_TOOL_INSPECT_GPU_H

#include <stddef.h>

#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

/* At most one of gpu/card/pci is non-NULL.  Returns 1 and fills `dev`
 * when one was given and resolves, 0 when none was given, -1 with a
 * sentence in `err` when it does not resolve (unknown target, no card, a
 * card name matching cards of different targets). */
int rdc_inspect_resolve_gpu(const struct rdc_tables *t, const char *gpu, const char *card,
			    const char *pci, struct rdc_target *dev, char *err, size_t n);

#endif
