/* SPDX-License-Identifier: MIT */
/*
 * cmd_doctor.c — `rdnacompat doctor`: checks this machine's AMD GPUs, driver
 * nodes, permissions, ROCm/PyTorch versions and the environment variables
 * that change what ROCm sees, one line each with a fix (checks: doctor.c,
 * facts: sysinfo.c).
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "db_lookup.h"
#include "agents.h"
#include "doctor.h"
#include "json_out.h"
#include "selftest.h"
#include "tool_util.h"

static void usage(FILE *f)
{
	fputs("usage: rdnacompat doctor [--json | --libs] [--root DIR] [--user NAME]\n"
	      "       rdnacompat doctor --selftest [--json]\n"
	      "\n"
	      "Checks: AMD GPUs (PCI id -> card table -> gfx target, official status; KFD\n"
	      "topology gfx_target_version; never the runtime, which HSA_OVERRIDE_GFX_VERSION\n"
	      "changes), the runtime's answer asked without the override and with it (where it\n"
	      "differs from the card, and which variable makes it so), KFD\n"
	      "topology, /dev/kfd and /dev/dri/renderD* access and render/video groups,\n"
	      "kernel, ROCm and the HIP version PyTorch was built for, ROCM_PATH,\n"
	      "LD_LIBRARY_PATH, HSA_OVERRIDE_GFX_VERSION[_N] (in the environment and in shell\n"
	      "start-up files, judged per card), the build to install per card and TheRock\n"
	      "layouts found (tables/builds.tsv), kernel, amdgpu cwsr_enable and MES firmware\n"
	      "against known faults (tables/platform.tsv), *_VISIBLE_DEVICES, iGPU next to a\n"
	      "dGPU, the MIOpen cache, and the shim's installation and LD_PRELOAD.\n"
	      "\n"
	      "  --json       print the results as one JSON object\n"
	      "  --root DIR   read /sys, /proc, /dev, /etc, /opt, /var and $HOME under DIR (tests)\n"
	      "  --user NAME  judge permissions and groups for NAME (from DIR/etc/passwd, group)\n"
	      "  --libs       then, for each card found (else each simulated one, under\n"
	      "               rdnacompat sim), which installed libraries and per-arch data files\n"
	      "               lack its target and what the shim does about each: `inspect --gpu\n"
	      "               TARGET` of /usr/lib/x86_64-linux-gnu and /opt/rocm/lib (slow: reads\n"
	      "               every library; the exit status stays the checks')\n"
	      "\n"
	      "  --selftest   instead: the test stone.  Numeric checks on HIP device 0 through\n"
	      "               the shim, each in a child process (a crash or a hang, killed after\n"
	      "               RDNACOMPAT_SELFTEST_TIMEOUT s, default 300, is a failed check), each\n"
	      "               against a CPU reference with a tolerance, reported with its\n"
	      "               max error and the code object it ran from (the shim's log:\n"
	      "               \"gfx1030 code retargeted to gfx1031\"): f32 saxpy; i32\n"
	      "               mul/shl/ashr/lshr/min/max; f16 add and conversions; a reduction\n"
	      "               with LDS, barriers and wave shuffles; the shim's fallback\n"
	      "               flash-attention tile (dv64) and combine kernels (HIP >= 6); SGEMM\n"
	      "               64x48x32 through rocBLAS when installed; ggml's own\n"
	      "               test-backend-ops -o FLASH_ATTN_EXT when installed.  A check whose\n"
	      "               library is absent is skipped with the reason.  On a simulated\n"
	      "               card (rdnacompat sim) the results are \"simulated card (executed)\".\n"
	      "               RDNACOMPAT_SELFTEST_BUNDLE=FILE (for testing) loads the checks'\n"
	      "               kernels from FILE instead of the bundle built into the tool\n"
	      "\n"
	      "exit: 0 all ok, 1 warnings, 2 failures, 3 no AMD GPU found, 4 usage error\n"
	      "--selftest: 0 every check passed (or was skipped), 1 a check failed, 2 the checks\n"
	      "could not run (no HIP runtime, or HIP found no usable GPU), 3 no AMD GPU found,\n"
	      "4 usage error\n",
	      f);
}

static void print_json(const struct rdc_sysinfo *si, const struct rdc_checks *c, int rc)
{
	struct rdc_json j;
	struct rdc_report *reps;
	size_t nrep = rdc_db_load_default(&reps);
	rdc_json_init(&j, stdout);
	rdc_json_obj(&j);
	rdc_json_key(&j, "exit");
	rdc_json_i64(&j, rc);
	rdc_json_key(&j, "no_amd_gpu");
	rdc_json_bool(&j, c->no_gpu);
	rdc_json_key(&j, "gpus");
	rdc_json_arr(&j);
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		char id[16];
		snprintf(id, sizeof id, "%04x:%04x", g->vendor, g->device);
		rdc_json_obj(&j);
		rdc_json_key(&j, "pci");
		rdc_json_str(&j, g->pci_addr);
		rdc_json_key(&j, "id");
		rdc_json_str(&j, id);
		rdc_json_key(&j, "revision");
		rdc_json_i64(&j, g->revision);
		rdc_json_key(&j, "name");
		rdc_json_str(&j, g->card ? g->card->name : NULL);
		rdc_json_key(&j, "target");
		rdc_json_str(&j, g->target[0] ? g->target : NULL);
		rdc_json_key(&j, "status");
		rdc_json_str(&j, g->card ? rdc_card_status_name(g->card->status) : "unknown");
		rdc_json_key(&j, "apu");
		rdc_json_bool(&j, g->apu);
		rdc_json_key(&j, "kfd_node");
		rdc_json_i64(&j, g->kfd_node >= 0 ? si->nodes[g->kfd_node].id : -1);
		rdc_json_key(&j, "hip_index");
		rdc_json_i64(&j, g->hip_index);
		rdc_json_key(&j, "source");   /* "pci": /sys's PCI bus; "kfd": the KFD topology; "runtime": agents.c */
		rdc_json_str(&j, g->source[0] ? g->source : "pci");
		/* the runtime's names: without the override variables, and with this environment */
		rdc_json_key(&j, "runtime_target");
		rdc_json_str(&j, g->rt_target[0] ? g->rt_target : NULL);
		rdc_json_key(&j, "runtime_target_env");
		rdc_json_str(&j, g->rt_env_target[0] ? g->rt_env_target : NULL);
		rdc_json_key(&j, "simulated");
		rdc_json_bool(&j, g->from_runtime && getenv("RDNACOMPAT_SIM_GPUS") &&
				      *getenv("RDNACOMPAT_SIM_GPUS"));
		/* The sourced reports the text output lists (db_lookup.c). */
		rdc_json_key(&j, "reports");
		rdc_db_json_relevant(&j, reps, nrep, g->target, g->vendor, g->device, si->rocm_version);
		rdc_json_obj_end(&j);
	}
	rdc_json_arr_end(&j);
	const char *keys[] = { "kernel", "distro", "rocm", "miopen", "pytorch", "pytorch_hip" };
	const char *vals[] = { si->kernel, si->distro, si->rocm_version, si->miopen_version,
			       si->torch_version, si->torch_hip };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		rdc_json_key(&j, keys[i]);
		rdc_json_str(&j, vals[i]);
	}
	rdc_json_key(&j, "checks");
	rdc_json_arr(&j);
	for (size_t i = 0; i < c->n; i++) {
		rdc_json_obj(&j);
		rdc_json_key(&j, "id");
		rdc_json_str(&j, c->v[i].id);
		rdc_json_key(&j, "status");
		rdc_json_str(&j, rdc_level_name(c->v[i].level));
		rdc_json_key(&j, "message");
		rdc_json_str(&j, c->v[i].msg);
		rdc_json_key(&j, "fix");
		rdc_json_str(&j, c->v[i].fix);
		rdc_json_obj_end(&j);
	}
	rdc_json_arr_end(&j);
	rdc_json_obj_end(&j);
	rdc_json_end(&j);
	rdc_reports_free(reps, nrep);
}

