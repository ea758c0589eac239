/* SPDX-License-Identifier: MIT */
/*
 * cmd_sim.c — `rdnacompat sim --gpu TARGET [--gpu TARGET ...] [--card NAME |
 * --pci ID] -- CMD [ARGS]`: run CMD on simulated AMD GPUs.  Sets
 * RDNACOMPAT_SIM_GPUS (and RDNACOMPAT_SIM_TRACE / _VERBOSE) and puts the
 * simulator (librdnacompat-sim.so, which emulates /dev/kfd, the render nodes
 * and sysfs) into every process CMD starts, then execs CMD.
 *
 * How: CMD runs in a private mount namespace (a user namespace too when we
 * are not root) whose /etc is an overlay of the real one with an
 * /etc/ld.so.preload that names the simulator (after what the real one
 * names, if anything).  The dynamic loader reads that file at every exec,
 * so every process under CMD gets the simulator, whatever it does with
 * LD_PRELOAD (`sim -- env LD_PRELOAD=librdnacompat.so prog` keeps the
 * card), and LD_PRELOAD stays the user's.  The overlay's upper layer is a
 * tmpfs private to the namespace; nothing is written to the host.  Where
 * namespaces cannot be made (a restricted container), or with
 * RDNACOMPAT_SIM_NAMESPACE=0, the simulator goes first in LD_PRELOAD
 * instead (said on stderr), which a child that replaces LD_PRELOAD loses.
 * The simulator is docs/SIMGPU.md; kernels are not executed.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "inspect_gpu.h"
#include "tool_util.h"

#define MAX_GPUS 8

/* Is q one of the card's names ("; "-separated), with or without "AMD
 * Radeon "?  The simulator's config.c applies the same rule. */
static bool name_is(const char *names, const char *q)
{
	size_t lq = strlen(q);
	for (const char *p = names; p && *p;) {
		const char *end = strstr(p, "; ");
		size_t l = end ? (size_t)(end - p) : strlen(p);
		if ((l == lq && !strncasecmp(p, q, l)) ||
		    (l > lq && p[l - lq - 1] == ' ' && !strncasecmp(p + l - lq, q, lq)))
			return true;
		p = end ? end + 2 : NULL;
	}
	return false;
}

/* --card NAME: a card whose name it is, or the only match; 0 or -1 with
 * the reason on stderr (no match; several and none by that name: refused,
 * never resolved silently). */
static int check_card(const struct rdc_tables *t, const char *q)
{
	const struct rdc_card *hits[16];
	size_t n = rdc_card_search(t, q, hits, 16);
	for (size_t i = 0; i < n; i++)
		if (name_is(hits[i]->name, q))
			return 0;
	if (n == 1)
		return 0;
	if (n == 0) {
		fprintf(stderr, "rdnacompat sim: --card '%s': no card in the card table matches "
				"(rdnacompat cards lists them)\n", q);
		return -1;
	}
	fprintf(stderr, "rdnacompat sim: --card '%s' matches %zu%s cards:", q, n, n == 16 ? "+" : "");
	for (size_t i = 0; i < n && i < 6; i++)
		fprintf(stderr, "%s %s (%s)", i ? ";" : "", hits[i]->name, hits[i]->target);
	fprintf(stderr, "%s; give the full name or --pci\n", n > 6 ? "; ..." : "");
	return -1;
}

/* Every --gpu, --card and --pci, as the card table and the target list
 * know them: 0, or -1 with the reason on stderr. */
