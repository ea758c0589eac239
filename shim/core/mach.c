/* SPDX-License-Identifier: MIT */
/*
 * mach.c — the AMDGPU ELF e_flags machine byte (EF_AMDGPU_MACH_*) <-> the
 * processor name, plus which target features each processor has.
 *
 * Values: llvm/include/llvm/BinaryFormat/ELF.h (llvm/llvm-project, stored
 * commit 008d0233) and, for the newest ones (gfx1154, gfx117x, gfx1250,
 * gfx1251, gfx1310, gfx11-7/12-5/13 generic), LLVM's test
 * test/CodeGen/AMDGPU/elf-header-flags-mach.ll.  0x40 and 0x4b were gfx940
 * and gfx941 before LLVM retired them (now RESERVED); old code objects still
 * carry them.  Feature support (only needed to decode code object v2/v3
 * e_flags, where a clear bit means "off" on a processor that has the
 * feature): ROCR libamdhsacode/amd_hsa_code.cpp GetMachInfo.
 * Pure table lookups.
 */
#include <string.h>

#include "codeobj_internal.h"

#define M(v, n, x, s) { (v), (n), (x), (s), false }
#define G(v, n, x, s) { (v), (n), (x), (s), true }

static const struct rdc_mach_info machs[] = {
	M(0x20, "gfx600", false, false),  M(0x21, "gfx601", false, false),
	M(0x3a, "gfx602", false, false),  M(0x22, "gfx700", false, false),
	M(0x23, "gfx701", false, false),  M(0x24, "gfx702", false, false),
	M(0x25, "gfx703", false, false),  M(0x26, "gfx704", false, false),
	M(0x3b, "gfx705", false, false),  M(0x28, "gfx801", true, false),
	M(0x29, "gfx802", false, false),  M(0x2a, "gfx803", false, false),
	M(0x3c, "gfx805", false, false),  M(0x2b, "gfx810", true, false),
	M(0x2c, "gfx900", true, false),   M(0x2d, "gfx902", true, false),
	M(0x2e, "gfx904", true, false),   M(0x2f, "gfx906", true, true),
	M(0x30, "gfx908", true, true),    M(0x31, "gfx909", true, false),
	M(0x3f, "gfx90a", true, true),    M(0x32, "gfx90c", true, false),
	M(0x40, "gfx940", true, true),    M(0x4b, "gfx941", true, true),
	M(0x4c, "gfx942", true, true),    M(0x4f, "gfx950", true, true),
	M(0x33, "gfx1010", true, false),  M(0x34, "gfx1011", true, false),
	M(0x35, "gfx1012", true, false),  M(0x42, "gfx1013", true, false),
	M(0x36, "gfx1030", false, false), M(0x37, "gfx1031", false, false),
	M(0x38, "gfx1032", false, false), M(0x39, "gfx1033", false, false),
	M(0x3e, "gfx1034", false, false), M(0x3d, "gfx1035", false, false),
	M(0x45, "gfx1036", false, false), M(0x41, "gfx1100", false, false),
	M(0x46, "gfx1101", false, false), M(0x47, "gfx1102", false, false),
	M(0x44, "gfx1103", false, false), M(0x43, "gfx1150", false, false),
	M(0x4a, "gfx1151", false, false), M(0x55, "gfx1152", false, false),
	M(0x58, "gfx1153", false, false), M(0x57, "gfx1154", false, false),
	M(0x5d, "gfx1170", false, false), M(0x5e, "gfx1171", false, false),
	M(0x5c, "gfx1172", false, false), M(0x48, "gfx1200", false, false),
	M(0x4e, "gfx1201", false, false), M(0x49, "gfx1250", false, false),
	M(0x5a, "gfx1251", false, false), M(0x50, "gfx1310", false, false),
	G(0x51, "gfx9-generic", true, false),
	G(0x5f, "gfx9-4-generic", true, true),
	G(0x52, "gfx10-1-generic", true, false),
	G(0x53, "gfx10-3-generic", false, false),
	G(0x54, "gfx11-generic", false, false),
	G(0x62, "gfx11-7-generic", false, false),
	G(0x59, "gfx12-generic", false, false),
	G(0x5b, "gfx12-5-generic", false, false),
	G(0x63, "gfx13-generic", false, false),
};

const struct rdc_mach_info *rdc_mach_info(uint8_t mach)
{
	for (size_t i = 0; i < sizeof machs / sizeof machs[0]; i++)
		if (machs[i].mach == mach)
			return &machs[i];
	return NULL;
}

const struct rdc_mach_info *rdc_mach_info_by_name(const char *proc)
{
	if (!proc)
		return NULL;
	for (size_t i = 0; i < sizeof machs / sizeof machs[0]; i++)
		if (strcmp(machs[i].name, proc) == 0)
			return &machs[i];
	return NULL;
}

const char *rdc_mach_to_proc(uint8_t mach)
{
	const struct rdc_mach_info *m = rdc_mach_info(mach);
	return m ? m->name : NULL;
}

int rdc_proc_to_mach(const char *proc)
{
	const struct rdc_mach_info *m = rdc_mach_info_by_name(proc);
	return m ? m->mach : -1;
}
