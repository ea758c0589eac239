/* SPDX-License-Identifier: MIT */
/*
 * sim_kfd.c — test program for tests/integration/20-sim-kfd.sh: the
 * simulated /dev/kfd spoken to directly, with the kernel's own uapi header
 * (<linux/kfd_ioctl.h>), as the thunk speaks to it.  Run under the
 * preloaded simulator with RDNACOMPAT_SIM_GPUS=gfx1030 (one GPU).
 * Each check says "ok: ..."; the first failure exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim_check.h"

static int kfd;

static uint32_t first_gpu_id(void)
{
	struct kfd_process_device_apertures ap[4];
	struct kfd_ioctl_get_process_apertures_new_args a = {
		.kfd_process_device_apertures_ptr = (uintptr_t)ap, .num_of_nodes = 4 };
	CHECK(ioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &a) == 0, "apertures: %m");
	CHECK(a.num_of_nodes == 1, "one GPU expected, got %u", a.num_of_nodes);
	CHECK(ap[0].gpu_id && ap[0].gpuvm_limit >= (1ull << 47) - 1, "aperture of gpu 0x%x", ap[0].gpu_id);
	return ap[0].gpu_id;
}

static int render_fd(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "open renderD128: %m");
	return fd;
}

/* A buffer object of `flags` at va; its handle (and mmap offset). */
static uint64_t alloc(uint32_t gpu, uint64_t va, uint64_t size, uint32_t flags, uint64_t *off, int *err)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = va, .size = size, .gpu_id = gpu,
							 .flags = flags, .mmap_offset = off ? *off : 0 };
	int rc = ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);
	*err = rc ? errno : 0;
	if (off)
		*off = a.mmap_offset;
	return rc ? 0 : a.handle;
}

