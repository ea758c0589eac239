/* SPDX-License-Identifier: MIT */
/*
 * boolstr.c — rdc_bool_parse (boolstr.h): the documented spellings of a
 * boolean setting, nothing else.
 */
#include <strings.h>

#include "rdnacompat/boolstr.h"

int rdc_bool_parse(const char *s)
{
	static const char *const on[] = { "1", "on", "yes", "true" };
	static const char *const off[] = { "0", "off", "no", "false" };
	for (int i = 0; s && i < 4; i++) {
		if (strcasecmp(s, on[i]) == 0)
			return 1;
		if (strcasecmp(s, off[i]) == 0)
			return 0;
	}
	return -1;
}
