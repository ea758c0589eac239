/* SPDX-License-Identifier: MIT */
/*
 * dcache.c — the persistent decision cache (see dcache.h for key, value,
 * location and rules).
 *
 * File format (one per library; the same shim build writes and reads it,
 * the build's identity being part of the key, so records are the in-memory
 * struct): a header (magic, sizes, key), the records, each followed by its
 * refused and held kernels as "name\0check\0reason\0" triples (a held
 * kernel's check stored as "+check") and its patches, and
 * a trailing 64-bit FNV-1a of everything before it.  Anything that does not check out (magic,
 * sizes, checksum, key, a record's own bounds) makes the whole file count
 * as absent.  All file access goes to the kernel directly (the shim hooks
 * open/stat itself) and never leaves a descriptor at 0-2.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "dcache.h"
#include "dcache_file.h"
#include "rdnacompat/fileopen.h"

struct mrec {
	struct rdc_dc_rec r;
	char *ref;                       /* ref_bytes of triples */
	struct rdc_patch *patches;       /* r.n_patches */
};

struct rdc_dc_lib {
	struct rdc_dc_lib *next;
	char name[512];                  /* the library as logged */
	char file[1024];                 /* the cache file */
	struct rdc_dc_hdr key;
	struct mrec *recs;
	size_t n, cap;
	bool dirty;
};

pthread_mutex_t rdc_dcache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rdc_dc_lib *libs;
static int state;                        /* 0 unknown, 1 on, -1 off */
static char dir[900];
static uint64_t shim_id;

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return rdc_dc_fnv(h, s ? s : "\1", s ? strlen(s) + 1 : 1);
}

uint64_t rdc_tables_digest(const struct rdc_tables *t)
{
	uint64_t h = RDC_DC_FNV0;
	if (!t)
		return h;
	for (size_t i = 0; i < t->n_isa; i++) {
		const struct rdc_isa *r = &t->isa[i];
		h = fnv_str(h, r->name);
		h = fnv_str(h, r->family);
		h = fnv_str(h, r->generic_target);
		uint32_t v[] = { r->mach, r->generic, r->min_generic_version, r->default_wave,
				 r->xnack_supported, r->sramecc_supported, r->lds_per_workgroup,
				 r->vgprs_per_simd_w32, r->vgprs_per_simd_w64, r->vgpr_granule_w32,
				 r->vgpr_granule_w64, r->max_waves_per_simd };
		h = rdc_dc_fnv(h, v, sizeof v);
	}
	for (size_t i = 0; i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		h = fnv_str(h, e->device);
		h = fnv_str(h, e->code);
		h = rdc_dc_fnv(h, &e->rank, sizeof e->rank);
		h = fnv_str(h, e->condition);
	}
	for (size_t i = 0; i < t->n_bad; i++) {
		const struct rdc_bad_kernel *b = &t->bad[i];
		h = fnv_str(h, b->target);
		h = fnv_str(h, b->code_target);
		h = fnv_str(h, b->kernel_glob);
		h = fnv_str(h, b->action);
		h = fnv_str(h, b->reason);
	}
	h = rdc_dc_fnv(h, &t->n_isa, sizeof t->n_isa);
	h = rdc_dc_fnv(h, &t->n_edges, sizeof t->n_edges);
	return rdc_dc_fnv(h, &t->n_bad, sizeof t->n_bad);
}

static int sys_stat(const char *path, struct stat *st)
{
	return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, 0);
}

/* A descriptor above 2 (a process may have closed stdin/out/err). */
static int high_fd(int fd)
{
	if (fd < 0 || fd > 2)
		return fd;
	int h = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return h;
}

