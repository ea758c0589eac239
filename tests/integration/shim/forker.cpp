// SPDX-License-Identifier: MIT
// forker.cpp — fork while another thread loads modules (shim locks busy);
// every child touches the shim (open of a name with the device's target,
// which takes its locks) and must exit promptly; the parent still launches.
#include <fcntl.h>
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static const char *path;
static volatile int stop;
static void *loader(void *arg)
{
	while (!stop) {
		hipModule_t m;
		if (hipModuleLoad(&m, path) == hipSuccess)
			hipModuleUnload(m);
	}
	return NULL;
}
int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	path = argv[1];
	int n = 0;
	hipGetDeviceCount(&n);
	pthread_t t;
	pthread_create(&t, NULL, loader, NULL);
	int ok = 0;
	for (int i = 0; i < 20; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			int fd = open(argv[2], O_RDONLY);
			if (fd >= 0)
				close(fd);
			_exit(fd >= 0 ? 0 : 3);
		}
		int st = 0;
		waitpid(pid, &st, 0);
		ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
		usleep(2000);
	}
	stop = 1;
	pthread_join(t, NULL);
	hipModule_t m;
	hipError_t e = hipModuleLoad(&m, path);
	printf("children ok %d/20 parent load %s\n", ok, hipGetErrorString(e));
	return ok == 20 && e == hipSuccess ? 0 : 1;
}
