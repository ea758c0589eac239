/* SPDX-License-Identifier: MIT */
/*
 * image.c — how many bytes an image handed over without a size may be read.
 * hipModuleLoadData(module, image) gives only a pointer: the readable bound
 * is, cheapest first, the rest of a rebuilt bundle the shim made (the
 * registry below), the rest of the readable file-backed part of a loaded
 * object's segment (dl_iterate_phdr), else the run of contiguous readable
 * mappings from the pointer (/proc/self/maps: thousands of lines once a
 * program like llama.cpp has 140 fat binaries mapped, and the kernel
 * formats every one of them, so it is read only when the first two do not
 * know the pointer).  Within that bound a bundle measures itself
 * (rdc_bundle_extent) and an ELF code object ends at the furthest of its
 * section table, program headers and section contents (each
 * bounds-checked against the readable bound).
 */
#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdnacompat/codeobj.h"
#include "shim.h"


struct known {                   /* a run of an image the shim made */
	struct known *next;
	uintptr_t start;
	uint64_t size;           /* the image's size, measured from start */
	uint64_t run;            /* readable bytes from start */
};
static struct known *knowns;     /* guarded by rdc_image_lock (a leaf lock) */
pthread_mutex_t rdc_image_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */

void rdc_image_known(const void *p, uint64_t size, uint64_t contiguous)
{
	struct known *k = malloc(sizeof *k);
	if (!k || !p || !size || !contiguous || contiguous > size) {
		free(k);
		return; /* not known: the maps are read for it, as before */
	}
	k->start = (uintptr_t)p;
	k->size = size;
	k->run = contiguous;
	pthread_mutex_lock(&rdc_image_lock);
	k->next = knowns;
	knowns = k;
	pthread_mutex_unlock(&rdc_image_lock);
}

void rdc_image_forget(const void *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&rdc_image_lock);
	for (struct known **kp = &knowns; *kp; kp = &(*kp)->next) {
		if ((*kp)->start == (uintptr_t)p) {
			struct known *k = *kp;
			*kp = k->next;
			free(k);
			break;
		}
	}
	pthread_mutex_unlock(&rdc_image_lock);
}

/* The image's size at its start; inside a run, the rest of the run. */
static uint64_t known_extent(uintptr_t a)
{
	uint64_t n = 0;
	pthread_mutex_lock(&rdc_image_lock);
	for (struct known *k = knowns; k; k = k->next)
		if (a == k->start) {
			n = k->size;
			break;
		} else if (a > k->start && a - k->start < k->run) {
			n = k->run - (a - k->start);
			break;
		}
	pthread_mutex_unlock(&rdc_image_lock);
	return n;
}

static uint64_t maps_extent(uintptr_t a);

uint64_t rdc_readable_extent(const void *p)
{
	uint64_t n = known_extent((uintptr_t)p);
	if (n)
		return n;
	struct rdc_segment seg;
	if (rdc_segment_find(p, &seg) == 0 && seg.file_backed && seg.readable && seg.avail)
		return seg.avail;
	return maps_extent((uintptr_t)p);
}

static uint64_t maps_extent(uintptr_t a)
{
	uintptr_t end = 0;
	int fd = rdc_sys_open("/proc/self/maps", O_RDONLY);
	if (fd < 0)
		return 0;
	char buf[8192];
	size_t have = 0;
	bool done = false;
	while (!done) {
		ssize_t r = read(fd, buf + have, sizeof buf - 1 - have);
		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = 0;
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			unsigned long lo, hi;
			char perms[8];
			if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3) {
				bool readable = perms[0] == 'r';
				if (end == 0 && a >= lo && a < hi && readable)
					end = hi;
				else if (end != 0 && lo == end && readable)
					end = hi;
				else if (end != 0 && lo >= end) {
					done = true;
					break;
				}
			}
			line = nl + 1;
		}
		have = strlen(line);
		memmove(buf, line, have);
	}
	close(fd);
	return end > a ? end - a : 0;
}

int rdc_elf_extent(const void *p, uint64_t avail, uint64_t *extent)
{
	if (avail < sizeof(Elf64_Ehdr) || !rdc_is_codeobj(p, avail))
		return RDC_E_FORMAT;
	Elf64_Ehdr eh;
	memcpy(&eh, p, sizeof eh);
	uint64_t end = sizeof eh;
	uint64_t sh_end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
	uint64_t ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
	if (!rdc_in_bounds(eh.e_shoff, (uint64_t)eh.e_shnum * eh.e_shentsize, avail) ||
	    !rdc_in_bounds(eh.e_phoff, (uint64_t)eh.e_phnum * eh.e_phentsize, avail))
		return RDC_E_RANGE;
	if (sh_end > end)
		end = sh_end;
	if (ph_end > end)
		end = ph_end;
	if (eh.e_shnum && eh.e_shentsize >= sizeof(Elf64_Shdr)) {
		for (unsigned i = 0; i < eh.e_shnum; i++) {
			Elf64_Shdr sh;
			memcpy(&sh, (const uint8_t *)p + eh.e_shoff + (uint64_t)i * eh.e_shentsize, sizeof sh);
			if (sh.sh_type == SHT_NOBITS)
				continue;
			if (!rdc_in_bounds(sh.sh_offset, sh.sh_size, avail))
				return RDC_E_RANGE;
			if (sh.sh_offset + sh.sh_size > end)
				end = sh.sh_offset + sh.sh_size;
		}
	}
	if (eh.e_phnum && eh.e_phentsize >= sizeof(Elf64_Phdr)) {
		for (unsigned i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			memcpy(&ph, (const uint8_t *)p + eh.e_phoff + (uint64_t)i * eh.e_phentsize, sizeof ph);
			if (!rdc_in_bounds(ph.p_offset, ph.p_filesz, avail))
				return RDC_E_RANGE;
			if (ph.p_offset + ph.p_filesz > end)
				end = ph.p_offset + ph.p_filesz;
		}
	}
	*extent = end;
	return 0;
}
