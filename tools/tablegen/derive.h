/* SPDX-License-Identifier: MIT */
/*
 * derive.h — tablegen's proof of the compat edges from LLVM's features
 * (tables/features.tsv, docs/TABLES.md "How an edge is proven").
 */
#ifndef RDC_TABLEGEN_DERIVE_H
#define RDC_TABLEGEN_DERIVE_H

#include <stdio.h>

#include "rdnacompat/features.h"
#include "rdnacompat/tables_parse.h"

struct rdc_tg_stats {
	unsigned edges;       /* edges proven */
	unsigned conditional; /* of which name a per-kernel condition */
	unsigned opt_in;      /* of which are opt-in */
	unsigned exempt;      /* workarounds a device needs that were exempt (compute never needs them) */
	unsigned moot;        /* workarounds moot because the code lacks the instructions they guard */
};

/* Check that every isa row has a features target row and every target row
 * an isa row, then prove each compat edge device <- code: the code's
 * instruction, capability and abi features are the device's, and it
 * carries every workaround the device needs, or the edge's condition names
 * the token that decides the missing one per kernel, or it is opt-in.
 * Prints "file:line: device <- code: reason" per failure to `err`; returns
 * the number of failures (0: every edge proven), or -1 on an internal
 * error (message printed). */
int rdc_tg_prove(const struct rdc_tables_build *b, const struct rdc_features *f, FILE *err,
		 struct rdc_tg_stats *st);

#endif