static void print_text(const struct rdc_checks *c, int rc)
{
	size_t w = 0, f = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_check *k = &c->v[i];
		w += k->level == RDC_LVL_WARN;
		f += k->level == RDC_LVL_FAIL;
		printf("%-4s  %-15s %s\n", k->level == RDC_LVL_OK ? "ok" : k->level == RDC_LVL_WARN ? "WARN" : "FAIL",
		       k->id, k->msg);
		if (k->fix)
			printf("      %-15s fix: %s\n", "", k->fix);
	}
	printf("\n%zu check%s: %zu ok, %zu warning%s, %zu failure%s%s (exit %d)\n", c->n,
	       c->n == 1 ? "" : "s", c->n - w - f, w, w == 1 ? "" : "s", f, f == 1 ? "" : "s",
	       c->no_gpu ? "; no AMD GPU on this machine" : "", rc);
}

int rdc_cmd_doctor(int argc, char **argv)
{
	bool json = false, libs = false, selftest = false;
	const char *root = NULL, *user = NULL;
	/* internal: one self-test check, in the child selftest.c starts */
	if (argc == 3 && !strcmp(argv[1], "--selftest-child"))
		return rdc_selftest_child(argv[2]);
	for (int i = 1; i < argc; i++) {
		if (rdc_is_help(argv[i])) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--selftest")) {
			selftest = true;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--libs")) {
			libs = true;
		} else if ((!strcmp(argv[i], "--root") || !strcmp(argv[i], "--user")) && i + 1 >= argc) {
			fprintf(stderr, "rdnacompat doctor: missing value for '%s'\n", argv[i]);
			usage(stderr);
			return 4;
		} else if (!strcmp(argv[i], "--root")) {
			root = argv[++i];
		} else if (!strcmp(argv[i], "--user")) {
			user = argv[++i];
		} else {
			fprintf(stderr, "rdnacompat doctor: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 4;
		}
	}
	if (selftest && (libs || root || user)) {
		fprintf(stderr, "rdnacompat doctor: --selftest takes only --json (it runs on this machine's GPU)\n");
		return 4;
	}
	if (selftest)
		return rdc_selftest_main(json);
	if (json && libs) {
		fprintf(stderr, "rdnacompat doctor: --libs is text only (for JSON: rdnacompat inspect --json --gpu TARGET DIR)\n");
		return 4;
	}
	struct stat st;
	if (root && (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "rdnacompat doctor: --root %s: not a directory\n", root);
		return 4;
	}
	if (user && !root && !getpwnam(user)) {
		fprintf(stderr, "rdnacompat doctor: --user %s: no such user\n", user);
		return 4;
	}
	const struct rdc_tables *t = rdc_tables_builtin();
	struct rdc_sysinfo si;
	rdc_sys_scan(&si, root, NULL, t);
	/* The truth came from the PCI bus and the KFD topology; the runtime is
	 * asked next (in a child without the override variables, then with
	 * them), to say where its answer differs. */
	if (!root)
		rdc_sys_ask_runtime(&si, t);
	struct rdc_doctor_opts o = { .user = user };
	struct rdc_checks c;
	rdc_doctor_run(&o, &si, t, &c);
	int rc = rdc_doctor_exit(&c);
	if (json)
		print_json(&si, &c, rc);
	else
		print_text(&c, rc);
	if (!json)
		rdc_db_doctor_reports(stdout, &si); /* db_lookup.c: sourced reports for each card */
	if (libs)
		rdc_doctor_libs(&si);
	rdc_checks_free(&c);
	rdc_sys_free(&si);
	return rc;
}
