/* SPDX-License-Identifier: MIT */
/*
 * sim_thunk.c — drives the simulated thunk directly through Debian's
 * hsakmt.h (no ROCR): topology, memory tracking, event waits with real
 * timeouts, an SDMA queue executing hand-built packets, an AQL queue
 * retiring a barrier-AND packet, unsupported requests, and fork.
 * Prints "ok: ..." per check; exits non-zero on the first failure.
 */
#include <hsa.h>
#include <hsakmt.h>
#include <amd_hsa_signal.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim_check.h"

static void *alloc(HSAuint32 node, size_t size)
{
	HsaMemFlags f = { 0 };
	f.ui32.HostAccess = 1;
	void *p = NULL;
	CHECK(hsaKmtAllocMemory(node, size, f, &p) == HSAKMT_STATUS_SUCCESS && p, "alloc %zu", size);
	return p;
}

/* Append dwords to the SDMA ring at *wp (bytes). */
static void put(uint8_t *ring, uint64_t *wp, const uint32_t *dw, unsigned n)
{
	memcpy(ring + *wp, dw, n * 4);
	*wp += n * 4;
}

static void wait_rptr(volatile uint64_t *rptr, uint64_t want)
{
	double t0 = now_ms();
	while (*rptr < want) {
		usleep(100); /* let the engine thread run (valgrind serialises threads) */
		CHECK(now_ms() - t0 < 20000, "SDMA engine stalled at %llu, want %llu",
		      (unsigned long long)*rptr, (unsigned long long)want);
	}
}

/* Map a code object into a fresh allocation as ROCR's loader does (each
 * PT_LOAD at its p_vaddr from the allocation's start) and dispatch kernel_object = base + kd_off, then the same with
 * random corruption of the headers: the simulator must neither crash nor
 * misname.  Returns the number of dispatches. */
static int codeobject_dispatches(const char *path, uint64_t kd_off, HsaEvent *ev)
{
	FILE *f = fopen(path, "rb");
	CHECK(f, "open %s", path);
	static uint8_t file[65536];
	size_t n = fread(file, 1, sizeof file, f);
	fclose(f);
	CHECK(n >= 0x800 && kd_off + 64 <= n, "code object %s", path);
	uint8_t *img = alloc(1, 65536);
	uint8_t *aql = alloc(0, 4096);
	uint64_t *ids = alloc(0, 4096);
	uint8_t *kargs = alloc(0, 4096);
	for (int i = 0; i < 64; i++)
		*(uint16_t *)(aql + i * 64) = HSA_PACKET_TYPE_INVALID;
	HsaQueueResource qr;
	memset(&qr, 0, sizeof qr);
	qr.Queue_read_ptr_aql = &ids[0];
	qr.Queue_write_ptr_aql = &ids[8];
	CHECK(hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, aql, 4096, NULL, &qr) == 0,
	      "AQL queue for code objects");
	srand(1234);
	int count = 0;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
	CHECK(eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) <= n, "program headers");
	for (int round = 0; round < 300; round++) {
		memset(img, 0, 65536);
		for (unsigned i = 0; i < eh->e_phnum; i++) {
			const Elf64_Phdr *ph = (const Elf64_Phdr *)(file + eh->e_phoff) + i;
			if (ph->p_type != PT_LOAD)
				continue;
			CHECK(ph->p_offset + ph->p_filesz <= n && ph->p_vaddr + ph->p_memsz <= 65536, "segment %u", i);
			memcpy(img + ph->p_vaddr, file + ph->p_offset, ph->p_filesz);
		}
		if (round > 0) /* corrupt 1..8 bytes of the first page (headers, dynsym, hash) */
			for (int k = 1 + rand() % 8; k > 0; k--)
				img[rand() % 0x800] = (uint8_t)rand();
		memset(kargs, 0, 64);
		kargs[0] = 0xab;
		kargs[8] = (uint8_t)round;
		uint64_t idx = ids[8];
		hsa_kernel_dispatch_packet_t *kp = (hsa_kernel_dispatch_packet_t *)(aql + (idx % 64) * 64);
		memset((uint8_t *)kp + 2, 0, 62);
		kp->setup = 1;
		kp->workgroup_size_x = 64;
		kp->workgroup_size_y = kp->workgroup_size_z = 1;
		kp->grid_size_x = 256;
		kp->grid_size_y = kp->grid_size_z = 1;
		kp->kernel_object = (uint64_t)(uintptr_t)(img + kd_off);
		kp->kernarg_address = kargs;
		__atomic_store_n(&kp->header, (uint16_t)(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&ids[8], idx + 1, __ATOMIC_RELEASE);
		double t0 = now_ms();
		while (__atomic_load_n(&ids[0], __ATOMIC_ACQUIRE) < idx + 1) {
			usleep(50);
			CHECK(now_ms() - t0 < 20000, "dispatch %d not retired", round);
		}
		count++;
	}
	CHECK(hsaKmtDestroyQueue(qr.QueueId) == 0, "destroy");
	(void)ev;
	return count;
}

