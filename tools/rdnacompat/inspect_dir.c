// SPDX-License-Identifier: MIT
/*
 * inspect_dir.c — `rdnacompat inspect DIR`.  Walks a directory tree (sorted
 * names, at most 8 levels; symlinks to directories are not followed) and
 * counts each real file once (by device and inode): regular files first under
 * their own names, then symlinks to regular files whose target the walk did
 * not meet (a directory of links into another tree), under the link's name.
 * It sorts the files three ways:
 *   device code  host ELF / bundle / code object files without a target in
 *                their name (librocblas.so.4, libtorch_hip.so): inspected as
 *                single files are, one line per library with device code;
 *   per-arch     files a library picks by the device's name (rocBLAS's
 *                TensileLibrary_*_gfxNNNN.dat and .hsaco/.co, MIOpen's
 *                gfxNNNN_*.kdb/.fdb.txt/.model, libMIOpenCKGroupedConv_gfxNNNN.so):
 *                classified by inspect_data.c,
 *                counted per target, never parsed as code;
 *   other        the rest.
 * With a card (--gpu/--card/--pci) it says, as the shim's per-arch file
 * redirection (shim/hooks/hook_files.c) would decide it: files for the card
 * itself, else the most preferred compatible target that has files (the
 * compat edges; opt-in edges only with --opt-in/RDNACOMPAT_OPT_IN), else
 * missing; a redirection counts only the names the shim takes
 * (rdc_datafile_of: Tensile's and MIOpen's system files, not MIOpen's
 * .model or user databases).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/datafile.h"

#include "inspect_data.h"
#include "inspect_dir.h"

#define MAX_ARCH 64
#define MAX_DEPTH 8

struct arch_files {
	char arch[16];
	size_t n[RDC_DATA_KINDS];
	size_t total;
	size_t shim;            /* of them, names the shim's redirection takes (datafile.h) */
};

struct walk {
	struct ictx *c;
	rdc_inspect_file_fn one;
	FILE *quiet;            /* where per-bundle text goes while walking */
	struct arch_files arch[MAX_ARCH];
	size_t n_arch;
	size_t files, libs, nocode, other, bad, unnamed, by_kind[RDC_DATA_KINDS];
	int worst;
	struct seen { dev_t dev; ino_t ino; } *seen;   /* open addressing, ino 0 = free */
	size_t n_seen, cap_seen;
	struct link { char *path, *rel; } *links;       /* symlinks met, taken after the walk */
	size_t n_links, cap_links;
};

static size_t seen_hash(const struct walk *w, dev_t dev, ino_t ino)
{
	return (size_t)(((uint64_t)ino * 0x9E3779B97F4A7C15ull) ^ (uint64_t)dev) & (w->cap_seen - 1);
}

/* true the first time (dev, ino) is offered; false after, or when out of memory. */
static bool seen_first(struct walk *w, dev_t dev, ino_t ino)
{
	if (ino == 0)
		return true;
	if (2 * (w->n_seen + 1) > w->cap_seen) {
		size_t cap = w->cap_seen ? 2 * w->cap_seen : 1024;
		struct seen *n = calloc(cap, sizeof *n), *old = w->seen;
		if (!n)
			return false;
		size_t oldcap = w->cap_seen;
		w->seen = n;
		w->cap_seen = cap;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].ino) {
				size_t h = seen_hash(w, old[i].dev, old[i].ino);
				while (w->seen[h].ino)
					h = (h + 1) & (cap - 1);
				w->seen[h] = old[i];
			}
		free(old);
	}
	size_t h = seen_hash(w, dev, ino);
	for (; w->seen[h].ino; h = (h + 1) & (w->cap_seen - 1))
		if (w->seen[h].ino == ino && w->seen[h].dev == dev)
			return false;
	w->seen[h] = (struct seen){dev, ino};
	w->n_seen++;
	return true;
}

