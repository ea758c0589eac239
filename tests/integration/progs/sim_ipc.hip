// SPDX-License-Identifier: MIT
// sim_ipc.hip — two processes share one card's memory through HIP IPC, as
// PyTorch's torch.multiprocessing and RCCL's P2P transport across processes
// do: the parent (process A, device DEV_A) fills a hipMalloc'ed buffer with a
// kernel, hipIpcGetMemHandle's it and sends the handle down a pipe; the child
// (process B, forked before either touches HIP, device DEV_B)
// hipIpcOpenMemHandle's it, checks the values with a kernel of its own,
// adds 1000 to each in place, closes the handle and says so; the parent then
// reads the buffer back and checks the child's writes.  Usage:
// sim_ipc DEV_A DEV_B [spawn]: with "spawn" the child execs this program
// afresh (as torch.multiprocessing's spawn start method does) instead of
// running on in the forked copy.  Prints "ok: ..." lines and "ipc: ok";
// exit 1 on any failure with the reason.  sim_ipc peer: prints
// "peer A->B: N" for every ordered pair (hipDeviceCanAccessPeer).
// sim_ipc poll: one process, peer access on; a kernel on device 1 spins on a
// flag in device 0's memory until a kernel on device 0, launched once the
// first says it runs, sets it: both cards' queues must run at once, and the
// host must allocate and launch meanwhile ("poll: ok").  sim_ipc nopeer: the
// same read of device 0's memory by device 1's kernel without peer access
// enabled: on hardware it faults (the memory is not in device 1's page
// tables); prints "nopeer: faulted" when the launch or sync reports an error.
// sim_ipc gone: a forked process exports a buffer, sends the handle and
// exits; this one then opens the handle: the runtime must answer an error
// (its exporter is gone), not crash or hang ("gone: error ...").
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 65536

__global__ void fill(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = i * 3 + 1;
}

// bad[0] counts elements that were not what the parent wrote; each gets +1000.
__global__ void check_add(int *p, int n, unsigned *bad)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (p[i] != i * 3 + 1)
			atomicAdd(bad, 1u);
		p[i] += 1000;
	}
}

// Says it runs (*started, host memory), then spins (bounded) until *flag is
// set; out[0] = what it saw, out[1] = spins.
__global__ void wait_flag(volatile int *flag, int *out, volatile int *started)
{
	if (threadIdx.x == 0 && blockIdx.x == 0) {
		*started = 1;
		__threadfence_system();
		int n = 0;
		while (*flag == 0 && n < 200000000)
			n++;
		out[0] = *flag;
		out[1] = n;
	}
}

__global__ void set_flag(int *flag)
{
	if (threadIdx.x == 0 && blockIdx.x == 0)
		atomicExch(flag, 42);
}