static int mkdir_p(char *p)
{
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		int rc = mkdir(p, 0700);
		*s = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(p, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

static int sys_lstat(const char *path, struct stat *st)
{
	return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

/* Why the cache directory is not ours alone, or NULL (also when it does
 * not exist yet in a good place: it is made at the first write); *fix says
 * what to do.  Ours alone: the directory holding it (when it exists) owned
 * by us or root and writable by nobody else unless sticky (/tmp), so no one
 * can swap the directory after the check; the directory itself, not
 * followed if it is a symlink (audit 2026-12-03 L2: /tmp/rdnacompat ->
 * another user's directory passed), owned by us, writable by nobody else. */
static const char *with_fix(const char **fix, const char *what_to_do, const char *why)
{
	*fix = what_to_do;
	return why;
}

static const char *dir_problem(const char *d, const char **fix)
{
	struct stat st;
	*fix = NULL;
	char parent[sizeof dir];
	snprintf(parent, sizeof parent, "%s", d);
	char *slash = strrchr(parent, '/');
	if (slash) {
		*slash = 0;
		if (sys_stat(parent[0] ? parent : "/", &st) == 0) {
			if (st.st_uid != geteuid() && st.st_uid != 0)
				return with_fix(fix, "move the cache (XDG_CACHE_HOME)",
						"is in a directory another user owns");
			if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))
				return with_fix(fix, "chmod go-w its parent",
						"is in a directory others can write");
		}
	}
	if (sys_lstat(d, &st) != 0)
		return NULL;
	if (S_ISLNK(st.st_mode))
		return with_fix(fix, "remove it", "is a symbolic link");
	if (!S_ISDIR(st.st_mode))
		return with_fix(fix, "remove it", "is not a directory");
	if (st.st_uid != geteuid())
		return with_fix(fix, "chown it", "is not owned by this user");
	if (st.st_mode & 022)
		return with_fix(fix, "chmod go-w it", "is writable by group or others");
	return NULL;
}

/* Ours alone, and there (after mkdir_p). */
static bool dir_ok(const char *d)
{
	struct stat st;
	const char *fix;
	return sys_lstat(d, &st) == 0 && !dir_problem(d, &fix);
}

static bool dir_warned;

/* Decide once whether the cache is on, where it is, and who we are. */
static bool setup(void)
{
	if (state)
		return state > 0;
	state = -1;
	if (!rdc_cfg.cache)
		return false;
	/* Not from the environment of a set-id process. */
	const char *x = secure_getenv("XDG_CACHE_HOME"), *home = secure_getenv("HOME");
	int n;
	if (x && x[0] == '/')
		n = snprintf(dir, sizeof dir, "%s/rdnacompat", x);
	else if (home && home[0] == '/')
		n = snprintf(dir, sizeof dir, "%s/.cache/rdnacompat", home);
	else
		return false;
	if (n <= 0 || (size_t)n >= sizeof dir)
		return false;
	/* The shim build: its own file's identity, and the record layout. */
	Dl_info di;
	struct stat st;
	if (!dladdr((void *)&rdc_tables_digest, &di) || !di.dli_fname || sys_stat(di.dli_fname, &st))
		return false;
	uint64_t v[] = { (uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_size,
			 (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec,
			 sizeof(struct rdc_dc_hdr), sizeof(struct rdc_dc_rec) };
	shim_id = rdc_dc_fnv(RDC_DC_FNV0, v, sizeof v);
	state = 1;
	return true;
}

static void free_lib_recs(struct rdc_dc_lib *L)
{
	for (size_t i = 0; i < L->n; i++) {
		free(L->recs[i].ref);
		free(L->recs[i].patches);
	}
	free(L->recs);
	L->recs = NULL;
	L->n = L->cap = 0;
}

static struct mrec *add_rec(struct rdc_dc_lib *L)
{
	if (L->n == L->cap) {
		size_t nc = L->cap ? L->cap * 2 : 128;
		struct mrec *r = realloc(L->recs, nc * sizeof *r);
		if (!r)
			return NULL;
		L->recs = r;
		L->cap = nc;
	}
	struct mrec *m = &L->recs[L->n++];
	memset(m, 0, sizeof *m);
	return m;
}

/* rdc_dc_parse's callback: one valid record joins L. */
static int keep_rec(void *arg, const struct rdc_dc_rec *r, const char *ref_bytes,
		    const uint8_t *patch_bytes)
{
	struct rdc_dc_lib *L = arg;
	struct mrec *m = add_rec(L);
	char *ref = r->ref_bytes ? malloc(r->ref_bytes) : NULL;
	struct rdc_patch *pt = r->n_patches ? malloc(r->n_patches * sizeof *pt) : NULL;
	if (!m || (r->ref_bytes && !ref) || (r->n_patches && !pt)) {
		free(ref);
		free(pt);
		if (m)
			L->n--;
		return -1;
	}
	m->r = *r;
	m->ref = ref;
	m->patches = pt;
	if (ref)
		memcpy(ref, ref_bytes, r->ref_bytes);
	if (pt)
		memcpy(pt, patch_bytes, r->n_patches * sizeof *pt);
	return 0;
}

static const char *load(struct rdc_dc_lib *L)
{
	/* Not a FIFO, socket, device or symlink: none can block or redirect. */
	int fd = high_fd(rdc_open_file(L->file, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_OWNED, NULL));
	if (fd < 0)
		return errno == ENOENT ? NULL : "not a regular file, or unreadable";
	struct stat st;
	uint8_t *buf = NULL;
	const char *why = NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct rdc_dc_hdr) + 8 ||
	    (uint64_t)st.st_size > RDC_DC_MAX_FILE) {
		why = "not a cache file (type or size)";
		goto out;
	}
	size_t len = (size_t)st.st_size, got = 0;
	buf = malloc(len);
	if (!buf) {
		why = "out of memory";
		goto out;
	}
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		got += (size_t)r;
	}
	if (got != len) {
		why = "short read";
		goto out;
	}
	why = rdc_dc_parse(buf, len, &L->key, keep_rec, L);
out:
	if (why)
		free_lib_recs(L);
	free(buf);
	close(fd);
	return why;
}

