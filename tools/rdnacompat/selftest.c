/* SPDX-License-Identifier: MIT */
/*
 * selftest.c — `rdnacompat doctor --selftest` (selftest.h, docs/SIMGPU.md "The self-test"):
 * a fixed set of numeric checks on HIP device 0, through the shim.
 *
 * Each check runs in its own child: this executable re-executed as
 * `rdnacompat doctor --selftest-child CHECK` with librdnacompat.so appended
 * to LD_PRELOAD (found as `rdnacompat run` finds it) and the shim's log in
 * JSON (RDNACOMPAT_LOG_FORMAT=json, RDNACOMPAT_LOG=debug,
 * RDNACOMPAT_LOG_FILE in a temporary directory).  The child writes fixed
 * records to fd RDC_ST_FD (selftest_run.c); its stdout and stderr go to a
 * file whose last line is quoted when it dies.  A child that crashes, or
 * runs past the timeout (then SIGKILL), is a failed check with the reason,
 * never a crash of the tool.  The shim's log says which code object entry it
 * chose for the module the check loaded ("gfx1030 code retargeted to
 * gfx1031").  ggml's own flash-attention test (test-backend-ops), when
 * installed, runs the same way and its OK/FAIL lines are counted.
 *
 * Exit: 0 every check that ran passed, 1 a check failed, 2 the checks could
 * not run (no HIP runtime, hipInit or device 0 failed), 3 no AMD GPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agents.h"
#include "child_io.h"
#include "json_out.h"
#include "selftest.h"
#include "sysinfo.h"
#include "tool_util.h"

#define GGML_TEST "/usr/libexec/x86_64-linux-gnu/ggml/test-backend-ops"
/* One small case that ggml's HIP backend runs with its tile kernel (32 rows). */
#define GGML_FILTER                                                                                          \
	"hsk=64,hsv=64,nh=4,nr23=\\[1,1\\],kv=113,nb=32,mask=1,sinks=0,max_bias=0.000000,"                  \
	"logit_softcap=0.000000,prec=f32,type_K=f16,type_V=f16,permute=\\[0,1,2,3\\]"
#define MAX_RECS 32

struct result {
	struct rdc_st_rec r;
	char check[16];            /* the child that produced it */
	char code[200];            /* the code object it ran from */
};

struct state {
	struct result v[MAX_RECS];
	size_t n;
	char dir[PATH_MAX];        /* temporary directory */
	char exe[PATH_MAX];        /* this executable */
	char *shim;                /* librdnacompat.so, or NULL */
	bool shim_preloaded;       /* already in LD_PRELOAD */
	int timeout_s;
	char hip[120];             /* the HIP runtime the children used */
	char norun[420];           /* why the checks could not run ("" when they could) */
};

static void add(struct state *s, const char *check, const struct rdc_st_rec *r, const char *code)
{
	if (s->n >= MAX_RECS)
		return;
	struct result *x = &s->v[s->n++];
	x->r = *r;
	snprintf(x->check, sizeof x->check, "%s", check);
	snprintf(x->code, sizeof x->code, "%s", code ? code : "");
}

static void add_simple(struct state *s, const char *check, const char *id, enum rdc_st_status st, const char *code,
		       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void add_simple(struct state *s, const char *check, const char *id, enum rdc_st_status st, const char *code,
		       const char *fmt, ...)
{
	struct rdc_st_rec r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id);
	r.status = st;
	r.max_err = NAN;
	r.tol = NAN;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r.detail, sizeof r.detail, fmt, ap);
	va_end(ap);
	add(s, check, &r, code);
}

/* ---- children ---- */

/* The last non-empty line of a file, trimmed ("" when none). */
static void last_line(const char *path, char *out, size_t n)
{
	out[0] = '\0';
	size_t len = 0;
	char *b = rdc_read_file(path, 1u << 20, &len);
	if (!b)
		return;
	while (len && (b[len - 1] == '\n' || b[len - 1] == ' ' || b[len - 1] == '\r'))
		b[--len] = '\0';
	char *p = strrchr(b, '\n');
	p = p ? p + 1 : b;
	/* the engine's and the runtime's loud lines are the useful ones */
	char *sim = strstr(b, "rdnacompat-sim: ");
	if (sim) {
		char *e = strchr(sim, '\n');
		if (e)
			*e = '\0';
		p = sim;
	}
	snprintf(out, n, "%s", p);
	free(b);
}

