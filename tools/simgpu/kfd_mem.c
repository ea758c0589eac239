/* SPDX-License-Identifier: MIT */
/*
 * kfd_mem.c — buffer objects of the simulated KFD process:
 * AMDKFD_IOC_ALLOC_MEMORY_OF_GPU / FREE / MAP_MEMORY_TO_GPU / UNMAP /
 * AVAILABLE_MEMORY, the render-node mmaps of VRAM and GTT objects, and the
 * engines' view of the GPU address space.
 *
 * VRAM and GTT live in one sparse memfd (the "arena"); each object gets a
 * range of it (first fit over a free list; freed ranges are punched out) and
 * its mmap_offset is that range's offset, so the thunk's
 * mmap(va, size, ..., render_fd, mmap_offset) maps the arena there, and the
 * simulator keeps a second mapping of its own (the engines' CPU view, never
 * PROT_NONE).  USERPTR objects are the caller's pages (mmap_offset in: the
 * CPU address; the GPU address the thunk chose may differ, so the engines
 * always translate through this table).  DOORBELL and MMIO_REMAP objects are
 * mapped through the kfd fd (kfd_dev.c).  Table sorted by GPU address,
 * replaced whole on every change (see "Locks" below): freeing waits for the
 * engines, allocating does not.
 *
 * Answers as amdgpu/KFD gives them (kfd_chardev.c): unknown gpu_id or handle
 * EINVAL, size 0 EINVAL, more VRAM than is free ENOMEM, mmio remap of a size
 * other than a page EINVAL.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim.h"

#define ARENA_SIZE (1ull << 40)    /* sparse; VRAM + GTT of all GPUs */
#define ARENA_START (1ull << 20)   /* offset 0 is never handed out */
/* kfd_priv.h: the kfd-fd mmap offset of a GPU's MMIO remap page. */
#define KFD_MMAP_TYPE_MMIO (0x0ull << 62)
#define KFD_MMAP_GPU_ID(id) (((uint64_t)(id) & 0xffff) << 46)

enum { K_VRAM, K_GTT, K_USERPTR, K_DOORBELL, K_MMIO };

struct bo {
	uint64_t va, size, handle, offset; /* offset: in the arena (VRAM/GTT; NO_OFFSET if imported) */
	uint8_t *cpu;                       /* engines' view; NULL for doorbell/mmio */
	uint32_t gpu, flags, mapped;        /* mapped: bit per GPU */
	int kind;
	int fd;                             /* its own memfd (dmabuf.c) once exported or imported, else -1 */
	bool imported;                      /* IMPORT_DMABUF: another object's pages */
};

#define NO_OFFSET UINT64_MAX

struct extent { uint64_t off, len; };

/* Locks.  mem_lock (reader-writer): the engines hold it shared around each
 * packet's memory accesses, and so does every lookup; only what takes memory
 * away from a running kernel holds it exclusively — FREE, the first export
 * (which moves an object, dmabuf.c), the end of the KFD process.  tab_lock:
 * every change of the table, arena and accounting (ALLOC, IMPORT, MAP, ...).
 * Order: mem_lock before tab_lock.  The table itself is an immutable
 * snapshot that a change replaces (tab); a lookup reads the snapshot current
 * when it started, so ALLOC and IMPORT never wait for a kernel that is
 * running — one that polls memory until the host does something (a kernel
 * on another card, RCCL's, a host thread that must allocate first) would
 * otherwise hold them off for ever.  A replaced snapshot is kept until the
 * next exclusive section (no reader can hold it then). */
struct table {
	size_t n;
	struct bo v[];                  /* sorted by va */
};
static pthread_rwlock_t mem_lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t tab_lock = PTHREAD_MUTEX_INITIALIZER;
static struct table *tab;           /* NULL: empty; read and written with __atomic */
static struct table **retired;      /* replaced snapshots, freed under mem_lock held exclusively */
static size_t n_retired, cap_retired;
static uint32_t next_idr = 1;
static int arena_fd = -1;
static uint64_t arena_top = ARENA_START;
static struct extent *holes;        /* freed arena ranges */
static size_t n_holes, cap_holes;
static uint64_t vram_used[RDC_SIM_MAX_GPUS];