static int check_gpus(int n, const char *const *gpus, const char *const *cards, const bool *is_pci)
{
	const struct rdc_tables *t = rdc_tables_builtin();
	for (int k = 0; k < n; k++) {
		struct rdc_target dev;
		char err[512];
		if (gpus[k][0] && rdc_inspect_resolve_gpu(t, gpus[k], NULL, NULL, &dev, err, sizeof err) != 1) {
			fprintf(stderr, "rdnacompat sim: %s\n", err);
			return -1;
		}
		if (!cards[k])
			continue;
		if (is_pci[k]) {
			if (rdc_inspect_resolve_gpu(t, NULL, NULL, cards[k], &dev, err, sizeof err) != 1) {
				fprintf(stderr, "rdnacompat sim: %s\n", err);
				return -1;
			}
		} else if (check_card(t, cards[k])) {
			return -1;
		}
	}
	return 0;
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
	const char *step = "unshare";
	uid_t uid = getuid();
	gid_t gid = getgid();
	bool mounted = false;
	struct rdc_sbuf text = { 0 };
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

static void usage(FILE *f)
{
	fputs("usage: rdnacompat sim [--gpu TARGET [--card NAME | --pci ID]]... [OPTIONS] -- CMD [ARGS...]\n"
	      "\n"
	      "Runs CMD with Debian's real ROCm stack (ROCR, HIP, rocminfo, ROCm libraries)\n"
	      "seeing simulated AMD GPUs: a test-only preloaded library that emulates /dev/kfd,\n"
	      "the render nodes and the sysfs topology below the real thunk.\n"
	      "KERNELS ARE NOT EXECUTED: dispatches are retired (and traced), so kernel results are\n"
	      "garbage; memory copies (SDMA) really move bytes.  For testing code-object selection,\n"
	      "HSA_OVERRIDE_GFX_VERSION and the shim without an AMD GPU.  See docs/SIMGPU.md.\n"
	      "\n"
	      "  --gpu TARGET     add a simulated GPU (gfx1030, gfx1031, ...; repeat for more;\n"
	      "                   default: one gfx1031).  ROCR 5.2.3 knows gfx1030-gfx1035, not gfx11.\n"
	      "  --card NAME      card of the last --gpu by name ('RX 6700 XT', tables/cards.tsv):\n"
	      "                   marketing name, PCI id, CU count, VRAM.  Without a --gpu of its own\n"
	      "                   it adds a GPU of the card's own target\n"
	      "  --pci ID         same by PCI id: 73df, 1002:73df, 73df:c1 (with the PCI revision)\n"
	      "  --trace FILE     one JSON line per kernel dispatch (RDNACOMPAT_SIM_TRACE)\n"
	      "  --verbose        log queues and dispatches on stderr (RDNACOMPAT_SIM_VERBOSE=1)\n"
	      "  --print-env      print the environment that would be set, do not run CMD\n"
	      "  (HSA_OVERRIDE_GFX_VERSION[_<node>] in the environment is honoured like the real thunk.)\n"
	      "\n"
	      "The simulator is sim/librdnacompat-sim.so beside the tool's directory (build tree),\n"
	      "../lib/rdnacompat/sim/ when installed, or RDNACOMPAT_SIM_LIB.\n"
	      "\n"
	      "exit: CMD's exit status (exec replaces this process); 2 usage or setup error,\n"
	      "126 CMD cannot be executed, 127 CMD not found\n",
	      f);
}

static char *sim_lib(void)
{
	static const char *const rel[] = { "../sim/librdnacompat-sim.so",
					   "../lib/rdnacompat/sim/librdnacompat-sim.so", NULL };
	return rdc_find_shipped("RDNACOMPAT_SIM_LIB", rel);
}

static int set(const char *k, const char *v, bool print)
{
	if (print) {
		printf("%s=%s\n", k, v);
		return 0;
	}
	if (setenv(k, v, 1)) {
		fprintf(stderr, "rdnacompat sim: setenv %s: %s\n", k, strerror(errno));
		return -1;
	}
	return 0;
}

int rdc_cmd_sim(int argc, char **argv)
{
	const char *gpus[MAX_GPUS], *cards[MAX_GPUS];
	bool is_pci[MAX_GPUS] = { false };
	int n = 0;
	const char *trace = NULL;
	bool verbose = false, print = false;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (rdc_is_help(a)) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		bool takes = !strcmp(a, "--gpu") || !strcmp(a, "--card") || !strcmp(a, "--pci") ||
			     !strcmp(a, "--trace");
		if (takes && i + 1 >= argc) {
			fprintf(stderr, "rdnacompat sim: missing value for '%s'\n", a);
			return 2;
		}
		if (!strcmp(a, "--gpu") || ((!strcmp(a, "--card") || !strcmp(a, "--pci")) &&
					    (n == 0 || cards[n - 1]))) {
			if (n == MAX_GPUS) {
				fprintf(stderr, "rdnacompat sim: at most %d GPUs\n", MAX_GPUS);
				return 2;
			}
			gpus[n] = "";
			cards[n] = NULL;
			n++;
			if (!strcmp(a, "--gpu")) {
				gpus[n - 1] = argv[++i];
				if (strchr(gpus[n - 1], ',')) {
					fprintf(stderr, "rdnacompat sim: one target per --gpu\n");
					return 2;
				}
				continue;
			}
		}
		if (!strcmp(a, "--card") || !strcmp(a, "--pci")) {
			is_pci[n - 1] = !strcmp(a, "--pci");
			cards[n - 1] = argv[++i];
			if (strchr(cards[n - 1], ',')) {
				fprintf(stderr, "rdnacompat sim: ',' is not allowed in a card name\n");
				return 2;
			}
		} else if (!strcmp(a, "--trace")) {
			trace = argv[++i];
		} else if (!strcmp(a, "--verbose")) {
			verbose = true;
		} else if (!strcmp(a, "--print-env")) {
			print = true;
		} else if (a[0] == '-') {
			fprintf(stderr, "rdnacompat sim: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else {
			break; /* CMD without "--" */
		}
	}
	if (i >= argc && !print) {
		fprintf(stderr, "rdnacompat sim: no command given\n");
		usage(stderr);
		return 2;
	}
	if (check_gpus(n, gpus, cards, is_pci))
		return 2;
	struct rdc_sbuf spec = { 0 };
	for (int k = 0; k < n; k++) {
		if (k)
			rdc_sb_add(&spec, ",");
		rdc_sb_add(&spec, gpus[k]);
		if (cards[k]) {
			rdc_sb_add(&spec, "@");
			rdc_sb_add(&spec, cards[k]);
		}
	}
	if (n == 0)
		rdc_sb_add(&spec, "gfx1031");
	char *dir = sim_lib();
	if (!dir) {
		fprintf(stderr, "rdnacompat sim: the simulator (sim/librdnacompat-sim.so) was not found beside "
				"the tool; build it (make) or set RDNACOMPAT_SIM_LIB\n");
		rdc_sb_free(&spec);
		return 2;
	}
	struct rdc_sbuf ld = { 0 };
	const char *nsenv = getenv("RDNACOMPAT_SIM_NAMESPACE");
	bool use_ns = !(nsenv && !strcmp(nsenv, "0"));
	if (use_ns && !print) {
		char err[256];
		if (preload_namespace(dir, err, sizeof err)) {
			fprintf(stderr, "rdnacompat sim: no private /etc/ld.so.preload (%s); the simulator "
					"goes first in LD_PRELOAD instead, which a child that replaces "
					"LD_PRELOAD loses\n", err);
			use_ns = false;
		}
	}
	if (print && use_ns)
		printf("# /etc/ld.so.preload (private mount namespace) adds %s\n", dir);
	/* Without the namespace: the simulator first in LD_PRELOAD. */
	const char *old = getenv("LD_PRELOAD");
	rdc_sb_printf(&ld, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
	char *abs_trace = NULL;
	if (trace && trace[0] != '/') {
		char cwd[4096];
		if (getcwd(cwd, sizeof cwd)) {
			struct rdc_sbuf t = { 0 };
			rdc_sb_printf(&t, "%s/%s", cwd, trace);
			abs_trace = t.s;
		}
	}
	int rc = set("RDNACOMPAT_SIM_GPUS", rdc_sb_str(&spec), print) ||
		 (!use_ns && set("LD_PRELOAD", rdc_sb_str(&ld), print)) ||
		 (trace && set("RDNACOMPAT_SIM_TRACE", abs_trace ? abs_trace : trace, print)) ||
		 (verbose && set("RDNACOMPAT_SIM_VERBOSE", "1", print));
	free(abs_trace);
	free(dir);
	rdc_sb_free(&spec);
	rdc_sb_free(&ld);
	if (rc)
		return 2;
	if (print)
		return 0;
	execvp(argv[i], argv + i);
	int e = errno;
	fprintf(stderr, "rdnacompat sim: cannot run '%s': %s\n", argv[i], strerror(e));
	return e == ENOENT ? 127 : 126;
}
