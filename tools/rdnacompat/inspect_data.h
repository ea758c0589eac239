/* SPDX-License-Identifier: MIT */
/*
 * inspect_data.h — what kind of per-arch file a name in a library directory
 * is (rocBLAS/Tensile code and MessagePack or YAML libraries, MIOpen
 * databases and models, MIOpen's per-arch composable-kernel libraries), and
 * which GPU target its name carries.
 */
#ifndef RDC_TOOL_INSPECT_DATA_H
#define RDC_TOOL_INSPECT_DATA_H

#include <stddef.h>

enum rdc_data_kind {
	RDC_DATA_NONE = 0,      /* not a per-arch file this knows */
	RDC_DATA_TENSILE_DAT,   /* Tensile library, MessagePack (.dat) */
	RDC_DATA_TENSILE_YAML,  /* Tensile library, YAML (.yaml) */
	RDC_DATA_CODE,          /* a per-arch code object file (.hsaco, .co) */
	RDC_DATA_MIOPEN_FDB,    /* MIOpen text database: find (.fdb.txt), perf (.db.txt) */
	RDC_DATA_MIOPEN_DB,     /* MIOpen SQLite database (.db, .kdb, .udb) */
	RDC_DATA_MIOPEN_MODEL,  /* MIOpen heuristics model (.model) */
	RDC_DATA_MIOPEN_CK,     /* MIOpen's per-arch CK library (libMIOpenCKGroupedConv_<target>.so) */
	RDC_DATA_BAD,           /* named like one of these, content not (reason set) */
	RDC_DATA_KINDS
};

/* A short name of the kind ("tensile-dat", ...). */
const char *rdc_data_kind_name(enum rdc_data_kind k);

/* The first "gfx<hex digits>" word in name (not followed by another digit or
 * letter of the target: "gfx1030" in "TensileLibrary_lazy_gfx1030.dat",
 * "gfx90a" in "gfx90a68.kdb", "gfx908" in "gfx90878.kdb"), copied into out; 0 when found,
 * -1 when name carries none. */
int rdc_data_arch(const char *name, char *out, size_t n);

/* Classify the file at path (name: its base name) by name and, for .dat and
 * SQLite files, by its first bytes (MessagePack map / SQLite header).  On
 * RDC_DATA_BAD, why says what did not match. */
enum rdc_data_kind rdc_data_classify(const char *path, const char *name, char *why, size_t n);

#endif
