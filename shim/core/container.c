/* SPDX-License-Identifier: MIT */
/*
 * container.c — rdc_container_open: classify a file (host ELF with a
 * `.hip_fatbin` section, raw offload bundle, raw AMDGPU code object) and map
 * read-only, MAP_PRIVATE, only the bytes that matter.  The host ELF's section
 * headers are read with libelf (ELF_C_READ: pread of the ELF header, the
 * section headers and the section-name table only); then just the
 * `.hip_fatbin` section is mapped (or, in a host ELF without one,
 * rdnacompat's own fallback bundle, section .rdc_fallback).
 *
 * The one file of the core that does file I/O (see include/rdnacompat/
 * container.h).  Errors name the file and the byte offset in it.
 */
#include "rdnacompat/container.h"
#include "rdnacompat/fileopen.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/bundle.h"

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif

const char *rdc_container_kind_name(enum rdc_container_kind k)
{
	switch (k) {
	case RDC_CONT_HOST_ELF: return "host ELF";
	case RDC_CONT_BUNDLE: return "offload bundle";
	case RDC_CONT_CODE_OBJECT: return "AMDGPU code object";
	default: return "unknown";
	}
}

void rdc_container_close(struct rdc_container *c)
{
	if (!c)
		return;
	if (c->map_base && c->map_size)
		munmap((void *)c->map_base, c->map_size);
	memset(c, 0, sizeof *c);
}

/* Map [off, off+len) of fd; sets c->map_base/map_size and returns the
 * pointer to byte `off`. */
static const uint8_t *map_range(int fd, const char *path, uint64_t off, uint64_t len,
				struct rdc_container *c, struct rdc_diag *d, int *rc)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t page = pg > 0 ? (uint64_t)pg : 4096;
	uint64_t start = off - off % page;
	uint64_t mlen = off - start + len;
	if (mlen > SIZE_MAX || start > (uint64_t)INT64_MAX) {
		*rc = rdc_diag_set(d, RDC_E_RANGE, off, "%s: %llu bytes cannot be mapped", path,
				   (unsigned long long)len);
		return NULL;
	}
	void *m = mmap(NULL, (size_t)mlen, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
	if (m == MAP_FAILED) {
		*rc = rdc_diag_set(d, RDC_E_IO, off, "%s: mmap of %llu bytes failed: %s", path,
				   (unsigned long long)mlen, strerror(errno));
		return NULL;
	}
	c->map_base = m;
	c->map_size = (size_t)mlen;
	*rc = 0;
	return (const uint8_t *)m + (off - start);
}

static int open_host_elf(int fd, const char *path, struct rdc_container *c, struct rdc_diag *d)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: libelf is unusable: %s", path,
				    elf_errmsg(-1));
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "%s: libelf cannot read it: %s", path,
				    elf_errmsg(-1));
	int rc = 0;
	GElf_Ehdr eh;
	size_t shstrndx = 0, nsec = 0;
	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		rc = rdc_diag_set(d, RDC_E_FORMAT, 0, "%s: not a readable ELF file: %s", path,
				  elf_errmsg(-1));
		goto out;
	}
	c->e_type = eh.e_type;
	c->e_machine = eh.e_machine;
	if (eh.e_machine == EM_AMDGPU) {
		c->kind = RDC_CONT_CODE_OBJECT;
		goto out;
	}
	c->kind = RDC_CONT_HOST_ELF;
	if (elf_getshdrnum(e, &nsec) != 0 || elf_getshdrstrndx(e, &shstrndx) != 0) {
		rc = rdc_diag_set(d, RDC_E_FORMAT, 0, "%s: unreadable section headers (e_shoff %llu): %s",
				  path, (unsigned long long)eh.e_shoff, elf_errmsg(-1));
		goto out;
	}
	/* libelf reads section headers lazily and quietly finds none when the
	 * table lies past the end: say so instead. */
	uint64_t cnt = eh.e_shnum ? eh.e_shnum : (eh.e_shoff ? 1 : 0); /* 0: extended numbering */
	if (nsec > cnt)
		cnt = nsec;
	uint64_t tab = cnt * eh.e_shentsize;
	if (cnt > 0 && !rdc_in_bounds(eh.e_shoff, tab, c->file_size)) {
		rc = rdc_diag_set(d, RDC_E_FORMAT, gelf_getclass(e) == ELFCLASS64 ? 0x28 : 0x20,
				  "%s: section header table [%llu, +%llu) runs past the end of "
				  "the %llu-byte file", path, (unsigned long long)eh.e_shoff,
				  (unsigned long long)tab, (unsigned long long)c->file_size);
		goto out;
	}
	/* The first .hip_fatbin; failing that, rdnacompat's own fallback bundle. */
	Elf_Scn *scn = NULL;
	GElf_Shdr pick[2];          /* [0] .hip_fatbin, [1] .rdc_fallback */
	size_t pick_idx[2] = { 0, 0 };
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		int k = !name ? -1 : !strcmp(name, ".hip_fatbin") ? 0 : !strcmp(name, RDC_FALLBACK_SECTION) ? 1 : -1;
		if (k < 0 || pick_idx[k])
			continue;
		pick[k] = sh;
		pick_idx[k] = elf_ndxscn(scn);
		if (k == 0)
			break;
	}
	int k = pick_idx[0] ? 0 : pick_idx[1] ? 1 : -1;
	if (k >= 0) {
		const GElf_Shdr *sh = &pick[k];
		const char *name = k ? RDC_FALLBACK_SECTION : ".hip_fatbin";
		size_t idx = pick_idx[k];
		uint64_t hdr_at = eh.e_shoff + (uint64_t)idx * eh.e_shentsize;
		if (sh->sh_type == SHT_NOBITS) {
			rc = rdc_diag_set(d, RDC_E_FORMAT, hdr_at,
					  "%s: section %zu %s has no bytes in the file "
					  "(SHT_NOBITS)", path, idx, name);
			goto out;
		}
		if (!rdc_in_bounds(sh->sh_offset, sh->sh_size, c->file_size)) {
			rc = rdc_diag_set(d, RDC_E_RANGE, hdr_at,
					  "%s: section %zu %s [%llu, +%llu) runs past the "
					  "end of the %llu-byte file", path, idx, name,
					  (unsigned long long)sh->sh_offset,
					  (unsigned long long)sh->sh_size,
					  (unsigned long long)c->file_size);
			goto out;
		}
		c->has_fatbin = k == 0;
		c->has_fallback = k == 1;
		c->fatbin_addr = sh->sh_addr;
		c->fatbin_align = sh->sh_addralign;
		c->offset = sh->sh_offset;
		c->size = sh->sh_size;
	}
