/* SPDX-License-Identifier: MIT */
/*
 * dmabuf.c — the simulated DMA-buf: what AMDKFD_IOC_EXPORT_DMABUF hands out
 * and AMDKFD_IOC_GET_DMABUF_INFO / IMPORT_DMABUF take (kfd_mem.c has the
 * ioctls).  A real dma-buf fd names the buffer object itself, so a process
 * that receives it over a Unix socket (SCM_RIGHTS, as ROCR's IPC does:
 * runtime.cpp SendDmaBufFd / ReceiveDmaBufFd) reaches the same memory.  Here
 * the buffer object's pages live in a memfd of their own, named
 *
 *   rdnacompat-sim-dmabuf:gpu_id=<exporter's gpu_id>:flags=<KFD alloc flags>
 *
 * so any process's simulator can tell one of ours from any other fd (a pipe,
 * a plain file, someone else's memfd: "not a dma-buf") and learn the
 * exporting card and domain, as KFD learns them from the dma-buf's GEM
 * object (amdgpu_amdkfd.c amdgpu_amdkfd_get_dmabuf_info).  The memfd is one
 * page longer than the object: that last page holds what amdgpu keeps with
 * the GEM object for every importer to read, its amdgpu_bo_metadata
 * (DRM_AMDGPU_GEM_METADATA; ROCR 7.2 puts a token there that an importer
 * must find, runtime.cpp IPCCreate / IPCAttach), so all processes see one
 * copy.
 *
 * Buffer objects start in the process's shared arena (kfd_mem.c); the first
 * export moves one into a memfd of its own: its bytes are copied (data
 * extents only: the arena is sparse), and every mapping of its arena range
 * in this process — the thunk's CPU mapping at its GPU address, the
 * engines' view, any other — is replaced in place (MAP_FIXED, same address,
 * protection and length) by the same range of the new memfd, found in
 * /proc/self/maps by the arena's inode.  The caller holds the memory lock
 * for writing, so no engine touches the object meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sim.h"

#define PREFIX "rdnacompat-sim-dmabuf:"
#define META_PAGE 4096u
#define META_MAGIC 0x4154454du /* "META" */

/* The trailing page: magic, then libdrm's amdgpu_bo_metadata fields. */
struct meta_page {
	uint32_t magic, size_metadata;
	uint64_t flags, tiling_info;
	uint32_t umd_metadata[64];
};

int rdc_sim_dmabuf_new(uint32_t gpu_id, uint32_t flags, uint64_t size)
{
	char name[96];
	snprintf(name, sizeof name, PREFIX "gpu_id=%" PRIu32 ":flags=0x%" PRIx32, gpu_id, flags);
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)(size + META_PAGE))) {
		int e = errno;
		rdc_sim_real()->close(fd);
		return -e;
	}
	return fd;
}

int rdc_sim_dmabuf_identify(int fd, uint32_t *gpu_id, uint32_t *flags, uint64_t *size)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st))
		return -EBADF; /* dma_buf_get: fget fails */
	char path[64], target[256];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, target, sizeof target - 1);
	if (n < 0)
		return -EBADF;
	target[n] = 0;
	/* "/memfd:NAME (deleted)" */
	static const char memfd[] = "/memfd:" PREFIX;
	uint32_t g, f;
	if (strncmp(target, memfd, sizeof memfd - 1) ||
	    sscanf(target + sizeof memfd - 1, "gpu_id=%" SCNu32 ":flags=0x%" SCNx32, &g, &f) != 2)
		return -EINVAL; /* dma_buf_get: not a dma-buf file */
	if ((uint64_t)st.st_size < META_PAGE + 4096u)
		return -EINVAL;
	*gpu_id = g;
	*flags = f;
	*size = (uint64_t)st.st_size - META_PAGE;
	return 0;
}

