/* SPDX-License-Identifier: MIT */
/*
 * hook_dlsym.c — dlsym, for the one library the HIP runtime reaches only
 * through it: comgr.  HIP 6.4 and 7.x load libamd_comgr with dlopen and take
 * every amd_comgr_* entry with dlsym on that handle (clr rocclr/device/
 * comgrctx.cpp, Comgr::LoadLib; Debian's libamdhip64.so.6/.7 have no
 * DT_NEEDED on comgr), so a preloaded amd_comgr_* definition is never
 * called.  The runtime unbundles a compressed bundle through comgr only when
 * it digests that module — at its first kernel for HIP 7, at hipInit for
 * 6.4 — which is the moment the shim wants to decide (hook_comgr.c).
 *
 * A lookup of an amd_comgr_* name on an explicit handle gets the real
 * definition, or hook_comgr.c's wrapper of it (rdc_comgr_wrap).  Every other
 * call — other names, RTLD_NEXT and RTLD_DEFAULT — jumps (not calls) into
 * the real dlsym with the caller's return address in place: glibc resolves
 * RTLD_NEXT relative to the object that called dlsym, which a C wrapper
 * would make librdnacompat.so.  Versions: dlsym@@GLIBC_2.34 and, for
 * programs linked before glibc 2.34, dlsym@GLIBC_2.2.5, as hook_dlopen.c.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>

#include "shim.h"

#if defined(__x86_64__)

static void *no_dlsym(void *handle, const char *name)
{
	(void)handle;
	(void)name;
	return NULL;
}

/* Not through the real-function table: its lookups call dlsym, which
 * would come back here before the entry is set. */
static void *_Atomic real_fn;

/* dlsym is called before anything is set up — by a sanitizer runtime
 * finding its own real functions, by other preloads' constructors — so
 * these two run uninstrumented and call no libc function but dlvsym. */
#define PRE_INIT __attribute__((no_sanitize("thread"))) __attribute__((no_sanitize("address"))) \
	__attribute__((no_sanitize("undefined")))

PRE_INIT static void *real_dlsym(void)
{
	void *r = atomic_load_explicit(&real_fn, memory_order_acquire);
	if (r)
		return r;
	r = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!r)
		r = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	if (!r)
		return (void *)no_dlsym;
	atomic_store_explicit(&real_fn, r, memory_order_release);
	return r;
}

static int wrap_lookup(void *handle, const char *name, void **out,
		       void *(*real)(void *, const char *));

/* "amd_comgr_" leads `name` (no libc call: see PRE_INIT) */
PRE_INIT static int comgr_name(const char *name)
{
	static const char pfx[] = "amd_comgr_";
	for (size_t i = 0; i < sizeof pfx - 1; i++)
		if (name[i] != pfx[i])
			return 0;
	return 1;
}

/* Called by the trampoline: 1 with *out the answer (a comgr entry, real or
 * wrapped), or 0 with *out the real dlsym to jump to. */
__attribute__((used)) int rdc_dlsym_prepare(void *handle, const char *name, void **out);
PRE_INIT __attribute__((used)) int rdc_dlsym_prepare(void *handle, const char *name, void **out)
{
	void *(*real)(void *, const char *) = (void *(*)(void *, const char *))real_dlsym();
	*out = (void *)real;
	if (!name || handle == RTLD_NEXT || handle == RTLD_DEFAULT || !comgr_name(name))
		return 0;
	return wrap_lookup(handle, name, out, real);
}

/* An amd_comgr_* lookup on a library handle: the real entry or its wrapper. */
static int wrap_lookup(void *handle, const char *name, void **out,
		       void *(*real)(void *, const char *))
{
	int saved = errno;
	void *fn = real(handle, name);  /* an explicit handle: the caller does not matter */
	int err = errno;
	if (fn && !rdc_guard_active()) {
		rdc_init();   /* the configuration decides whether comgr is watched */
		rdc_guard_enter();
		fn = rdc_comgr_wrap(handle, name, fn, real);
		rdc_guard_leave();
	}
	*out = fn;
	errno = fn ? saved : err;
	return 1;
}

__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl rdc_dlsym_hook\n"
	"	.type rdc_dlsym_hook, @function\n"
	"rdc_dlsym_hook:\n"
	"	.cfi_startproc\n"
	"	subq $24, %rsp\n"
	"	.cfi_def_cfa_offset 32\n"
	"	movq %rdi, (%rsp)\n"
	"	movq %rsi, 8(%rsp)\n"
	"	leaq 16(%rsp), %rdx\n"
	"	call rdc_dlsym_prepare\n"
	"	movq (%rsp), %rdi\n"
	"	movq 8(%rsp), %rsi\n"
	"	movq 16(%rsp), %rcx\n"
	"	addq $24, %rsp\n"
	"	.cfi_def_cfa_offset 8\n"
	"	testl %eax, %eax\n"
	"	jnz 1f\n"
	"	jmp *%rcx\n"
	"1:\n"
	"	movq %rcx, %rax\n"
	"	ret\n"
	"	.cfi_endproc\n"
	"	.size rdc_dlsym_hook, .-rdc_dlsym_hook\n"
	"	.symver rdc_dlsym_hook, dlsym@@GLIBC_2.34\n"
	"	.globl rdc_dlsym_hook_225\n"
	"	.set rdc_dlsym_hook_225, rdc_dlsym_hook\n"
	"	.symver rdc_dlsym_hook_225, dlsym@GLIBC_2.2.5\n");

#endif
