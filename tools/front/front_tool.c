/* SPDX-License-Identifier: MIT */
/*
 * front_tool.c — finds the full tool relative to the front end and execs it
 * (front.h).  The front end is <prefix>/bin/rdnacompat and the tool
 * <prefix>/libexec/rdnacompat/rdnacompat-tool, in a build tree (build/bin,
 * build/libexec), after `make install`, in the Debian package (/usr) and in
 * the wheel (_bundled/); /proc/self/exe names the front end's real file, so
 * a symlink to it on PATH works.
 */
#include "front.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TOOL_REL "../libexec/rdnacompat/rdnacompat-tool"

int rdc_front_exec_tool(char **argv)
{
	char self[PATH_MAX], tool[PATH_MAX + sizeof TOOL_REL];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		fprintf(stderr, "rdnacompat: cannot find the tool: /proc/self/exe: %s\n",
			n < 0 ? strerror(errno) : "empty");
		return 2;
	}
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash) {
		fprintf(stderr, "rdnacompat: cannot find the tool: /proc/self/exe is '%s'\n", self);
		return 2;
	}
	snprintf(tool, sizeof tool, "%.*s/%s", (int)(slash - self), self, TOOL_REL);
	execv(tool, argv);
	int e = errno;
	fprintf(stderr, "rdnacompat: cannot run the tool %s: %s (%s expects it at <prefix>/libexec/rdnacompat/ "
			"beside <prefix>/bin/; reinstall rdnacompat)\n", tool, strerror(e), self);
	return 2;
}
