/* SPDX-License-Identifier: MIT */
/*
 * remap_arena.c — where the headers of rebuilt file-backed bundles live:
 * one anonymous arena placed low in the address space, below the program
 * image and every library, with the bundles' entries (file mappings, remap.c)
 * above it.
 *
 * Why: HIP >= 6 looks every fat binary it digests up in /proc/self/maps
 * (clr rocclr/os/os_posix.cpp, amd::Os::FindFileNameFromAddress) with a
 * linear scan that stops at the mapping holding the pointer.  A header
 * placed in front of its own entries sits, like every mapping made after
 * start-up, below everything mapped before it, so the scan for each bundle
 * read through the mappings of all bundles rebuilt after it: llama.cpp's
 * 206 bundles made HIP read ~3x the maps text it reads without the shim.
 * From the arena the scan stops after the few lines of the program itself.
 *
 * The address is a hint (ARENA_HINT, 32 TiB: above the ASan shadow, below
 * the 0x55.. PIE images and the 0x7f.. mmap area); when the kernel (or a
 * sanitizer's mmap) places the arena anywhere else it is given back and not
 * used, and remap.c keeps the header in front of its entries.  Pages are
 * handed out one bundle at a time (a bitmap, reused after a bundle is
 * released) and given back to the kernel (MADV_DONTNEED) when released —
 * or, for a bundle HIP unregisters (rdc_arena_release with `later`), at the
 * next registration's rdc_arena_drain, in one call per run of pages: at
 * exit HIP unregisters every fat binary and walks its whole function table
 * after each, and a madvise of a touched page between two walks flushes the
 * TLB of every CPU running the process (librocsparse's 111 bundles: 111
 * flushes, each followed by a walk over 12 344 entries that refills it).
 * A page handed out again before it was given back is zeroed first.
 * The arena stays writable, like the heap buffers rdc_remap_copy makes:
 * changing its protection around every header cost two system calls per
 * bundle, and doing it for a part of it would split it into many mappings.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shim.h"

#define ARENA_HINT ((uintptr_t)0x200000000000ull)
#define ARENA_PAGES 4096                /* 16 MiB of address space, no memory */

pthread_mutex_t rdc_arena_lock = PTHREAD_MUTEX_INITIALIZER;   /* shim.h's lock order */
static struct {                         /* guarded by rdc_arena_lock */
	uint8_t *base;                  /* NULL: not made yet, or not at the hint */
	bool tried;
	size_t ps;
	uint64_t used[ARENA_PAGES / 64];
	uint64_t stale[ARENA_PAGES / 64];  /* free, but still holding a released header */
	bool any_stale;
} arena;

static bool page_used(size_t i)
{
	return arena.used[i / 64] >> (i % 64) & 1;
}

static bool page_stale(size_t i)
{
	return arena.stale[i / 64] >> (i % 64) & 1;
}

static void set_bits(uint64_t *map, size_t first, size_t n, bool on)
{
	for (size_t i = first; i < first + n; i++) {
		if (on)
			map[i / 64] |= 1ull << (i % 64);
		else
			map[i / 64] &= ~(1ull << (i % 64));
	}
}

/* Called with the lock held. */
static bool arena_ready(void)
{
	if (arena.base || arena.tried)
		return arena.base != NULL;
	arena.tried = true;
	long ps = sysconf(_SC_PAGESIZE);
	arena.ps = ps > 0 ? (size_t)ps : 4096;
	size_t len = ARENA_PAGES * arena.ps;
	void *m = mmap((void *)ARENA_HINT, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		rdc_logf(RDC_LOG_DEBUG, "header arena: no mapping; headers stay beside their entries");
		return false;
	}
	if ((uintptr_t)m != ARENA_HINT) {
		munmap(m, len);
		rdc_logf(RDC_LOG_DEBUG, "header arena: placed away from its hint; headers stay beside "
			 "their entries");
		return false;
	}
	arena.base = m;
	return true;
}

uint8_t *rdc_arena_take(size_t len)
{
	pthread_mutex_lock(&rdc_arena_lock);
	uint8_t *p = NULL;
	if (!len || !arena_ready())
		goto out;
	size_t n = (len + arena.ps - 1) / arena.ps;
	for (size_t i = 0, run = 0; i < ARENA_PAGES; i++) {
		run = page_used(i) ? 0 : run + 1;
		if (run == n) {
			size_t first = i + 1 - n;
			p = arena.base + first * arena.ps;
			set_bits(arena.used, first, n, true);
			for (size_t k = first; k <= i; k++) {
				if (page_stale(k))
					memset(arena.base + k * arena.ps, 0, arena.ps);
			}
			set_bits(arena.stale, first, n, false);
			break;
		}
	}
out:
	pthread_mutex_unlock(&rdc_arena_lock);
	return p;
}

bool rdc_arena_holds(const void *p)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)arena.base;
	return arena.base && a >= b && a < b + ARENA_PAGES * arena.ps;
}

void rdc_arena_release(uint8_t *at, size_t len, bool later)
{
	if (!at || !rdc_arena_holds(at))
		return;
	pthread_mutex_lock(&rdc_arena_lock);
	size_t n = (len + arena.ps - 1) / arena.ps, first = (size_t)(at - arena.base) / arena.ps;
	if (later) {
		set_bits(arena.stale, first, n, true);
		arena.any_stale = true;
	} else {
		madvise(at, n * arena.ps, MADV_DONTNEED);
	}
	set_bits(arena.used, first, n, false);
	pthread_mutex_unlock(&rdc_arena_lock);
}

void rdc_arena_drain(void)
{
	pthread_mutex_lock(&rdc_arena_lock);
	for (size_t i = 0; arena.any_stale && i < ARENA_PAGES;) {
		if (!page_stale(i)) {
			i++;
			continue;
		}
		size_t first = i;
		while (i < ARENA_PAGES && page_stale(i))
			i++;
		madvise(arena.base + first * arena.ps, (i - first) * arena.ps, MADV_DONTNEED);
		set_bits(arena.stale, first, i - first, false);
	}
	arena.any_stale = false;
	pthread_mutex_unlock(&rdc_arena_lock);
}