static char *append_env(const char *name, const char *val)
{
	const char *old = getenv(name);
	struct rdc_sbuf b = { 0 };
	if (old && *old)
		rdc_sb_printf(&b, "%s:", old);
	rdc_sb_add(&b, val);
	return b.s;
}

/* Start argv with the shim set up; stdout+stderr to `out`; records on a pipe
 * (*rfd) when want_pipe.  Returns the pid or -1. */
static pid_t spawn(const struct state *s, char *const argv[], const char *log, const char *out, int *rfd)
{
	int p[2] = { -1, -1 };
	if (rfd && pipe2(p, O_CLOEXEC) != 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		if (rfd) {
			close(p[0]);
			close(p[1]);
		}
		return -1;
	}
	if (pid == 0) {
		if (rfd) {
			close(p[0]);
			if (dup2(p[1], RDC_ST_FD) < 0)
				_exit(127);
		}
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || nul < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || dup2(nul, 0) < 0)
			_exit(127);
		if (s->shim && !s->shim_preloaded) {
			char *pre = append_env("LD_PRELOAD", s->shim);
			setenv("LD_PRELOAD", pre, 1);
		}
		setenv("RDNACOMPAT_LOG_FORMAT", "json", 1);
		setenv("RDNACOMPAT_LOG", "debug", 1);
		setenv("RDNACOMPAT_LOG_FILE", log, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	if (rfd) {
		close(p[1]);
		*rfd = p[0];
	}
	return pid;
}

struct recs {
	struct rdc_st_rec r[MAX_RECS];
	size_t n;
};

static void take_rec(void *ctx, void *rec)
{
	struct recs *rs = ctx;
	struct rdc_st_rec *r = rec;
	r->id[sizeof r->id - 1] = r->detail[sizeof r->detail - 1] = r->err_kind[sizeof r->err_kind - 1] = '\0';
	if (rs->n < MAX_RECS)
		rs->r[rs->n++] = *r;
}

static void run_check(struct state *s, const char *name)
{
	char log[PATH_MAX + 32], out[PATH_MAX + 32];
	snprintf(log, sizeof log, "%s/%s.log", s->dir, name);
	snprintf(out, sizeof out, "%s/%s.out", s->dir, name);
	char *argv[] = { s->exe, "doctor", "--selftest-child", (char *)name, NULL };
	int rfd = -1;
	pid_t pid = spawn(s, argv, log, out, &rfd);
	if (pid < 0) {
		add_simple(s, name, name, RDC_ST_FAIL, NULL, "could not start the check's process: %s", strerror(errno));
		return;
	}
	time_t end = time(NULL) + s->timeout_s;
	struct recs rs = { .n = 0 };
	struct rdc_st_rec r;
	rdc_child_records(rfd, end, &r, sizeof r, take_rec, &rs);
	close(rfd);
	bool hung;
	int st = rdc_child_reap(pid, end, &hung);
	char code[200];
	rdc_st_code_from_log(log, s->shim || s->shim_preloaded, code, sizeof code);
	for (size_t i = 0; i < rs.n; i++) {
		const struct rdc_st_rec *rec = &rs.r[i];
		if (!strcmp(rec->id, "hip")) {
			if (!*s->hip) /* the first: the HIP the system resolves (rocBLAS's may differ) */
				snprintf(s->hip, sizeof s->hip, "%s", rec->detail);
			continue;
		}
		add(s, name, rec, rec->status == RDC_ST_SKIP ? "" : code);
	}
	char last[300]; /* the quoted line, cut to fit a record */
	last_line(out, last, sizeof last);
	if (hung) {
		add_simple(s, name, name, RDC_ST_FAIL, code, "did not finish in %d s (killed)%s%s", s->timeout_s,
			   *last ? ": " : "", last);
	} else if (WIFSIGNALED(st)) {
		add_simple(s, name, name, RDC_ST_FAIL, code, "the check's process died of signal %d (%s)%s%s",
			   WTERMSIG(st), strsignal(WTERMSIG(st)), *last ? ": " : "", last);
	} else if (WEXITSTATUS(st) == RDC_ST_EXIT_NOHIP) {
		snprintf(s->norun, sizeof s->norun, "no HIP runtime could be loaded (libamdhip64.so, .so.7, .so.6, .so.5)");
	} else if (WEXITSTATUS(st) == RDC_ST_EXIT_NOINIT) {
		snprintf(s->norun, sizeof s->norun, "HIP found no usable GPU (hipInit, hipGetDeviceCount or hipSetDevice(0) failed)%s%s",
			 *last ? ": " : "", last);
	} else if (WEXITSTATUS(st) != 0) {
		add_simple(s, name, name, RDC_ST_FAIL, code, "the check's process exited %d%s%s", WEXITSTATUS(st),
			   *last ? ": " : "", last);
	} else if (!rs.n) {
		add_simple(s, name, name, RDC_ST_FAIL, code, "the check's process reported nothing");
	}
}

/* ggml's own test: test-backend-ops -o FLASH_ATTN_EXT -b ROCm0 -p FILTER. */
static void run_ggml(struct state *s)
{
	const char *id = "ggml-fattn";
	if (access(GGML_TEST, X_OK) != 0) {
		add_simple(s, "ggml", id, RDC_ST_SKIP, NULL, "ggml's test-backend-ops is not installed (%s)", GGML_TEST);
		return;
	}
	char log[PATH_MAX + 32], out[PATH_MAX + 32];
	snprintf(log, sizeof log, "%s/ggml.log", s->dir);
	snprintf(out, sizeof out, "%s/ggml.out", s->dir);
	char *argv[] = { GGML_TEST, "-o", "FLASH_ATTN_EXT", "-b", "ROCm0", "-p", GGML_FILTER, NULL };
	pid_t pid = spawn(s, argv, log, out, NULL);
	if (pid < 0) {
		add_simple(s, "ggml", id, RDC_ST_FAIL, NULL, "could not start %s: %s", GGML_TEST, strerror(errno));
		return;
	}
	bool hung;
	int st = rdc_child_reap(pid, time(NULL) + s->timeout_s, &hung);
	char code[200];
	rdc_st_code_from_log(log, s->shim || s->shim_preloaded, code, sizeof code);
	/* Case lines: "  FLASH_ATTN_EXT(...): OK" / "...: FAIL" (colour codes around the word). */
	unsigned ok = 0, bad = 0;
	char firstbad[160] = "";
	double nmse = NAN;
	FILE *f = fopen(out, "r");
	char line[16384];
	while (f && fgets(line, sizeof line, f)) {
		const char *c = strstr(line, "FLASH_ATTN_EXT(");
		const char *e = strstr(line, "NMSE = ");
		if (e) {
			double v = strtod(e + 7, NULL);
			if (isnan(nmse) || v > nmse)
				nmse = v;
		}
		if (!c || !strstr(line, "):"))
			continue;
		const char *tail = strrchr(line, ':');
		if (strstr(tail, "OK"))
			ok++;
		else if (strstr(tail, "FAIL")) {
			bad++;
			if (!*firstbad)
				snprintf(firstbad, sizeof firstbad, "%.*s", (int)strcspn(c, ":"), c);
		}
	}
	if (f)
		fclose(f);
	char last[300]; /* the quoted line, cut to fit a record */
	last_line(out, last, sizeof last);
	struct rdc_st_rec r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id);
	r.max_err = nmse;
	r.tol = NAN;
	snprintf(r.err_kind, sizeof r.err_kind, "nmse");
	if (hung) {
		r.status = RDC_ST_FAIL;
		snprintf(r.detail, sizeof r.detail, "ggml's own test did not finish in %d s (killed)", s->timeout_s);
	} else if (WIFSIGNALED(st)) {
		r.status = RDC_ST_FAIL;
		snprintf(r.detail, sizeof r.detail, "ggml's own test died of signal %d%s%s", WTERMSIG(st),
			 *last ? ": " : "", last);
	} else if (bad) {
		r.status = RDC_ST_FAIL;
		snprintf(r.detail, sizeof r.detail, "ggml's own test: %u of %u cases FAIL (first: %s)", bad, ok + bad,
			 firstbad);
	} else if (WEXITSTATUS(st) != 0) {
		r.status = RDC_ST_FAIL;
		snprintf(r.detail, sizeof r.detail, "ggml's own test exited %d%s%s", WEXITSTATUS(st), *last ? ": " : "",
			 last);
	} else if (!ok) {
		r.status = RDC_ST_SKIP;
		snprintf(r.detail, sizeof r.detail, "ggml's own test ran no case matching its filter (this ggml names "
			 "its flash-attention cases differently)");
	} else {
		r.status = RDC_ST_PASS;
		snprintf(r.detail, sizeof r.detail, "ggml's own test: test-backend-ops -o FLASH_ATTN_EXT -b ROCm0, "
			 "%u case%s OK (hsk=hsv=64, 4 heads, 113 keys, 32 rows, mask, f16 K/V)", ok, ok == 1 ? "" : "s");
	}
	add(s, "ggml", &r, r.status == RDC_ST_SKIP ? "" : code);
}

