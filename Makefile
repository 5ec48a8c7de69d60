# mmdrender - GNU make, non-recursive, out-of-tree build (BUILD ?= build).
#
#   make            build $(BUILD)/mmdrender
#   make test       install deps if missing, build, run the whole suite
#   make test SAN=1 the same under ASan+UBSan in build-san/
#   make demo       render scenes/demo.ini to demo.mp4
#   make bench      print the performance figures
#   make bench-scene  only the stage + dancer bench scene (BENCH_QUICK=1: about a minute)
#   make deps       install the Debian packages (idempotent)
#   make fuzz       libFuzzer targets with clang, 10 minutes each (FUZZ_SECONDS=N to change)
#   make check-layering   the include arrows between folders (tools/check_layering.sh)
#   make check-func-len   no function in core/ or renderer/ over 120 lines (tools/check_func_len.sh)
#   make fx-corpus  how many shared effects parse, translate and link (docs/effects.md)
#   make GL=egl     EGL alone, no OSMesa (Mesa >= 25.1 has none), in build-egl/
#   make install    the binary, its man page and bash/zsh completion under $(DESTDIR)$(PREFIX)
#                   (PREFIX ?= /usr/local); make uninstall removes them

CC ?= cc
CXX ?= c++
PKG_CONFIG ?= pkg-config

# GL: osmesa = OSMesa and EGL (OSMesa the default backend); egl = EGL alone.
# Unset, it is osmesa when pkg-config finds OSMesa, else egl (said once below).
# An explicit GL=egl builds in its own folder (one folder per configuration).
ifeq ($(origin GL),undefined)
GL := $(shell $(PKG_CONFIG) --exists osmesa 2>/dev/null && echo osmesa || echo egl)
ifeq ($(GL),egl)
ifeq ($(MAKELEVEL),0)
$(info mmdrender: pkg-config finds no OSMesa: building with EGL alone (GL=egl))
endif
endif
BUILD_GL :=
else
BUILD_GL := $(if $(filter egl,$(GL)),-egl)
endif
ifeq ($(filter osmesa egl,$(GL)),)
$(error GL=$(GL): expected osmesa or egl)
endif

SAN ?=
ifeq ($(SAN),1)
BUILD ?= build-san$(BUILD_GL)
else
BUILD ?= build$(BUILD_GL)
endif
SHARED_ASSETS ?= ../shared/assets
SHARED_REFERENCE ?= $(SHARED_ASSETS)/../reference
WERROR ?= 1
V ?= 0

PKGS_CORE := cglm zlib
PKGS_PHYS := bullet
# The effect translator (renderer/fx/): glslang's HLSL front end with SPIRV-Tools (static, `spirv`
# pulls them in) and SPIRV-Cross's C API. glslang's default resource limits have no .pc of their own.
PKGS_FX := spirv spirv-cross-c-shared
LIBS_FX := -lglslang-default-resource-limits
PKGS_RENDER := $(if $(filter osmesa,$(GL)),osmesa) egl gl libpng libavcodec libavformat libavutil libswscale \
               libswresample inih stb $(PKGS_FX)

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wformat=2
ifeq ($(WERROR),1)
WARN += -Werror
endif
OPT ?= -O2 -g
SANFLAGS :=
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT := -O1 -g
endif

# cglm on plain float arrays (pose buffers, stack copies): unaligned SSE loads.
CPPFLAGS_COMMON := -I. -I$(BUILD)/gen -D_GNU_SOURCE -DCGLM_ALL_UNALIGNED -MMD -MP $(if $(filter egl,$(GL)),-DMMD_NO_OSMESA)
CFLAGS_COMMON := -std=c11 $(WARN) $(OPT) $(SANFLAGS) -pthread
# A package pkg-config cannot find stops the build here, with its name (goals
# that install or need no packages are exempt; `make test` re-enters make after deps).
PKG_EXEMPT_GOALS := deps clean test check bench demo fuzz check-layering check-func-len
ifeq ($(filter-out $(PKG_EXEMPT_GOALS),$(or $(MAKECMDGOALS),all)),$(or $(MAKECMDGOALS),all))
PKG_MISSING := $(shell for p in $(PKGS_CORE) $(PKGS_PHYS) $(PKGS_RENDER); do \
                 $(PKG_CONFIG) --exists $$p || echo $$p; done)
