/* SPDX-License-Identifier: MIT */
/*
 * run_env.c — builds the shim's environment for a child program (see
 * run_env.h) and execs it: the part that needs only libc and the core's
 * rdc_open_file, linked by the tool and by the front end (tools/front/).
 * A simulated --gpu is run_setup.c's.
 */
#include "run_env.h"

#include "rdnacompat/fileopen.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tool_util.h"

static bool valid_mode(const char *m)
{
	return !strcmp(m, "map") || !strcmp(m, "spoof") || !strcmp(m, "audit") || !strcmp(m, "off");
}

int rdc_run_parse_opt(struct rdc_run_opts *o, int argc, char **argv, int *i)
{
	static const char *const names[] = { "--gpu", "--mode", "--log", "--log-level", "--log-format",
					     "--shim", "--device", NULL };
	const char *a = argv[*i];
	int which = -1;
	const char *val = NULL;
	for (int k = 0; names[k]; k++) {
		size_t n = strlen(names[k]);
		if (!strcmp(a, names[k])) {
			if (*i + 1 >= argc)
				return -1;
			val = argv[++*i];
			which = k;
			break;
		}
		if (!strncmp(a, names[k], n) && a[n] == '=') {
			val = a + n + 1;
			which = k;
			break;
		}
	}
	switch (which) {
	case 0: o->gpu = val; return 1;
	case 1: o->mode = val; return 1;
	case 2: o->log_file = val; return 1;
	case 3: o->log_level = val; return 1;
	case 4: o->log_format = val; return 1;
	case 5: o->shim = val; return 1;
	case 6:
		if (o->n_devices < 16)
			o->devices[o->n_devices++] = val;
		return 1;
	default:
		if (!strcmp(a, "--view-arch-files")) {
			o->view = "";
			return 1;
		}
		if (!strncmp(a, "--view-arch-files=", 18)) {
			o->view = a + 18;
			return 1;
		}
		if (!strcmp(a, "--json-log")) {
			o->log_format = "json";
			return 1;
		}
		return 0;
	}
}

int rdc_run_parse_args(struct rdc_run_opts *o, int argc, char **argv, char *why, size_t n)
{
	int i = 1;
	for (; i < argc; i++) {
		if (rdc_is_help(argv[i]))
			return RDC_RUN_HELP;
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		int r = rdc_run_parse_opt(o, argc, argv, &i);
		if (r == 1)
			continue;
		if (r < 0 || argv[i][0] == '-') {
			snprintf(why, n, "%s '%s'", r < 0 ? "missing value for" : "unknown option", argv[i]);
			return RDC_RUN_BAD;
		}
		break; /* CMD without "--" */
	}
	if (i >= argc) {
		snprintf(why, n, "no command given");
		return RDC_RUN_BAD;
	}
	return i;
}

static void setenv_or_die(const char *k, const char *v)
{
	if (setenv(k, v, 1) != 0) {
		fprintf(stderr, "rdnacompat: setenv %s: %s\n", k, strerror(errno));
		exit(70);
	}
}

/* Is `path` a 64-bit ELF shared object (what ld.so can preload)?  Else a
 * sentence in why: ld.so would only warn and run the program without it. */
static bool preloadable(const char *path, char *why, size_t n)
{
	struct rdc_diag d = { 0 };
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, &d);
	if (fd < 0) {
		snprintf(why, n, "%s", d.msg);
		return false;
	}
	Elf64_Ehdr h;
	ssize_t got = pread(fd, &h, sizeof h, 0);
	bool interp = false;
	/* The program headers a few dozen at a time (one pread for a usual
	 * library: this is on the path of every `rdnacompat run`). */
	if (got == (ssize_t)sizeof h && h.e_phentsize == sizeof(Elf64_Phdr) && h.e_phnum < 256)
		for (unsigned i = 0; i < h.e_phnum;) {
			Elf64_Phdr ph[32];
			unsigned want = h.e_phnum - i < 32 ? h.e_phnum - i : 32;
			ssize_t r = pread(fd, ph, want * sizeof ph[0], (off_t)(h.e_phoff + i * sizeof ph[0]));
			unsigned have = r > 0 ? (unsigned)((size_t)r / sizeof ph[0]) : 0;
			for (unsigned k = 0; k < have; k++)
				interp |= ph[k].p_type == PT_INTERP;
			if (have < want)
				break;
			i += have;
		}
	close(fd);
	if (got != (ssize_t)sizeof h || memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 ||
	    h.e_ident[EI_CLASS] != ELFCLASS64) {
		snprintf(why, n, "%s is not a 64-bit ELF file", path);
		return false;
	}
	if (h.e_type != ET_DYN || interp) {
		snprintf(why, n, "%s is not a shared library%s", path, interp ? " (a program)" : "");
		return false;
	}
	return true;
}