int main(void)
{
	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	CHECK(kfd >= 0, "open /dev/kfd: %m");
	struct kfd_ioctl_get_version_args v = { 0 };
	/* 1.14: the event ages below (Debian 12's header says 1.11). */
	CHECK(ioctl(kfd, AMDKFD_IOC_GET_VERSION, &v) == 0 && v.major_version == 1 && v.minor_version == 14,
	      "version %u.%u", v.major_version, v.minor_version);
	printf("ok: /dev/kfd opens, interface %u.%u\n", v.major_version, v.minor_version);

	/* An unknown request: EINVAL (and a line on stderr, checked by the script). */
	errno = 0;
	CHECK(ioctl(kfd, _IOWR('K', 0x7e, struct kfd_ioctl_get_version_args), &v) == -1 && errno == EINVAL,
	      "unknown request: rc/errno %d", errno);
	printf("ok: unknown request 0x7e: EINVAL\n");

	uint32_t gpu = first_gpu_id();
	int rfd = render_fd();
	struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)rfd, .gpu_id = gpu };
	CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0, "acquire vm: %m");
	int rfd2 = render_fd();
	vm.drm_fd = (uint32_t)rfd2;
	CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == -1 && errno == EBUSY, "second VM file: %m");
	vm.gpu_id = gpu + 1;
	CHECK(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == -1 && errno == EINVAL, "unknown gpu_id");
	printf("ok: ACQUIRE_VM (EBUSY for a second file, EINVAL for an unknown GPU)\n");

	/* VRAM: a buffer object mapped through the render node; too much VRAM: ENOMEM. */
	struct kfd_ioctl_get_available_memory_args am = { .gpu_id = gpu };
	CHECK(ioctl(kfd, AMDKFD_IOC_AVAILABLE_MEMORY, &am) == 0, "available: %m");
	uint64_t before = am.available, off = 0;
	void *va = mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int err;
	uint64_t h = alloc(gpu, (uintptr_t)va, 1 << 20,
			   KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
				   KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, &off, &err);
	CHECK(h, "alloc VRAM: %s", strerror(err));
	void *p = mmap(va, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, rfd, (off_t)off);
	CHECK(p == va, "mmap VRAM through the render node: %m");
	memset(p, 0xab, 1 << 20);
	CHECK(ioctl(kfd, AMDKFD_IOC_AVAILABLE_MEMORY, &am) == 0 && am.available == before - (1 << 20),
	      "available after 1 MB: %llu -> %llu", (unsigned long long)before,
	      (unsigned long long)am.available);
	CHECK(!alloc(gpu, 0x7e0000000000ull, before + 4096, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, NULL, &err) &&
		      err == ENOMEM,
	      "more VRAM than free: %s", strerror(err));
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, rfd, 0x7f0000000000) == MAP_FAILED && errno == EINVAL,
	      "mmap of no buffer object");
	uint32_t ids[1] = { gpu };
	struct kfd_ioctl_map_memory_to_gpu_args mp = { .handle = h, .device_ids_array_ptr = (uintptr_t)ids,
						       .n_devices = 1 };
	CHECK(ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &mp) == 0 && mp.n_success == 1, "map: %m");
	struct kfd_ioctl_free_memory_of_gpu_args fr = { .handle = h };
	CHECK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr) == 0, "free: %m");
	CHECK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr) == -1 && errno == EINVAL, "double free");
	CHECK(ioctl(kfd, AMDKFD_IOC_AVAILABLE_MEMORY, &am) == 0 && am.available == before, "freed VRAM back");
	printf("ok: VRAM through the render node, AVAILABLE_MEMORY, ENOMEM, EINVAL for unknown offsets and handles\n");

	/* Events: WAIT_EVENTS times out after its timeout; SET wakes it. */
	struct kfd_ioctl_create_event_args ce = { .event_type = KFD_IOC_EVENT_SIGNAL, .auto_reset = 1 };
	CHECK(ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &ce) == 0 && ce.event_id, "create event: %m");
	CHECK(ce.event_page_offset, "signal event without an event page offset");
	struct kfd_event_data ed = { .event_id = ce.event_id };
	struct kfd_ioctl_wait_events_args we = { .events_ptr = (uintptr_t)&ed, .num_events = 1,
						 .wait_for_all = 1, .timeout = 300 };
	double t0 = now_ms();
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == 0 && we.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT,
	      "wait: %m, result %u", we.wait_result);
	double dt = now_ms() - t0;
	CHECK(dt >= 290 && dt < 1500, "a 300 ms wait took %.0f ms", dt);
	struct kfd_ioctl_set_event_args se = { .event_id = ce.event_id };
	CHECK(ioctl(kfd, AMDKFD_IOC_SET_EVENT, &se) == 0, "set: %m");
	we.timeout = 5000;
	t0 = now_ms();
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == 0 && we.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE &&
		      now_ms() - t0 < 1000,
	      "wait after set: result %u", we.wait_result);
	ed.event_id = 4000;
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == -1 && errno == EINVAL, "wait on an unknown event");
	printf("ok: WAIT_EVENTS times out after %.0f ms of 300, SET_EVENT completes it, unknown ids EINVAL\n", dt);

	/* KFD 1.14's event age (kfd_hsa_signal_event_data.last_event_age, the
	 * union's first 8 bytes): 1 at creation, +1 per set; a waiter whose
	 * age differs is taken at once and gets the age back, even when the
	 * "signaled" flag was already consumed by another wait; 0 asks for none. */
	ed.event_id = ce.event_id;
	we.timeout = 0;
	uint64_t age = 2; /* created at 1, set once above */
	memcpy(&ed, &age, 8);
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == 0 && we.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT,
	      "age 2, nothing set since: result %u", we.wait_result);
	CHECK(ioctl(kfd, AMDKFD_IOC_SET_EVENT, &se) == 0, "set: %m");
	age = 0;
	memcpy(&ed, &age, 8);
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == 0 && we.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE,
	      "no age: the signaled flag: result %u", we.wait_result);
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == 0 && we.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT,
	      "no age, flag consumed: result %u", we.wait_result);
	age = 2; /* the age before the last set */
	memcpy(&ed, &age, 8);
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == 0 && we.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE,
	      "age 2 after a later set: result %u", we.wait_result);
	memcpy(&age, &ed, 8);
	CHECK(age == 3, "the age that came back: %llu", (unsigned long long)age);
	CHECK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &we) == 0 && we.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT,
	      "age 3, nothing set since: result %u", we.wait_result);
	printf("ok: event ages (KFD 1.14): a set since the waiter's age completes its wait, even after "
	       "another wait took the signaled flag; the age comes back\n");

	struct kfd_ioctl_set_xnack_mode_args xn = { .xnack_enabled = -1 };
	CHECK(ioctl(kfd, AMDKFD_IOC_SET_XNACK_MODE, &xn) == 0 && xn.xnack_enabled == 0, "xnack query");
	xn.xnack_enabled = 1;
	CHECK(ioctl(kfd, AMDKFD_IOC_SET_XNACK_MODE, &xn) == -1 && errno == EPERM, "xnack on");
	printf("ok: XNACK off, enabling it EPERM\n");

	/* fork: the child's own KFD process sees none of the parent's events. */
	pid_t pid = fork();
	CHECK(pid >= 0, "fork: %m");
	if (pid == 0) {
		int k2 = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		if (k2 < 0)
			_exit(2);
		struct kfd_event_data e2 = { .event_id = ce.event_id };
		struct kfd_ioctl_wait_events_args w2 = { .events_ptr = (uintptr_t)&e2, .num_events = 1,
							 .timeout = 0 };
		int rc = ioctl(k2, AMDKFD_IOC_WAIT_EVENTS, &w2);
		_exit(rc == -1 && errno == EINVAL ? 0 : 3);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "forked child: status 0x%x", st);
	CHECK(ioctl(kfd, AMDKFD_IOC_SET_EVENT, &se) == 0, "the parent's event after the fork: %m");
	printf("ok: a forked child that opens /dev/kfd gets a KFD process of its own\n");
	close(rfd);
	close(rfd2);
	close(kfd);
	printf("done\n");
	return 0;
}
