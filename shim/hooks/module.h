/* SPDX-License-Identifier: MIT */
/*
 * module.h — the decisions hook_module.c keeps for images handed to HIP's
 * loaders, for every hook that loads one (hook_module.c: hipModuleLoad*,
 * hook_library.c: hipLibraryLoad*).  An image is decided once (decide.c,
 * cached in memory and in the decision cache); when it needs a rebuilt
 * image, the caller gets the rebuilt one and a reference that keeps it
 * alive: hand it to rdc_module_hold() under the handle HIP returned, or give
 * it back with rdc_module_release() when the load failed; rdc_module_drop()
 * when the handle is unloaded.  Guard entered by the caller.
 */
#ifndef RDNACOMPAT_MODULE_H
#define RDNACOMPAT_MODULE_H

#include <stdint.h>

struct rdc_mentry;

/* What HIP should load for `image` (memory): the rebuilt image (*held set)
 * or `image` itself (*held NULL).  `caller`: the loading code, for the log,
 * the cache's name and the kernel rules' library scope; `source`: the API,
 * for the log. */
const void *rdc_module_use_image(const void *image, const void *caller, const char *source,
				 struct rdc_mentry **held);

/* The same for a file: the rebuilt image (*held set), or NULL when HIP
 * should get the file itself. */
const void *rdc_module_use_file(const char *fname, const void *caller, const char *source,
				struct rdc_mentry **held);

void rdc_module_hold(uintptr_t handle, struct rdc_mentry *held);
void rdc_module_release(struct rdc_mentry *held);
void rdc_module_drop(uintptr_t handle);

#endif
