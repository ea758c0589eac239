/* SPDX-License-Identifier: MIT */
/*
 * trace.c — RDNACOMPAT_SIM_TRACE: one JSON line per kernel dispatch,
 *   {"gpu":0,"node":1,"target":"gfx1030","kernel":"_Z9fill_iotaPii",
 *    "grid":[256,1,1],"workgroup":[64,1,1],"kernarg_size":16,"kernarg":"..."}
 * gpu is the simulated GPU's index, target the processor of the code object
 * the kernel was loaded from (e_flags machine byte), kernel the symbol whose
 * address is the dispatch's kernel_object minus ".kd".
 *
 * Finding the code object: ROCR's loader copies each code object's PT_LOAD
 * segments into a buffer object, the first segment
 * (ELF header, program headers, .dynsym, .dynstr, .hash, kernel descriptors)
 * at the image base.  So we scan back from kernel_object, page by page inside
 * the allocation holding it, for an AMDGPU ELF header whose dynamic symbol
 * table has a symbol at exactly kernel_object.  Every read is bounds-checked
 * against that allocation.  Lines are written with one write(2) under a lock
 * (O_APPEND), so concurrent queues never interleave.
 */
#include <elf.h>
#include <fcntl.h>
#include <hsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdnacompat/codeobj.h"
#include "sim.h"

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static int trace_fd = -1;
static bool trace_failed;

struct image { const uint8_t *base; uint64_t size; uint64_t va; }; /* the buffer object */

/* Is [at + off, at + off + len) inside the allocation?  All offsets are
 * untrusted; no pointer is formed before this says yes. */
static bool rng(const struct image *im, uint64_t at, uint64_t off, uint64_t len)
{
	return at <= im->size && off <= im->size - at && len <= im->size - at - off;
}

/* If an AMDGPU ELF image starts at offset `at` of the allocation and has a
 * symbol at kobj, copy its name (without ".kd") and processor. */
static bool match_image(const struct image *im, uint64_t at, uintptr_t kobj,
			char *kernel, size_t kn, char *proc, size_t pn)
{
	const uint8_t *hdr = im->base + at;
	Elf64_Ehdr eh;
	if (!rng(im, at, 0, sizeof eh))
		return false;
	memcpy(&eh, hdr, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_machine != EM_AMDGPU || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    !rng(im, at, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr)))
		return false;
	uint64_t dyn_va = 0, dyn_sz = 0;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr p;
		memcpy(&p, hdr + eh.e_phoff + i * sizeof p, sizeof p);
		if (p.p_type == PT_DYNAMIC) {
			dyn_va = p.p_vaddr;
			dyn_sz = p.p_memsz;
		}
	}
	if (!dyn_sz || !rng(im, at, dyn_va, dyn_sz))
		return false;
	uint64_t symtab = 0, strtab = 0, strsz = 0, hash = 0;
	for (uint64_t o = 0; o + sizeof(Elf64_Dyn) <= dyn_sz; o += sizeof(Elf64_Dyn)) {
		Elf64_Dyn d;
		memcpy(&d, hdr + dyn_va + o, sizeof d);
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag == DT_SYMTAB) symtab = d.d_un.d_ptr;
		else if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
		else if (d.d_tag == DT_STRSZ) strsz = d.d_un.d_val;
		else if (d.d_tag == DT_HASH) hash = d.d_un.d_ptr;
	}
	uint32_t nchain;
	if (!symtab || !strtab || !hash || !strsz || !rng(im, at, hash, 8) || !rng(im, at, strtab, strsz))
		return false;
	memcpy(&nchain, hdr + hash + 4, 4);
	if (!rng(im, at, symtab, (uint64_t)nchain * sizeof(Elf64_Sym)))
		return false;
	uint64_t want = kobj - (im->va + at);
	for (uint32_t i = 1; i < nchain; i++) {
		Elf64_Sym s;
		memcpy(&s, hdr + symtab + (uint64_t)i * sizeof s, sizeof s);
		if (s.st_value != want || s.st_name >= strsz)
			continue;
		const char *name = (const char *)hdr + strtab + s.st_name;
		size_t len = strnlen(name, strsz - s.st_name);
		if (len >= 3 && !memcmp(name + len - 3, ".kd", 3))
			len -= 3;
		if (len >= kn)
			len = kn - 1;
		memcpy(kernel, name, len);
		kernel[len] = 0;
		const char *m = rdc_mach_to_proc((uint8_t)(eh.e_flags & 0xff));
		if (m)
			snprintf(proc, pn, "%s", m);
		else
			snprintf(proc, pn, "mach-0x%02x", (unsigned)(eh.e_flags & 0xff));
		return true;
	}
	return false;
}

