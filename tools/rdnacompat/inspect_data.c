// SPDX-License-Identifier: MIT
/*
 * inspect_data.c — recognises the per-arch data files of ROCm libraries for
 * `rdnacompat inspect DIR`: rocBLAS/Tensile TensileLibrary_*.dat (MessagePack,
 * checked with msgpack-c on the first bytes), .yaml libraries, per-arch code
 * object files (*.hsaco, *.co: chosen by the library by name, so listed by
 * the target in their name), and MIOpen's find databases (.fdb.txt), SQLite
 * databases (.db, .kdb, .udb), models (.model) and per-arch composable-kernel
 * libraries (libMIOpenCKGroupedConv_<target>.so, an ELF shared object MIOpen
 * dlopens by the device's name).  Reads at most 4 KiB of a
 * file; never the whole of it.
 */
#include <ctype.h>
#include <fcntl.h>
#include <msgpack.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "inspect_data.h"

static const char *const names[RDC_DATA_KINDS] = {
	[RDC_DATA_NONE] = "other",
	[RDC_DATA_TENSILE_DAT] = "tensile-dat",
	[RDC_DATA_TENSILE_YAML] = "tensile-yaml",
	[RDC_DATA_CODE] = "code-object",
	[RDC_DATA_MIOPEN_FDB] = "miopen-text-db",
	[RDC_DATA_MIOPEN_DB] = "miopen-db",
	[RDC_DATA_MIOPEN_MODEL] = "miopen-model",
	[RDC_DATA_MIOPEN_CK] = "miopen-ck-so",
	[RDC_DATA_BAD] = "unrecognised",
};

const char *rdc_data_kind_name(enum rdc_data_kind k)
{
	return (unsigned)k < RDC_DATA_KINDS ? names[k] : "?";
}

int rdc_data_arch(const char *name, char *out, size_t n)
{
	for (const char *p = strstr(name, "gfx"); p; p = strstr(p + 1, "gfx")) {
		if (p > name && isalnum((unsigned char)p[-1]))
			continue;
		/* gfx1030, gfx1151, gfx1201: four digits from 1; gfx803, gfx908: three
		 * (MIOpen's gfx90878.kdb: gfx908 and a CU count) */
		size_t l = 3, most = p[3] == '1' ? 4 : 3;
		while (isdigit((unsigned char)p[l]) && l < 3 + most)
			l++;
		/* gfx90a, gfx90c: two digits and a hex letter (gfx90a68.kdb: a CU count follows) */
		if (l == 3 + 2 && p[l] >= 'a' && p[l] <= 'f')
			l++;
		if (l < 3 + 3)
			continue;
		if (l + 1 > n)
			return -1;
		memcpy(out, p, l);
		out[l] = '\0';
		return 0;
	}
	return -1;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static ssize_t head(const char *path, unsigned char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, n);
	close(fd);
	return r;
}

/* A MessagePack document whose top object is a map, as Tensile writes. */
static bool msgpack_map(const unsigned char *b, size_t n)
{
	if (n == 0 || !((b[0] >= 0x80 && b[0] <= 0x8f) || b[0] == 0xde || b[0] == 0xdf))
		return false;
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	msgpack_unpack_return r = msgpack_unpack_next(&u, (const char *)b, n, &off);
	msgpack_unpacked_destroy(&u);
	/* CONTINUE: well-formed so far, the rest lies beyond the bytes read */
	return r == MSGPACK_UNPACK_SUCCESS || r == MSGPACK_UNPACK_CONTINUE;
}

enum rdc_data_kind rdc_data_classify(const char *path, const char *name, char *why, size_t n)
{
	unsigned char b[4096];
	ssize_t got;
	if (!strncmp(name, "libMIOpenCKGroupedConv_", 23) && ends_with(name, ".so")) {
		if ((got = head(path, b, 4)) == 4 && !memcmp(b, "\177ELF", 4))
			return RDC_DATA_MIOPEN_CK;
		snprintf(why, n, "named like MIOpen's CK library but not an ELF file");
		return RDC_DATA_BAD;
	}
	if (ends_with(name, ".dat")) {
		if ((got = head(path, b, sizeof b)) < 0) {
			snprintf(why, n, "cannot be read");
			return RDC_DATA_BAD;
		}
		if (msgpack_map(b, (size_t)got))
			return RDC_DATA_TENSILE_DAT;
		snprintf(why, n, ".dat but not a MessagePack map (first byte 0x%02x)", got ? b[0] : 0);
		return RDC_DATA_BAD;
	}
	if (ends_with(name, ".yaml") && !strncmp(name, "TensileLibrary", 14))
		return RDC_DATA_TENSILE_YAML;
	if (ends_with(name, ".hsaco") || ends_with(name, ".co"))
		return RDC_DATA_CODE;
	if (ends_with(name, ".fdb.txt") || ends_with(name, ".db.txt"))
		return RDC_DATA_MIOPEN_FDB;
	if (ends_with(name, ".model"))
		return RDC_DATA_MIOPEN_MODEL;
	if (ends_with(name, ".db") || ends_with(name, ".kdb") || ends_with(name, ".udb")) {
		if ((got = head(path, b, 16)) == 16 && !memcmp(b, "SQLite format 3", 16))
			return RDC_DATA_MIOPEN_DB;
		/* MIOpen's text perf databases (*.db) are text lines "key=value" */
		if (got > 0 && ends_with(name, ".db") && memchr(b, '=', (size_t)got))
			return RDC_DATA_MIOPEN_FDB;
		snprintf(why, n, "database name but neither SQLite nor a text database");
		return RDC_DATA_BAD;
	}
	return RDC_DATA_NONE;
}
