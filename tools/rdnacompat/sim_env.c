/* SPDX-License-Identifier: MIT */
/*
 * sim_env.c — a child program on simulated GPUs (sim_env.h): item checks
 * against the card and ISA tables, the simulator's location, and the
 * private /etc/ld.so.preload that puts it into every process.
 *
 * How the namespace works: this process moves into a private mount
 * namespace (a user namespace too when it is not root) whose /etc is an
 * overlay of the real one with an /etc/ld.so.preload that names the
 * simulator after what the real one names.  The dynamic loader reads that
 * file at every exec, so every process under the child gets the simulator
 * whatever it does with LD_PRELOAD, and LD_PRELOAD stays the user's.  The
 * overlay's upper layer is a tmpfs private to the namespace; nothing is
 * written to the host.
 */
#include "sim_env.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inspect_gpu.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"
#include "tool_util.h"

int rdc_sim_check_card(const char *q, char *err, size_t n)
{
	const struct rdc_card *hits[16];
	size_t nh;
	if (rdc_card_by_name(rdc_tables_builtin(), q, hits, 16, &nh))
		return 0;
	if (nh == 0) {
		snprintf(err, n, "card '%s': no card in the card table matches (rdnacompat cards lists them)", q);
		return -1;
	}
	size_t len = (size_t)snprintf(err, n, "card '%s' matches %zu%s cards:", q, nh, nh == 16 ? "+" : "");
	for (size_t i = 0; i < nh && i < 6 && len < n; i++)
		len += (size_t)snprintf(err + len, n - len, "%s %s (%s)", i ? ";" : "", hits[i]->name,
					hits[i]->target);
	if (len < n)
		snprintf(err + len, n - len, "%s; give the full name or a PCI id", nh > 6 ? "; ..." : "");
	return -1;
}

/* Is s a PCI id as the simulator reads one: hex fields of 4 (or a 1-2
 * digit revision last) separated by ':'? */
static bool looks_pci(const char *s)
{
	size_t field = 0;
	for (const char *p = s;; p++) {
		if (*p == ':' || !*p) {
			if (field == 0 || field > 4)
				return false;
			if (!*p)
				return true;
			field = 0;
		} else if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) {
			field++;
		} else {
			return false;
		}
	}
}

int rdc_sim_check_item(const char *item, char *err, size_t n)
{
	const struct rdc_tables *t = rdc_tables_builtin();
	char target[64];
	const char *at = strchr(item, '@');
	size_t tl = at ? (size_t)(at - item) : strlen(item);
	if (tl >= sizeof target) {
		snprintf(err, n, "'%s': not a target", item);
		return -1;
	}
	memcpy(target, item, tl);
	target[tl] = '\0';
	struct rdc_target dev;
	if (tl && rdc_inspect_resolve_gpu(t, target, NULL, NULL, &dev, err, n) != 1)
		return -1;
	if (!at)
		return tl ? 0 : (snprintf(err, n, "an empty GPU item"), -1);
	const char *card = at + 1;
	/* A PCI id the card table knows; "6700" is hex too, so an unknown
	 * one is read as a name, as the simulator does. */
	if (looks_pci(card) && rdc_inspect_resolve_gpu(t, NULL, NULL, card, &dev, err, n) == 1)
		return 0;
	return rdc_sim_check_card(card, err, n);
}

char *rdc_sim_lib(void)
{
	static const char *const rel[] = { "../sim/librdnacompat-sim.so",
					   "../lib/rdnacompat/sim/librdnacompat-sim.so",
					   RDC_MULTIARCH_REL("rdnacompat/sim/librdnacompat-sim.so"), NULL };
	return rdc_find_shipped("RDNACOMPAT_SIM_LIB", rel);
}

static int write_all(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0644);
	if (fd < 0)
		return -1;
	size_t len = strlen(text);
	ssize_t w = write(fd, text, len);
	int e = errno;
	close(fd);
	errno = e;
	return w == (ssize_t)len ? 0 : -1;
}