struct rdc_dc_lib *rdc_dcache_lib_st(const char *name, const struct stat *stp)
{
	if (!name || !stp || !S_ISREG(stp->st_mode))
		return NULL;
	const struct stat st = *stp;
	pthread_mutex_lock(&rdc_dcache_lock);
	struct rdc_dc_lib *L = NULL;
	if (!setup())
		goto out;
	for (L = libs; L; L = L->next)
		if (!strcmp(L->name, name))
			break;
	if (L) {
		/* the same name, another file (a module file replaced while the
		 * process runs): no cache for it rather than the wrong one */
		if (L->key.dev != (uint64_t)st.st_dev || L->key.ino != (uint64_t)st.st_ino ||
		    L->key.size != (uint64_t)st.st_size ||
		    L->key.mtime_ns != (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec)
			L = NULL;
		goto out;
	}
	L = calloc(1, sizeof *L);
	if (!L)
		goto out;
	snprintf(L->name, sizeof L->name, "%s", name);
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	snprintf(L->file, sizeof L->file, "%s/%.64s-%016llx.dc", dir, base,
		 (unsigned long long)fnv_str(RDC_DC_FNV0, name));
	memcpy(L->key.magic, RDC_DC_MAGIC, 8);
	L->key.hdr_size = sizeof L->key;
	L->key.rec_size = sizeof(struct rdc_dc_rec);
	L->key.shim_id = shim_id;
	L->key.tables_digest = rdc_tables_digest(rdc_tables());
	L->key.flags = rdc_policy_flags();
	L->key.dev = (uint64_t)st.st_dev;
	L->key.ino = (uint64_t)st.st_ino;
	L->key.size = (uint64_t)st.st_size;
	L->key.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	const char *fix;
	const char *why = dir_problem(dir, &fix);
	if (why && !dir_warned) {
		/* Said once per process, at warn: a umask 002 system turns the
		 * cache off silently otherwise (audit N10). */
		dir_warned = true;
		rdc_logf(RDC_LOG_WARN, "cache: %s %s; the decision cache is not used (%s)", dir, why, fix);
	}
	if (!why)
		why = load(L);
	if (why)
		rdc_logf(RDC_LOG_DEBUG, "cache: %s: %s; ignored (deciding afresh)", L->file, why);
	else
		rdc_logf(RDC_LOG_DEBUG, "cache: %s: %zu decisions for %s", L->file, L->n, name);
	L->next = libs;
	libs = L;
out:
	pthread_mutex_unlock(&rdc_dcache_lock);
	return L;
}

static struct mrec *find(struct rdc_dc_lib *L, uint64_t off, const struct rdc_target *t)
{
	for (size_t i = 0; i < L->n; i++) {
		struct mrec *m = &L->recs[i];
		if (m->r.bundle_off == off && !strcmp(m->r.target.proc, t->proc) &&
		    m->r.target.xnack == t->xnack && m->r.target.sramecc == t->sramecc)
			return m;
	}
	return NULL;
}

int rdc_dcache_get(struct rdc_dc_lib *L, uint64_t bundle_off, const struct rdc_target *t,
		   struct rdc_dc_hit *hit)
{
	memset(hit, 0, sizeof *hit);
	if (!L)
		return RDC_E_NOTFOUND;
	pthread_mutex_lock(&rdc_dcache_lock);
	int rc = RDC_E_NOTFOUND;
	struct mrec *m = find(L, bundle_off, t);
	if (!m)
		goto out;
	const struct rdc_dc_rec *r = &m->r;
	struct rdc_choice *c = &hit->c;
	c->verdict = (enum rdc_verdict)r->verdict;
	c->entry = -1;             /* resolved by id against the bundle (decide.c) */
	c->refused_entry = -1;
	memcpy(hit->entry_id, r->entry_id, sizeof hit->entry_id);
	memcpy(hit->refused_id, r->refused_id, sizeof hit->refused_id);
	hit->entry_size = r->entry_size;
	hit->refused_size = r->refused_size;
	c->chosen = r->chosen;
	c->edge_rank = r->edge_rank;
	c->n_kernels = (size_t)r->n_kernels;
	c->n_refused = (size_t)r->n_refused;
	c->n_held = (size_t)r->n_held;
	hit->hold = r->hold;
	c->n_candidates = (size_t)r->n_candidates;
	memcpy(c->reason, r->reason, sizeof c->reason);
	memcpy(c->need, r->need, sizeof c->need);
	hit->have_patches = r->have_patches != 0;
	hit->n_patches = r->n_patches;
	if (r->n_patches <= RDC_ADD_PATCHES && r->n_patches)
		memcpy(hit->patches, m->patches, r->n_patches * sizeof *m->patches);
	if (r->n_ref) {
		hit->refused = calloc(r->n_ref, sizeof *hit->refused);
		if (!hit->refused)
			goto out;
		const char *p = m->ref;
		for (uint32_t i = 0; i < r->n_ref; i++) {
			struct rdc_kernel_verdict *v = &hit->refused[i];
			v->kernel = p;
			p += strlen(p) + 1;
			v->held = *p == '+';   /* a held kernel's check is stored as "+check" */
			v->ok = false;
			snprintf(v->check, sizeof v->check, "%s", p + v->held);
			p += strlen(p) + 1;
			snprintf(v->reason, sizeof v->reason, "%s", p);
			p += strlen(p) + 1;
		}
		hit->n_refused_k = r->n_ref;
	}
	rc = 0;
out:
	pthread_mutex_unlock(&rdc_dcache_lock);
	return rc;
}

int rdc_dcache_patches(const struct rdc_dc_ref *ref, struct rdc_patch **patches, size_t *n_patches)
{
	*patches = NULL;
	*n_patches = 0;
	if (!ref || !ref->lib)
		return RDC_E_NOTFOUND;
	pthread_mutex_lock(&rdc_dcache_lock);
	int rc = RDC_E_NOTFOUND;
	const struct mrec *m = find(ref->lib, ref->key, &ref->dev);
	if (m && m->r.have_patches) {
		size_t n = m->r.n_patches;
		*patches = malloc((n ? n : 1) * sizeof **patches);
		rc = *patches ? 0 : RDC_E_NOMEM;
		if (*patches) {
			if (n)
				memcpy(*patches, m->patches, n * sizeof **patches);
			*n_patches = n;
		}
	}
	pthread_mutex_unlock(&rdc_dcache_lock);
	return rc;
}

void rdc_dcache_hit_free(struct rdc_dc_hit *hit)
{
	free(hit->refused);
	hit->refused = NULL;
	hit->n_refused_k = 0;
}

/* Entry `i` of `b` as the cache names it: its id (false when longer than
 * a record holds, or no entry) and size.  `id` (RDC_DC_ID_MAX bytes) is
 * zeroed whole: the record is written to disk as it is. */
static bool entry_key(const struct rdc_bundle *b, long i, char *id, uint64_t *size)
{
	memset(id, 0, RDC_DC_ID_MAX);
	*size = 0;
	if (i < 0)
		return true;
	if ((size_t)i >= b->n_entries || !b->entries[i].id || !b->entries[i].id_len ||
	    b->entries[i].id_len >= RDC_DC_ID_MAX || memchr(b->entries[i].id, 0, b->entries[i].id_len))
		return false;
	memcpy(id, b->entries[i].id, b->entries[i].id_len);
	id[b->entries[i].id_len] = '\0';
	*size = b->entries[i].size;
	return true;
}

void rdc_dcache_put(struct rdc_dc_lib *L, uint64_t bundle_off, const struct rdc_target *t,
		    const struct rdc_bundle *b, const struct rdc_choice *c,
		    const struct rdc_patch *patches, size_t n_patches, bool have_patches, int hold)
{
	if (!L || n_patches > RDC_DC_MAX_PATCHES || (n_patches && !patches))
		return;
	char entry_id[RDC_DC_ID_MAX], refused_id[RDC_DC_ID_MAX];
	uint64_t entry_size, refused_size;
	if (!entry_key(b, c->entry, entry_id, &entry_size) ||
	    !entry_key(b, c->refused_entry, refused_id, &refused_size))
		return;              /* an id no record holds: decided afresh next time */
	/* The refused kernels, as triples. */
	size_t n_ref = 0, bytes = 0;
	for (size_t i = 0; c->kernels && i < c->n_kernels; i++)
		if (!c->kernels[i].ok) {
			n_ref++;
			bytes += strlen(c->kernels[i].kernel ? c->kernels[i].kernel : "") +
				 c->kernels[i].held + strlen(c->kernels[i].check) +
				 strlen(c->kernels[i].reason) + 3;
		}
	if (n_ref > RDC_DC_MAX_REFUSED || ((c->n_refused || c->n_held) && !c->kernels) || bytes > UINT32_MAX)
		return;              /* not cached: decided afresh next time */
	char *ref = bytes ? malloc(bytes) : NULL;
	struct rdc_patch *pt = n_patches ? malloc(n_patches * sizeof *pt) : NULL;
	if ((bytes && !ref) || (n_patches && !pt)) {
		free(ref);
		free(pt);
		return;
	}
	if (pt)
		memcpy(pt, patches, n_patches * sizeof *pt);
	char *w = ref;
	for (size_t i = 0; c->kernels && i < c->n_kernels; i++) {
		const struct rdc_kernel_verdict *v = &c->kernels[i];
		if (v->ok)
			continue;
		const char *s[3] = { v->kernel ? v->kernel : "", v->check, v->reason };
		for (int j = 0; j < 3; j++) {
			if (j == 1 && v->held)
				*w++ = '+';
			size_t l = strlen(s[j]) + 1;
			memcpy(w, s[j], l);
			w += l;
		}
	}
	pthread_mutex_lock(&rdc_dcache_lock);
	struct mrec *m = find(L, bundle_off, t);
	if (m) {
		free(m->ref);
		free(m->patches);
	} else {
		m = add_rec(L);
	}
	if (!m) {
		free(ref);
		free(pt);
		goto out;
	}
	struct rdc_dc_rec *r = &m->r;
	memset(r, 0, sizeof *r);
	r->bundle_off = bundle_off;
	r->target = *t;
	r->verdict = (int32_t)c->verdict;
	memcpy(r->entry_id, entry_id, sizeof r->entry_id);
	memcpy(r->refused_id, refused_id, sizeof r->refused_id);
	r->entry_size = entry_size;
	r->refused_size = refused_size;
	r->chosen = c->chosen;
	r->edge_rank = c->edge_rank;
	r->n_kernels = c->n_kernels;
	r->n_refused = c->n_refused;
	r->n_held = c->n_held;
	r->hold = hold;
	r->n_candidates = c->n_candidates;
	memcpy(r->reason, c->reason, sizeof r->reason);
	memcpy(r->need, c->need, sizeof r->need);
	r->have_patches = have_patches;
	r->n_patches = (uint32_t)n_patches;
	r->n_ref = (uint32_t)n_ref;
	r->ref_bytes = (uint32_t)bytes;
	m->ref = ref;
	m->patches = pt;
	L->dirty = true;
out:
	pthread_mutex_unlock(&rdc_dcache_lock);
}

static bool write_all(int fd, const void *p, size_t n, uint64_t *sum)
{
	const uint8_t *b = p;
	*sum = rdc_dc_fnv(*sum, p, n);
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		b += w;
		n -= (size_t)w;
	}
	return true;
}