int main(int argc, char **argv)
{
	CHECK(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "open");
	HsaVersionInfo v;
	CHECK(hsaKmtGetVersion(&v) == 0 && v.KernelInterfaceMajorVersion == 1 && v.KernelInterfaceMinorVersion >= 1, "version");
	HsaSystemProperties sp;
	CHECK(hsaKmtAcquireSystemProperties(&sp) == 0 && sp.NumNodes == 2, "one CPU + one GPU, got %u", sp.NumNodes);
	HsaNodeProperties np;
	CHECK(hsaKmtGetNodeProperties(1, &np) == 0 && np.EngineId.ui32.Major == 10 && np.EngineId.ui32.Minor == 3 &&
	      np.EngineId.ui32.Stepping == 1 && np.NumMemoryBanks == 3 && np.Capability.ui32.DoorbellType == 2,
	      "gfx1031 node props");
	CHECK(hsaKmtGetNodeProperties(2, &np) == HSAKMT_STATUS_INVALID_NODE_UNIT, "node 2 must not exist");
	HsaMemoryProperties mp[3];
	CHECK(hsaKmtGetNodeMemoryProperties(1, 3, mp) == 0 && mp[1].VirtualBaseAddress && mp[2].VirtualBaseAddress,
	      "LDS and scratch apertures");
	printf("ok: topology\n");

	/* memory */
	uint8_t *a = alloc(1, 3 * 4096), *b = alloc(0, 8192);
	HsaPointerInfo pi;
	CHECK(hsaKmtQueryPointerInfo(a + 100, &pi) == 0 && pi.Type == HSA_POINTER_ALLOCATED && pi.Node == 1 &&
	      pi.CPUAddress == a && pi.SizeInBytes == 3 * 4096, "pointer info");
	int onstack;
	CHECK(hsaKmtQueryPointerInfo(&onstack, &pi) != 0 && pi.Type == HSA_POINTER_UNKNOWN, "unknown pointer");
	HSAuint64 alt = 0;
	HSAuint32 nodes[1] = { 1 };
	HsaMemMapFlags mf = { 0 };
	CHECK(hsaKmtMapMemoryToGPUNodes(a, 4096, &alt, mf, 1, nodes) == 0 && alt == (HSAuint64)(uintptr_t)a, "map");
	printf("ok: memory\n");

	/* events: timeouts, set, auto reset, manual reset */
	HsaEventDescriptor ed = { .EventType = HSA_EVENTTYPE_SIGNAL, .NodeId = 0 };
	HsaEvent *ev, *evm;
	CHECK(hsaKmtCreateEvent(&ed, false, false, &ev) == 0 && ev->EventData.HWData2, "create event");
	CHECK(hsaKmtCreateEvent(&ed, true, false, &evm) == 0, "create manual event");
	double t0 = now_ms();
	CHECK(hsaKmtWaitOnEvent(ev, 200) == HSAKMT_STATUS_WAIT_TIMEOUT, "timeout expected");
	double dt = now_ms() - t0;
	CHECK(dt >= 190 && dt < 2000, "wait of 200 ms took %.0f ms", dt);
	CHECK(hsaKmtWaitOnEvent(ev, 0) == HSAKMT_STATUS_WAIT_TIMEOUT, "immediate timeout");
	CHECK(hsaKmtSetEvent(ev) == 0 && hsaKmtWaitOnEvent(ev, 1000) == 0, "set then wait");
	CHECK(hsaKmtWaitOnEvent(ev, 10) == HSAKMT_STATUS_WAIT_TIMEOUT, "auto reset");
	CHECK(hsaKmtSetEvent(evm) == 0 && hsaKmtWaitOnEvent(evm, 10) == 0 && hsaKmtWaitOnEvent(evm, 10) == 0,
	      "manual reset stays signaled");
	HsaEvent *both[2] = { ev, evm };
	CHECK(hsaKmtWaitOnMultipleEvents(both, 2, false, 10) == 0, "any of two");
	CHECK(hsaKmtWaitOnMultipleEvents(both, 2, true, 50) == HSAKMT_STATUS_WAIT_TIMEOUT, "all of two");
	printf("ok: events (%.0f ms timeout measured)\n", dt);

	/* SDMA queue with hand-built packets */
	uint8_t *ring = alloc(0, 65536);
	HsaQueueResource qr;
	memset(&qr, 0, sizeof qr);
	CHECK(hsaKmtCreateQueue(1, HSA_QUEUE_SDMA, 100, HSA_QUEUE_PRIORITY_MAXIMUM, ring, 65536, NULL, &qr) == 0 &&
	      qr.QueueId && qr.Queue_read_ptr_aql && qr.Queue_write_ptr_aql && qr.Queue_DoorBell_aql,
	      "SDMA queue returns its pointers");
	volatile uint64_t *rptr = qr.Queue_read_ptr_aql;
	uint64_t wp = 0;
	for (int i = 0; i < 4096; i++)
		b[i] = (uint8_t)(i * 7);
	uint64_t src = (uintptr_t)b, dst = (uintptr_t)a;
	uint32_t copy[7] = { 1, 4096 - 1, 0, (uint32_t)src, (uint32_t)(src >> 32), (uint32_t)dst, (uint32_t)(dst >> 32) };
	put(ring, &wp, copy, 7);
	uint64_t fdst = dst + 4096;
	uint32_t fill[5] = { 11u | (2u << 30), (uint32_t)fdst, (uint32_t)(fdst >> 32), 0xdeadbeef, 64 - 1 };
	put(ring, &wp, fill, 5);
	uint64_t fence_at = dst + 8192, atom_at = dst + 8200;
	uint32_t fence[4] = { 5, (uint32_t)fence_at, (uint32_t)(fence_at >> 32), 0x1234 };
	put(ring, &wp, fence, 4);
	uint64_t minus1 = ~0ull;
	*(uint64_t *)(uintptr_t)atom_at = 5;
	uint32_t atom[8] = { 10u | (47u << 25), (uint32_t)atom_at, (uint32_t)(atom_at >> 32), (uint32_t)minus1,
			     (uint32_t)(minus1 >> 32), 0, 0, 0 };
	put(ring, &wp, atom, 8);
	/* the newer ROCR encoding of a 4-dword fill: (dwords - 1) * 4 */
	uint64_t f2 = dst + 4096 + 128;
	uint32_t fill2[5] = { 11u | (2u << 30), (uint32_t)f2, (uint32_t)(f2 >> 32), 0x01020304, (4 - 1) * 4 };
	put(ring, &wp, fill2, 5);
	uint32_t nop[3] = { 2u << 16, 0, 0 }; /* NOP with 2 extra dwords */
	put(ring, &wp, nop, 3);
	uint32_t trap[2] = { 6, ev->EventId };
	put(ring, &wp, trap, 2);
	*qr.Queue_write_ptr_aql = wp;
	*qr.Queue_DoorBell_aql = wp;
	wait_rptr(rptr, wp);
	CHECK(!memcmp(a, b, 4096), "COPY_LINEAR moved the bytes");
	for (int i = 0; i < 64 / 4; i++)
		CHECK(((uint32_t *)(a + 4096))[i] == 0xdeadbeef, "CONST_FILL dword %d", i);
	CHECK(((uint32_t *)(a + 4096))[16] == 0, "CONST_FILL wrote past its count");
	for (int i = 0; i < 4; i++)
		CHECK(((uint32_t *)(a + 4096 + 128))[i] == 0x01020304, "CONST_FILL (dwords-1)*4 dword %d", i);
	CHECK(((uint32_t *)(a + 4096 + 128))[4] == 0, "CONST_FILL (dwords-1)*4 wrote past its count");
	CHECK(*(uint32_t *)(uintptr_t)fence_at == 0x1234, "FENCE");
	CHECK(*(uint64_t *)(uintptr_t)atom_at == 4, "ATOMIC add64 of -1");
	CHECK(hsaKmtWaitOnEvent(ev, 1000) == 0, "TRAP fired the event");
	printf("ok: SDMA COPY_LINEAR, CONST_FILL, FENCE, ATOMIC, NOP, TRAP\n");

	/* POLL_REGMEM waits until memory matches, then a later FENCE runs. */
	uint64_t flag_at = dst + 8208, done_at = dst + 8216;
	*(uint32_t *)(uintptr_t)flag_at = 0;
	uint32_t poll[6] = { 8u | (3u << 28) | (1u << 31), (uint32_t)flag_at, (uint32_t)(flag_at >> 32), 7, ~0u,
			     (10u << 16) | 10 };
	put(ring, &wp, poll, 6);
	uint32_t fence2[4] = { 5, (uint32_t)done_at, (uint32_t)(done_at >> 32), 99 };
	put(ring, &wp, fence2, 4);
	*qr.Queue_write_ptr_aql = wp;
	*qr.Queue_DoorBell_aql = wp;
	usleep(50000);
	CHECK(*(uint32_t *)(uintptr_t)done_at == 0, "FENCE ran before the POLL_REGMEM was satisfied");
	*(volatile uint32_t *)(uintptr_t)flag_at = 7;
	wait_rptr(rptr, wp);
	CHECK(*(uint32_t *)(uintptr_t)done_at == 99, "FENCE after POLL_REGMEM");
	/* An access outside simulated memory is skipped, not performed. */
	uint32_t badfence[4] = { 5, (uint32_t)(uintptr_t)&onstack, (uint32_t)((uintptr_t)&onstack >> 32), 42 };
	onstack = 0;
	put(ring, &wp, badfence, 4);
	*qr.Queue_write_ptr_aql = wp;
	*qr.Queue_DoorBell_aql = wp;
	wait_rptr(rptr, wp);
	CHECK(onstack == 0, "SDMA wrote outside simulated memory");
	CHECK(hsaKmtDestroyQueue(qr.QueueId) == 0, "destroy SDMA queue");
	printf("ok: SDMA POLL_REGMEM waits; out-of-bounds access refused\n");

	/* AQL queue: a barrier-AND waits for its dependency, then completes and
	 * fires the completion signal's event; a dispatch is retired. */
	uint8_t *aql = alloc(0, 4096);
	amd_signal_t *sig = (amd_signal_t *)alloc(0, 4096), *dep = sig + 1;
	for (int i = 0; i < 64; i++)
		*(uint16_t *)(aql + i * 64) = HSA_PACKET_TYPE_INVALID;
	uint64_t *ids = alloc(0, 4096); /* read and write dispatch ids */
	memset(&qr, 0, sizeof qr);
	qr.Queue_read_ptr_aql = &ids[0];
	qr.Queue_write_ptr_aql = &ids[8];
	CHECK(hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, aql, 4096, NULL, &qr) == 0 &&
	      qr.Queue_DoorBell_aql, "AQL queue");
	sig->value = 1;
	sig->event_mailbox_ptr = ev->EventData.HWData2;
	sig->event_id = ev->EventId;
	dep->value = 1;
	hsa_barrier_and_packet_t *bp = (hsa_barrier_and_packet_t *)aql;
	bp->dep_signal[0].handle = (uint64_t)(uintptr_t)dep;
	bp->completion_signal.handle = (uint64_t)(uintptr_t)sig;
	__atomic_store_n(&bp->header, (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE),
			 __ATOMIC_RELEASE);
	hsa_kernel_dispatch_packet_t *kp = (hsa_kernel_dispatch_packet_t *)(aql + 64);
	kp->setup = 1;
	kp->grid_size_x = kp->workgroup_size_x = 64;
	kp->grid_size_y = kp->grid_size_z = kp->workgroup_size_y = kp->workgroup_size_z = 1;
	kp->kernel_object = (uint64_t)(uintptr_t)b; /* no code object there */
	kp->completion_signal.handle = (uint64_t)(uintptr_t)sig;
	__atomic_store_n(&kp->header, (uint16_t)(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE),
			 __ATOMIC_RELEASE);
	ids[8] = 2;
	*qr.Queue_DoorBell_aql = 1;
	usleep(50000);
	CHECK(ids[0] == 0 && sig->value == 1, "barrier-AND retired before its dependency");
	__atomic_store_n(&dep->value, 0, __ATOMIC_RELEASE);
	t0 = now_ms();
	while (__atomic_load_n(&ids[0], __ATOMIC_ACQUIRE) < 2) {
		usleep(100);
		CHECK(now_ms() - t0 < 20000, "AQL packets not retired");
	}
	CHECK(sig->value == -1, "completion signal decremented twice, got %lld", (long long)sig->value);
	CHECK(*(uint16_t *)aql == HSA_PACKET_TYPE_INVALID && *(uint16_t *)(aql + 64) == HSA_PACKET_TYPE_INVALID,
	      "headers set INVALID");
	CHECK(*(uint64_t *)(uintptr_t)ev->EventData.HWData2 == ev->EventId, "mailbox holds the event id");
	CHECK(hsaKmtWaitOnEvent(ev, 1000) == 0, "completion fired the event");
	CHECK(hsaKmtDestroyQueue(qr.QueueId) == 0 && hsaKmtDestroyQueue(qr.QueueId) == HSAKMT_STATUS_INVALID_HANDLE,
	      "destroy AQL queue once");
	printf("ok: AQL barrier-AND waits, dispatch retired, signal + event\n");

	if (argc > 2) {
		int k = codeobject_dispatches(argv[1], strtoull(argv[2], NULL, 0), ev);
		printf("ok: %d dispatches from a code object image (1 intact, %d corrupted)\n", k, k - 1);
	}

	/* unsupported requests are refused, not hung */
	memset(&qr, 0, sizeof qr);
	CHECK(hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE, 100, HSA_QUEUE_PRIORITY_NORMAL, aql, 4096, NULL, &qr) ==
	      HSAKMT_STATUS_NOT_SUPPORTED, "PM4 compute queue");
	CHECK(hsaKmtCreateQueue(0, HSA_QUEUE_SDMA, 100, HSA_QUEUE_PRIORITY_NORMAL, aql, 4096, NULL, &qr) ==
	      HSAKMT_STATUS_INVALID_NODE_UNIT, "queue on the CPU node");
	HSA_SVM_ATTRIBUTE attr = { 0, 0 };
	CHECK(hsaKmtSVMSetAttr(a, 4096, 1, &attr) == HSAKMT_STATUS_NOT_SUPPORTED, "SVM");
	HSAuint32 first;
	CHECK(hsaKmtAllocQueueGWS(1, 1, &first) == HSAKMT_STATUS_NOT_SUPPORTED, "GWS");
	printf("ok: unsupported requests refused\n");

	fflush(stdout);
	/* fork: a child that never touches the GPU exits cleanly; one that
	 * tries to open the parent's KFD is refused. */
	pid_t pid = fork();
	if (pid == 0)
		exit(0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "child exit");
	pid = fork();
	if (pid == 0)
		_exit(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS ? 3 : 0);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "child OpenKFD must fail");
	printf("ok: fork\n");

	CHECK(hsaKmtFreeMemory(a, 3 * 4096) == 0 && hsaKmtFreeMemory(a, 3 * 4096) != 0, "free once");
	CHECK(hsaKmtDestroyEvent(ev) == 0 && hsaKmtDestroyEvent(evm) == 0, "destroy events");
	CHECK(hsaKmtReleaseSystemProperties() == 0 && hsaKmtCloseKFD() == 0, "close");
	printf("ok: close\n");
	return 0;
}