ifneq ($(strip $(PKG_MISSING)),)
$(error pkg-config cannot find: $(strip $(PKG_MISSING)). Run `make deps` (tools/deps.sh) or set PKG_CONFIG_PATH)
endif
endif
CORE_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS_CORE) 2>/dev/null)
PHYS_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS_PHYS) 2>/dev/null)
RENDER_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS_CORE) $(PKGS_RENDER) 2>/dev/null)
LIBS_CORE := $(shell $(PKG_CONFIG) --libs $(PKGS_CORE) 2>/dev/null) $(shell $(PKG_CONFIG) --libs $(PKGS_PHYS) 2>/dev/null) -lstdc++ -lm
LIBS_ALL := $(LIBS_FX) $(shell $(PKG_CONFIG) --libs $(PKGS_RENDER) 2>/dev/null) $(LIBS_CORE) -lpthread
TEST_DEFS := -DMMD_SHARED_ASSETS='"$(SHARED_ASSETS)"' -DMMD_SHARED_REFERENCE='"$(SHARED_REFERENCE)"'

ifeq ($(V),1)
Q :=
else
Q := @
endif

CORE_SRC := $(sort $(wildcard core/*.c))
CORE_CXX := $(sort $(wildcard core/*.cpp))
RENDER_SRC := $(sort $(filter-out renderer/cli/main.c,$(wildcard renderer/*/*.c)))
RENDER_CXX := $(sort $(wildcard renderer/*/*.cpp))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_UTIL := $(sort $(wildcard tests/util/*.c))
TOOL_SRC := $(sort $(filter-out tools/embed.c,$(wildcard tools/*.c)))
SHADERS := $(sort $(wildcard shaders/*.glsl))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o) $(CORE_CXX:%.cpp=$(BUILD)/obj/%.o)
RENDER_OBJ := $(RENDER_SRC:%.c=$(BUILD)/obj/%.o) $(RENDER_CXX:%.cpp=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/shaders.o
TEST_UTIL_OBJ := $(TEST_UTIL:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_BIN := $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%)

LIB_CORE := $(BUILD)/libmmdcore.a
LIB_RENDER := $(BUILD)/libmmdrender.a
BIN := $(BUILD)/mmdrender
# The man page is printed by the binary from its option table (renderer/cli/options.c), as --help is.
MAN := $(BUILD)/mmdrender.1
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions

.PHONY: fx-corpus
.PHONY: all test check bench bench-scene fidelity demo deps fuzz clean check-layering check-func-len tools tests \
        install uninstall
all: $(BIN) $(MAN) $(TOOL_BIN)

$(BUILD)/obj/core/%.o: core/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(CORE_CFLAGS) -c $< -o $@

$(BUILD)/obj/core/%.o: core/%.cpp
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX     $<")
	$(Q)$(CXX) $(CPPFLAGS_COMMON) -std=c++17 $(filter-out -std=c11 -Wstrict-prototypes -Wmissing-prototypes,$(CFLAGS_COMMON)) -Wno-pedantic $(PHYS_CFLAGS) $(CORE_CFLAGS) -c $< -o $@

$(BUILD)/obj/renderer/%.o: renderer/%.c $(BUILD)/gen/shaders.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(RENDER_CFLAGS) -c $< -o $@

# The glslang bridge (renderer/fx/hlsl_spirv.cpp): glslang's HLSL API is behind ENABLE_HLSL, and
# Debian builds glslang without RTTI (so -fno-rtti: UBSan's vptr check would need its typeinfo).
$(BUILD)/obj/renderer/%.o: renderer/%.cpp
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX     $<")
	$(Q)$(CXX) $(CPPFLAGS_COMMON) -DENABLE_HLSL=1 -std=c++17 -fno-rtti $(filter-out -std=c11 -Wstrict-prototypes -Wmissing-prototypes,$(CFLAGS_COMMON)) -Wno-pedantic $(RENDER_CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c $(BUILD)/gen/shaders.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(RENDER_CFLAGS) $(TEST_DEFS) -c $< -o $@

$(BUILD)/obj/tools/%.o: tools/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(RENDER_CFLAGS) -c $< -o $@

$(BUILD)/obj/gen/shaders.o: $(BUILD)/gen/shaders.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) -c $< -o $@

# Shaders are embedded by our own host tool (no xxd; GCC 12 has no #embed).
$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=c11 -O1 -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) $< -o $@

$(BUILD)/gen/shaders.c $(BUILD)/gen/shaders.h: $(BUILD)/tools/embed $(SHADERS)
	@mkdir -p $(BUILD)/gen
	$(Q)$(BUILD)/tools/embed $(BUILD)/gen/shaders $(SHADERS)

$(LIB_CORE): $(CORE_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIB_RENDER): $(RENDER_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(BUILD)/obj/renderer/cli/main.o $(LIB_RENDER) $(LIB_CORE)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_COMMON) $^ $(LIBS_ALL) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(TEST_UTIL_OBJ) $(LIB_RENDER) $(LIB_CORE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_COMMON) $^ $(LIBS_ALL) -o $@

$(BUILD)/tools/%: $(BUILD)/obj/tools/%.o $(TEST_UTIL_OBJ) $(LIB_RENDER) $(LIB_CORE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_COMMON) $^ $(LIBS_ALL) -o $@

$(MAN): $(BIN)
	$(Q)$(BIN) --help-man >$@.tmp && mv $@.tmp $@

install: $(BIN) $(MAN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/mmdrender
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)/man1/mmdrender.1
	install -m 644 tools/completion/mmdrender.bash $(DESTDIR)$(BASHCOMPDIR)/mmdrender
	install -m 644 tools/completion/_mmdrender $(DESTDIR)$(ZSHCOMPDIR)/_mmdrender

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/mmdrender $(DESTDIR)$(MANDIR)/man1/mmdrender.1 \
	      $(DESTDIR)$(BASHCOMPDIR)/mmdrender $(DESTDIR)$(ZSHCOMPDIR)/_mmdrender

# Objects of test and tool programs are kept: a second `make test` links nothing.
.SECONDARY: $(TEST_SRC:%.c=$(BUILD)/obj/%.o) $(TOOL_SRC:%.c=$(BUILD)/obj/%.o) $(TEST_UTIL_OBJ)

tools: $(TOOL_BIN)
tests: $(TEST_BIN) $(BIN) $(MAN) $(TOOL_BIN)

deps:
	@bash tools/deps.sh

test: deps
	@$(MAKE) --no-print-directory tests
	@$(MAKE) --no-print-directory check-layering check-func-len
	@MMD_SHARED_ASSETS=$(SHARED_ASSETS) SHARED_ASSETS=$(SHARED_ASSETS) SHARED_REFERENCE=$(SHARED_REFERENCE) bash tests/run.sh $(BUILD)

check: test

# The effect translator's figures on ../shared/assets/fx (tests/unit/test_fx_translate.c, docs/effects.md).
fx-corpus: $(BUILD)/tests/test_fx_translate
	@$(BUILD)/tests/test_fx_translate | grep -E '^# (does|fx corpus)|^not ok'

check-layering:
	@bash tools/check_layering.sh

check-func-len:
	@bash tools/check_func_len.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@SHARED_ASSETS=$(SHARED_ASSETS) bash tools/bench.sh $(BUILD)

# MikuMikuDance's own pictures against ours (tools/fidelity.sh, tests/fidelity/README.md).
fidelity: deps
	@$(MAKE) --no-print-directory all
	@SHARED_ASSETS=$(SHARED_ASSETS) SHARED_REFERENCE=$(SHARED_REFERENCE) bash tools/fidelity.sh $(BUILD)

# Only the bench scene of issue 17 (tools/bench_scene.sh; BENCH_QUICK=1 for a short run).
bench-scene: deps
	@$(MAKE) --no-print-directory all
	@bash tools/bench_scene.sh $(BUILD)

demo: deps
	@$(MAKE) --no-print-directory all
	@bash tools/demo.sh $(BUILD)

clean:
	rm -rf $(BUILD) build build-san build-egl build-san-egl build-fuzz

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- fuzzing and hostile input (branch fuzz; tests/fuzz/README.md) -------------------------
# Each tests/fuzz/fuzz_<t>.c is a libFuzzer target. `make tests` links every target
# whose code exists with tests/fuzz/replay.c (plain main, gcc, SAN=1 aware) into
# $(BUILD)/fuzz/replay_<t>; tests/cli/fuzz_replay.sh replays corpus/ + regressions/.
# `make fuzz` builds them with clang -fsanitize=fuzzer,address,undefined into
# build-fuzz/ and runs each for FUZZ_SECONDS (FUZZ_TARGETS="pmx vmd" picks some).
# Every target is built (a missing source is a build error). pmx and pmd share one
# driver (fuzz_model.c: mmd_model_load tells the formats apart); each keeps its own
# corpus, dictionary and replay program.
FUZZ_ALL := pmx pmd vmd vpd scene texture pmm x fx fxpass
FUZZ_SRC_pmx := model
FUZZ_SRC_pmd := model
fuzz_obj = $(BUILD)/obj/tests/fuzz/fuzz_$(or $(FUZZ_SRC_$(1)),$(1)).o
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_SECONDS ?= 600
FUZZ_REPLAY_BIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
FUZZ_BIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The fuzz build runs glslang in-process (renderer/fx/isolate.c): fuzz_fxpass would be ~100x slower
# with a child per compile. Only build-fuzz/ has it; every other build isolates glslang.
FUZZ_DEFS := -DMMD_FX_COMPILE_IN_PROCESS
# isolate.c is the one object a -D of SANFLAGS changes: rebuilt when they differ from its last build
# (a build-fuzz/ made before FUZZ_DEFS existed would keep forking).
$(BUILD)/obj/renderer/fx/isolate.o: $(BUILD)/isolate-defs.stamp
$(BUILD)/isolate-defs.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(filter -D%,$(SANFLAGS))' | cmp -s - $@ || echo '$(filter -D%,$(SANFLAGS))' >$@
.PHONY: FORCE
FORCE:

.SECONDARY: $(foreach t,$(FUZZ_ALL),$(call fuzz_obj,$(t))) $(BUILD)/obj/tests/fuzz/replay.o

define FUZZ_RULES
$(BUILD)/fuzz/replay_$(1): $(call fuzz_obj,$(1)) $(BUILD)/obj/tests/fuzz/replay.o $(LIB_RENDER) $(LIB_CORE)
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $$(CFLAGS_COMMON) $$^ $$(LIBS_ALL) -o $$@

# Linked by clang++ so UBSan's C++ runtime is there for the Bullet bridge.
$(BUILD)/fuzz/fuzz_$(1): $(call fuzz_obj,$(1)) $(LIB_RENDER) $(LIB_CORE)
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CXX) $$(SANFLAGS) -fsanitize=fuzzer -pthread $$^ $$(LIBS_ALL) -o $$@
endef
$(foreach t,$(FUZZ_ALL),$(eval $(call FUZZ_RULES,$(t))))

tests: $(FUZZ_REPLAY_BIN)

# SAN=1: Mesa keeps a few blocks after OSMesaDestroyContext; suppress them by library
# (tests/fuzz/lsan.supp; EGL's unloaded driver is handled in renderer/gl/context.c).
ifeq ($(SAN),1)
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/fuzz/lsan.supp:print_suppressions=0
endif

.PHONY: fuzz fuzz-bins fuzz-corpus valgrind-demo
fuzz-bins: $(FUZZ_BIN) $(BUILD)/fuzz/scene.dict $(BUILD)/fuzz/fxpass.dict

# The scene dictionary: tests/fuzz/scene.dict and every key of the table (tools/mkscenedict.c).
$(BUILD)/fuzz/scene.dict: $(BUILD)/tools/mkscenedict tests/fuzz/scene.dict
	@mkdir -p $(dir $@)
	$(Q)$< tests/fuzz/scene.dict >$@.tmp && mv $@.tmp $@

# The translator's dictionary: the effect language's words (fx.dict) and HLSL's (fxpass.dict).
$(BUILD)/fuzz/fxpass.dict: tests/fuzz/fx.dict tests/fuzz/fxpass.dict
	@mkdir -p $(dir $@)
	$(Q)cat $^ >$@.tmp && mv $@.tmp $@

fuzz:
	@command -v clang >/dev/null || { echo "make fuzz needs clang with libFuzzer"; exit 1; }
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang CXX=clang++ WERROR=0 OPT="-O1 -g" \
	  SANFLAGS="$(FUZZ_SANFLAGS) $(FUZZ_DEFS)" FUZZ_TARGETS="$(FUZZ_TARGETS)" fuzz-bins
	@bash tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Regenerate the seed corpus from our own writers (tools/mkcorpus.c).
fuzz-corpus: $(BUILD)/tools/mkcorpus
	$(BUILD)/tools/mkcorpus tests/fuzz/corpus

# A few demo frames under valgrind (no sanitizers; skips when the demo is absent).
valgrind-demo: all
	@bash tests/fuzz/valgrind_demo.sh $(BUILD)
# ---- end fuzzing block -----------------------------------------------------------------------
