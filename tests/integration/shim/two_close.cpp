// SPDX-License-Identifier: MIT
// two_close.cpp — linked between two_a.hip and two_b.hip, so its
// constructor runs between their registrations: it closes every descriptor
// of its own library file (the one the shim keeps for the library's next
// bundle, hook_fatbin.c) and opens /dev/null, which takes the same number.
// two_closed_fd is that number (-1 when there was none); the program checks
// that it still names /dev/null at main (the shim must not close it).
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern "C" int two_closed_fd;
int two_closed_fd = -1;

__attribute__((constructor)) static void two_close_own_descriptors(void)
{
	Dl_info di;
	char self[PATH_MAX], link[PATH_MAX], path[64];
	if (!dladdr((void *)&two_closed_fd, &di) || !di.dli_fname || !realpath(di.dli_fname, self))
		return;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) != nullptr;) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] == '.' || fd == dirfd(d))
			continue;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(path, link, sizeof link - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (strcmp(link, self) != 0)
			continue;
		close(fd);
		int z = open("/dev/null", O_RDONLY);
		if (z >= 0 && z != fd) {
			dup2(z, fd);
			close(z);
		}
		two_closed_fd = fd;
	}
	closedir(d);
}