int rdc_private_mount_ns(char *err, size_t n)
{
	const char *step = "unshare";
	uid_t uid = getuid();
	gid_t gid = getgid();
	if (unshare(CLONE_NEWNS)) {
		if (errno != EPERM || unshare(CLONE_NEWUSER | CLONE_NEWNS))
			goto fail;
		char map[64];
		step = "uid/gid maps";
		snprintf(map, sizeof map, "0 %u 1\n", (unsigned)uid);
		if (write_all("/proc/self/setgroups", "deny", 0) || write_all("/proc/self/uid_map", map, 0))
			goto fail;
		snprintf(map, sizeof map, "0 %u 1\n", (unsigned)gid);
		if (write_all("/proc/self/gid_map", map, 0))
			goto fail;
	}
	step = "private mounts";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		goto fail;
	return 0;
fail:
	snprintf(err, n, "%s: %s", step, strerror(errno));
	return -1;
}

/* This process (and CMD after exec) moves into a private mount namespace
 * whose /etc/ld.so.preload also names lib.  0, or -1 with the reason in
 * err (the caller falls back to LD_PRELOAD). */
static int preload_namespace(const char *lib, char *err, size_t n)
{
	char tmp[] = "/tmp/rdnacompat-sim-ns.XXXXXX";
	if (!mkdtemp(tmp)) {
		snprintf(err, n, "mkdtemp: %s", strerror(errno));
		return -1;
	}
	const char *step = "namespace";
	bool mounted = false;
	struct rdc_sbuf text = { 0 };
	if (rdc_private_mount_ns(err, n)) {
		rmdir(tmp);
		return -1;
	}
	step = "tmpfs";
	if (mount("rdnacompat-sim", tmp, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0700"))
		goto fail;
	mounted = true;
	char upper[64], work[64], file[96], opts[256];
	snprintf(upper, sizeof upper, "%s/upper", tmp);
	snprintf(work, sizeof work, "%s/work", tmp);
	snprintf(file, sizeof file, "%s/ld.so.preload", upper);
	step = "upper layer";
	if (mkdir(upper, 0755) || mkdir(work, 0755))
		goto fail;
	FILE *old = fopen("/etc/ld.so.preload", "re");
	if (old) {
		char line[4096];
		while (fgets(line, sizeof line, old))
			rdc_sb_add(&text, line);
		fclose(old);
		if (text.s && text.s[0] && text.s[strlen(text.s) - 1] != '\n')
			rdc_sb_add(&text, "\n");
	}
	rdc_sb_printf(&text, "%s\n", lib);
	if (write_all(file, rdc_sb_str(&text), O_CREAT | O_EXCL))
		goto fail;
	step = "overlay on /etc";
	snprintf(opts, sizeof opts, "lowerdir=/etc,upperdir=%s,workdir=%s", upper, work);
	if (mount("overlay", "/etc", "overlay", 0, opts))
		goto fail;
	/* The overlay keeps its layers; the mount point goes. */
	umount2(tmp, MNT_DETACH);
	rmdir(tmp);
	rdc_sb_free(&text);
	return 0;
fail:
	snprintf(err, n, "%s: %s", step, strerror(errno));
	if (mounted)
		umount2(tmp, MNT_DETACH);
	rmdir(tmp);
	rdc_sb_free(&text);
	return -1;
}


int rdc_sim_attach(const char *lib, bool use_ns, const char *who, bool *in_ns)
{
	*in_ns = false;
	if (use_ns) {
		char err[256];
		if (preload_namespace(lib, err, sizeof err) == 0) {
			*in_ns = true;
			return 0;
		}
		fprintf(stderr, "%s: no private /etc/ld.so.preload (%s); the simulator goes first in "
				"LD_PRELOAD instead, which a child that replaces LD_PRELOAD loses\n", who, err);
	}
	const char *old = getenv("LD_PRELOAD");
	struct rdc_sbuf ld = { 0 };
	rdc_sb_printf(&ld, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
	int rc = setenv("LD_PRELOAD", rdc_sb_str(&ld), 1);
	if (rc)
		fprintf(stderr, "%s: setenv LD_PRELOAD: %s\n", who, strerror(errno));
	rdc_sb_free(&ld);
	return rc ? -1 : 0;
}
