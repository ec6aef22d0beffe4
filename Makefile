# ext4dist: static eBPF ext4 latency histograms without libbpf.
#
#   make            build ./ext4dist (static, BPF object embedded)
#   make check      host unit tests, host binary tests, sanitizer runs, VM tests
#   make demo       boot a Debian kernel in qemu and show ext4dist working
#   make install    PREFIX=/usr/local DESTDIR=

CC      ?= gcc
CLANG   ?= clang
PREFIX  ?= /usr/local
BUILD   ?= build
VERSION := 0.1.0

ARCH    ?= x86_64
BPF_ARCH_x86_64 := x86
BPF_ARCH_arm64  := arm64
BPF_ARCH := $(BPF_ARCH_$(ARCH))
$(if $(BPF_ARCH),,$(error ARCH=$(ARCH): use x86_64 or arm64))
# The binary: ./ext4dist for x86_64; cross builds go to their own BUILD dir.
BIN     ?= ext4dist
PKG_CONFIG ?= pkg-config
ifeq ($(ARCH),arm64)
# make ARCH=arm64: cross build (gcc-aarch64-linux-gnu, libelf-dev:arm64,
# zlib1g-dev:arm64; liblzma-dev:arm64 and libzstd-dev:arm64 for .ko.xz/.zst)
# into build-arm64/ext4dist.
ifeq ($(origin CC),default)
CC      := aarch64-linux-gnu-gcc
endif
ifeq ($(origin AR),default)
AR      := aarch64-linux-gnu-ar
endif
BUILD   := $(if $(filter command line environment,$(origin BUILD)),$(BUILD),build-arm64)
BIN     := $(BUILD)/ext4dist
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config
endif

WARN     := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
# Always applied, even when CFLAGS is given on the command line.
XCFLAGS  := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -Isrc \
            -DEXT4DIST_VERSION='"$(VERSION)"'
LDLIBS   := -lelf -lz
STATIC_LDLIBS := $(shell $(PKG_CONFIG) --static --libs libelf 2>/dev/null || echo -lelf -lz)
# Module files may be .ko.xz (Debian 6.12) or .ko.zst: read them in-process
# when the static libraries are there (liblzma-dev, libzstd-dev).
ifneq ($(wildcard $(shell $(CC) -print-file-name=liblzma.a)),)
XCFLAGS  += -DEXT4DIST_WITH_XZ
LDLIBS   += -llzma
STATIC_LDLIBS += -llzma
endif
ifneq ($(wildcard $(shell $(CC) -print-file-name=libzstd.a)),)
XCFLAGS  += -DEXT4DIST_WITH_ZSTD
LDLIBS   += -lzstd
STATIC_LDLIBS += -lzstd
endif
# The shipped binary carries no debug info (build/ext4dist-dyn keeps it).
STATIC_LDFLAGS ?= -s

BPF_SRC  := bpf/ext4dist.bpf.c
BPF_OBJ  := $(BUILD)/ext4dist.bpf.o
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS := -target bpf -O2 -Wall -Werror -Iinclude -Ibpf -D__TARGET_ARCH_$(BPF_ARCH) \
              -idirafter /usr/include/$(MULTIARCH)

LIB_SRC  := $(sort $(wildcard src/loader/*.c src/tool/*.c src/output/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
BLOB_OBJ := $(BUILD)/src/tool/bpf_blob.o
MAIN_OBJ := $(BUILD)/src/main.o

TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TEST_LIB := $(BUILD)/tests/test.o

.PHONY: all unit-tests check check-unit check-host check-asan check-valgrind check-vm \
        demo install clean bpf lint

all: $(BIN)

bpf: $(BPF_OBJ)

$(BPF_OBJ): $(BPF_SRC) include/ext4dist_abi.h $(wildcard bpf/*.h)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.c $(wildcard include/*.h src/*/*.h src/*.h) Makefile
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) -c $< -o $@

$(BLOB_OBJ): src/tool/bpf_blob.S $(BPF_OBJ)
	@mkdir -p $(@D)
	$(CC) -c -DBPF_OBJ_PATH='"$(BPF_OBJ)"' $< -o $@

$(BUILD)/libext4dist.a: $(LIB_OBJ) $(BLOB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(MAIN_OBJ) $(BUILD)/libext4dist.a
	$(CC) -static $(STATIC_LDFLAGS) $(CFLAGS) $(XCFLAGS) -o $@ $^ $(STATIC_LDLIBS)

$(TEST_LIB): tests/test.c tests/test.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(TEST_LIB) $(BUILD)/libext4dist.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) -Itests -o $@ $< $(TEST_LIB) $(BUILD)/libext4dist.a $(LDLIBS)

# A dynamically linked twin of ext4dist: valgrind can only follow malloc
# in a dynamic binary.
$(BUILD)/ext4dist-dyn: $(MAIN_OBJ) $(BUILD)/libext4dist.a
	$(CC) $(CFLAGS) $(XCFLAGS) -o $@ $^ $(LDLIBS)

unit-tests: $(TEST_BIN)

# The closing line "N passed, N failed" is printed by tests/run-all.sh.
# Packages first (tests/deps.sh), then a fresh make sees the tools.
check:
	@tests/deps.sh
	@$(MAKE) --no-print-directory ext4dist unit-tests $(BUILD)/ext4dist-dyn
	@tests/run-all.sh

check-unit: $(TEST_BIN)
	@tests/run-all.sh unit

demo:
	@tests/deps.sh
	@$(MAKE) --no-print-directory ext4dist
	@tests/vm/demo.sh

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/sbin/ext4dist
	install -D -m 0644 man/ext4dist.8 $(DESTDIR)$(PREFIX)/share/man/man8/ext4dist.8

clean:
	rm -rf $(BUILD) $(BIN)

# ---- fuzzing and static analysis (tests/fuzz/README.md) ---------------
# make fuzz         every libFuzzer target for FUZZ_SECONDS (default 60) each
# make fuzz-smoke   every target for FUZZ_SMOKE_SECONDS (default 5) each
# make lint         cppcheck + clang-tidy (.clang-tidy) on src/ and tests/fuzz/
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5

.PHONY: fuzz fuzz-smoke lint

fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh full

fuzz-smoke:
	FUZZ_SMOKE_SECONDS=$(FUZZ_SMOKE_SECONDS) tests/fuzz/run.sh smoke

lint:
	tests/lint.sh
# ---- end of fuzzing and static analysis -------------------------------

# ---- make bench (tests/bench/README.md); not part of make check ----------
# Boots the Debian 6.1 kernel in qemu (TCG, then TCG -icount) and measures
# ext4dist: ns/op traced vs untraced, bpf_stats per program, start-up, RSS,
# syscalls, and alternative per-event designs; tables + build/bench/result.json.
.PHONY: bench
bench: ext4dist
	CC='$(CC)' CLANG='$(CLANG)' BENCH_LDLIBS='$(STATIC_LDLIBS)' tests/bench/run.sh
# ---- end of make bench ----------------------------------------------------
