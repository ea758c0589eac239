/* SPDX-License-Identifier: MIT */
/*
 * sim_dmabuf.c — test program for tests/integration/87-sim-ipc.sh: the
 * simulated KFD's DMA-buf requests spoken to directly, as the thunk speaks
 * them (fmm.c hsakmt_fmm_export_dma_buf_fd / hsakmt_fmm_register_graphics_handle):
 * EXPORT_DMABUF, GET_DMABUF_INFO, IMPORT_DMABUF, with the answers KFD gives
 * bad input, the fd passed to another process over a Unix socket
 * (SCM_RIGHTS) as ROCR passes it, and memory both processes really share,
 * including after the exporter freed its object and closed its fds.  Run
 * under the preloaded simulator with two GPUs.  Each check says "ok: ...";
 * the first failure exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim_check.h"

/* KFD 1.12's export request (Debian 12's uapi header is 1.11). */
struct export_args { uint64_t handle; uint32_t flags, dmabuf_fd; };
#define IOC_EXPORT _IOWR('K', 0x24, struct export_args)

#define SIZE (2u << 20)
static int kfd;

static void gpu_ids(uint32_t *id)
{
	struct kfd_process_device_apertures ap[4];
	struct kfd_ioctl_get_process_apertures_new_args a = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap, .num_of_nodes = 4 };
	CHECK(ioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &a) == 0 && a.num_of_nodes == 2,
	      "two GPUs expected: %m");
	id[0] = ap[0].gpu_id;
	id[1] = ap[1].gpu_id;
}

static uint64_t alloc(uint32_t gpu, uint64_t va, uint32_t flags, uint64_t *off)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = va, .size = SIZE, .gpu_id = gpu,
							 .flags = flags, .mmap_offset = off ? *off : 0 };
	CHECK(ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a) == 0, "alloc flags 0x%x: %m", flags);
	if (off)
		*off = a.mmap_offset;
	return a.handle;
}

static int export(uint64_t handle, int *err)
{
	struct export_args e = { .handle = handle, .flags = O_CLOEXEC };
	int rc = ioctl(kfd, IOC_EXPORT, &e);
	*err = rc ? errno : 0;
	return rc ? -1 : (int)e.dmabuf_fd;
}

static int info(int fd, struct kfd_ioctl_get_dmabuf_info_args *i)
{
	char md[64];
	memset(i, 0, sizeof *i);
	i->dmabuf_fd = (uint32_t)fd;
	i->metadata_ptr = (uintptr_t)md;
	i->metadata_size = sizeof md;
	return ioctl(kfd, AMDKFD_IOC_GET_DMABUF_INFO, i) ? errno : 0;
}

static int import(int fd, uint32_t gpu, uint64_t va, uint64_t *handle)
{
	struct kfd_ioctl_import_dmabuf_args a = { .va_addr = va, .gpu_id = gpu, .dmabuf_fd = (uint32_t)fd };
	int rc = ioctl(kfd, AMDKFD_IOC_IMPORT_DMABUF, &a);
	*handle = a.handle;
	return rc ? errno : 0;
}

static void send_fd(int sock, int fd)
{
	char c = 'f', ctl[CMSG_SPACE(sizeof fd)];
	memset(ctl, 0, sizeof ctl);
	struct iovec io = { &c, 1 };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof fd);
	memcpy(CMSG_DATA(h), &fd, sizeof fd);
	CHECK(sendmsg(sock, &m, 0) == 1, "sendmsg: %m");
}

static int recv_fd(int sock)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = { &c, 1 };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
	CHECK(recvmsg(sock, &m, 0) == 1, "recvmsg: %m");
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	CHECK(h && h->cmsg_type == SCM_RIGHTS, "no fd came");
	int fd;
	memcpy(&fd, CMSG_DATA(h), sizeof fd);
	return fd;
}