int rdc_run_setup_base(const struct rdc_run_opts *o)
{
	char *shim = o->shim ? realpath(o->shim, NULL) : rdc_shim_path();
	if (!shim) {
		fprintf(stderr, "rdnacompat: librdnacompat.so not found%s%s (looked beside the tool: "
				"../librdnacompat.so, ../lib/librdnacompat.so; or set RDNACOMPAT_SHIM)\n",
			o->shim ? " at " : "", o->shim ? o->shim : "");
		return -1;
	}
	char why[512];
	if (!preloadable(shim, why, sizeof why)) {
		fprintf(stderr, "rdnacompat: --shim: %s; the program would run without the shim\n", why);
		free(shim);
		return -1;
	}
	const char *pre = getenv("LD_PRELOAD");
	if (!pre || !strstr(pre, shim)) {
		struct rdc_sbuf b = { 0 };
		if (pre && *pre)
			rdc_sb_printf(&b, "%s:", pre);
		rdc_sb_add(&b, shim);
		setenv_or_die("LD_PRELOAD", b.s);
		rdc_sb_free(&b);
	}
	free(shim);
	if (o->mode) {
		if (!valid_mode(o->mode)) {
			fprintf(stderr, "rdnacompat: --mode %s: expected map, spoof, audit or off\n", o->mode);
			return -1;
		}
		setenv_or_die("RDNACOMPAT_MODE", o->mode);
	}
	for (int i = 0; i < o->n_devices; i++) {
		char *end;
		long n = strtol(o->devices[i], &end, 10);
		if (end == o->devices[i] || *end != '=' || n < 0 || n > 63 || !valid_mode(end + 1)) {
			fprintf(stderr, "rdnacompat: --device %s: expected N=MODE (e.g. 1=off)\n", o->devices[i]);
			return -1;
		}
		char name[40];
		snprintf(name, sizeof name, "RDNACOMPAT_DEVICE_%ld", n);
		setenv_or_die(name, end + 1);
	}
	if (o->log_file) {
		/* Absolute, since the program may change directory. */
		char *abs = NULL;
		if (o->log_file[0] != '/') {
			char cwd[4096];
			if (getcwd(cwd, sizeof cwd)) {
				struct rdc_sbuf b = { 0 };
				rdc_sb_printf(&b, "%s/%s", cwd, o->log_file);
				abs = b.s;
			}
		}
		setenv_or_die("RDNACOMPAT_LOG_FILE", abs ? abs : o->log_file);
		free(abs);
	}
	if (o->log_level) {
		const char *l = o->log_level;
		if (strcmp(l, "error") && strcmp(l, "warn") && strcmp(l, "info") && strcmp(l, "debug")) {
			fprintf(stderr, "rdnacompat: --log-level %s: expected error, warn, info or debug\n", l);
			return -1;
		}
		setenv_or_die("RDNACOMPAT_LOG", l);
	}
	if (o->log_format) {
		if (strcmp(o->log_format, "text") && strcmp(o->log_format, "json")) {
			fprintf(stderr, "rdnacompat: --log-format %s: expected text or json\n", o->log_format);
			return -1;
		}
		setenv_or_die("RDNACOMPAT_LOG_FORMAT", o->log_format);
	}
	if (o->gpu && !rdc_run_gpu_simulated(o->gpu))
		setenv_or_die("HIP_VISIBLE_DEVICES", o->gpu);
	return 0;
}

bool rdc_run_gpu_simulated(const char *gpu)
{
	for (const char *p = gpu; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != ',')
			return true;
	return !*gpu;
}

void rdc_run_warn_override(void)
{
	if (getenv("HSA_OVERRIDE_GFX_VERSION"))
		fprintf(stderr, "rdnacompat: warning: HSA_OVERRIDE_GFX_VERSION is set: the runtime then reports "
				"the overridden target and the shim cannot see the real one; unset it\n");
}

int rdc_run_exec(char **argv)
{
	fflush(NULL);
	execvp(argv[0], argv);
	int e = errno;
	fprintf(stderr, "rdnacompat: cannot run %s: %s\n", argv[0], strerror(e));
	return e == ENOENT ? 127 : 126;
}