#define CHECK(x)                                                                             \
	do {                                                                                 \
		hipError_t e_ = (x);                                                         \
		if (e_ != hipSuccess) {                                                      \
			fprintf(stderr, "%s: %s failed: %s\n", who, #x, hipGetErrorString(e_)); \
			return 1;                                                            \
		}                                                                            \
	} while (0)

static int child(int dev, int rd, int wr)
{
	const char *who = "process B";
	hipIpcMemHandle_t h;
	if (read(rd, &h, sizeof h) != (ssize_t)sizeof h) {
		fprintf(stderr, "%s: no handle from process A\n", who);
		return 1;
	}
	CHECK(hipSetDevice(dev));
	int *p = NULL;
	unsigned *bad = NULL, nbad = 0;
	CHECK(hipIpcOpenMemHandle((void **)&p, h, hipIpcMemLazyEnablePeerAccess));
	CHECK(hipMalloc(&bad, sizeof *bad));
	CHECK(hipMemset(bad, 0, sizeof *bad));
	hipLaunchKernelGGL(check_add, dim3(N / 256), dim3(256), 0, 0, p, N, bad);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	CHECK(hipMemcpy(&nbad, bad, sizeof nbad, hipMemcpyDeviceToHost));
	if (nbad) {
		fprintf(stderr, "%s: %u of %d values differ from what process A wrote\n", who, nbad, N);
		return 1;
	}
	printf("ok: process B (device %d) opened the handle and its kernel read all %d values process A's kernel wrote\n",
	       dev, N);
	CHECK(hipIpcCloseMemHandle(p));
	CHECK(hipFree(bad));
	char done = 'd';
	return write(wr, &done, 1) == 1 ? 0 : 1;
}

__global__ void read_one(const int *p, int *out)
{
	if (threadIdx.x == 0 && blockIdx.x == 0)
		out[0] = p[0];
}

static int gone(void)
{
	const char *who = "gone";
	int fds[2];
	if (pipe(fds))
		return 1;
	pid_t pid = fork();
	if (pid == 0) { // the exporter: export, send, exit
		close(fds[0]);
		int *p = NULL;
		hipIpcMemHandle_t h;
		if (hipSetDevice(0) != hipSuccess || hipMalloc(&p, 1 << 20) != hipSuccess ||
		    hipIpcGetMemHandle(&h, p) != hipSuccess)
			_exit(1);
		_exit(write(fds[1], &h, sizeof h) == (ssize_t)sizeof h ? 0 : 1);
	}
	close(fds[1]);
	hipIpcMemHandle_t h;
	int st = 0;
	if (read(fds[0], &h, sizeof h) != (ssize_t)sizeof h || waitpid(pid, &st, 0) != pid || st) {
		fprintf(stderr, "gone: the exporter failed (status 0x%x)\n", st);
		return 1;
	}
	CHECK(hipSetDevice(1));
	void *q = NULL;
	hipError_t e = hipIpcOpenMemHandle(&q, h, hipIpcMemLazyEnablePeerAccess);
	printf("gone: %s (%s)\n", e == hipSuccess ? "opened" : "error", hipGetErrorString(e));
	return 0;
}

static int nopeer(void)
{
	const char *who = "nopeer";
	int *p = NULL, *out = NULL;
	CHECK(hipSetDevice(0));
	CHECK(hipMalloc(&p, sizeof *p));
	CHECK(hipMemset(p, 0, sizeof *p));
	CHECK(hipDeviceSynchronize());
	CHECK(hipSetDevice(1));
	CHECK(hipMalloc(&out, sizeof *out));
	hipLaunchKernelGGL(read_one, dim3(1), dim3(32), 0, 0, p, out);
	hipError_t e = hipGetLastError();
	if (e == hipSuccess)
		e = hipDeviceSynchronize();
	printf("nopeer: %s (%s)\n", e == hipSuccess ? "read" : "faulted", hipGetErrorString(e));
	return 0;
}

static int poll(void)
{
	const char *who = "poll";
	int *flag = NULL, *out = NULL, res[2] = { 0, 0 };
	volatile int *started = NULL;
	hipStream_t s0, s1;
	CHECK(hipSetDevice(0));
	CHECK(hipMalloc(&flag, sizeof *flag));
	CHECK(hipMemset(flag, 0, sizeof *flag));
	CHECK(hipDeviceSynchronize());
	CHECK(hipStreamCreate(&s0));
	CHECK(hipSetDevice(1));
	CHECK(hipDeviceEnablePeerAccess(0, 0));
	CHECK(hipMalloc(&out, 2 * sizeof *out));
	CHECK(hipStreamCreate(&s1));
	CHECK(hipHostMalloc((void **)&started, sizeof *started, hipHostMallocMapped | hipHostMallocCoherent));
	*started = 0;
	hipLaunchKernelGGL(wait_flag, dim3(1), dim3(32), 0, s1, flag, out, (int *)started);
	CHECK(hipGetLastError());
	for (int ms = 0; !*started && ms < 60000; ms++) // device 0's kernel only once device 1's runs
		usleep(1000);
	if (!*started) {
		fprintf(stderr, "poll: device 1's kernel did not start within 60 s\n");
		return 1;
	}
	CHECK(hipSetDevice(0));
	hipLaunchKernelGGL(set_flag, dim3(1), dim3(32), 0, s0, flag);
	CHECK(hipGetLastError());
	CHECK(hipStreamSynchronize(s0));
	CHECK(hipSetDevice(1));
	CHECK(hipStreamSynchronize(s1));
	CHECK(hipMemcpy(res, out, sizeof res, hipMemcpyDeviceToHost));
	if (res[0] != 42) {
		fprintf(stderr, "poll: device 1's kernel never saw device 0's write (saw %d after %d spins)\n", res[0], res[1]);
		return 1;
	}
	CHECK(hipFree(out));
	CHECK(hipHostFree((void *)started));
	CHECK(hipStreamDestroy(s1));
	CHECK(hipSetDevice(0));
	CHECK(hipStreamDestroy(s0));
	CHECK(hipFree(flag));
	printf("ok: device 1's kernel spun %d times on device 0's memory until device 0's kernel wrote it\n", res[1]);
	printf("poll: ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *who = "process A";
	if (argc == 2 && !strcmp(argv[1], "peer")) {
		int n = 0;
		CHECK(hipGetDeviceCount(&n));
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++) {
				int can = -1;
				if (a != b && hipDeviceCanAccessPeer(&can, a, b) == hipSuccess)
					printf("peer %d->%d: %d\n", a, b, can);
			}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "poll"))
		return poll();
	if (argc == 2 && !strcmp(argv[1], "nopeer"))
		return nopeer();
	if (argc == 2 && !strcmp(argv[1], "gone"))
		return gone();
	if (argc == 5 && !strcmp(argv[1], "--child")) // spawned: --child DEV_B RD WR
		return child(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "spawn"))) {
		fprintf(stderr, "usage: sim_ipc DEV_A DEV_B [spawn]\n");
		return 2;
	}
	int dev_a = atoi(argv[1]), dev_b = atoi(argv[2]);
	int to_b[2], to_a[2];
	if (pipe(to_b) || pipe(to_a)) {
		perror("pipe");
		return 1;
	}
	pid_t pid = fork(); // before any HIP call: each process has a runtime of its own
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		close(to_b[1]);
		close(to_a[0]);
		if (argc == 4) {
			char d[16], r[16], w[16];
			snprintf(d, sizeof d, "%d", dev_b);
			snprintf(r, sizeof r, "%d", to_b[0]);
			snprintf(w, sizeof w, "%d", to_a[1]);
			execl("/proc/self/exe", argv[0], "--child", d, r, w, (char *)NULL);
			perror("exec");
			_exit(1);
		}
		_exit(child(dev_b, to_b[0], to_a[1]));
	}
	close(to_b[0]);
	close(to_a[1]);
	int *p = NULL;
	CHECK(hipSetDevice(dev_a));
	CHECK(hipMalloc(&p, N * sizeof *p));
	hipLaunchKernelGGL(fill, dim3(N / 256), dim3(256), 0, 0, p, N);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	hipIpcMemHandle_t h;
	CHECK(hipIpcGetMemHandle(&h, p));
	if (write(to_b[1], &h, sizeof h) != (ssize_t)sizeof h) {
		fprintf(stderr, "%s: cannot send the handle\n", who);
		return 1;
	}
	char done = 0;
	ssize_t got = read(to_a[0], &done, 1);
	int st = 0;
	waitpid(pid, &st, 0);
	if (got != 1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "%s: process B failed (status 0x%x)\n", who, st);
		return 1;
	}
	int *host = (int *)malloc(N * sizeof *host);
	CHECK(hipMemcpy(host, p, N * sizeof *p, hipMemcpyDeviceToHost));
	int wrong = 0;
	for (int i = 0; i < N; i++)
		wrong += host[i] != i * 3 + 1 + 1000;
	free(host);
	if (wrong) {
		fprintf(stderr, "%s: %d of %d values lack process B's +1000\n", who, wrong, N);
		return 1;
	}
	printf("ok: process A (device %d) reads back all %d values process B's kernel wrote through the handle\n",
	       dev_a, N);
	CHECK(hipFree(p));
	printf("ipc: ok\n");
	return 0;
}