static void keep_link(struct walk *w, const char *path, const char *rel)
{
	if (w->n_links == w->cap_links) {
		size_t cap = w->cap_links ? 2 * w->cap_links : 64;
		struct link *n = realloc(w->links, cap * sizeof *n);
		if (!n)
			return;
		w->links = n;
		w->cap_links = cap;
	}
	char *p = strdup(path), *r = strdup(rel);
	if (!p || !r) {
		free(p);
		free(r);
		return;
	}
	w->links[w->n_links++] = (struct link){p, r};
}

bool rdc_inspect_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static struct arch_files *arch_slot(struct walk *w, const char *arch)
{
	for (size_t i = 0; i < w->n_arch; i++)
		if (!strcmp(w->arch[i].arch, arch))
			return &w->arch[i];
	if (w->n_arch == MAX_ARCH)
		return NULL;
	struct arch_files *a = &w->arch[w->n_arch++];
	memset(a, 0, sizeof *a);
	snprintf(a->arch, sizeof a->arch, "%s", arch);
	return a;
}

/* Device code: an ELF file, an offload bundle (plain or compressed) or a
 * kpack archive (inspect_kpack.c). */
static bool has_code_magic(const char *path)
{
	unsigned char b[24];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	ssize_t r = read(fd, b, sizeof b);
	close(fd);
	return (r >= 4 && !memcmp(b, "\177ELF", 4)) || (r >= 4 && !memcmp(b, "CCOB", 4)) ||
	       (r >= 4 && !memcmp(b, "KPAK", 4)) ||
	       (r >= 24 && !memcmp(b, "__CLANG_OFFLOAD_BUNDLE__", 24));
}

static void library(struct walk *w, const char *path, const char *rel)
{
	struct ictx *c = w->c;
	size_t b0 = c->bundles, n0 = c->native, m0 = c->mapped, x0 = c->missing;
	FILE *out = c->out;
	c->out = w->quiet;
	if (w->one(c, path) == 2)
		w->worst = 2;
	c->out = out;
	size_t b = c->bundles - b0;
	if (!b) {
		w->nocode++;
		return;
	}
	w->libs++;
	if (c->json)
		return;
	fprintf(c->out, "  %s: %zu bundle%s", rel, b, b == 1 ? "" : "s");
	if (c->have_dev)
		fprintf(c->out, ": %zu native, %zu mapped, %zu missing", c->native - n0, c->mapped - m0,
			c->missing - x0);
	fputc('\n', c->out);
}

static void file(struct walk *w, const char *path, const char *rel, const char *name)
{
	char why[128] = "", arch[16];
	w->files++;
	enum rdc_data_kind k = rdc_data_classify(path, name, why, sizeof why);
	bool named = rdc_data_arch(name, arch, sizeof arch) == 0;
	if (k == RDC_DATA_BAD) {
		w->bad++;
		fprintf(stderr, "rdnacompat inspect: %s: %s\n", path, why);
		return;
	}
	if (k != RDC_DATA_NONE && named) {
		struct arch_files *a = arch_slot(w, arch);
		if (a) {
			a->n[k]++;
			a->total++;
			a->shim += rdc_datafile_of(name, arch) != NULL;
		}
		w->by_kind[k]++;
		return;
	}
	if ((k == RDC_DATA_CODE || k == RDC_DATA_NONE) && has_code_magic(path)) {
		library(w, path, rel);
		return;
	}
	if (k != RDC_DATA_NONE) {
		w->by_kind[k]++;   /* a data file without a target in its name */
		w->unnamed++;
	}
	else
		w->other++;
}