static struct mrec *find(struct rdc_dc_lib *L, uint64_t off, const struct rdc_target *t);
static void write_locked(struct rdc_dc_lib *L, char *tmp, size_t tmp_size);

/* The lock that serialises writers of one cache file across processes: an
 * flock on "<file>.lock" (the cache file itself is replaced by rename, so it
 * cannot carry the lock).  Waits up to ~2 s for another writer; -1 when the
 * lock cannot be had (then nothing is written: the decisions are only
 * redone next time). */
static int lock_file(const struct rdc_dc_lib *L)
{
	char lk[1100];
	snprintf(lk, sizeof lk, "%s.lock", L->file);
	int fd = high_fd(rdc_open_file(lk, O_RDWR | O_CREAT, 0600, RDC_OPEN_REG | RDC_OPEN_OWNED, NULL));
	if (fd < 0)
		return -1;
	for (int i = 0; i < 200; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	close(fd);
	return -1;
}

/* Under the lock: what another process wrote since we loaded (same key)
 * joins our records, so concurrent processes keep every decision.  Ours
 * win where both decided the same bundle and target. */
static void merge_from_disk(struct rdc_dc_lib *L)
{
	struct rdc_dc_lib disk;
	memset(&disk, 0, sizeof disk);
	memcpy(disk.file, L->file, sizeof disk.file);
	disk.key = L->key;
	if (load(&disk) != NULL)
		return;
	size_t merged = 0;
	for (size_t i = 0; i < disk.n; i++) {
		struct mrec *d = &disk.recs[i];
		if (find(L, d->r.bundle_off, &d->r.target))
			continue;
		struct mrec *m = add_rec(L);
		if (!m)
			break;
		*m = *d;
		d->ref = NULL;   /* now L's */
		d->patches = NULL;
		merged++;
	}
	free_lib_recs(&disk);
	if (merged)
		rdc_logf(RDC_LOG_DEBUG, "cache: %s: %zu decisions of other processes kept", L->file,
			 merged);
}

static void save(struct rdc_dc_lib *L)
{
	char tmp[1100];
	const char *fix;
	if (dir_problem(dir, &fix) || mkdir_p(dir) != 0 || !dir_ok(dir)) {
		rdc_logf(RDC_LOG_DEBUG, "cache: %s cannot be created or is not ours alone; not written",
			 dir);
		return;
	}
	int lk = lock_file(L);
	if (lk < 0) {
		rdc_logf(RDC_LOG_DEBUG, "cache: %s: no lock; not written", L->file);
		return;
	}
	merge_from_disk(L);
	write_locked(L, tmp, sizeof tmp);
	close(lk);   /* releases the flock */
}

/* A cache that cannot be written costs the next run its decisions, nothing
 * else: the first such failure of the process is a warning (the user may
 * want to free the disk), later ones debug lines. */
static enum rdc_level write_failure_level(void)
{
	static atomic_bool warned;
	return atomic_exchange(&warned, true) ? RDC_LOG_DEBUG : RDC_LOG_WARN;
}

static void write_locked(struct rdc_dc_lib *L, char *tmp, size_t tmp_size)
{
	snprintf(tmp, tmp_size, "%s.tmp.%ld", L->file, (long)getpid());
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW;
	int fd = (int)syscall(SYS_openat, AT_FDCWD, tmp, flags, 0600);
	if (fd < 0 && errno == EEXIST) {   /* left by a crashed process of our pid */
		unlink(tmp);
		fd = (int)syscall(SYS_openat, AT_FDCWD, tmp, flags, 0600);
	}
	fd = high_fd(fd);
	if (fd < 0) {
		rdc_logf(write_failure_level(), "cache: cannot write %s: %s; decisions not kept for the "
			 "next run", tmp, strerror(errno));
		return;
	}
	struct rdc_dc_hdr h = L->key;
	h.n_recs = (uint32_t)L->n;
	uint64_t sum = RDC_DC_FNV0;
	bool ok = write_all(fd, &h, sizeof h, &sum);
	for (size_t i = 0; ok && i < L->n; i++) {
		ok = write_all(fd, &L->recs[i].r, sizeof L->recs[i].r, &sum);
		if (ok && L->recs[i].r.ref_bytes)
			ok = write_all(fd, L->recs[i].ref, L->recs[i].r.ref_bytes, &sum);
		if (ok && L->recs[i].r.n_patches)
			ok = write_all(fd, L->recs[i].patches,
				       L->recs[i].r.n_patches * sizeof *L->recs[i].patches, &sum);
	}
	uint64_t dummy = 0, fin = sum;
	ok = ok && write_all(fd, &fin, sizeof fin, &dummy);
	ok = close(fd) == 0 && ok;
	if (ok && rename(tmp, L->file) == 0) {
		L->dirty = false;
		rdc_logf(RDC_LOG_DEBUG, "cache: wrote %zu decisions to %s", L->n, L->file);
	} else {
		rdc_logf(write_failure_level(), "cache: writing %s failed: %s; decisions not kept for "
			 "the next run", L->file, strerror(errno));
		unlink(tmp);
	}
}

void rdc_dcache_flush(void)
{
	pthread_mutex_lock(&rdc_dcache_lock);
	for (struct rdc_dc_lib *L = libs; L; L = L->next)
		if (L->dirty)
			save(L);
	pthread_mutex_unlock(&rdc_dcache_lock);
}

__attribute__((destructor)) static void dcache_at_exit(void)
{
	if (state <= 0)
		return;
	int saved = errno;
	rdc_guard_enter();
	rdc_dcache_flush();
	rdc_guard_leave();
	errno = saved;
}