bool rdc_sim_kernel_lookup(uint64_t kobj, char *kernel, size_t kn, char *proc, size_t pn)
{
	struct rdc_sim_range r;
	snprintf(kernel, kn, "?");
	snprintf(proc, pn, "?");
	if (!rdc_sim_mem_find(kobj, &r)) {
		rdc_sim_debug("kernel object 0x%llx is in no simulated allocation",
			      (unsigned long long)kobj);
		return false;
	}
	struct image im = { r.cpu, r.size, r.base };
	/* Image bases are page aligned within the allocation (as ROCR's loader
	 * maps them); scan back from the kernel object's page. */
	for (uint64_t at = (kobj - r.base) & ~(uint64_t)4095;; at -= 4096) {
		if (match_image(&im, at, kobj, kernel, kn, proc, pn))
			return true;
		if (at < 4096)
			break;
	}
	rdc_sim_debug("kernel object 0x%llx: no code object found in [0x%llx, +0x%llx)",
		      (unsigned long long)kobj, (unsigned long long)r.base, (unsigned long long)r.size);
	return false;
}

static void open_trace(const char *path)
{
	trace_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (trace_fd < 0) {
		rdc_sim_log("cannot open RDNACOMPAT_SIM_TRACE=%s: %m", path);
		trace_failed = true;
	}
}

void rdc_sim_trace_dispatch(uint32_t node, const void *packet, const char *kernel, const char *proc,
			    uint32_t kernarg_size, const struct rdc_sim_exec_note *exec)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	if (!c || !c->trace_path[0])
		return;
	hsa_kernel_dispatch_packet_t pk;
	memcpy(&pk, packet, sizeof pk);
	uint32_t ksize = kernarg_size;
	const uint8_t *ko = rdc_sim_mem_ptr(pk.kernel_object, 64);
	if (!ksize && ko)
		memcpy(&ksize, ko + 8, 4); /* kernel descriptor: kernarg_size */
	const uint8_t *ka = ksize <= 4096 && pk.kernarg_address
				    ? rdc_sim_mem_ptr((uint64_t)(uintptr_t)pk.kernarg_address, ksize) : NULL;
	bool kargs_ok = ka != NULL;

	size_t cap = 512 + 6 * strlen(kernel) + (kargs_ok ? 2 * (size_t)ksize : 0);
	char *line = malloc(cap);
	if (!line)
		return;
	size_t n = 0;
	n += (size_t)snprintf(line + n, cap - n, "{\"gpu\":%d,\"node\":%u,\"target\":\"%s\",\"kernel\":\"",
			      (int)node - 1, node, proc);
	for (const unsigned char *k = (const unsigned char *)kernel; *k; k++) {
		/* valid JSON whatever the ELF held: escape quotes, controls, non-ASCII */
		if (*k == '"' || *k == '\\') {
			line[n++] = '\\';
			line[n++] = (char)*k;
		} else if (*k < 0x20 || *k >= 0x7f) {
			n += (size_t)snprintf(line + n, cap - n, "\\u%04x", *k);
		} else {
			line[n++] = (char)*k;
		}
	}
	n += (size_t)snprintf(line + n, cap - n,
			      "\",\"grid\":[%u,%u,%u],\"workgroup\":[%u,%u,%u],\"kernarg_size\":%u,\"kernarg\":\"",
			      pk.grid_size_x, pk.grid_size_y, pk.grid_size_z, pk.workgroup_size_x,
			      pk.workgroup_size_y, pk.workgroup_size_z, ksize);
	if (kargs_ok) {
		static const char hex[] = "0123456789abcdef";
		for (uint32_t i = 0; i < ksize; i++) {
			line[n++] = hex[ka[i] >> 4];
			line[n++] = hex[ka[i] & 15];
		}
	}
	n += (size_t)snprintf(line + n, cap - n, "\"");
	if (exec)
		n += (size_t)snprintf(line + n, cap - n, ",\"executed\":\"%s\",\"insts\":%llu,\"waves\":%llu,"
				      "\"exec_ns\":%llu", exec->status, (unsigned long long)exec->insts,
				      (unsigned long long)exec->waves, (unsigned long long)exec->ns);
	n += (size_t)snprintf(line + n, cap - n, "}\n");

	pthread_mutex_lock(&trace_lock);
	if (trace_fd < 0 && !trace_failed)
		open_trace(c->trace_path);
	if (trace_fd >= 0 && write(trace_fd, line, n) != (ssize_t)n)
		rdc_sim_log("short write to the trace file");
	pthread_mutex_unlock(&trace_lock);
	free(line);
	rdc_sim_debug("dispatch node %u %s (%s)", node, kernel, proc);
}

void rdc_sim_trace_close(void)
{
	pthread_mutex_lock(&trace_lock);
	if (trace_fd >= 0)
		close(trace_fd);
	trace_fd = -1;
	trace_failed = false;
	pthread_mutex_unlock(&trace_lock);
}