/* ---- output ---- */

static const char *status_name(int st)
{
	switch (st) {
	case RDC_ST_PASS: return "pass";
	case RDC_ST_FAIL: return "fail";
	case RDC_ST_SKIP: return "skip";
	default: return "not-run";
	}
}

static void fmt_err(const struct rdc_st_rec *r, char *out, size_t n)
{
	if (isnan(r->max_err))
		snprintf(out, n, "-");
	else if (!strcmp(r->err_kind, "count"))
		snprintf(out, n, "%.0f wrong", r->max_err);
	else if (isnan(r->tol))
		snprintf(out, n, "%s %.3g", r->err_kind, r->max_err);
	else
		snprintf(out, n, "%s %.3g (tol %.3g)", r->err_kind, r->max_err, r->tol);
}

static void print_text(const struct state *s, const char *card, bool simulated, int rc)
{
	printf("self-test on HIP device 0: %s%s\n", card, simulated ? " — simulated card (executed)" : "");
	printf("  shim: %s\n", s->shim_preloaded ? "already in LD_PRELOAD" : s->shim ? s->shim : "not found (checks run without it)");
	if (*s->hip)
		printf("  HIP:  %s\n", s->hip);
	if (*s->norun)
		printf("  could not run: %s\n", s->norun);
	size_t np = 0, nf = 0, ns = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct result *x = &s->v[i];
		char e[64];
		fmt_err(&x->r, e, sizeof e);
		np += x->r.status == RDC_ST_PASS;
		nf += x->r.status == RDC_ST_FAIL;
		ns += x->r.status == RDC_ST_SKIP;
		static const char *const word[] = { "pass", "FAIL", "skip", "n/a" };
		printf("%-5s %-14s %-26s %s\n", word[x->r.status >= 0 && x->r.status <= RDC_ST_NORUN ? x->r.status : RDC_ST_NORUN],
		       x->r.id, e, x->r.detail);
		if (*x->code)
			printf("      %-14s ran from: %s\n", "", x->code);
	}
	printf("\n%zu passed, %zu failed, %zu skipped%s (exit %d)\n", np, nf, ns, *s->norun ? ", the rest not run" : "", rc);
}