static uint64_t page_round(uint64_t n) { return (n + 4095) & ~4095ull; }

static struct table *cur(void)
{
	return __atomic_load_n(&tab, __ATOMIC_ACQUIRE);
}

static size_t tab_n(const struct table *t) { return t ? t->n : 0; }

/* Index of the object of t containing va, or -1. */
static ptrdiff_t find_in(const struct table *t, uint64_t va)
{
	size_t lo = 0, hi = tab_n(t);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->v[mid].va <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	const struct bo *b = &t->v[lo - 1];
	/* va 0: a dma-buf imported without an address (the thunk's
	 * mem_handle_aperture), which no GPU address reaches. */
	return b->va && va - b->va < b->size ? (ptrdiff_t)(lo - 1) : -1;
}

static ptrdiff_t find_handle_in(const struct table *t, uint64_t handle)
{
	for (size_t i = 0; i < tab_n(t); i++)
		if (t->v[i].handle == handle)
			return (ptrdiff_t)i;
	return -1;
}

/* Replace the snapshot by nt (caller holds tab_lock); the old one is
 * retired (or, without room to note it, left allocated). */
static void publish_locked(struct table *nt)
{
	struct table *old = cur();
	__atomic_store_n(&tab, nt, __ATOMIC_RELEASE);
	if (!old)
		return;
	if (n_retired == cap_retired) {
		size_t cap = cap_retired ? cap_retired * 2 : 64;
		struct table **nr = realloc(retired, cap * sizeof *nr);
		if (!nr)
			return; /* a leak, not a use after free */
		retired = nr;
		cap_retired = cap;
	}
	retired[n_retired++] = old;
}

/* Free every retired snapshot: caller holds mem_lock exclusively. */
static void free_retired_locked(void)
{
	for (size_t i = 0; i < n_retired; i++)
		free(retired[i]);
	n_retired = 0;
}

static struct table *table_new(size_t n)
{
	struct table *nt = malloc(sizeof *nt + (n ? n : 1) * sizeof nt->v[0]);
	if (nt)
		nt->n = 0;
	return nt;
}

/* Add b (caller holds tab_lock). */
static int insert_locked(const struct bo *b)
{
	const struct table *t = cur();
	size_t n = tab_n(t);
	struct table *nt = table_new(n + 1);
	if (!nt)
		return -ENOMEM;
	size_t i = 0;
	for (; i < n && t->v[i].va <= b->va; i++)
		nt->v[i] = t->v[i];
	nt->v[i] = *b;
	for (; i < n; i++)
		nt->v[i + 1] = t->v[i];
	nt->n = n + 1;
	publish_locked(nt);
	return 0;
}

/* Drop entry i (caller holds mem_lock exclusively and tab_lock). */
static int remove_locked(size_t i)
{
	const struct table *t = cur();
	struct table *nt = table_new(t->n - 1);
	if (!nt)
		return -ENOMEM;
	memcpy(nt->v, t->v, i * sizeof nt->v[0]);
	memcpy(nt->v + i, t->v + i + 1, (t->n - i - 1) * sizeof nt->v[0]);
	nt->n = t->n - 1;
	publish_locked(nt);
	free_retired_locked();
	return 0;
}

static int arena_open_locked(void)
{
	if (arena_fd >= 0)
		return 0;
	int fd = memfd_create("rdnacompat-sim-vram", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)ARENA_SIZE)) {
		int e = errno;
		rdc_sim_real()->close(fd);
		return -e;
	}
	arena_fd = fd;
	return 0;
}