/* Process B: a KFD process of its own, imports what came over the socket. */
static int child(int sock, uint32_t gpu_b)
{
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	CHECK(kfd >= 0, "B: open /dev/kfd: %m");
	int fd = recv_fd(sock);
	struct kfd_ioctl_get_dmabuf_info_args i;
	CHECK(info(fd, &i) == 0 && i.size == SIZE && (i.flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM),
	      "B: dmabuf info of the received fd: %s", strerror(info(fd, &i)));
	uint64_t h1, h2;
	CHECK(import(fd, gpu_b, 0x7e0000000000ull, &h1) == 0 && h1, "B: import: %m");
	CHECK(import(fd, gpu_b, 0x7e0000400000ull, &h2) == 0 && h2 && h2 != h1,
	      "B: a second import of the same dma-buf: a handle of its own, as KFD gives");
	printf("ok: process B imports the fd it received (exporter gpu_id 0x%x, %llu bytes) twice, two handles\n",
	       i.gpu_id, (unsigned long long)i.size);
	uint32_t *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED, "B: mmap of the dma-buf: %m");
	for (uint32_t k = 0; k < SIZE / 4; k += 1024)
		CHECK(p[k] == k * 7 + 3, "B: word %u is %u, process A wrote %u", k, p[k], k * 7 + 3);
	for (uint32_t k = 0; k < SIZE / 4; k += 1024)
		p[k] = k + 99;
	printf("ok: process B reads what process A wrote and writes back\n");
	char c = 'w';
	CHECK(write(sock, &c, 1) == 1, "B: tell A");
	CHECK(read(sock, &c, 1) == 1 && c == 'x', "B: wait for A to free its object and exit its KFD process");
	for (uint32_t k = 0; k < SIZE / 4; k += 1024)
		CHECK(p[k] == k + 99 + 1, "B: after A freed its object, word %u is %u", k, p[k]);
	printf("ok: the memory lives on in process B after process A freed its object and closed /dev/kfd\n");
	struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = h1 };
	CHECK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f) == 0, "B: free import 1: %m");
	f.handle = h2;
	CHECK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f) == 0, "B: free import 2: %m");
	return 0;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair: %m");
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	CHECK(kfd >= 0, "open /dev/kfd: %m");
	uint32_t id[2];
	gpu_ids(id);
	int render = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(render >= 0, "renderD128: %m");
	struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)render, .gpu_id = id[0] };
	CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0, "acquire vm: %m");

	/* VRAM the CPU can see (large BAR), written through the render mmap. */
	uint64_t va = 0x7d0000000000ull, off = 0;
	uint64_t h = alloc(id[0], va, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
					      KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, &off);
	uint32_t *cpu = mmap((void *)va, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render, (off_t)off);
	CHECK(cpu == (void *)va, "render mmap: %m");
	for (uint32_t k = 0; k < SIZE / 4; k += 1024)
		cpu[k] = k * 7 + 3;

	/* Bad input: KFD's answers (kfd_chardev.c, amdgpu_dma_buf.c). */
	int err;
	CHECK(export(h + 1000, &err) < 0 && err == EINVAL, "export of an unknown handle: EINVAL, got %d", err);
	CHECK(export((uint64_t)0xdead << 32 | (h & 0xffffffff), &err) < 0 && err == EINVAL,
	      "export with an unknown gpu_id: EINVAL, got %d", err);
	static char host[SIZE] __attribute__((aligned(4096)));
	uint64_t uoff = (uintptr_t)host;
	uint64_t uh = alloc(id[0], 0x7d0000800000ull, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
			    &uoff);
	CHECK(export(uh, &err) < 0 && err == EPERM, "export of a userptr object: EPERM, got %d", err);
	printf("ok: export of an unknown handle or gpu_id EINVAL, of a userptr object EPERM\n");
	int pfd[2];
	CHECK(pipe(pfd) == 0, "pipe");
	struct kfd_ioctl_get_dmabuf_info_args i;
	CHECK(info(pfd[0], &i) == EINVAL, "dmabuf info of a pipe: EINVAL");
	int memfd = memfd_create("not-a-dmabuf", 0);
	CHECK(memfd >= 0 && ftruncate(memfd, SIZE) == 0, "memfd");
	CHECK(info(memfd, &i) == EINVAL, "dmabuf info of someone else's memfd: EINVAL");
	CHECK(info(999, &i) == EBADF, "dmabuf info of a closed fd: EBADF");
	uint64_t ih;
	CHECK(import(pfd[0], id[1], 0x7e0000800000ull, &ih) == EINVAL, "import of a pipe: EINVAL");
	CHECK(import(999, id[1], 0x7e0000800000ull, &ih) == EBADF, "import of a closed fd: EBADF");
	printf("ok: a fd that is no dma-buf (pipe, another memfd) EINVAL, a closed one EBADF\n");

	int fd = export(h, &err);
	CHECK(fd >= 0, "export: %s", strerror(err));
	int fd2 = export(h, &err);
	CHECK(fd2 >= 0 && fd2 != fd, "a second export: another fd");
	CHECK(info(fd, &i) == 0 && i.size == SIZE && i.gpu_id == id[0] && (i.flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) &&
		      (i.flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC) && i.metadata_size == 0,
	      "dmabuf info: size %llu gpu 0x%x flags 0x%x md %u", (unsigned long long)i.size, i.gpu_id, i.flags,
	      i.metadata_size);
	CHECK(import(fd, 0xdead, 0x7e0000800000ull, &ih) == EINVAL, "import into an unknown gpu_id: EINVAL");
	CHECK(import(fd, id[0], va + 4096, &ih) == EINVAL, "import at a GPU address already taken: EINVAL");
	for (uint32_t k = 0; k < SIZE / 4; k += 1024)
		CHECK(cpu[k] == k * 7 + 3, "after export the CPU mapping lost word %u", k);
	cpu[1] = 0xabcd;
	uint32_t w = 0;
	CHECK(pread(fd, &w, 4, 4) == 4 && w == 0xabcd, "a CPU write after export is in the dma-buf");
	printf("ok: export, dmabuf info (size, gpu_id, VRAM|PUBLIC, no metadata); the object's CPU mapping is the "
	       "dma-buf's memory\n");
	close(fd2);

	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		close(sv[0]);
		_exit(child(sv[1], id[1]));
	}
	close(sv[1]);
	send_fd(sv[0], fd);
	char c;
	CHECK(read(sv[0], &c, 1) == 1 && c == 'w', "B did not answer");
	for (uint32_t k = 0; k < SIZE / 4; k += 1024)
		CHECK(cpu[k] == k + 99, "A sees word %u as %u, not what B wrote", k, cpu[k]);
	printf("ok: process A sees process B's writes\n");
	for (uint32_t k = 0; k < SIZE / 4; k += 1024)
		cpu[k] += 1;
	munmap(cpu, SIZE);
	struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = h };
	CHECK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f) == 0, "free: %m");
	CHECK(export(h, &err) < 0 && err == EINVAL, "export of a freed handle: EINVAL");
	close(fd);
	close(render);
	close(kfd);
	c = 'x';
	CHECK(write(sv[0], &c, 1) == 1, "tell B");
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "process B failed: 0x%x", st);
	printf("done\n");
	return 0;
}
