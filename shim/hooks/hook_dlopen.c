/* SPDX-License-Identifier: MIT */
/*
 * hook_dlopen.c — dlopen of a library's per-arch shared object.  MIOpen
 * loads its composable-kernel convolutions from a library per target,
 * libMIOpenCKGroupedConv_<target>.so, with dlopen: first under
 * $MIOPEN_CK_LIB_PATH, then beside libMIOpen.so (absolute paths), then by
 * bare name (ROCm/rocm-libraries@60d7c5f8 projects/miopen/src/solver/
 * ck_impl_lib_loader.cpp, OpenRuntimeLibraryForDevice).  ld.so opens the
 * file itself, past the open hooks, so the name is taken here: when a path
 * with a '/' names such a library for a mapped device's target and the file
 * does not exist, the same path with the most preferred compatible target
 * whose file exists is loaded instead, and said once at warn with both paths
 * — the same rule and log line as the per-arch data files (hook_files.c,
 * rdc_redirect_dso).  Any other name, a bare name (the loader's search, which
 * this cannot repeat) and a program's own foo_gfx1031.so are passed on as
 * given.  RDNACOMPAT_REDIRECT_FILES=0 turns this off too.
 *
 * Why a trampoline: glibc's dlopen takes the object that called it from its
 * return address — for $ORIGIN in the name, the caller's RUNPATH in the
 * search, and its link-map namespace.  A C wrapper would make every dlopen
 * in the process look as if librdnacompat.so made it.  So dlopen is a few
 * instructions of assembly that ask rdc_dlopen_prepare which name to pass on
 * and then jump (not call) into the real dlopen, with the caller's return
 * address still on the stack.  A redirected name lives in a heap string that
 * is never freed (one per redirected library and call; MIOpen loads each
 * once).
 *
 * Versions: glibc >= 2.34 defines dlopen@@GLIBC_2.34 and, for programs
 * linked before, dlopen@GLIBC_2.2.5 (formerly libdl's); both are shadowed,
 * both go on to the GLIBC_2.34 definition (the same function in glibc),
 * else to GLIBC_2.2.5's.  x86-64 only, as the rest of the shim.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

#if defined(__x86_64__)

/* When no real dlopen can be found: fail the call as dlopen fails. */
static void *no_dlopen(const char *file, int mode)
{
	(void)file;
	(void)mode;
	return NULL;
}

static void *real_dlopen(void)
{
	void *r = (void *)RDC_REAL(dlopen);
	if (!r)
		r = dlvsym(RTLD_NEXT, "dlopen", "GLIBC_2.2.5");
	return r ? r : (void *)no_dlopen;
}

/* Called by the trampoline below: the name to pass on (file, or a
 * redirected copy) and, in *real, the dlopen to jump to. */
__attribute__((used)) const char *rdc_dlopen_prepare(const char *file, void **real);
__attribute__((used)) const char *rdc_dlopen_prepare(const char *file, void **real)
{
	int saved = errno;
	*real = real_dlopen();
	const char *use = file;
	if (file && strchr(file, '/') && strstr(file, "gfx") && !rdc_guard_active()) {
		char buf[4096];
		rdc_guard_enter();
		if (rdc_redirect_dso(file, buf, sizeof buf)) {
			char *copy = strdup(buf);
			if (copy)
				use = copy;
		}
		rdc_guard_leave();
	}
	errno = saved;
	return use;
}

/* dlopen(file, mode): keep mode, ask prepare (16-byte aligned call), jump
 * to the real dlopen with the original return address in place. */
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl rdc_dlopen_hook\n"
	"	.type rdc_dlopen_hook, @function\n"
	"rdc_dlopen_hook:\n"
	"	.cfi_startproc\n"
	"	subq $24, %rsp\n"
	"	.cfi_def_cfa_offset 32\n"
	"	movq %rsi, 8(%rsp)\n"
	"	movq %rsp, %rsi\n"
	"	call rdc_dlopen_prepare\n"
	"	movq %rax, %rdi\n"
	"	movq 8(%rsp), %rsi\n"
	"	movq (%rsp), %rax\n"
	"	addq $24, %rsp\n"
	"	.cfi_def_cfa_offset 8\n"
	"	jmp *%rax\n"
	"	.cfi_endproc\n"
	"	.size rdc_dlopen_hook, .-rdc_dlopen_hook\n"
	"	.symver rdc_dlopen_hook, dlopen@@GLIBC_2.34\n"
	"	.globl rdc_dlopen_hook_225\n"
	"	.set rdc_dlopen_hook_225, rdc_dlopen_hook\n"
	"	.symver rdc_dlopen_hook_225, dlopen@GLIBC_2.2.5\n");

#endif
