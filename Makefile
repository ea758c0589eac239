# SPDX-License-Identifier: MIT
#
# rdnacompat — top-level build.
#
#   make              build/librdnacompat.so, build/bin/rdnacompat (the front end),
#                     build/libexec/rdnacompat/rdnacompat-tool, build/sim/librdnacompat-sim.so
#   make check        install Debian deps if missing, build, build fixtures, run every test
#   make deps         install the Debian 12 packages we need (idempotent)
#   make roots        the Debian roots with ROCm 6.4 and 7.2 (tests/roots/pins), cached
#   make demo         the main job on the embedded default (a simulated gfx1031)
#   make asan         the whole suite under ASan+UBSan (separate build dir)
#   make install      PREFIX=/usr/local DESTDIR=
#   make deb          Debian packages into build/deb/ (debian/, dpkg-buildpackage, lintian)
#   make wheel        the Python wheel into build/wheel/ (python/, no index)
#   make CC=clang-15  the same with clang (both must stay warning-free)
#
# Tree and data flow (one way):
#   shim/core/   the pure library: target ids, bundles, code objects, tables,
#                policy.  Bytes in, decisions out.  -> build/librdc_core.a
#   shim/hooks/  the LD_PRELOAD client: runtime call -> hook -> policy ->
#                retargeted code object -> real function. -> build/librdnacompat.so
#   tools/rdnacompat/  the command-line client.  -> build/libexec/rdnacompat/rdnacompat-tool
#   tools/front/       what users run as `rdnacompat`: libc only; `run` itself,
#                      the rest exec'd to the tool.      -> build/bin/rdnacompat
#   tools/simgpu/      the simulated GPU (/dev/kfd, preloaded) -> build/sim/librdnacompat-sim.so
#   tools/tablegen/    tables/*.tsv -> build/gen/tables_data.c (generated C)
#   tests/             unit (cmocka), integration (real ROCm on the simulator)

CC       ?= gcc
BUILD    ?= build
PREFIX   ?= /usr/local
DESTDIR  ?=
OPT      ?= -O2 -g
SAN      ?=
VERSION  := 0.1.0

WARN     := -Wall -Wextra -Werror
CPPFLAGS := -D_GNU_SOURCE -Iinclude -I$(BUILD)/gen -I/usr/include/hsa
CFLAGS_ALL = -std=c11 $(WARN) $(OPT) $(SAN) -fPIC -fvisibility=hidden $(CPPFLAGS) $(EXTRA_CFLAGS)
LDSAN    = $(SAN)
CORE_LIBS := -lelf -lmsgpackc -lzstd -lz -lm -lnettle -liberty
# The shim links Debian's libmsgpackc.a and libzstd.a (PIC; hidden by the
# version script): two fewer libraries for ld.so to load into every process
# under LD_PRELOAD, ~0.1 ms per exec (docs/PERF.md).  libelf.a is not
# usable in a shared object (TLS relocation).  SHIM_STATIC=0: all shared.
SHIM_STATIC ?= 1
ifeq ($(SHIM_STATIC),1)
SHIM_LIBS := -lelf -Wl,-Bstatic -lmsgpackc -lzstd -lnettle -liberty -Wl,-Bdynamic -lz -lm
else
SHIM_LIBS := $(CORE_LIBS)
endif