int rdc_sim_dmabuf_metadata(int fd, uint64_t size, bool set, uint64_t *flags, uint64_t *tiling,
			    uint32_t *n_bytes, uint32_t umd[64])
{
	struct meta_page m;
	if (set) {
		if (*n_bytes > sizeof m.umd_metadata)
			return -EINVAL; /* amdgpu_bo_set_metadata: more than the kernel keeps */
		memset(&m, 0, sizeof m);
		m.magic = META_MAGIC;
		m.size_metadata = *n_bytes;
		m.flags = *flags;
		m.tiling_info = *tiling;
		memcpy(m.umd_metadata, umd, *n_bytes);
		return pwrite(fd, &m, sizeof m, (off_t)size) == (ssize_t)sizeof m ? 0 : -EIO;
	}
	if (pread(fd, &m, sizeof m, (off_t)size) != (ssize_t)sizeof m || m.magic != META_MAGIC)
		memset(&m, 0, sizeof m); /* none set yet */
	*flags = m.flags;
	*tiling = m.tiling_info;
	*n_bytes = m.size_metadata <= sizeof m.umd_metadata ? m.size_metadata : 0;
	memcpy(umd, m.umd_metadata, sizeof m.umd_metadata);
	return 0;
}

struct span { uintptr_t addr; uint64_t len, off; int prot, shared; };

/* Every mapping in this process of [off, off+len) of the file whose inode is
 * ino; *n of them, malloc'ed, or NULL with *n = 0. */
static struct span *spans_of(ino_t ino, dev_t dev, uint64_t off, uint64_t len, size_t *n)
{
	*n = 0;
	FILE *f = fopen("/proc/self/maps", "re");
	if (!f)
		return NULL;
	struct span *v = NULL;
	size_t cap = 0;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		unsigned long start, end, maj, min;
		unsigned long long foff, inode;
		char perms[8];
		if (sscanf(line, "%lx-%lx %7s %llx %lx:%lx %llu", &start, &end, perms, &foff, &maj, &min,
			   &inode) != 7 || (ino_t)inode != ino || makedev(maj, min) != dev)
			continue;
		uint64_t mlen = end - start, lo = foff > off ? foff : off;
		uint64_t hi = foff + mlen < off + len ? foff + mlen : off + len;
		if (lo >= hi)
			continue;
		if (*n == cap) {
			size_t c = cap ? cap * 2 : 8;
			struct span *nv = realloc(v, c * sizeof *nv);
			if (!nv)
				break;
			v = nv;
			cap = c;
		}
		v[(*n)++] = (struct span){ start + (lo - foff), hi - lo, lo,
					   (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
						   (perms[2] == 'x' ? PROT_EXEC : 0),
					   perms[3] == 's' };
	}
	fclose(f);
	return v;
}

int rdc_sim_dmabuf_move(int from_fd, uint64_t off, uint64_t len, int to_fd, const uint8_t *view)
{
	struct stat st;
	if (fstat(from_fd, &st))
		return -errno;
	/* The bytes: only the extents that hold data (the arena is sparse). */
	uint64_t at = off, end = off + len;
	while (at < end) {
		off_t d = lseek(from_fd, (off_t)at, SEEK_DATA);
		if (d < 0 || (uint64_t)d >= end)
			break;
		off_t h = lseek(from_fd, d, SEEK_HOLE);
		uint64_t stop = h < 0 || (uint64_t)h > end ? end : (uint64_t)h;
		for (uint64_t p = (uint64_t)d; p < stop;) {
			ssize_t w = pwrite(to_fd, view + (p - off), stop - p, (off_t)(p - off));
			if (w <= 0)
				return w < 0 ? -errno : -EIO;
			p += (uint64_t)w;
		}
		at = stop;
	}
	size_t n;
	struct span *v = spans_of(st.st_ino, st.st_dev, off, len, &n);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		void *p = rdc_sim_real()->mmap((void *)v[i].addr, v[i].len, v[i].prot,
					       (v[i].shared ? MAP_SHARED : MAP_PRIVATE) | MAP_FIXED, to_fd,
					       (off_t)(v[i].off - off));
		if (p == MAP_FAILED)
			rc = -errno;
	}
	free(v);
	if (rc)
		rdc_sim_log("moving a buffer object into its own memfd: mmap: %s", strerror(-rc));
	return rc;
}
