/* SPDX-License-Identifier: MIT */
/*
 * datafile.h — which file names are the per-arch data files of the ROCm
 * libraries that pick their data by the device's name (rocBLAS's and
 * hipBLASLt's Tensile libraries and code objects, MIOpen's databases and
 * per-arch composable-kernel libraries), and
 * the same name for another target.  The shim's file redirection
 * (shim/hooks/hook_files.c) asks nothing else: a name that is not one of
 * these is never redirected, whoever opens it.  Pure: strings in, strings out.
 */
#ifndef RDNACOMPAT_DATAFILE_H
#define RDNACOMPAT_DATAFILE_H

#include <stdbool.h>
#include <stddef.h>

/* If `path`'s base name (the part after the last '/'; the directories are
 * never looked at) is a per-arch data file for processor `proc` ("gfx1031"),
 * the library it belongs to ("Tensile" or "MIOpen"); else NULL.  The base
 * names taken (proc stands for the processor, delimited by '_', '-' or '.'
 * and never followed by another digit or letter):
 *   TensileLibrary*<proc>*.dat|.yaml|.co|.hsaco   rocBLAS, hipBLASLt
 *   Kernels.so-*<proc>*.hsaco                      Tensile's source kernels
 *   extop_<proc>*.co                               hipBLASLt's extension ops
 *   *<proc>*co  (exactly, a glob pattern)          rocBLAS/hipBLASLt's listing
 *   <proc>*.kdb | <proc>*.fdb.txt | <proc>*.db     MIOpen's system databases
 *   libMIOpenCKGroupedConv_<proc>.so               MIOpen's CK library (dlopen)
 * MIOpen's user databases (.ukdb, .udb, .ufdb.txt) and SQLite's -journal,
 * -wal and -shm companions are not among them. */
const char *rdc_datafile_of(const char *path, const char *proc);

/* True when rdc_datafile_of(path, proc) takes path and its kind is a shared
 * object the library loads with dlopen (libMIOpenCKGroupedConv_<proc>.so);
 * false otherwise (NULL arguments included). */
bool rdc_datafile_is_dso(const char *path, const char *proc);

/* `path` with `proc` replaced by `code` in its base name only, when
 * rdc_datafile_of(path, proc) says it is a data file.  Returns 0, or
 * RDC_E_NOTFOUND (not a data file for proc), RDC_E_RANGE (does not fit in
 * n bytes), RDC_E_INVAL (NULL argument). */
int rdc_datafile_rename(const char *path, const char *proc, const char *code, char *out, size_t n);

#endif
