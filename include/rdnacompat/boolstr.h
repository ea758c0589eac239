/* SPDX-License-Identifier: MIT */
/*
 * boolstr.h — the one parser of boolean settings, shared by the shim's
 * environment (RDNACOMPAT_OPT_IN, _CACHE, _REDIRECT_FILES) and the tool
 * (inspect honours RDNACOMPAT_OPT_IN the way the shim does).
 */
#ifndef RDNACOMPAT_BOOLSTR_H
#define RDNACOMPAT_BOOLSTR_H

/* 1 for 1/on/yes/true, 0 for 0/off/no/false (any case), -1 for anything
 * else (the caller keeps its safe default and warns). */
int rdc_bool_parse(const char *s);

#endif