# ---- the pure core -------------------------------------------------------
CORE_SRC := $(sort $(wildcard shim/core/*.c))
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
GEN_C    := $(BUILD)/gen/tables_data.c
GEN_OBJ  := $(BUILD)/obj/gen/tables_data.o
TABLES   := $(sort $(wildcard tables/*.tsv))
CORE_LIB := $(BUILD)/librdc_core.a

# ---- clients ---------------------------------------------------------------
HOOK_SRC := $(sort $(wildcard shim/hooks/*.c))
HOOK_OBJ := $(HOOK_SRC:%.c=$(BUILD)/obj/%.o)
# The fallback kernels (shim/fallback/*.hip), built by Debian's clang for the
# AMD targets into one offload bundle that the shim embeds as
# rdc_fallback_bundle (shim/fallback/fallback_blob.h, docs/FALLBACKS.md).
FB_SRC   := $(sort $(wildcard shim/fallback/*.hip shim/fallback/*.h shim/fallback/*.sh shim/fallback/*.py))
FB_GEN   := $(BUILD)/gen/fallback_blob.S
FB_OBJ   := $(BUILD)/obj/gen/fallback_blob.o
HOOK_OBJ += $(FB_OBJ)
SHIM     := $(BUILD)/librdnacompat.so
TOOL_SRC := $(sort $(wildcard tools/rdnacompat/*.c))
TOOL_OBJ := $(TOOL_SRC:%.c=$(BUILD)/obj/%.o)
# `doctor --selftest`: its kernels (tools/rdnacompat/selftest_kernels.hip),
# built like the fallback kernels into a bundle the tool embeds as
# rdc_selftest_bundle (plus selftest-wrong.bundle for the tests), and the
# fallback bundle itself, whose kernels the self-test checks.
ST_SRC   := tools/rdnacompat/selftest_kernels.hip tools/rdnacompat/selftest-bundle.sh
ST_GEN   := $(BUILD)/gen/selftest_blob.S
ST_OBJ   := $(BUILD)/obj/gen/selftest_blob.o
TOOL_OBJ += $(ST_OBJ) $(FB_OBJ)
TOOL     := $(BUILD)/libexec/rdnacompat/rdnacompat-tool
# The front end (tools/front/front.h): what users run as `rdnacompat`.  It
# links libc only, with the tool's libc-only run_env.o and tool_util.o and
# the two core objects they need, so that `rdnacompat run` starts about as
# fast as any exec (issue 37, docs/PERF.md); it execs $(TOOL) for the rest.
FRONT_SRC := $(sort $(wildcard tools/front/*.c))
FRONT_OBJ := $(FRONT_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tools/rdnacompat/run_env.o \
             $(BUILD)/obj/tools/rdnacompat/tool_util.o $(BUILD)/obj/shim/core/fileopen.o $(BUILD)/obj/shim/core/error.o
FRONT    := $(BUILD)/bin/rdnacompat
SIM_SRC  := $(sort $(wildcard tools/simgpu/*.c tools/simgpu/exec/*.c))
SIM_OBJ  := $(SIM_SRC:%.c=$(BUILD)/obj/%.o)
SIM      := $(BUILD)/sim/librdnacompat-sim.so
# The execution engine (tools/simgpu/exec/) is pure C: the tool links it too
# for `rdnacompat sim --coverage`, and so does tests/exec/decode_dump.
EXEC_OBJ := $(filter $(BUILD)/obj/tools/simgpu/exec/%,$(SIM_OBJ))
# The one instruction decoder (shim/core/isa_decode.c and its tables) is in the core archive; the
# engine's own tests, which link no archive, take its objects directly.
ISA_OBJ  := $(BUILD)/obj/shim/core/isa_decode.o $(BUILD)/obj/shim/core/isa_decode_mimg.o \
            $(BUILD)/obj/shim/core/isa_optab_gen.o
TOOL_OBJ += $(EXEC_OBJ)
# Its lane loops (one element per lane, registers that may alias) are
# vectorised by clang at -O2; GCC's -O2 cost model ("very cheap") skips
# every loop that needs a runtime alias check, so GCC gets its -O3 model
# for these files (docs/PERF.md, the execution engine).
EXEC_VEC := $(if $(findstring clang,$(CC)),,-fvect-cost-model=dynamic)
$(EXEC_OBJ): EXTRA_CFLAGS += $(EXEC_VEC)
TGEN_SRC := $(sort $(wildcard tools/tablegen/*.c))
TGEN     := $(BUILD)/host/tablegen

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all check deps roots demo asan tsan load install clean fixtures unit integration exports fuzz-smoke exec-unit optab
all: $(SHIM) $(TOOL) $(FRONT) $(if $(SIM_SRC),$(SIM))

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# Core archive without the generated tables: what tablegen itself links.
$(BUILD)/librdc_core_nodata.a: $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CORE_LIB): $(CORE_OBJ) $(GEN_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(TGEN): $(TGEN_SRC) $(wildcard tools/tablegen/*.h) $(BUILD)/librdc_core_nodata.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TGEN_SRC) $(BUILD)/librdc_core_nodata.a $(CORE_LIBS) $(LDSAN) -o $@

$(GEN_C): $(TGEN) $(TABLES)
	@mkdir -p $(dir $@)
	$(TGEN) tables $@.tmp && mv $@.tmp $@

$(GEN_OBJ): $(GEN_C)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(FB_GEN): $(FB_SRC)
	bash shim/fallback/build-bundle.sh $(BUILD)/gen

# tables/rtc-names.tsv is embedded with .incbin (shim/hooks/rtcnames_data.c).
$(BUILD)/obj/shim/hooks/rtcnames_data.o: tables/rtc-names.tsv

$(FB_OBJ): $(FB_GEN)
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(ST_GEN): $(ST_SRC)
	bash tools/rdnacompat/selftest-bundle.sh $(BUILD)/gen

$(ST_OBJ): $(ST_GEN)
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

# The preload library: hidden by default, exports only the hooks, with the
# symbol versions of the libraries they shadow (shim/exports.map).
$(SHIM): $(HOOK_OBJ) $(CORE_LIB) shim/exports.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(SAN) -Wl,--version-script=shim/exports.map -Wl,-z,defs -Wl,-soname,librdnacompat.so \
		-Wl,-Map,$@.map $(HOOK_OBJ) $(CORE_LIB) $(SHIM_LIBS) -ldl -lpthread -o $@

# The tool links its libraries that are neither glibc nor ROCm statically, so
# the binary built here (glibc 2.36) runs unchanged inside the Debian roots of
# tests/roots (sid has no libmsgpackc.so.2).  TOOL_STATIC=0: all shared.
TOOL_STATIC ?= 1
ifeq ($(TOOL_STATIC),1)
TOOL_LIBS := -Wl,-Bstatic -lelf -lmsgpackc -lsqlite3 -lnettle -liberty -lzstd -lz -Wl,-Bdynamic -lm -lpthread
else
TOOL_LIBS := $(CORE_LIBS) -lsqlite3 -lpthread
endif

$(TOOL): $(TOOL_OBJ) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -Wl,-Map,$@.map $(TOOL_OBJ) $(CORE_LIB) $(TOOL_LIBS) -o $@

$(FRONT_SRC:%.c=$(BUILD)/obj/%.o): CPPFLAGS += -Itools/rdnacompat
$(FRONT): $(FRONT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -Wl,-Map,$@.map $(FRONT_OBJ) -o $@

# The simulator is preloaded into programs (also inside Debian roots with
# another glibc-compatible userland): its non-glibc dependencies are static.
$(SIM_OBJ): CPPFLAGS += -Itools/simgpu/include -I/usr/include/libdrm
$(SIM): $(SIM_OBJ) $(CORE_LIB) tools/simgpu/sim.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(SAN) -Wl,-soname,librdnacompat-sim.so -Wl,--version-script=tools/simgpu/sim.map \
		-Wl,-Map,$@.map $(SIM_OBJ) $(CORE_LIB) $(SHIM_LIBS) -ldl -lpthread -lrt -o $@

# ---- tests -------------------------------------------------------------------
$(BUILD)/tests/test_%: tests/unit/test_%.c $(CORE_LIB) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit $< $(CORE_LIB) $(CORE_LIBS) -lcmocka -o $@

# Unit tests of the shim's helpers (tests/unit/test_shim_*.c) also link the
# hook objects that define no hook and need no real function: configuration,
# logger, bundle rebuild, image extents, work counters.  (The more specific
# pattern wins.)
SHIM_UNIT_OBJ := $(addprefix $(BUILD)/obj/shim/hooks/,config.o log.o remap.o remap_arena.o remap_header.o image.o segment.o stats.o sys.o)
$(BUILD)/tests/test_shim_%: tests/unit/test_shim_%.c $(CORE_LIB) $(SHIM_UNIT_OBJ) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -Ishim/hooks $< $(SHIM_UNIT_OBJ) $(CORE_LIB) $(CORE_LIBS) -lcmocka -o $@

# The HSA query hooks against fake real functions (tests/unit/test_shim_hsa.c):
# every hook object except the libc ones (hook_files.o, hook_dlopen.o,
# hook_dlsym.o: a test program must keep glibc's open, dlopen and dlsym), the
# real-function table being the seam.
SHIM_HSA_TEST_OBJ := $(filter-out %/hook_files.o %/hook_dlopen.o %/hook_dlsym.o,$(HOOK_OBJ))
# The librocm_kpack hooks the same way (tests/unit/test_shim_kpack.c), and
# fork.c's handlers against every internal lock (tests/unit/test_shim_fork.c).
$(BUILD)/tests/test_shim_hsa $(BUILD)/tests/test_shim_kpack $(BUILD)/tests/test_shim_fork: $(BUILD)/tests/%: \
		tests/unit/%.c $(CORE_LIB) \
		$(SHIM_HSA_TEST_OBJ) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -Ishim/hooks $< $(SHIM_HSA_TEST_OBJ) $(CORE_LIB) $(CORE_LIBS) \
		-lcmocka -ldl -lpthread -o $@

# Unit tests of the tool's pure parts (tests/unit/test_tool_*.c) link the
# tool's objects but main.o.
$(BUILD)/tests/test_tool_%: tests/unit/test_tool_%.c $(CORE_LIB) $(filter-out %/main.o,$(TOOL_OBJ)) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -Itools/rdnacompat $< $(filter-out %/main.o,$(TOOL_OBJ)) $(CORE_LIB) \
		$(TOOL_LIBS) -lcmocka -o $@

# Single-instruction tests of the execution engine (tests/exec/): the
# engine's objects without the simulator, snippets assembled at test time by
# llvm-mc-19 (a missing assembler makes it skip, exit 77).  run-unit.sh runs
# it with the unit tests; make exec-unit runs it alone.
EXEC_TEST := $(BUILD)/tests/test_exec_harness
UNIT_BIN  += $(EXEC_TEST)
$(EXEC_TEST): $(sort $(wildcard tests/exec/*.c)) $(wildcard tests/exec/*.h) $(EXEC_OBJ) $(ISA_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/exec -Itools/simgpu/exec $(sort $(wildcard tests/exec/*.c)) $(EXEC_OBJ) $(ISA_OBJ) \
		-lm -lpthread -o $@

# The decoder's opcode tables from Debian's LLVM (committed; run after an LLVM
# bump and review the diff): include/rdnacompat/isa_optab_gen.h, shim/core/isa_optab_gen.c.
optab:
	python3 tools/isagen/gen_optab.py --out .

exec-unit: $(EXEC_TEST)
	$(EXEC_TEST)

# The decoder against llvm-objdump (tests/decode/decode-diff.sh): decode_dump
# extracts code objects and prints what the engine decodes at each offset.
$(BUILD)/tests/decode_dump: tests/decode/decode_dump.c $(BUILD)/obj/tools/rdnacompat/codeobj_walk.o $(EXEC_OBJ) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/rdnacompat -Itools/simgpu/exec $< $(BUILD)/obj/tools/rdnacompat/codeobj_walk.o \
		$(EXEC_OBJ) $(CORE_LIB) $(CORE_LIBS) -lpthread -o $@

fixtures: all
	bash tests/fixtures/build.sh $(BUILD)/fixtures

# The stand-in librocm_kpack.so.0 of tests/integration/73-kpack.sh (TheRock's
# loader is in no Debian ROCm), built here with the core and the static
# msgpack-c/zstd so the test can use it inside the Debian roots too (they
# have no libmsgpackc); its own symbols stay hidden (--exclude-libs).
KPACK_STANDIN := $(BUILD)/tests/kpack/librocm_kpack.so.0
$(KPACK_STANDIN): tests/integration/kpack/standin_kpack.c $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -D_GNU_SOURCE -O1 -g -shared -fPIC -Iinclude -Wl,-soname,librocm_kpack.so.0 \
		-Wl,--exclude-libs,ALL $< $(CORE_LIB) -Wl,-Bstatic -lmsgpackc -lzstd -Wl,-Bdynamic -lelf -lz -lm -o $@

unit: $(UNIT_BIN) fixtures
	bash tests/run-unit.sh $(BUILD)

integration: all fixtures $(BUILD)/tests/decode_dump $(KPACK_STANDIN)
	RDC_STRICT_SKIPS=$(RDC_STRICT_SKIPS) bash tests/run-integration.sh $(BUILD)

# What the binaries show the world: the shim's exported symbols, and the
# third-party archive members linked into each binary (their licences are in
# docs/LICENSES.md; the link maps are written next to the binaries).
exports: all
	bash tests/check-exports.sh $(SHIM) shim/exports.allow
	bash tests/check-licences.sh docs/LICENSES.md $(SHIM).map $(TOOL).map $(FRONT).map $(if $(SIM_SRC),$(SIM).map)

# Bundle-reader fuzzing (libFuzzer, clang-15): the bundle sources built
# straight into the fuzzer with ASan+UBSan; fuzz-smoke runs it ~25 s on seeds
# made from the fixtures (tests/fuzz/smoke.sh).
FUZZ_CC  ?= clang-15
FUZZ_SRC := tests/fuzz/fuzz_bundle.c $(sort $(wildcard shim/core/bundle*.c)) shim/core/error.c shim/core/target.c
$(BUILD)/fuzz/fuzz_bundle: $(FUZZ_SRC) $(wildcard include/rdnacompat/*.h shim/core/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$(CPPFLAGS) $(FUZZ_SRC) -lzstd -lz -lnettle -o $@

# Code-object reader + retargeter fuzzing, the same way (tests/fuzz/fuzz_codeobj.c).
FUZZ_CO_SRC := tests/fuzz/fuzz_codeobj.c $(sort $(wildcard shim/core/codeobj_*.c)) shim/core/mach.c \
	shim/core/error.c shim/core/target.c
$(BUILD)/fuzz/fuzz_codeobj: $(FUZZ_CO_SRC) $(wildcard include/rdnacompat/*.h shim/core/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$(CPPFLAGS) $(FUZZ_CO_SRC) -lelf -lmsgpackc -o $@

# The parsers of user and cache input (tests/fuzz/fuzz_{target,tables,dcache,
# fatbin,kpack}.c) against the whole core (and the hook files the wrapper path
# runs), instrumented once into $(BUILD)/fuzz/obj; tests/fuzz/smoke-all.sh
# runs each ~20 s on seeds from the fixtures.  make fuzz-smoke is part of
# make check (~3 min in all).
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fvisibility=hidden -D_GNU_SOURCE -Iinclude -I$(BUILD)/gen -I/usr/include/hsa -Ishim/hooks
FUZZ_LIB_SRC := $(CORE_SRC) $(GEN_C) $(addprefix shim/hooks/,config.c log.c remap.c remap_arena.c remap_header.c image.c segment.c \
	sys.c dcache_file.c stats.c)
FUZZ_LIB_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(patsubst $(BUILD)/%,%,$(FUZZ_LIB_SRC)))
$(BUILD)/fuzz/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(BUILD)/fuzz/obj/%.o: %.c $(GEN_C)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
FUZZ_NEW := target tables dcache fatbin kpack
$(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_NEW)): $(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB_OBJ) $(CORE_LIBS) -ldl -lpthread -o $@

fuzz-smoke: $(BUILD)/fuzz/fuzz_bundle $(BUILD)/fuzz/fuzz_codeobj $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_NEW)) fixtures
	bash tests/fuzz/smoke.sh $(BUILD)
	bash tests/fuzz/smoke-codeobj.sh $(BUILD)
	bash tests/fuzz/smoke-all.sh $(BUILD)

# ---- packages (debian/, python/) --------------------------------------------
# The multiarch triplet: the tool also looks for the shim and the simulator
# in <exe>/../lib/<triplet>/ (where the Debian package puts them).
MULTIARCH ?= $(shell $(CC) -print-multiarch 2>/dev/null)
ifneq ($(MULTIARCH),)
$(BUILD)/obj/tools/rdnacompat/tool_util.o $(BUILD)/obj/tools/rdnacompat/sim_env.o: \
	CPPFLAGS += -DRDC_MULTIARCH='"$(MULTIARCH)"'
endif

# make deb: binary packages into build/deb/ with dpkg-buildpackage from
# debian/, built in a copy of the tree (tracked and untracked-not-ignored
# files) so the results and the build directory stay under build/.
# make wheel: the Python wheel into build/wheel/ (python/build-wheel.sh:
# python3 -m build --no-isolation, no index).
.PHONY: deb wheel
deb:
	bash debian/build-deb.sh build/deb

wheel: all
	bash python/build-wheel.sh $(BUILD) build/wheel

deps:
	bash tools/deps.sh

# Debian's ROCm library test suites (rocPRIM, hipCUB, rocThrust, rocSPARSE in
# the 6.4 root; hipBLASLt, MIOpen, rocWMMA in the 7.2 root), a selection of
# each, on simulated cards that execute the kernels, natively and under the
# shim (tests/suites/run.sh, docs/SUITES.md).  Not part of make check.
.PHONY: suites
suites: all
	bash tests/suites/run.sh $(BUILD)

# The Debian roots the 6.4/7.2 tests run in (tests/roots/build): built with
# mmdebstrap into /var/cache/rdnacompat/roots when missing or when their pins
# changed (several minutes cold, seconds warm; it prints how long).
roots: deps
	bash tests/roots/build

check: deps
	$(MAKE) all
	$(MAKE) exports
	$(MAKE) unit
	$(MAKE) fuzz-smoke
	$(MAKE) roots
	$(MAKE) integration RDC_STRICT_SKIPS=1

demo: deps
	$(MAKE) all
	bash tools/demo.sh $(BUILD)

# ASan+UBSan: the unit suite, and the integration tests that run only our own
# binaries (inspect, db, report, the HTML page).  Tests that preload the shim
# or the simulator into uninstrumented programs (HIP, rocminfo, python) cannot
# use an ASan build ("ASan runtime does not come first"), and HIP 5.2 itself
# fails under ASan on this machine, so those are checked under valgrind instead
# (tests/integration/20-sim-valgrind.sh, 47-shim-valgrind.sh).
ASAN_INTEGRATION := $(wildcard tests/integration/10-*.sh) \
	$(wildcard tests/integration/50-tools-db.sh tests/integration/50-tools-html.sh tests/integration/50-tools-report.sh)
asan: deps
	$(MAKE) BUILD=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer" OPT="-O1 -g" all unit
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		bash tests/run-integration.sh build-asan $(ASAN_INTEGRATION)

# ThreadSanitizer: the shim built with -fsanitize=thread (BUILD/tsan) under
# 16 threads loading modules on the simulator (also part of integration).
tsan: all
	bash tests/run-integration.sh $(BUILD) tests/integration/48-shim-tsan.sh

# The load tests run longer (outside CI): 20 s of 64 threads, TSan included.
load: all
	RDC_LOAD_SECONDS=20 bash tests/run-integration.sh $(BUILD) tests/integration/48-shim-load.sh \
		tests/integration/48-shim-load-tsan.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/rdnacompat/tables/reports \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/include/rdnacompat \
		$(DESTDIR)$(PREFIX)/lib/rdnacompat/sim $(DESTDIR)$(PREFIX)/libexec/rdnacompat
	install -m 0755 $(SHIM) $(DESTDIR)$(PREFIX)/lib/librdnacompat.so
	install -m 0755 $(FRONT) $(DESTDIR)$(PREFIX)/bin/rdnacompat
	install -m 0755 $(TOOL) $(DESTDIR)$(PREFIX)/libexec/rdnacompat/rdnacompat-tool
	install -m 0755 $(SIM) $(DESTDIR)$(PREFIX)/lib/rdnacompat/sim/librdnacompat-sim.so
	install -m 0644 $(TABLES) tables/README.md $(DESTDIR)$(PREFIX)/share/rdnacompat/tables/
	install -m 0644 tables/reports/* $(DESTDIR)$(PREFIX)/share/rdnacompat/tables/reports/
	install -m 0644 include/rdnacompat/*.h $(DESTDIR)$(PREFIX)/include/rdnacompat/
	install -m 0644 $(CORE_LIB) $(DESTDIR)$(PREFIX)/lib/librdc_core.a
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' docs/rdnacompat.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/rdnacompat.pc
	install -m 0644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	@# A plain LD_PRELOAD=librdnacompat.so finds the new library only after this.
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null; then ldconfig; fi

clean:
	rm -rf build build-asan

-include $(CORE_OBJ:.o=.d) $(HOOK_OBJ:.o=.d) $(TOOL_OBJ:.o=.d) $(FRONT_OBJ:.o=.d) $(SIM_OBJ:.o=.d)
