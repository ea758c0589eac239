/* SPDX-License-Identifier: MIT */
/*
 * shim.h — the internal API of librdnacompat.so (shim/hooks/).  Nothing here
 * is exported: the build hides every symbol and shim/exports.map lists only
 * the hooks.
 *
 * Sections: real-function table (real.c) · init and recursion guard
 * (init.c, guard.c) · configuration (config.c) · logger (log.c) · device
 * registry (devices.c) · loaded-segment lookup (segment.c) · bundle rebuild
 * (remap.c, remap_header.c) · diagnosis (diagnose.c) · reader table
 * (hook_hsa.c).
 *
 * Lock order (outer first); fork.c takes every one in this order, and
 * nothing takes a lock while holding one listed after it:
 *   rdc_fatbin_lock     hook_fatbin.c: registered fat binaries (decides under it)
 *   rdc_module_lock     hook_module.c: module images decided (decides under it)
 *   rdc_lazy_obj_lock   lazy.c: objects made for plain bundles (decides under it)
 *   rdc_defer_lock      defer.c: entries decided at the load
 *   rdc_reader_lock     hook_hsa.c: code object readers, owned copies
 *   rdc_diag_lock       diagnose.c: missing-code notes (they ask the tables)
 *   rdc_dcache_lock     dcache.c: the decision cache (dcache.h)
 *   rdc_dev_lock        devices.c: device registry and tables (calls hsa_init)
 *   rdc_arena_lock      remap_arena.c: the header arena's page maps (logs)
 *   rdc_log_lock        log.c: the log file and its lines
 *   leaves (nothing is taken under them):
 *   rdc_lazy_note_lock  lazy.c: fat binaries left to the runtime
 *   rdc_lazy_memo_lock  lazy.c: unbundle decisions kept
 *   rdc_lazy_rt_lock    lazy.c: the last runtime's major version
 *   rdc_route_rt_lock   route.c: runtime versions from file names
 *   rdc_caller_lock     real_caller.c: per-caller resolution slots
 *   rdc_image_lock      image.c: known images (readable extents)
 *   rdc_kpack_lock      hook_kpack.c: buffers handed out
 *   rdc_comgr_lock      hook_comgr.c: comgr table, data and action lists
 *   rdc_route_lock      route.c: kernel rules' routes (route.h)
 *   rdc_retired_lock    remap.c: retired regions
 *   rdc_codename_lock   codename.c: the names objects were told
 *   rdc_hold_lock       hold.c: held kernels of lazily read fat binaries
 * The shim never forks, spawns or installs a signal handler, and holds no
 * lock across a runtime call except rdc_dev_lock (hsa_init, the agent
 * walk: the guard is set, so the runtime's calls back into hooks take
 * only locks after it).
 */
#ifndef RDNACOMPAT_SHIM_H
#define RDNACOMPAT_SHIM_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/error.h"
#include "rdnacompat/policy.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

/* Marks a hook definition: visible, then versioned by shim/exports.map. */
#define RDC_HOOK __attribute__((visibility("default")))

/* ---- real-function table (real.c, list in real_list.h) ------------------ */
enum rdc_lib { RDC_LIB_HIP, RDC_LIB_HSA, RDC_LIB_KPACK, RDC_LIB_C };

enum rdc_fn {
#define RDC_REAL_FN(name, ver, lib) RDC_FN_##name,
#include "real_list.h"
#undef RDC_REAL_FN
	RDC_FN_COUNT
};

struct rdc_real_fn {
	const char *name;
	const char *version;
	enum rdc_lib lib;
	void *_Atomic ptr;       /* resolved function, NULL until resolved */
	_Atomic int injected;    /* tests: ptr was set by rdc_real_inject */
	_Atomic int local;       /* found by soname only: its library is outside
	                            the global scope (real_caller.c) */
};

extern struct rdc_real_fn rdc_real_fns[RDC_FN_COUNT];

/* The real function, resolved once (RTLD_NEXT, then the owning library by
 * soname with RTLD_NOLOAD, for libraries dlopen'ed RTLD_LOCAL).  NULL when it
 * cannot be found: every hook checks and fails the call the way the real
 * function would for "not initialised". */
void *rdc_real_resolve(enum rdc_fn fn);

/* The real function for the call being served (real_caller.c): where the
 * owning library is outside the global scope, the definition the caller at
 * return address `ret` binds to (two HIP runtimes in one process), else
 * rdc_real_resolve's.  RDC_REAL passes the hook's return address; inside the
 * shim's own helpers the thread's last outside caller counts. */
