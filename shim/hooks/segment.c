/* SPDX-License-Identifier: MIT */
/*
 * segment.c — which loaded object and PT_LOAD segment hold a pointer.
 * HIP 5.2 hands __hipRegisterFatBinary a bundle pointer without a size; the
 * readable bytes from the pointer to the end of its segment's file-backed
 * part bound it (then rdc_bundle_extent gives the exact size), and the
 * segment's p_offset gives where the same bytes are in the file, which is
 * what lets the shim map them privately instead of copying.
 */
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shim.h"

struct find_ctx {
	uintptr_t p;
	struct rdc_segment *out;
	bool found;
};

static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct find_ctx *c = arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (c->p < start || c->p - start >= ph->p_memsz)
			continue;
		uint64_t off = c->p - start;
		struct rdc_segment *o = c->out;
		o->start = (const void *)start;
		o->file_backed = off < ph->p_filesz;
		o->readable = (ph->p_flags & PF_R) != 0;
		o->avail = o->file_backed ? ph->p_filesz - off : ph->p_memsz - off;
		o->file_offset = ph->p_offset + off;
		const char *name = info->dlpi_name;
		if (!name || !name[0]) {
			snprintf(o->path, sizeof o->path, "/proc/self/exe");
			snprintf(o->name, sizeof o->name, "(main program)");
		} else {
			snprintf(o->path, sizeof o->path, "%s", name);
			snprintf(o->name, sizeof o->name, "%s", name);
		}
		c->found = true;
		return 1;
	}
	return 0;
}

int rdc_segment_find(const void *p, struct rdc_segment *out)
{
	struct find_ctx c = { (uintptr_t)p, out, false };
	memset(out, 0, sizeof *out);
	dl_iterate_phdr(visit, &c);
	return c.found ? 0 : RDC_E_NOTFOUND;
}

void rdc_segment_lib_name(const struct rdc_segment *seg, char *buf, size_t n)
{
	if (strcmp(seg->path, "/proc/self/exe") == 0) {
		ssize_t r = readlink("/proc/self/exe", buf, n - 1);
		buf[r > 0 ? (size_t)r : 0] = 0;
		if (r > 0)
			return;
	}
	snprintf(buf, n, "%s", seg->name);
}