static void walk(struct walk *w, const char *dir, const char *rel, int depth)
{
	struct dirent **ents = NULL;
	int n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "rdnacompat inspect: %s: %s\n", dir, strerror(errno));
		w->worst = 2;
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			free(ents[i]);
			continue;
		}
		char path[4096], sub[4096];
		struct stat st;
		if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
		    snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", name) >= (int)sizeof sub ||
		    lstat(path, &st) != 0) {
			free(ents[i]);
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
			walk(w, path, sub, depth + 1);
		else if (S_ISREG(st.st_mode) && seen_first(w, st.st_dev, st.st_ino))
			file(w, path, sub, name);
		else if (S_ISLNK(st.st_mode))
			keep_link(w, path, sub);
		free(ents[i]);
	}
	free(ents);
}

/* Symlinks to regular files whose target the walk did not count. */
static void walk_links(struct walk *w)
{
	for (size_t i = 0; i < w->n_links; i++) {
		struct link *l = &w->links[i];
		struct stat st;
		if (stat(l->path, &st) == 0 && S_ISREG(st.st_mode) && seen_first(w, st.st_dev, st.st_ino)) {
			const char *name = strrchr(l->rel, '/');
			file(w, l->path, l->rel, name ? name + 1 : l->rel);
		}
		free(l->path);
		free(l->rel);
	}
	free(w->links);
	free(w->seen);
}

/* The target whose files the shim would use for the card: its own, else the
 * most preferred usable compatible one with files.  *rank: 0 for its own. */
static const struct arch_files *redirect_for(const struct walk *w, unsigned *rank)
{
	const struct ictx *c = w->c;
	for (size_t i = 0; i < w->n_arch; i++)
		if (!strcmp(w->arch[i].arch, c->dev.proc)) {
			*rank = 0;
			return &w->arch[i];
		}
	const struct rdc_compat_edge *e[64];
	size_t ne = rdc_compat_edges_for(c->t, c->dev.proc, e, 64);
	for (size_t k = 0; k < ne; k++) {
		if (!strcmp(e[k]->code, c->dev.proc))
			continue;
		if (e[k]->condition && strstr(e[k]->condition, "opt-in") && !(c->flags & RDC_POLICY_OPT_IN))
			continue;
		for (size_t i = 0; i < w->n_arch; i++)
			if (!strcmp(w->arch[i].arch, e[k]->code)) {
				*rank = e[k]->rank;
				return &w->arch[i];
			}
	}
	return NULL;
}

static int cmp_arch(const void *a, const void *b)
{
	return strcmp(((const struct arch_files *)a)->arch, ((const struct arch_files *)b)->arch);
}

static void emit_text(struct walk *w, const char *path)
{
	struct ictx *c = w->c;
	FILE *o = c->out;
	size_t data = 0;
	for (size_t i = 0; i < w->n_arch; i++)
		data += w->arch[i].total;
	if (w->n_arch) {
		fprintf(o, "  per-arch files by target:");
		for (size_t i = 0; i < w->n_arch; i++)
			fprintf(o, " %s (%zu)", w->arch[i].arch, w->arch[i].total);
		fputc('\n', o);
		fprintf(o, "  per-arch files by kind:");
		for (int k = 1; k < RDC_DATA_BAD; k++)
			if (w->by_kind[k])
				fprintf(o, " %s %zu", rdc_data_kind_name((enum rdc_data_kind)k), w->by_kind[k]);
		if (w->unnamed)
			fprintf(o, " (%zu of them name no target: for every card)", w->unnamed);
		fputc('\n', o);
	}
	if (c->have_dev && w->n_arch) {
		unsigned rank = 0;
		const struct arch_files *r = redirect_for(w, &rank);
		if (r && rank == 0)
			fprintf(o, "  %s: %zu per-arch files of its own (native)\n", c->dev.proc, r->total);
		else if (r && r->shim < r->total)
			fprintf(o, "  %s: no per-arch files of its own; the shim redirects %s names to %s "
				"(compat rank %u): %zu files (%zu other per-arch files are not library data "
				"files the shim redirects)\n", c->dev.proc, c->dev.proc, r->arch, rank, r->shim,
				r->total - r->shim);
		else if (r)
			fprintf(o, "  %s: no per-arch files of its own; the shim redirects %s names to %s "
				"(compat rank %u): %zu files\n", c->dev.proc, c->dev.proc, r->arch, rank, r->shim);
		else
			fprintf(o, "  %s: no per-arch files for it or a compatible target (missing%s)\n",
				c->dev.proc, c->flags & RDC_POLICY_OPT_IN ? "" : "; opt-in edges not used");
	}
	fprintf(o, "%s: directory: %zu files: %zu librar%s with device code, %zu per-arch data "
		"files for %zu targets, %zu other file%s%s\n", path, w->files, w->libs,
		w->libs == 1 ? "y" : "ies", data, w->n_arch, w->other + w->nocode,
		w->other + w->nocode == 1 ? "" : "s", w->bad ? " (some unrecognised: see stderr)" : "");
}

