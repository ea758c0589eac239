/* SPDX-License-Identifier: MIT */
/*
 * inspect_kpack.h — `rdnacompat inspect` on kpack archives and on host
 * binaries with a .rocm_kpack_ref marker (inspect_kpack.c, docs/KPACK.md).
 */
#ifndef RDC_TOOL_INSPECT_KPACK_H
#define RDC_TOOL_INSPECT_KPACK_H

#include "rdnacompat/codeobj.h"
#include "inspect.h"

/* 1: a .kpack archive, 2: a host ELF with a .rocm_kpack_ref marker, 0: neither. */
int rdc_inspect_kpack_sniff(const char *path);

/* List it (kind from rdc_inspect_kpack_sniff) into the open file object
 * (JSON) or as text; each TOC key is one bundle.  0, or an RDC_E_* code
 * with c->d set. */
int rdc_inspect_kpack(struct ictx *c, const char *path, int kind);

#endif