static void print_json(const struct state *s, const char *card, bool simulated, int rc)
{
	struct rdc_json j;
	rdc_json_init(&j, stdout);
	rdc_json_obj(&j);
	rdc_json_key(&j, "exit");
	rdc_json_i64(&j, rc);
	rdc_json_key(&j, "device");
	rdc_json_str(&j, card);
	rdc_json_key(&j, "simulated");
	rdc_json_bool(&j, simulated);
	rdc_json_key(&j, "shim");
	rdc_json_str(&j, s->shim_preloaded ? "LD_PRELOAD" : s->shim);
	rdc_json_key(&j, "hip");
	rdc_json_str(&j, *s->hip ? s->hip : NULL);
	rdc_json_key(&j, "could_not_run");
	rdc_json_str(&j, *s->norun ? s->norun : NULL);
	rdc_json_key(&j, "checks");
	rdc_json_arr(&j);
	for (size_t i = 0; i < s->n; i++) {
		const struct result *x = &s->v[i];
		rdc_json_obj(&j);
		rdc_json_key(&j, "id");
		rdc_json_str(&j, x->r.id);
		rdc_json_key(&j, "status");
		rdc_json_str(&j, status_name(x->r.status));
		rdc_json_key(&j, "max_error");
		rdc_json_f64(&j, x->r.max_err);
		rdc_json_key(&j, "tolerance");
		rdc_json_f64(&j, x->r.tol);
		rdc_json_key(&j, "error_kind");
		rdc_json_str(&j, *x->r.err_kind ? x->r.err_kind : NULL);
		rdc_json_key(&j, "detail");
		rdc_json_str(&j, x->r.detail);
		rdc_json_key(&j, "code_object");
		rdc_json_str(&j, *x->code ? x->code : NULL);
		rdc_json_obj_end(&j);
	}
	rdc_json_arr_end(&j);
	rdc_json_obj_end(&j);
	rdc_json_end(&j);
}

static void rm_dir(const char *dir)
{
	static const char *const ext[] = { "log", "out", NULL };
	char p[PATH_MAX + 48];
	for (int i = 0; rdc_st_checks[i]; i++)
		for (int k = 0; ext[k]; k++) {
			snprintf(p, sizeof p, "%s/%s.%s", dir, rdc_st_checks[i], ext[k]);
			unlink(p);
		}
	for (int k = 0; ext[k]; k++) {
		snprintf(p, sizeof p, "%s/ggml.%s", dir, ext[k]);
		unlink(p);
	}
	rmdir(dir);
}