out:
	elf_end(e);
	return rc;
}

int rdc_container_open(const char *path, struct rdc_container *c, struct rdc_diag *d)
{
	if (!c)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no container to fill");
	memset(c, 0, sizeof *c);
	if (!path)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no path");
	struct rdc_diag od = { 0 };
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, &od);
	if (fd < 0)
		return rdc_diag_set(d, fd, RDC_NO_OFFSET, "%s", od.msg);
	int rc = 0;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		rc = rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: cannot stat: %s", path,
				  strerror(errno));
		goto out;
	}
	c->file_size = (uint64_t)st.st_size;
	if (c->file_size == 0) {
		/* procfs/sysfs files say 0 and still have bytes. */
		uint8_t one;
		rc = pread(fd, &one, 1, 0) == 1
			     ? rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
					    "%s: size unknown (a /proc or /sys file); not a code object container",
					    path)
			     : rdc_diag_set(d, RDC_E_FORMAT, 0, "%s: empty file", path);
		goto out;
	}
	uint8_t head[RDC_BUNDLE_MAGIC_LEN];
	size_t want = c->file_size < sizeof head ? (size_t)c->file_size : sizeof head;
	ssize_t got = pread(fd, head, want, 0);
	if (got < 0 || (size_t)got != want) {
		rc = rdc_diag_set(d, RDC_E_IO, 0, "%s: cannot read its first %zu bytes: %s", path,
				  want, got < 0 ? strerror(errno) : "short read");
		goto out;
	}
	if (rdc_is_bundle(head, want)) {
		c->kind = RDC_CONT_BUNDLE;
	} else if (want >= SELFMAG && memcmp(head, ELFMAG, SELFMAG) == 0) {
		rc = open_host_elf(fd, path, c, d);
		if (rc)
			goto out;
	} else {
		unsigned b[4] = { 0, 0, 0, 0 };
		for (size_t i = 0; i < 4 && i < want; i++)
			b[i] = head[i];
		rc = rdc_diag_set(d, RDC_E_FORMAT, 0,
				  "%s: neither an ELF file nor an offload bundle (starts with "
				  "%02x %02x %02x %02x)", path, b[0], b[1], b[2], b[3]);
		goto out;
	}
	if (c->kind == RDC_CONT_BUNDLE || c->kind == RDC_CONT_CODE_OBJECT) {
		c->offset = 0;
		c->size = c->file_size;
	}
	if (c->size > 0) {
		c->data = map_range(fd, path, c->offset, c->size, c, d, &rc);
		if (rc)
			goto out;
	}
out:
	close(fd);
	if (rc)
		rdc_container_close(c);
	return rc;
}