/* A range of the arena: first fit in the holes, else the top. */
static int arena_get_locked(uint64_t len, uint64_t *off)
{
	for (size_t i = 0; i < n_holes; i++) {
		if (holes[i].len >= len) {
			*off = holes[i].off;
			holes[i].off += len;
			holes[i].len -= len;
			if (!holes[i].len)
				holes[i] = holes[--n_holes];
			return 0;
		}
	}
	if (len > ARENA_SIZE - arena_top)
		return -ENOMEM;
	*off = arena_top;
	arena_top += len;
	return 0;
}

static void arena_put_locked(uint64_t off, uint64_t len)
{
	fallocate(arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
	if (n_holes == cap_holes) {
		size_t cap = cap_holes ? cap_holes * 2 : 64;
		struct extent *nh = realloc(holes, cap * sizeof *nh);
		if (!nh)
			return; /* the range is lost to reuse, not to correctness */
		holes = nh;
		cap_holes = cap;
	}
	holes[n_holes++] = (struct extent){ off, len };
}

int rdc_sim_mem_alloc(void *argp)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args *a = argp;
	int gpu = rdc_sim_gpu_by_id(a->gpu_id);
	if (gpu < 0 || a->size == 0)
		return -EINVAL;
	const struct rdc_sim_config *c = rdc_sim_config_get();
	uint32_t f = a->flags;
	struct bo b = { .va = a->va_addr, .size = page_round(a->size), .gpu = (uint32_t)gpu,
			.flags = f, .fd = -1 };
	if (f & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
		b.kind = K_VRAM;
	else if (f & KFD_IOC_ALLOC_MEM_FLAGS_GTT)
		b.kind = K_GTT;
	else if (f & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
		b.kind = K_USERPTR;
	else if (f & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL)
		b.kind = K_DOORBELL;
	else if (f & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)
		b.kind = K_MMIO;
	else
		return -EINVAL;
	if (b.kind == K_MMIO && a->size != 4096)
		return -EINVAL;
	if (b.kind == K_USERPTR && ((a->mmap_offset & 4095) || !a->mmap_offset))
		return -EINVAL;
	pthread_mutex_lock(&tab_lock);
	int rc = 0;
	if (find_in(cur(), b.va) >= 0 || (b.size > 1 && find_in(cur(), b.va + b.size - 1) >= 0)) {
		rc = -EINVAL; /* the VA range is taken in this GPU VM */
		goto out;
	}
	if (b.kind == K_VRAM && vram_used[gpu] + b.size > c->gpu[gpu].vram) {
		rc = -ENOMEM;
		goto out;
	}
	if (b.kind == K_VRAM || b.kind == K_GTT) {
		if ((rc = arena_open_locked()) || (rc = arena_get_locked(b.size, &b.offset)))
			goto out;
		void *p = rdc_sim_real()->mmap(NULL, b.size, PROT_READ | PROT_WRITE,
					       MAP_SHARED | MAP_NORESERVE, arena_fd, (off_t)b.offset);
		if (p == MAP_FAILED) {
			rc = -ENOMEM;
			arena_put_locked(b.offset, b.size);
			goto out;
		}
		b.cpu = p;
		a->mmap_offset = b.offset;
	} else if (b.kind == K_USERPTR) {
		b.cpu = (uint8_t *)(uintptr_t)a->mmap_offset;
	} else if (b.kind == K_MMIO) {
		a->mmap_offset = KFD_MMAP_TYPE_MMIO | KFD_MMAP_GPU_ID(a->gpu_id);
	}
	b.handle = (uint64_t)a->gpu_id << 32 | next_idr++;
	if ((rc = insert_locked(&b))) {
		if (b.kind == K_VRAM || b.kind == K_GTT) {
			rdc_sim_real()->munmap(b.cpu, b.size);
			arena_put_locked(b.offset, b.size);
		}
		goto out;
	}
	if (b.kind == K_VRAM)
		vram_used[gpu] += b.size;
	a->handle = b.handle;
out:
	pthread_mutex_unlock(&tab_lock);
	rdc_sim_debug("alloc gpu %d va 0x%llx size 0x%llx flags 0x%x -> %d", gpu,
		      (unsigned long long)a->va_addr, (unsigned long long)a->size, f, rc);
	return rc;
}

int rdc_sim_mem_free(void *argp)
{
	struct kfd_ioctl_free_memory_of_gpu_args *a = argp;
	pthread_rwlock_wrlock(&mem_lock);
	pthread_mutex_lock(&tab_lock);
	ptrdiff_t i = find_handle_in(cur(), a->handle);
	int rc = i < 0 ? -EINVAL : 0;
	struct bo b;
	if (!rc) {
		b = cur()->v[i];
		rc = remove_locked((size_t)i);
	}
	if (rc) {
		pthread_mutex_unlock(&tab_lock);
		pthread_rwlock_unlock(&mem_lock);
		return rc;
	}
	if (b.kind == K_VRAM || b.kind == K_GTT) {
		rdc_sim_real()->munmap(b.cpu, b.size); /* under the lock: no engine is inside */
		if (b.offset != NO_OFFSET)
			arena_put_locked(b.offset, b.size);
	}
	/* An exported object's pages live on while a dma-buf fd or an importer's
	 * mapping holds its memfd, as the GEM object lives while its dma-buf
	 * holds a reference (amdgpu_amdkfd_gpuvm_free_memory_of_gpu drops only
	 * KFD's own). */
	if (b.fd >= 0)
		rdc_sim_real()->close(b.fd);
	if (b.kind == K_VRAM && !b.imported)
		vram_used[b.gpu] -= b.size;
	pthread_mutex_unlock(&tab_lock);
	pthread_rwlock_unlock(&mem_lock);
	return 0;
}

/* kfd_ioctl_(un)map_memory_to_gpu: devices from n_success on, one at a time;
 * n_success counts the devices done (KFD resumes from it). */
int rdc_sim_mem_map(void *argp, bool map)
{
	struct kfd_ioctl_map_memory_to_gpu_args *a = argp;
	const uint32_t *ids = (const uint32_t *)(uintptr_t)a->device_ids_array_ptr;
	if (!a->n_devices || !ids || a->n_success > a->n_devices)
		return -EINVAL;
	pthread_mutex_lock(&tab_lock);
	struct table *t = cur();
	ptrdiff_t i = find_handle_in(t, a->handle);
	int rc = i < 0 ? -EINVAL : 0;
	for (uint32_t k = a->n_success; !rc && k < a->n_devices; k++) {
		int g = rdc_sim_gpu_by_id(ids[k]);
		if (g < 0) {
			rc = -EINVAL;
			break;
		}
		/* In place: the bits are read by nobody who could mind a
		 * change under way. */
		if (map)
			t->v[i].mapped |= 1u << g;
		else
			t->v[i].mapped &= ~(1u << g);
		a->n_success = k + 1;
	}
	pthread_mutex_unlock(&tab_lock);
	return rc;
}

int rdc_sim_mem_available(void *argp)
{
	struct kfd_ioctl_get_available_memory_args *a = argp;
	int g = rdc_sim_gpu_by_id(a->gpu_id);
	if (g < 0)
		return -EINVAL;
	pthread_mutex_lock(&tab_lock);
	a->available = rdc_sim_config_get()->gpu[g].vram - vram_used[g];
	pthread_mutex_unlock(&tab_lock);
	return 0;
}

/* mmap(addr, len, prot, flags, render_fd, off): the arena, if [off, off+len)
 * lies inside one VRAM/GTT object; else EINVAL as DRM answers an unknown
 * offset. */
void *rdc_sim_mem_render_map(void *addr, size_t len, int prot, int flags, uint64_t off)
{
	pthread_rwlock_rdlock(&mem_lock);
	bool ok = false;
	int fd = arena_fd;
	const struct table *t = cur();
	for (size_t i = 0; i < tab_n(t) && !ok; i++) {
		const struct bo *b = &t->v[i];
		ok = (b->kind == K_VRAM || b->kind == K_GTT) && b->offset != NO_OFFSET && off >= b->offset &&
		     off - b->offset < b->size && len <= b->size - (off - b->offset);
		if (ok && b->fd >= 0) { /* moved into a memfd of its own (exported) */
			fd = b->fd;
			off -= b->offset;
		}
	}
	pthread_rwlock_unlock(&mem_lock);
	if (!ok) {
		rdc_sim_log("mmap of the render node at offset 0x%llx (+0x%zx) matches no buffer "
			    "object: EINVAL", (unsigned long long)off, len);
		errno = EINVAL;
		return MAP_FAILED;
	}
	return rdc_sim_real()->mmap(addr, len, prot, flags, fd, (off_t)off);
}

/* AMDKFD_IOC_EXPORT_DMABUF (KFD 1.12, nr 0x24): Linux
 * include/uapi/linux/kfd_ioctl.h struct kfd_ioctl_export_dmabuf_args;
 * Debian 12's header (KFD 1.11) has no such struct, so it is spelled here
 * with the uapi's layout. */
struct sim_export_dmabuf_args {
	uint64_t handle;    /* to KFD */
	uint32_t flags;     /* to KFD: O_CLOEXEC (dma_buf_fd) */
	uint32_t dmabuf_fd; /* from KFD */
};
_Static_assert(sizeof(struct sim_export_dmabuf_args) == 16, "uapi layout");

/* kfd_ioctl_export_dmabuf (kfd_chardev.c): the gpu_id half of the handle
 * must name a device (EINVAL), the handle an object of this process
 * (EINVAL); amdgpu_gem_prime_export (amdgpu_dma_buf.c) refuses userptr
 * objects (EPERM); only VRAM and GTT objects carry pages a dma-buf can hold
 * (doorbell and MMIO-remap pages: EINVAL here, not checked against KFD).
 * The first export moves the object into a memfd of its own (dmabuf.c);
 * every export returns a new fd of it (dma_buf_fd: one file per dma-buf,
 * each call a new descriptor). */
int rdc_sim_mem_export(void *argp)
{
	struct sim_export_dmabuf_args *a = argp;
	if (rdc_sim_gpu_by_id((uint32_t)(a->handle >> 32)) < 0)
		return -EINVAL;
	pthread_rwlock_wrlock(&mem_lock);
	pthread_mutex_lock(&tab_lock);
	ptrdiff_t i = find_handle_in(cur(), a->handle);
	int rc = 0;
	if (i < 0) {
		rc = -EINVAL;
		goto out;
	}
	struct bo *b = &cur()->v[i]; /* changed in place: nobody reads the table now */
	if (b->kind == K_USERPTR) {
		rc = -EPERM;
		goto out;
	}
	if (b->kind != K_VRAM && b->kind != K_GTT) {
		rc = -EINVAL;
		goto out;
	}
	if (b->fd < 0) {
		uint32_t dom = b->kind == K_VRAM ? KFD_IOC_ALLOC_MEM_FLAGS_VRAM : KFD_IOC_ALLOC_MEM_FLAGS_GTT;
		int fd = rdc_sim_dmabuf_new(rdc_sim_gpu_id(b->gpu), dom | (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC),
					    b->size);
		if (fd < 0) {
			rc = fd;
			goto out;
		}
		if ((rc = rdc_sim_dmabuf_move(arena_fd, b->offset, b->size, fd, b->cpu))) {
			rdc_sim_real()->close(fd);
			goto out;
		}
		/* The arena's pages are copies now: give the memory back, keep the
		 * range (its offset still names the object for render mmaps). */
		fallocate(arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)b->offset, (off_t)b->size);
		b->fd = fd;
	}
	int nfd = fcntl(b->fd, (a->flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (nfd < 0)
		rc = -errno;
	else
		a->dmabuf_fd = (uint32_t)nfd;
out:
	pthread_mutex_unlock(&tab_lock);
	pthread_rwlock_unlock(&mem_lock);
	rdc_sim_debug("export dmabuf handle 0x%llx -> %d", (unsigned long long)a->handle, rc);
	return rc;
}

/* kfd_ioctl_get_dmabuf_info (kfd_chardev.c) through
 * amdgpu_amdkfd_get_dmabuf_info (amdgpu_amdkfd.c): a closed fd EBADF, an fd
 * that is no amdgpu dma-buf EINVAL; the size, the exporting device's
 * gpu_id, the domain (VRAM or GTT, PUBLIC when CPU access was asked for)
 * and the metadata, of which KFD's objects have none (size 0). */
int rdc_sim_mem_dmabuf_info(void *argp)
{
	struct kfd_ioctl_get_dmabuf_info_args *a = argp;
	uint32_t gpu_id, flags;
	uint64_t size;
	int rc = rdc_sim_dmabuf_identify((int)a->dmabuf_fd, &gpu_id, &flags, &size);
	if (rc)
		return rc;
	a->size = size;
	a->gpu_id = gpu_id;
	a->flags = flags;
	a->metadata_size = 0;
	return 0;
}

/* kfd_ioctl_import_dmabuf (kfd_chardev.c): an unknown gpu_id EINVAL; then
 * amdgpu_amdkfd_gpuvm_import_dmabuf_fd (amdgpu_amdkfd_gpuvm.c): a closed fd
 * EBADF, a file that is no dma-buf EINVAL (dma_buf_get); the new object
 * holds the dma-buf (its memfd) and is VRAM or GTT as its exporter's was.
 * Importing the same dma-buf again makes another object with a handle of
 * its own, as KFD does (import_obj_create per call).  Here, as for ALLOC, a
 * GPU address already taken is EINVAL.  KFD hands the importer no mmap
 * offset: only the engines see its pages. */
int rdc_sim_mem_import(void *argp)
{
	struct kfd_ioctl_import_dmabuf_args *a = argp;
	int gpu = rdc_sim_gpu_by_id(a->gpu_id);
	if (gpu < 0)
		return -EINVAL;
	uint32_t gpu_id, flags;
	uint64_t size;
	int rc = rdc_sim_dmabuf_identify((int)a->dmabuf_fd, &gpu_id, &flags, &size);
	if (rc)
		return rc;
	if (!size || (size & 4095))
		return -EINVAL;
	struct bo b = { .va = a->va_addr, .size = size, .gpu = (uint32_t)gpu, .offset = NO_OFFSET,
			.kind = (flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) ? K_VRAM : K_GTT, .imported = true,
			.flags = ((flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) ? KFD_IOC_ALLOC_MEM_FLAGS_VRAM
									 : KFD_IOC_ALLOC_MEM_FLAGS_GTT) |
				 KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE };
	pthread_mutex_lock(&tab_lock);
	b.fd = fcntl((int)a->dmabuf_fd, F_DUPFD_CLOEXEC, 0);
	if (b.fd < 0) {
		rc = -errno;
		goto out;
	}
	if (a->va_addr && (find_in(cur(), b.va) >= 0 || find_in(cur(), b.va + b.size - 1) >= 0)) {
		rc = -EINVAL;
		goto out;
	}
	void *p = rdc_sim_real()->mmap(NULL, b.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, b.fd, 0);
	if (p == MAP_FAILED) {
		rc = -ENOMEM;
		goto out;
	}
	b.cpu = p;
	b.handle = (uint64_t)a->gpu_id << 32 | next_idr++;
	if ((rc = insert_locked(&b))) {
		rdc_sim_real()->munmap(p, b.size);
		goto out;
	}
	a->handle = b.handle;
	b.fd = -1; /* the table owns it now */
out:
	if (b.fd >= 0)
		rdc_sim_real()->close(b.fd);
	pthread_mutex_unlock(&tab_lock);
	rdc_sim_debug("import dmabuf fd %u on gpu %d at va 0x%llx (exporter gpu_id 0x%x, size 0x%llx) -> %d",
		      a->dmabuf_fd, gpu, (unsigned long long)a->va_addr, gpu_id, (unsigned long long)size, rc);
	return rc;
}

void *rdc_sim_mem_ptr(uint64_t va, uint64_t len)
{
	pthread_rwlock_rdlock(&mem_lock);
	const struct table *t = cur();
	ptrdiff_t i = find_in(t, va);
	void *p = NULL;
	if (i >= 0 && t->v[i].cpu && len <= t->v[i].size - (va - t->v[i].va))
		p = t->v[i].cpu + (va - t->v[i].va);
	pthread_rwlock_unlock(&mem_lock);
	return p;
}

bool rdc_sim_mem_find(uint64_t va, struct rdc_sim_range *out)
{
	pthread_rwlock_rdlock(&mem_lock);
	const struct table *t = cur();
	ptrdiff_t i = find_in(t, va);
	bool ok = i >= 0 && t->v[i].cpu;
	if (ok && out)
		*out = (struct rdc_sim_range){ t->v[i].va, t->v[i].size, t->v[i].cpu, t->v[i].mapped };
	pthread_rwlock_unlock(&mem_lock);
	return ok;
}

void *rdc_sim_mem_by_handle(uint64_t handle, uint64_t *size)
{
	pthread_rwlock_rdlock(&mem_lock);
	const struct table *t = cur();
	ptrdiff_t i = find_handle_in(t, handle);
	void *p = i >= 0 ? t->v[i].cpu : NULL;
	if (p && size)
		*size = t->v[i].size;
	pthread_rwlock_unlock(&mem_lock);
	return p;
}

void rdc_sim_mem_hold(void) { pthread_rwlock_rdlock(&mem_lock); }
void rdc_sim_mem_release(void) { pthread_rwlock_unlock(&mem_lock); }

/* The last kfd fd closed (or a forked child starts its own KFD process):
 * every object goes, and a child gets an arena of its own. */
void rdc_sim_mem_close(void)
{
	pthread_rwlock_wrlock(&mem_lock);
	pthread_mutex_lock(&tab_lock);
	struct table *t = cur();
	for (size_t i = 0; i < tab_n(t); i++) {
		if (t->v[i].kind == K_VRAM || t->v[i].kind == K_GTT)
			rdc_sim_real()->munmap(t->v[i].cpu, t->v[i].size);
		if (t->v[i].fd >= 0)
			rdc_sim_real()->close(t->v[i].fd);
	}
	free(t);
	__atomic_store_n(&tab, NULL, __ATOMIC_RELEASE);
	free_retired_locked();
	free(retired);
	retired = NULL;
	cap_retired = 0;
	free(holes);
	holes = NULL;
	n_holes = cap_holes = 0;
	if (arena_fd >= 0)
		rdc_sim_real()->close(arena_fd);
	arena_fd = -1;
	arena_top = ARENA_START;
	memset(vram_used, 0, sizeof vram_used);
	pthread_mutex_unlock(&tab_lock);
	pthread_rwlock_unlock(&mem_lock);
}

void rdc_sim_mem_atfork_child(void)
{
	pthread_rwlock_t fresh = PTHREAD_RWLOCK_INITIALIZER;
	pthread_mutex_t fresh_tab = PTHREAD_MUTEX_INITIALIZER;
	mem_lock = fresh;
	tab_lock = fresh_tab;
}