/* RDNACOMPAT_SELFTEST_ONLY=saxpy,intops (for testing): run only these
 * checks (the names of rdc_st_checks and "ggml"). */
static bool selected(const char *name)
{
	const char *only = getenv("RDNACOMPAT_SELFTEST_ONLY");
	if (!only || !*only)
		return true;
	size_t n = strlen(name);
	for (const char *p = only; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

int rdc_selftest_main(bool json)
{
	static struct state s;
	memset(&s, 0, sizeof s);
	const char *to = getenv("RDNACOMPAT_SELFTEST_TIMEOUT");
	s.timeout_s = to && atoi(to) > 0 ? atoi(to) : 300;

	/* Which GPU: /sys, else the runtime (a simulated card). */
	const struct rdc_tables *t = rdc_tables_builtin();
	struct rdc_sysinfo si;
	rdc_sys_scan(&si, NULL, NULL, t);
	char why[160] = "";
	if (!si.n_gpus)
		rdc_sys_add_runtime_gpus(&si, t, why, sizeof why);
	if (!si.n_gpus) {
		rdc_sys_free(&si);
		if (json)
			printf("{\"exit\":3,\"no_amd_gpu\":true,\"checks\":[]}\n");
		else
			printf("self-test: no AMD GPU on this machine%s%s%s (exit 3)\n", *why ? " (" : "", why,
			       *why ? ")" : "");
		return 3;
	}
	const struct rdc_gpu *g = &si.gpus[0];
	for (size_t i = 0; i < si.n_gpus; i++)
		if (si.gpus[i].hip_index == 0)
			g = &si.gpus[i];
	char card[160];
	snprintf(card, sizeof card, "%s%s%s%s", g->target[0] ? g->target : "unknown target", g->card ? " (" : "",
		 g->card ? g->card->name : "", g->card ? ")" : "");
	const char *simenv = getenv("RDNACOMPAT_SIM_GPUS");
	bool simulated = g->from_runtime && simenv && *simenv;
	rdc_sys_free(&si);

	ssize_t k = readlink("/proc/self/exe", s.exe, sizeof s.exe - 1);
	if (k <= 0) {
		fprintf(stderr, "rdnacompat doctor --selftest: cannot find this executable: %s\n", strerror(errno));
		return 2;
	}
	s.exe[k] = '\0';
	const char *pre = getenv("LD_PRELOAD");
	s.shim_preloaded = pre && strstr(pre, "librdnacompat.so");
	if (!s.shim_preloaded)
		s.shim = rdc_shim_path();
	const char *tmp = getenv("TMPDIR");
	snprintf(s.dir, sizeof s.dir, "%s/rdnacompat-selftest.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s.dir)) {
		fprintf(stderr, "rdnacompat doctor --selftest: %s: %s\n", s.dir, strerror(errno));
		free(s.shim);
		return 2;
	}
	for (int i = 0; rdc_st_checks[i] && !*s.norun; i++)
		if (selected(rdc_st_checks[i]))
			run_check(&s, rdc_st_checks[i]);
	if (!*s.norun && selected("ggml"))
		run_ggml(&s);
	if (*s.norun) /* every check is listed, none silently missing */
		for (int i = 0; rdc_st_checks[i]; i++) {
			bool has = false;
			for (size_t k = 0; k < s.n; k++)
				has |= !strcmp(s.v[k].check, rdc_st_checks[i]);
			if (!has && selected(rdc_st_checks[i]))
				add_simple(&s, rdc_st_checks[i], rdc_st_checks[i], RDC_ST_NORUN, NULL,
					   "not run: HIP is unusable here (above)");
		}
	if (*s.norun && selected("ggml"))
		add_simple(&s, "ggml", "ggml-fattn", RDC_ST_NORUN, NULL, "not run: HIP is unusable here (above)");
	if (!getenv("RDNACOMPAT_SELFTEST_KEEP"))
		rm_dir(s.dir);
	else
		fprintf(stderr, "rdnacompat doctor --selftest: logs kept in %s\n", s.dir);

	int rc = *s.norun ? 2 : 0;
	for (size_t i = 0; i < s.n; i++)
		if (s.v[i].r.status == RDC_ST_FAIL)
			rc = 1;
	if (json)
		print_json(&s, card, simulated, rc);
	else
		print_text(&s, card, simulated, rc);
	free(s.shim);
	return rc;
}