void *rdc_real_resolve_from(enum rdc_fn fn, const void *ret);
/* Guards real_caller.c's per-caller slots (a leaf). */
extern pthread_mutex_t rdc_caller_lock;
#define RDC_REAL(name) \
	((__typeof__(&name))rdc_real_resolve_from(RDC_FN_##name, __builtin_return_address(0)))

/* Resolve the libc entries now (init; HIP/HSA entries resolve together at
 * the first use of any of them).  Returns how many were found. */
size_t rdc_real_resolve_all(void);

/* Fault-injection seam: pin entry `name` to `fn` (NULL: unresolvable).
 * Also driven by RDNACOMPAT_TEST_UNRESOLVED=name,name (config.c).  Returns 0
 * or RDC_E_NOTFOUND. */
int rdc_real_inject(const char *name, void *fn);

/* ---- init and guard (init.c, guard.c) ------------------------------------- */
/* Idempotent; from the constructor and lazily at the top of each hook. */
void rdc_init(void);
bool rdc_initialized(void);

/* Per-thread recursion guard: while set, hooks pass straight through. */
bool rdc_guard_active(void);
void rdc_guard_enter(void);
void rdc_guard_leave(void);

/* May a hook of the runtime's code reading (hook_comgr.c) act here: outside
 * every hook, or directly inside the real call of a hook that opened the
 * seam (rdc_seam_open after its guard_enter; rdc_seam_close after)? */
void rdc_seam_open(void);
void rdc_seam_close(void);
bool rdc_seam_here(void);
/* ---- configuration (config.c) -------------------------------------------- */
enum rdc_mode { RDC_MODE_MAP = 0, RDC_MODE_SPOOF, RDC_MODE_AUDIT, RDC_MODE_OFF };
enum rdc_level { RDC_LOG_ERROR = 0, RDC_LOG_WARN, RDC_LOG_INFO, RDC_LOG_DEBUG };

#define RDC_MAX_DEVICES 64
#define RDC_MAX_SPOOF_FOR 16

struct rdc_config {
	enum rdc_mode mode;                 /* RDNACOMPAT_MODE */
	signed char device_mode[RDC_MAX_DEVICES]; /* RDNACOMPAT_DEVICE_<N>, -1 unset */
	char spoof_for[RDC_MAX_SPOOF_FOR][64]; /* RDNACOMPAT_SPOOF_FOR, basenames */
	size_t n_spoof_for;
	bool spoof_all;                     /* RDNACOMPAT_SPOOF_FOR=* */
	enum rdc_level level;               /* RDNACOMPAT_LOG */
	bool json;                          /* RDNACOMPAT_LOG_FORMAT=json */
	char log_file[512];                 /* RDNACOMPAT_LOG_FILE */
	char tables_file[512];              /* RDNACOMPAT_TABLES */
	bool redirect_files;                /* RDNACOMPAT_REDIRECT_FILES (default 1) */
	bool opt_in;                        /* RDNACOMPAT_OPT_IN=1: use opt-in edges */
	bool cache;                         /* RDNACOMPAT_CACHE (default 1) */
	bool lazy;                          /* RDNACOMPAT_LAZY (default 1): compressed bundles
	                                       decided at the runtime's unbundling */
	bool name_follows_code;             /* RDNACOMPAT_NAME_FOLLOWS_CODE (default 1): map
	                                       mode tells an object running mapped code
	                                       that code's target (codename.c) */
	bool isa_filter_native;             /* RDNACOMPAT_ISA_FILTER=native: GPU agents
	                                       list only their native ISA */
	bool prefer_fallback;               /* RDNACOMPAT_FALLBACK (default 0): a fallback
	                                       row before an occupancy row */
	char fallback_bundle[512];          /* RDNACOMPAT_FALLBACK_BUNDLE */
	char problems[512];                 /* what was wrong in the environment */
};

extern struct rdc_config rdc_cfg;

/* Parse from an environment lookup function (getenv in the shim; a table in
 * unit tests).  Never fails: bad values keep defaults and are described in
 * cfg->problems. */
void rdc_config_parse(struct rdc_config *cfg, const char *(*get)(const char *name, void *arg),
		      void *arg);
/* Warn (in cfg->problems) about RDNACOMPAT_DEVICE_<N> names in `env`
 * (NAME=VALUE strings) whose N is not 0..RDC_MAX_DEVICES-1. */
void rdc_config_check_names(struct rdc_config *cfg, char *const *env);
/* Log cfg->problems once per process (a process reaching a HIP/HSA hook). */
void rdc_config_report(void);
int rdc_mode_parse(const char *s);          /* enum rdc_mode or -1 */
const char *rdc_mode_name(int mode);
int rdc_level_parse(const char *s);         /* enum rdc_level or -1 */
/* The mode for device `index` (per-device setting, else the global one). */
enum rdc_mode rdc_config_device_mode(const struct rdc_config *cfg, int index);
/* Does `object_path` (a dladdr dli_fname) name one of the spoof_for objects? */
bool rdc_config_spoof_matches(const struct rdc_config *cfg, const char *object_path);

/* May this compatibility edge be used (opt-in edges need RDNACOMPAT_OPT_IN)? */
bool rdc_edge_usable(const struct rdc_compat_edge *e);
/* The policy flags the configuration asks for. */
unsigned rdc_policy_flags(void);

/* ---- logger (log.c) --------------------------------------------------------- */
/* One line per call to stderr or RDNACOMPAT_LOG_FILE, never stdout; errno is
 * preserved.  Text: "rdnacompat[pid]: level: event: k=v ...".  JSON: one
 * object a line. */
struct rdc_kv {
	const char *k;
	const char *v;           /* string value (quoted in JSON) or NULL */
	long long n;             /* numeric value when v == NULL */
};
static inline const char *rdc_kv_str(const char *v)
{
	return v ? v : "";
}
#define RDC_KV_S(key, val) ((struct rdc_kv){ (key), rdc_kv_str(val), 0 })
#define RDC_KV_N(key, num) ((struct rdc_kv){ (key), NULL, (long long)(num) })

void rdc_log_open(const struct rdc_config *cfg);
bool rdc_log_enabled(enum rdc_level lvl);
void rdc_log_event(enum rdc_level lvl, const char *event, const struct rdc_kv *kv, size_t n);
void rdc_logf(enum rdc_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A multi-line block written with one write(2) regardless of level/format
 * (the diagnosis). */
void rdc_log_block(const char *text, size_t len);
/* Format one event line into buf (pure; used by rdc_log_event and tests). */
size_t rdc_log_format(char *buf, size_t n, bool json, int pid, enum rdc_level lvl,
		      const char *event, const struct rdc_kv *kv, size_t nkv);
extern pthread_mutex_t rdc_log_lock;

/* ---- device registry (devices.c) ------------------------------------------ */
struct rdc_device {
	int index;               /* HIP device ordinal (order of GPU agents, then
	                            HIP_VISIBLE_DEVICES/CUDA_VISIBLE_DEVICES);
	                            -1 when HIP does not see the agent */
	int agent_index;         /* position among ROCR's GPU agents */
	uint64_t agent;          /* hsa_agent_t.handle */
	struct rdc_target target;/* the true target (ISA name) */
	char isa_name[96];       /* "amdgcn-amd-amdhsa--gfx1031" */
	uint64_t isa;            /* its hsa_isa_t.handle (0: only the agent name) */
	struct rdc_target generic;/* the generic ISA the runtime also reports
	                            (ROCR >= ~6.4: "gfx10-3-generic"), proc "" if none */
	uint64_t generic_isa;    /* its handle, 0 if none */
	unsigned n_isas;         /* ISAs the agent reports */
	enum rdc_mode mode;
	char spoof_as[RDC_PROC_MAX]; /* the target spoof mode reports, "" if none */
};

/* Make sure the registry is filled: when the runtime is not up yet this
 * calls the real hsa_init (keeping that reference: HIP 5.2 needs the
 * rebuilt bundle at registration time) and enumerates the agents.  Returns
 * the number of GPU devices, or a negative RDC_E_*. */
int rdc_devices_ensure(void);
/* Fill only when HSA is already initialised by someone else (hsa_init hook). */
void rdc_devices_note_runtime_up(void);
/* Is any device (or the global mode) other than off? */
bool rdc_any_device_active(void);
/* Does the runtime itself load `code` on `dev`: the agent lists a generic
 * ISA (ROCR >= ~6.4) that `code` matches, and RDNACOMPAT_ISA_FILTER does not
 * hide it from HIP? */
bool rdc_device_runtime_generic(const struct rdc_device *dev, const struct rdc_target *code);
/* 0..n-1 without starting anything; 0 when unknown. */
size_t rdc_devices_count(void);
const struct rdc_device *rdc_device_get(size_t i);
const struct rdc_device *rdc_device_by_agent(uint64_t handle);
/* The device whose native ISA is `handle`, or NULL. */
const struct rdc_device *rdc_device_by_isa(uint64_t handle);
/* The device HIP calls `ordinal`, or NULL. */
const struct rdc_device *rdc_device_by_hip(int ordinal);
/* HIP's ordinal for ROCR GPU agent `agent_index` given a visibility list
 * ("1,0", as HIP_VISIBLE_DEVICES); -1 when hidden.  Pure. */
int rdc_hip_ordinal(const char *visible, int agent_index);
/* The tables in use (built-in or RDNACOMPAT_TABLES), loaded once. */
const struct rdc_tables *rdc_tables(void);
/* generic_isa.c: entry g of b, which the runtime loads by itself for dev
 * (its generic ISA), checked against the edge's per-kernel instruction
 * conditions: 0 (r filled: r->n_lacking kernels lack a workaround), 1 when
 * the edge has no such condition, <0 when the entry cannot be read. */
struct rdc_isa_report;
/* Is the edge dev <- generic one whose code is checked by its instructions
 * (rdc_edge_checks_instructions), so that the runtime's own generic choice
 * is checked (lazy.c asks before taking a generic item as the device's own)? */
bool rdc_generic_edge_checked(const struct rdc_tables *t, const char *dev, const char *generic);
int rdc_generic_isa_check(const struct rdc_device *dev, const struct rdc_bundle *b, long g,
			  struct rdc_isa_report *r);
/* Said at warn where the runtime's generic choice stands: lacking kernels
 * (generic-unsafe), or an entry that could not be checked (generic-unchecked). */
void rdc_generic_isa_say(const char *lib, long index, const struct rdc_device *dev, int rc,
			 const struct rdc_isa_report *r);
/* "gfx10-3-generic", "gfx11-generic", ...: LLVM names every generic target
 * "<family>-generic". */
bool rdc_proc_is_generic(const char *proc);
/* HSA_ISA_INFO_NAME of `isa` through the real hsa_isa_get_info_alt (so
 * never spoofed); 0 or RDC_E_NOTFOUND. */
int rdc_isa_name_of(uint64_t isa, char *buf, size_t n);
/* Did someone else (HIP) initialise HSA (so fat binaries are digested at
 * registration)? */
bool rdc_runtime_up(void);
extern pthread_mutex_t rdc_dev_lock;

/* ---- spoof mode (spoof.c) ------------------------------------------------ */
enum rdc_spoof_via { RDC_SPOOF_VIA_PROPS, RDC_SPOOF_VIA_AGENT, RDC_SPOOF_VIA_ISA,
		     RDC_SPOOF_VIA_COUNT };
/* The caller object's path when the code at `caller` (a return address)
 * must see `dev` as dev->spoof_as (spoof mode, RDNACOMPAT_SPOOF_FOR), else
 * NULL. */
const char *rdc_spoof_caller(const struct rdc_device *dev, const void *caller);
/* The processor the code at `caller` must be told `dev` is, or NULL (the
 * truth): dev->spoof_as in spoof mode for a listed caller; in map mode the
 * target whose code the caller's object runs (rdc_codename).  *who names the
 * caller for the log; buf (n bytes) may hold the answer. */
const char *rdc_spoof_target(const struct rdc_device *dev, const void *caller, char *buf, size_t n,
			     const char **who);
/* Map mode (codename.c): the target `caller`'s object is told `dev` is — the
 * one its own fat binary's entry for dev is mapped from — written to proc;
 * NULL when it sees the truth (RDNACOMPAT_NAME_FOLLOWS_CODE=0, no device
 * code, its own entry, or the entry ids do not tell). */
const char *rdc_codename(const struct rdc_device *dev, const void *caller, char *proc, size_t n);
extern pthread_mutex_t rdc_codename_lock;
/* An object's name for the log: its link-map name, the program's for the
 * main program (codename.c). */
struct link_map;
const char *rdc_object_name(const struct link_map *m);

/* rtcname.c: for an object (path) listed in tables/rtc-names.tsv whose
 * sources do not know dev's name, the most preferred usable compat target
 * they know, into proc (n bytes) with *why set; NULL otherwise. */
const char *rdc_rtcname(const struct rdc_device *dev, const char *object_path, char *proc, size_t n,
			const char **why);
/* The first registered fat binary (the bundle as the object holds it) that
 * lies in object m, or NULL (hook_fatbin.c). */
const void *rdc_fatbin_of_object(const struct link_map *m);
/* Close the library file hook_fatbin.c keeps open between the bundles of
 * one library (called when the runtime starts; takes rdc_fatbin_lock). */
void rdc_fatbin_file_release(void);
/* The "spoof" event, once per device and API. */
void rdc_spoof_log_once(const struct rdc_device *dev, enum rdc_spoof_via via, const char *reported,
			const char *caller);
/* `name` ("amdgcn-amd-amdhsa--gfx1031:xnack-" or "gfx1031") with processor
 * `proc` replaced by `as` into out: 0, RDC_E_NOTFOUND (proc not there as a
 * whole processor) or RDC_E_RANGE (does not fit).  Pure. */
int rdc_spoof_rename(const char *name, const char *proc, const char *as, char *out, size_t n);

/* ---- loaded segments (segment.c) ------------------------------------------- */
struct rdc_segment {
	const void *start;       /* segment's first file-backed byte in memory */
	uint64_t avail;          /* readable file-backed bytes from the pointer */
	uint64_t file_offset;    /* file offset of the pointer */
	bool file_backed;        /* pointer within p_filesz */
	bool readable;           /* the segment is PF_R */
	char path[512];          /* object path ("/proc/self/exe" for the program) */
	char name[512];          /* for logs: the object's name as loaded */
};
/* Find the PT_LOAD segment holding `p`.  RDC_E_NOTFOUND if none. */
int rdc_segment_find(const void *p, struct rdc_segment *out);
/* The name a segment's object goes by in the log: the program's own path
 * for "/proc/self/exe", else the object's name as loaded. */
void rdc_segment_lib_name(const struct rdc_segment *seg, char *buf, size_t n);

/* ---- bundle rebuild (remap.c, remap_header.c) ------------------------------- */
struct rdc_hdr_entry {
	uint64_t offset, size;
	const char *id;
	size_t id_len;
};
/* Size of a plain bundle header with these entries. */
uint64_t rdc_hdr_size(const struct rdc_hdr_entry *e, size_t n);
/* Write the header (magic, count, descriptors) into buf (cap bytes). */
int rdc_hdr_write(const struct rdc_hdr_entry *e, size_t n, uint8_t *buf, uint64_t cap);

/* Where the decision cache (dcache.h) keeps the patches of an added entry
 * that has more than struct rdc_add holds: the library's cache (lives as
 * long as the process), the decision's key and the device's target. */
struct rdc_dc_lib;
struct rdc_dc_ref {
	struct rdc_dc_lib *lib;          /* NULL: not kept there */
	uint64_t key;
	struct rdc_target dev;
};

/* How a hand-over keeps the runtime from launching a held kernel
 * (rdc_policy_choose with RDC_POLICY_HOLD; docs/SHIM.md "Held kernels"):
 *   NONE   the path cannot: a kernel that needs holding refuses its entry;
 *   RENAME the held kernels are renamed in the object the runtime gets
 *          (rdc_codeobj_hide_patches): module and library loads, where the
 *          runtime then answers hipErrorNotFound for them;
 *   ROUTE  renamed as well, and each held kernel gets a deny route
 *          (route.c) bound to its host stub: fat binaries decided at
 *          registration, whose stubs the runtime looks up by name (CLR's
 *          DeviceFunc stops the process on a registered kernel it cannot
 *          find; the hooks answer first).  HIP 7's lazily read fat binaries
 *          are renamed, their stubs watched by hold.c. */
enum rdc_hold { RDC_HOLD_NONE = 0, RDC_HOLD_RENAME, RDC_HOLD_ROUTE };

/* One added entry: for a device target `to`, entry `from` retargeted. */
#define RDC_ADD_PATCHES 4
struct rdc_add {
	long from;                       /* entry index in the source bundle */
	struct rdc_target to;            /* processor + the entry's features */
	char id[128];                    /* new entry id */
	bool from_cache;                 /* the decision and patches came from the cache */
	bool drop_own;                   /* a `prefer` rule chose `from` over the device's
	                                    own entry: leave out the original entries of
	                                    processor to.proc (remap.c) */
	/* In-place patches computed from the policy's parse (or the decision
	 * cache): here when there are at most RDC_ADD_PATCHES, else in the
	 * cache under patch_ref (rdc_dcache_patches); without them they are
	 * computed from the bytes (rdc_add_patches). */
	bool have_patches;
	size_t n_patches;
	struct rdc_patch patches[RDC_ADD_PATCHES];
	struct rdc_dc_ref patch_ref;
	/* Kernels the decision holds (rdc_policy_choose), and how (not NONE:
	 * the patches above rename them; patches computed from the bytes, or a
	 * retargeted copy, get them from rdc_policy_hold_patches, remap.c;
	 * ROUTE: the caller also notes deny routes, rdc_route_hold). */
	size_t n_held;
	enum rdc_hold hold;
	const struct rdc_tables *tables; /* those the decision was made with (held
	                                    kernels are found again from them) */
};

/* The last check before added entry `a` is handed over (remap.c): the
 * object `data` (`size` bytes) is, by its own ELF header, code the compat
 * table lets the device run (rdc_policy_handover_check) — whatever the
 * decision or the decision cache said.  0, or RDC_E_REFUSED (logged as a
 * "handover-refused" event at error, with why in `d`): then no copy or
 * other fallback hands it over either (decide.c).  rdc_decided_patches
 * calls it first, and every hook hands an added entry over through
 * rdc_decided_patches before any copy (rdc_add_copy) is made. */
int rdc_add_handover(const struct rdc_add *a, const void *data, size_t size, struct rdc_diag *d);
/* The in-place patches that make entry bytes `data` (`size`) the object
 * for `a`: a malloc'd array (the caller frees it), the decision's own when
 * it holds them, else computed from the bytes (counted as
 * RDC_ST_NOTES_DECODED); each checked to lie inside the entry (remap.c).
 * 0, or nonzero (with `d`) when the retarget is no set of patches. */
int rdc_add_patches(const struct rdc_add *a, const void *data, size_t size, struct rdc_patch **patches,
		    size_t *n_patches, struct rdc_diag *d);
/* The names of the kernels added entry `a` holds, found again from entry
 * bytes `code` with the decision's tables (rdc_policy_held_kernels): a
 * malloc'd block of *n pointers and their strings.  RDC_E_REFUSED when the
 * code holds another count than the decision. */
int rdc_add_held_names(const struct rdc_add *a, const void *code, size_t size, char ***names, size_t *n,
		       struct rdc_diag *d);
/* The same, and those more than the decision holds (a Tensile object: one
 * per kernel) from the decision cache under a->patch_ref, where the
 * policy's parse or an earlier run left them, before computing them
 * (decide.c).  Every user of a decision's patches goes through one of the
 * two: a->patches holds only the first RDC_ADD_PATCHES. */
int rdc_decided_patches(const struct rdc_add *a, const void *data, size_t size,
			struct rdc_patch **patches, size_t *n_patches, struct rdc_diag *d);
/* Added entry `a` made from entry `e` as a retargeted copy (malloc'd),
 * when its retarget is no set of in-place patches (`why`, logged at
 * debug): the object is decoded again, counted as RDC_ST_NOTES_DECODED
 * (remap.c; lazy.c's and the rebuilders' one fallback). */
int rdc_add_copy(const struct rdc_bundle_entry *e, const struct rdc_add *a, const char *why,
		 uint8_t **copy, size_t *len, struct rdc_diag *d);
/* Either of the two, as the rebuilders take it (remap.c: NULL means
 * rdc_add_patches, which needs no decision cache). */
typedef int rdc_patches_fn(const struct rdc_add *a, const void *data, size_t size,
			   struct rdc_patch **patches, size_t *n_patches, struct rdc_diag *d);
/* Does each of n patches lie inside an object of `size` bytes? */
bool rdc_patches_inside(const struct rdc_patch *patches, size_t n, size_t size);

/* A rebuilt bundle living in memory the shim owns. */
struct rdc_region {
	void *base;                      /* mmap'ed region (or NULL) */
	size_t len;
	uint8_t *heap;                   /* malloc'ed bundle (module path) */
	const void *bundle;              /* what the runtime gets */
	uint64_t bundle_size;
	size_t private_bytes;            /* bytes the shim made private (COW/copies) */
	bool file_mapped;                /* memory goal path taken */
	uint8_t *hdr;                    /* the header's pages in the arena, or NULL */
	size_t hdr_len;
	size_t originals;                /* original entries kept in the bundle */
};

/* The header arena (remap_arena.c): page-aligned room for `len` bytes of
 * bundle header low in the address space, or NULL (no arena: the header
 * stays in front of its entries); writable. */
uint8_t *rdc_arena_take(size_t len);
/* Give `at`'s pages back: to the kernel now, or (`later`: a bundle HIP
 * unregistered) at the next rdc_arena_drain, which rdc_region_drain calls. */
void rdc_arena_release(uint8_t *at, size_t len, bool later);
void rdc_arena_drain(void);
/* Guards the arena's page maps (remap_arena.c; shim.h's lock order). */
extern pthread_mutex_t rdc_arena_lock;
bool rdc_arena_holds(const void *p);

/* Rebuild `b` (whose bytes are those of the file open on `fd` at
 * `file_offset`; the caller keeps the descriptor) with the added entries.  Original entries
 * (kept only when `originals`: rdc_originals_needed) are a MAP_PRIVATE
 * mapping of the file; each added entry is its own private file mapping
 * with only the changed pages patched.  Never writes the caller's memory.
 * Each added entry's patches come from `get` (NULL: rdc_add_patches); an
 * entry whose retarget is no set of patches is a retargeted copy, counted
 * as RDC_ST_NOTES_DECODED.  `added` (NULL, or room for n_add): where each
 * added entry lies. */
int rdc_remap_file(const struct rdc_bundle *b, int fd, uint64_t file_offset,
		   const struct rdc_add *add, size_t n_add, bool originals, rdc_patches_fn *get,
		   struct rdc_region *out, uint8_t **added, struct rdc_diag *d);
/* Rebuild into one heap buffer (images from hipModuleLoadData, compressed
 * bundles); the original entries are copied too only when `originals`.
 * Each added entry is its original bytes copied once and patched there
 * (patches from `get`, as above), else a retargeted copy. */
int rdc_remap_copy(const struct rdc_bundle *b, const struct rdc_add *add, size_t n_add,
		   bool originals, rdc_patches_fn *get, struct rdc_region *out, struct rdc_diag *d);
void rdc_region_free(struct rdc_region *r);
/* The same for a region the runtime has let go of (HIP unregistered its
 * fat binary), except that its mapping is unmapped later, together with up
 * to 255 others (rdc_region_drain; at once when 256 wait): unmapping a region of
 * more than a few pages flushes the whole TLB of every CPU the process runs
 * on, and HIP unregisters hundreds of fat binaries at exit, each walking
 * its table of every registered function. */
void rdc_region_retire(struct rdc_region *r);
/* Unmap the retired regions and give back the arena pages of their headers
 * (at the next registration). */
void rdc_region_drain(void);
extern pthread_mutex_t rdc_retired_lock;
/* Map `len` bytes of `path` at `off` read-only/private (segment copy of the
 * bundle for parsing).  Returns the address of byte `off` or NULL. */
const void *rdc_map_file_range(const char *path, uint64_t off, uint64_t len, void **map_base,
			       size_t *map_len);
/* The same from a descriptor the caller keeps. */
const void *rdc_map_fd_range(int fd, uint64_t off, uint64_t len, void **map_base, size_t *map_len);

/* The loaded object holding `addr` (_dl_find_object where glibc has it,
 * else dladdr1; real_caller.c), or NULL. */
struct link_map;
struct link_map *rdc_object_of(const void *addr);

/* ---- decisions (decide.c) ------------------------------------------------- */
/* True when every device the shim acts for has its own entry in `t` (a
 * table-only bundle will do: rdc_bundle_parse_table) and no bad-kernel or
 * `prefer` row could concern it for library `scope`: then nothing in the
 * bundle needs reading.  Logs one debug line per device when true. */
bool rdc_decide_native_by_table(const struct rdc_bundle *t, const char *lib, long index,
				const char *source, const char *scope);
/* The entries to add to plain bundle `t` for the mapped devices when every
 * acting device's choice is known from the entry ids alone (its own entry,
 * or rdc_policy_mapped_by_id) and no device is in audit mode and no
 * `prefer` row may concern library `scope`.  Fills add[] (from, to, id; no
 * patches) and *n_add; false (nothing to add, or the code must be read to
 * decide) leaves the decision to rdc_decide_bundle_st.  Logs nothing: the
 * decision is made, and logged, when the runtime reads the code (defer.c). */
bool rdc_decide_by_table(const struct rdc_bundle *t, const char *scope, struct rdc_add *add,
			 size_t *n_add);
/* Does some device still need the bundle's original entries next to the
 * `n_add` added ones: a device in off or audit mode, one with a native or
 * generic entry, one whose target got no added entry?  false only when
 * every device the shim knows loads an added entry. */
bool rdc_originals_needed(const struct rdc_add *add, size_t n_add);
/* Decide, for every distinct device target, what bundle `b` needs.  Logs
 * one line per device.  `lib` also scopes the kernel rules' `prefer` rows.  Fills `add` (capacity RDC_MAX_DEVICES) and
 * *n_add; records missing code for the diagnosis.  `what` is "lib" text;
 * `index` the bundle index within it. */
int rdc_decide_bundle(const struct rdc_bundle *b, const char *lib, long index,
		      const char *source, struct rdc_add *add, size_t *n_add);
/* The policy's flags for a hand-over that holds kernels as `hold` says. */
unsigned rdc_policy_flags_hold(enum rdc_hold hold);
/* One warn line ("refused") per kernel of choice `c` that failed a check
 * on `dev`: lib, bundle (or kpack code-object) index, kernel, check, reason. */
void rdc_log_refused(const char *lib, long index, const struct rdc_device *dev,
		     const struct rdc_choice *c);

/* ---- HIP 5.2 fat binaries, decided when the runtime loads the code -------- */
/* (defer.c; docs/SHIM.md "When the shim decides")
 * The e_flags patch of each added entry (read with pread from `fd`, the
 * library file; the bundle starts at `file_off`): add[k].patches[0]. */
int rdc_defer_patches(const struct rdc_bundle *b, int fd, uint64_t file_off, struct rdc_add *add,
		      size_t n_add, struct rdc_diag *d);
/* Remember the entries added to bundle `b`'s rebuild `r` (add[k] lies at
 * added[k]: rdc_remap_file) as not decided yet: the bundle as loaded
 * (`orig`, `extent`), its library (`lib` for the log, `path` to open, `st`,
 * `file_off`). */
void rdc_defer_note(const struct rdc_region *r, const struct rdc_bundle *b,
		    const struct rdc_add *add, uint8_t *const *added, size_t n_add, const void *orig,
		    uint64_t extent, uint64_t file_off, const char *lib, const char *path, long index,
		    const struct stat *st);
/* The rebuilt bundle whose rdc_region.base is `region` is released. */
void rdc_defer_forget(const void *region);
/* The runtime is about to load the code object at `p`: when it is an entry
 * noted above, decide its bundle now and patch it.  0 to go on, -1 when
 * that entry must not be loaded (logged). */
int rdc_defer_load(const void *p);
extern pthread_mutex_t rdc_defer_lock;
/* May the plain fat binaries registered with `real` (__hipRegisterFatBinary)
 * be decided at the load (RDNACOMPAT_LAZY; the runtime's soname: HIP 5.2
 * and 6.4, which keep the bundle handed over at registration)? */
bool rdc_lazy_patch_at_load(const void *real);

/* ---- compressed bundles, decided when the runtime unbundles them ----------- */
/* (hook_dlsym.c, hook_comgr.c, lazy.c; docs/SHIM.md "When the shim decides")
 * The wrapper to hand out for comgr entry `name`, found as `real` in the
 * library `handle` by `real_dlsym`, or `real` itself (an entry not wrapped,
 * lazy deciding off, a second comgr library). */
void *rdc_comgr_wrap(void *handle, const char *name, void *real,
		     void *(*real_dlsym)(void *, const char *));
/* Guards hook_comgr.c's comgr table and its data/action lists (a leaf). */
extern pthread_mutex_t rdc_comgr_lock;
/* May bundles be left for the runtime's own reading (RDNACOMPAT_LAZY, not
 * in audit mode, the dlsym hook built, HIP not loading eagerly)? */
bool rdc_lazy_enabled(void);
/* Does HIP read every kernel at registration (HIP_ENABLE_DEFERRED_LOADING=0)? */
bool rdc_hip_eager_loading(void);
/* May fat binary `p`, registered with the HIP runtime whose
 * __hipRegisterFatBinary is `real`, be left undecided until that runtime
 * reads it?  A runtime that reads bundles through comgr (HIP >= 6: a
 * compressed bundle, or a plain one without a generic entry, which HIP 6.4
 * reads with its own parser); never HIP 5.2 (it parses every bundle at
 * hipInit and aborts on a missing target; it reads no compressed one). */
bool rdc_lazy_fatbin_ok(const void *p, uint64_t avail, const void *real);
/* __hipRegisterFatBinary passed bundle `p` through undecided. */
void rdc_lazy_note_fatbin(const void *p);
/* Its index among the bundles noted in segment `seg`, or -1. */
long rdc_lazy_fatbin_index(const void *p, const struct rdc_segment *seg);
/* A module load of compressed `image` is under way on this thread, left
 * to the runtime's unbundling (hook_module.c): its name for the log, the
 * kernel rules' scope and where its decisions are cached (cache_name NULL:
 * nowhere; st its file; key its record) for lazy.c.  Replaced by the
 * thread's next module load. */
void rdc_lazy_module_context(const void *image, const char *what, const char *source,
			     const char *scope, const char *cache_name, const void *st,
			     uint64_t key);
/* HIP unregistered bundle `p`: objects made for it are freed. */
void rdc_lazy_forget(const void *p);
/* lazy.c's locks (shim.h's lock order): the objects made for plain
 * bundles (held while one is decided), the noted fat binaries, the
 * unbundle memos, the last runtime's major version (the last three leaves). */
extern pthread_mutex_t rdc_lazy_obj_lock, rdc_lazy_note_lock, rdc_lazy_memo_lock, rdc_lazy_rt_lock;
/* Where the uncompressed bundle at `p` (registered, in a loaded library)
 * has code for each ISA name isa[k] (NULL: not asked): the device of that
 * name is decided (logged, cached) and obj[k]/size[k] set to its
 * retargeted code object, which lives until the bundle is unregistered.
 * 0, or a negative RDC_E_* (nothing set). */
int rdc_lazy_lookup(const void *p, const char *const *isa, size_t n, const void **obj,
		    size_t *size);
/* One code object the unbundler extracted: its entry id and bytes. */
struct rdc_lazy_item {
	char id[128];
	const uint8_t *data;
	size_t size;
};
/* One code object to hand the runtime: `id` (the device's entry id), the
 * item it is made from, and either the retargeted bytes (malloc'ed) or, when
 * data is NULL, the in-place patches that turn the item's bytes into it
 * (the unbundler's own copy is handed over renamed, and patched when the
 * runtime reads it: hook_comgr.c).  head: the item's first bytes before
 * patching (what a read of the renamed copy must start with). */
struct rdc_lazy_obj {
	char id[128];
	uint8_t *data;
	size_t size;
	size_t from;
	size_t n_patches;
	struct rdc_patch *patches;  /* malloc'ed */
	uint8_t head[64];
};
/* The bytes of a patch-only object o, from its item's bytes `src`
 * (o->size of them): o->data is malloc'ed and patched.  0 or an error. */
int rdc_lazy_obj_materialize(struct rdc_lazy_obj *o, const uint8_t *src);
/* Free what o holds (its data and patches). */
void rdc_lazy_obj_free(struct rdc_lazy_obj *o);
/* Entry ids to ask the unbundler for besides `ids` (the runtime's): the
 * codes each device the shim maps may use (compat table, usable edges).
 * Returns how many were written to extra (at most max). */
size_t rdc_lazy_extra_ids(const char *const *ids, size_t n_ids, char (*extra)[128], size_t max);
/* Does every acting device have an item of its own (or a generic one the
 * runtime loads itself) from bundle `p`, and no `prefer` row may concern
 * it?  Then nothing is decided. */
bool rdc_lazy_all_native(const void *p, const struct rdc_lazy_item *items, size_t n_items);
/* May a `prefer` row concern the acting device of ISA name `isa` for the
 * bundle at `p` (then its own entry is not the last word)? */
bool rdc_lazy_prefer_may(const void *p, const char *isa);
/* Decide the bundle at `p` (`size` bytes, as the runtime handed it to the
 * unbundler) from the extracted items: logs each device's decision, notes
 * missing code for the diagnosis (from the entry table), and fills objs
 * (capacity RDC_MAX_DEVICES) with the retargeted code objects to add. */
int rdc_lazy_decide(const void *p, uint64_t size, const struct rdc_lazy_item *items,
		    size_t n_items, struct rdc_lazy_obj *objs, size_t *n_objs);
/* ---- work counters (stats.c) ----------------------------------------------- */
enum rdc_stat {
	RDC_ST_FATBINS,          /* fat binaries registered */
	RDC_ST_DEFERRED,         /* ... of them left for the runtime's unbundling */
	RDC_ST_UNBUNDLES,        /* unbundle actions of the runtime seen */
	RDC_ST_TABLES,           /* entry tables read from a compressed bundle */
	RDC_ST_DECOMPRESSED,     /* bytes the shim itself decompressed */
	RDC_ST_PARSED,           /* code objects the policy parsed */
	RDC_ST_RETARGETED,       /* code objects retargeted (patches computed) */
	RDC_ST_FROM_CACHE,       /* ... made from the cache's decision and patches */
	RDC_ST_NOTES_DECODED,    /* code objects whose notes were decoded again for
	                            their patches (not the policy's parse) */
	RDC_ST_CACHED,           /* decisions taken from the decision cache */
	RDC_ST_FILES_OPENED,     /* library files opened to read or map bundles */
	RDC_ST_HOLD_ASKED,       /* host-stub calls the launch hooks' watch asked about (hold.c) */
	RDC_ST_HOLD_STUBS,       /* ... of them answered afresh: distinct (stub, device) */
	RDC_ST_COUNT
};
void rdc_stat_add(enum rdc_stat s, uint64_t n);
uint64_t rdc_stat_get(enum rdc_stat s);
/* The "stats" line (debug; info with RDNACOMPAT_STATS=1), once, at exit. */
void rdc_stats_log(void);
/* ---- diagnosis (diagnose.c) -------------------------------------------------- */
void rdc_diag_note_missing(const char *lib, long index, const struct rdc_bundle *b,
			   const struct rdc_device *dev, const struct rdc_choice *c);
/* Print the pending block once (before HIP 5.2 aborts: at its hsa_init, or
 * at registration when HIP is already up). */
void rdc_diag_flush(void);
size_t rdc_diag_pending(void);
extern pthread_mutex_t rdc_diag_lock;

/* ---- images without a size (image.c) ------------------------------------------ */
/* Bytes readable from p through contiguous readable mappings; 0 if none. */
uint64_t rdc_readable_extent(const void *p);
/* Tell image.c that p starts an image the shim made (a rebuilt bundle;
 * remap.c) of `size` bytes as its header measures them, of which the first
 * `contiguous` are one readable run: p itself measures `size`, a pointer
 * inside the run the rest of the run, so measuring it reads no
 * /proc/self/maps.  A bundle whose header is in the arena is two runs (the
 * header pages, low; the entries, high) and is told as two: nothing between
 * them (the heap, other mappings) is taken for part of it.  Forget each
 * before it is unmapped or freed. */
void rdc_image_known(const void *p, uint64_t size, uint64_t contiguous);
void rdc_image_forget(const void *p);
/* Guards image.c's known images (a leaf). */
extern pthread_mutex_t rdc_image_lock;
/* What a region holds in memory: header (arena) + region, or the bundle. */
uint64_t rdc_region_bytes(const struct rdc_region *r);
/* End of an AMDGPU ELF (furthest header/section/segment byte) within avail. */
int rdc_elf_extent(const void *p, uint64_t avail, uint64_t *extent);

/* ---- keyed lists ---------------------------------------------------------- */
/* A node of a singly linked list keyed by a handle (HSA reader, HIP module):
 * the first member of the structures kept that way. */
struct rdc_link {
	struct rdc_link *next;
	uint64_t key;
};
/* The first node with `key`, or NULL (caller holds the list's lock). */
static inline struct rdc_link *rdc_list_find(struct rdc_link *head, uint64_t key)
{
	while (head && head->key != key)
		head = head->next;
	return head;
}
/* Unlink and return the first node with `key`, or NULL. */
static inline struct rdc_link *rdc_list_take(struct rdc_link **head, uint64_t key)
{
	for (struct rdc_link **pp = head; *pp; pp = &(*pp)->next)
		if ((*pp)->key == key) {
			struct rdc_link *l = *pp;
			*pp = l->next;
			return l;
		}
	return NULL;
}
static inline void rdc_list_push(struct rdc_link **head, struct rdc_link *l, uint64_t key)
{
	l->key = key;
	l->next = *head;
	*head = l;
}

/* ---- misc ------------------------------------------------------------------ */
/* Basename of a path (pointer into it). */
const char *rdc_basename(const char *path);
/* Internal file access that never goes through our own hooks. */
int rdc_sys_open(const char *path, int flags);
int rdc_sys_exists(const char *path);
/* The same file, unchanged (device, inode, size, modification time)? */
bool rdc_same_file(const struct stat *a, const struct stat *b);
/* Per-arch shared objects (hook_files.c): when `path` (absolute or relative,
 * with a '/') is a library's per-arch shared object for a mapped device's
 * target (rdc_datafile_is_dso) and does not exist, the same path with the
 * most preferred compatible target that exists, in out; said once at warn
 * (how=dlopen).  False: use path as given. */
bool rdc_redirect_dso(const char *path, char *out, size_t n);
/* Fork handling (fork.c). */
void rdc_fork_install(void);
/* hook_kpack.c's list of buffers it handed out (a leaf). */
extern pthread_mutex_t rdc_kpack_lock;
extern pthread_mutex_t rdc_fatbin_lock, rdc_module_lock, rdc_reader_lock;

/* Held kernels of fat binaries HIP 7 reads lazily (hold.c). */
extern pthread_mutex_t rdc_hold_lock;
/* Start watching host-stub launches when some acting device's compat
 * edges carry an instruction condition and some fat binary was left to the
 * runtime's reading; called when either becomes known. */
void rdc_hold_watch_check(void);
bool rdc_hold_watching(void);
/* The kernels `names` (n; the block is taken over) of the bundle at
 * `bundle` are held on device processor `proc`. */
void rdc_hold_note(const void *bundle, const char *proc, char **names, size_t n);
/* The object holding `bundle` is being unloaded: its held kernels and the
 * answers for its stubs are dropped (an object loaded later at the same
 * addresses starts afresh). */
void rdc_hold_forget(const void *bundle);
/* Is host stub `stub` a held kernel on HIP device ordinal `ord` (-1: the
 * current device)?  Then the hook (`api`) answers as for a function the
 * runtime does not know. */
bool rdc_hold_denied(const void *stub, int ord, const char *api);
/* Fat binaries left to the runtime's reading (lazy.c), and deciding those
 * of one loaded object now, before a kernel of it is launched. */
size_t rdc_lazy_noted_count(void);
void rdc_lazy_decide_object(const struct link_map *obj);

#endif