static void emit_json(struct walk *w, const char *path)
{
	struct ictx *c = w->c;
	struct rdc_json *j = &c->j;
	rdc_json_obj(j);
	rdc_json_key(j, "path"); rdc_json_str(j, path);
	rdc_json_key(j, "kind"); rdc_json_str(j, "directory");
	rdc_json_key(j, "files"); rdc_json_u64(j, w->files);
	rdc_json_key(j, "libraries"); rdc_json_u64(j, w->libs);
	rdc_json_key(j, "other"); rdc_json_u64(j, w->other + w->nocode);
	rdc_json_key(j, "unrecognised"); rdc_json_u64(j, w->bad);
	rdc_json_key(j, "data_without_target"); rdc_json_u64(j, w->unnamed);
	rdc_json_key(j, "per_arch");
	rdc_json_obj(j);
	for (size_t i = 0; i < w->n_arch; i++) {
		rdc_json_key(j, w->arch[i].arch);
		rdc_json_obj(j);
		for (int k = 1; k < RDC_DATA_BAD; k++)
			if (w->arch[i].n[k]) {
				rdc_json_key(j, rdc_data_kind_name((enum rdc_data_kind)k));
				rdc_json_u64(j, w->arch[i].n[k]);
			}
		rdc_json_obj_end(j);
	}
	rdc_json_obj_end(j);
	rdc_json_key(j, "data_files");
	if (c->have_dev && w->n_arch) {
		unsigned rank = 0;
		const struct arch_files *r = redirect_for(w, &rank);
		rdc_json_obj(j);
		rdc_json_key(j, "verdict");
		rdc_json_str(j, !r ? "missing" : rank ? "redirected" : "native");
		rdc_json_key(j, "target"); rdc_json_str(j, r ? r->arch : NULL);
		rdc_json_key(j, "rank"); rdc_json_u64(j, rank);
		rdc_json_key(j, "files"); rdc_json_u64(j, r ? (rank ? r->shim : r->total) : 0);
		rdc_json_obj_end(j);
	} else {
		rdc_json_null(j);
	}
	rdc_json_obj_end(j);
}

int rdc_inspect_dir(struct ictx *c, const char *path, rdc_inspect_file_fn one)
{
	struct walk *w = calloc(1, sizeof *w);
	if (!w) {
		fprintf(stderr, "rdnacompat inspect: out of memory\n");
		return 2;
	}
	w->c = c;
	w->one = one;
	w->quiet = fopen("/dev/null", "we");
	if (!w->quiet) {
		fprintf(stderr, "rdnacompat inspect: /dev/null: %s\n", strerror(errno));
		free(w);
		return 2;
	}
	if (!c->json)
		fprintf(c->out, "%s: directory\n", path);
	walk(w, path, "", 0);
	walk_links(w);
	fclose(w->quiet);
	qsort(w->arch, w->n_arch, sizeof w->arch[0], cmp_arch);
	if (c->json)
		emit_json(w, path);
	else
		emit_text(w, path);
	c->files_read++;
	int ret = w->worst;
	free(w);
	return ret;
}
