# ext4dist: static eBPF ext4 latency histograms without libbpf.
#
#   make            build ./ext4dist (static, BPF object embedded) and
#                   build/ext4dist-test (the same plus the --test-* hooks)
#   make deps       install the Debian packages the build, tests and demo need,
#                   and fetch the arm64 and armhf sysroots (tests/deps.sh)
#   make check      every test suite (SUITES="unit host" for some of them)
#   make test-args  build and run one unit test suite (tests/unit/test_args.c)
#   make demo       boot a Debian kernel in qemu and show ext4dist working
#   make install    PREFIX=/usr/local DESTDIR= (ext4dist, the ext4slower,
#                   xfs..., btrfs... and f2fs... links, their man pages)
#   make dist       build/release/ext4dist-VERSION.tar.gz: the tracked source
#                   with the commit it comes from (tools/release.sh)
#   make release    build/release/ext4dist-VERSION-{x86_64,arm64,armhf}.tar.gz
#                   and SHA256SUMS, reproducible (tools/release.sh)
#   make bpf-prebuilt  rebuild bpf/prebuilt/ (the objects of builds without
#                   clang) from bpf/ with clang
#
#   WERROR=1        warnings are errors (make check and CI set it)
#   ARCH=arm64      cross build into build-arm64/ (default: the compiler's target)
#   ARCH=arm        32-bit ARM (armhf, ARMv7) cross build into build-arm/
#   ARCH=mipsel     32-bit little-endian MIPS (o32) into build-mipsel/
#   ARCH=s390x      64-bit big-endian IBM Z into build-s390x/
#   ARCH=riscv64    64-bit RISC-V into build-riscv64/
#
# A packager's build (GNU's conventions): CC, CFLAGS, CPPFLAGS, LDFLAGS,
# PKG_CONFIG, PREFIX, DESTDIR, and SYSROOT, the directory whose usr/include
# and usr/lib hold libelf and zlib (static) for the target, e.g.
#   make CC=aarch64-linux-gnu-gcc SYSROOT=/path/to/staging CLANG=
# CLANG= (or no clang in PATH) takes the BPF objects of bpf/prebuilt/.

CC      ?= gcc
CLANG   ?= clang
LLVM_STRIP ?= llvm-strip
PREFIX  ?= /usr/local
BUILD   ?= build
VERSION := 0.1.0
WERROR  ?= 0

# deps and clean must work before a compiler is installed; check and demo
# build in a second make, after deps; dist and release run their own.
NO_BUILD_GOALS := deps clean check demo dist release version
BUILDING := $(filter-out $(NO_BUILD_GOALS) print-%,$(or $(MAKECMDGOALS),all))

# The commit the build comes from, in --version: a dist tarball names it
# in .tarball-version ("COMMIT SOURCE_DATE_EPOCH"), a git checkout asks
# git (-dirty: tracked files differ from it); COMMIT=... overrides both.
# SOURCE_DATE_EPOCH (the commit's time) dates the release tarballs.
ifneq ($(wildcard .tarball-version),)
COMMIT ?= $(word 1,$(file <.tarball-version))
SOURCE_DATE_EPOCH ?= $(word 2,$(file <.tarball-version))
else ifeq ($(shell git rev-parse --show-toplevel 2>/dev/null),$(CURDIR))
COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null)
endif
COMMIT := $(or $(COMMIT),unknown)
FULL_VERSION := $(VERSION) (commit $(COMMIT))

# ARCH follows the compiler's target: the BPF object reads probe arguments
# at that architecture's pt_regs offsets.  A 32-bit ARM binary also runs
# on 64-bit ARM kernels (compat): it carries the arm64 object too and
# picks by the kernel it finds.  uname -m says "mips" whatever the byte
# order: the machine's own decides (od prints 1 on a little-endian one).
arch_of = $(if $(filter x86_64-%,$(1)),x86_64,$(if $(filter aarch64-%,$(1)),arm64,$(if $(filter arm-% armv7%,$(1)),arm,$(if $(filter mipsel-%,$(1)),mipsel,$(if $(filter s390x-%,$(1)),s390x,$(if $(filter riscv64-%,$(1)),riscv64))))))
CC_MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
ARCH    ?= $(call arch_of,$(CC_MACHINE))
UNAME_M := $(shell uname -m)
HOST_ARCH := $(call arch_of,$(if $(filter mips,$(UNAME_M)),$(if $(filter 1,$(shell printf '\001\000' | od -An -tu2)),mipsel),$(UNAME_M))-)
ARCH_NAMES := x86_64, arm64 (aarch64), arm (32-bit ARMv7, armhf), mipsel (32-bit little-endian MIPS), s390x and riscv64
BPF_ARCH_x86_64  := x86
BPF_ARCH_arm64   := arm64
BPF_ARCH_arm     := arm
BPF_ARCH_mipsel  := mips
BPF_ARCH_s390x   := s390
BPF_ARCH_riscv64 := riscv
BPF_ARCH := $(BPF_ARCH_$(ARCH))
ifneq ($(BUILDING),)
ifeq ($(ARCH),)
$(error cannot tell the target architecture: '$(CC) -dumpmachine' says '$(CC_MACHINE)'; ext4dist builds for $(ARCH_NAMES): set ARCH=x86_64, arm64, arm, mipsel, s390x or riscv64, or install a compiler (make deps))
endif
$(if $(BPF_ARCH),,$(error ARCH=$(ARCH): ext4dist builds for $(ARCH_NAMES): set ARCH=x86_64, arm64, arm, mipsel, s390x or riscv64))
endif
# Debian's names of the architectures (sysroots, release tarballs), and
# the GNU triplets of their cross compilers (gcc-TRIPLET, with
# libc6-dev-DEB_ARCH-cross).
DEB_ARCH_x86_64  := amd64
DEB_ARCH_arm64   := arm64
DEB_ARCH_arm     := armhf
DEB_ARCH_mipsel  := mipsel
DEB_ARCH_s390x   := s390x
DEB_ARCH_riscv64 := riscv64
TRIPLET_x86_64   := x86_64-linux-gnu
TRIPLET_arm64    := aarch64-linux-gnu
TRIPLET_arm      := arm-linux-gnueabihf
TRIPLET_mipsel   := mipsel-linux-gnu
TRIPLET_s390x    := s390x-linux-gnu
TRIPLET_riscv64  := riscv64-linux-gnu
# The binary: ./ext4dist natively; cross builds go to their own BUILD dir.
BIN     ?= ext4dist
PKG_CONFIG_GIVEN := $(filter command line environment,$(origin PKG_CONFIG))
PKG_CONFIG ?= pkg-config
ifneq ($(ARCH),$(HOST_ARCH))
# make ARCH=arm64 (arm, mipsel, s390x, riscv64) on another machine: a
# cross build with Debian's gcc-TRIPLET into build-ARCH/ext4dist (arm:
# EABI5 hard float, ARMv7; mipsel: o32, MIPS32R2).
CROSS   := $(TRIPLET_$(ARCH))
ifneq ($(CROSS),)
ifeq ($(origin CC),default)
CC      := $(CROSS)-gcc
# Debian's cross compiler brings the C library; libelf, zlib, liblzma
# and libzstd come from the sysroot that tools/sysroot.sh fetches into
# the cache (make deps does).
ifeq ($(origin SYSROOT),undefined)
SYSROOT := $(shell tools/sysroot.sh --path $(DEB_ARCH_$(ARCH)))
SYSROOT_HINT := tools/sysroot.sh $(DEB_ARCH_$(ARCH)) fetches Debian's libelf-dev zlib1g-dev liblzma-dev libzstd-dev for ARCH=$(ARCH) there (make deps does); SYSROOT=DIR names another
endif
endif
BUILD   := $(if $(filter command line environment,$(origin BUILD)),$(BUILD),build-$(ARCH))
BIN     := $(if $(filter command line environment,$(origin BIN)),$(BIN),$(BUILD)/ext4dist)
ifneq ($(BUILDING),)
ifeq ($(shell command -v $(firstword $(CC))),)
$(error ARCH=$(ARCH): no $(CC): install gcc-$(CROSS) libc6-dev-$(DEB_ARCH_$(ARCH))-cross (make deps does, as root))
endif
endif
endif
endif
# ar of the compiler's own binutils: x86_64-linux-gnu-gcc's is
# x86_64-linux-gnu-ar.
ifeq ($(origin AR),default)
AR      := $(if $(filter %gcc,$(lastword $(CC))),$(patsubst %gcc,%ar,$(lastword $(CC))),ar)
endif

# The target's libraries under SYSROOT: headers after the compiler's own
# (its C library wins), the library directories (Debian's multiarch ones
# first), and pkg-config reading SYSROOT's .pc files unless PKG_CONFIG
# was given.
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
ifneq ($(SYSROOT),)
ifneq ($(BUILDING),)
ifeq ($(wildcard $(SYSROOT)/usr/include/libelf.h),)
$(error SYSROOT=$(SYSROOT) has no usr/include/libelf.h: $(or $(SYSROOT_HINT),give the directory that holds the target's usr/include/libelf.h and the static libelf.a and libz.a in its usr/lib))
endif
endif
SYSROOT_LIBDIRS := $(wildcard $(addprefix $(SYSROOT)/,$(if $(MULTIARCH),usr/lib/$(MULTIARCH) lib/$(MULTIARCH)) usr/lib lib))
SYSROOT_CPPFLAGS := -idirafter $(SYSROOT)/usr/include
SYSROOT_LDFLAGS := $(addprefix -L,$(SYSROOT_LIBDIRS))
ifeq ($(PKG_CONFIG_GIVEN),)
empty :=
space := $(empty) $(empty)
PKG_CONFIG := PKG_CONFIG_LIBDIR=$(subst $(space),:,$(wildcard $(addsuffix /pkgconfig,$(SYSROOT_LIBDIRS)) $(SYSROOT)/usr/share/pkgconfig)) PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) pkg-config
endif
endif

WERROR_FLAG := $(if $(filter 1,$(WERROR)),-Werror)
WARN     := -Wall -Wextra $(WERROR_FLAG)
CFLAGS   ?= -O2 -g
# Always applied, even when CFLAGS is given on the command line.
# 64-bit time_t and file offsets on 32-bit ARM too (glibc 2.34+): no 2038
# bug, no EOVERFLOW on a large file; no-ops on 64-bit targets.  No path
# of the build machine in what is built (reproducible releases).
XCFLAGS  := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 \
            $(WARN) -Iinclude -Isrc -ffile-prefix-map=$(CURDIR)=. \
            $(CPPFLAGS) $(SYSROOT_CPPFLAGS)
XLDFLAGS := $(LDFLAGS) $(SYSROOT_LDFLAGS)
# The sources that print the version get it, and are rebuilt when it
# changes (BUILD/version), the others not.
VERSION_SRCS := $(shell grep -l EXT4DIST_VERSION src/*.c src/*/*.c src/*/*/*.c tests/unit/*.c 2>/dev/null)
version_flag = $(if $(filter $(1),$(VERSION_SRCS)),-DEXT4DIST_VERSION='"$(FULL_VERSION)"')
VERSION_FILE := $(BUILD)/version
# Each object lists the headers it includes (build/**/*.d).
DEPFLAGS := -MMD -MP
LDLIBS   := -lelf -lz
STATIC_LDLIBS := $(shell $(PKG_CONFIG) --static --libs libelf 2>/dev/null || echo -lelf -lz)
# Module files may be .ko.xz (Debian 6.12) or .ko.zst: read them in-process
# when the static libraries are there (liblzma-dev, libzstd-dev).
have_static_lib = $(or $(wildcard $(addsuffix /lib$(1).a,$(SYSROOT_LIBDIRS))),$(wildcard $(shell $(CC) -print-file-name=lib$(1).a 2>/dev/null)))
ifneq ($(call have_static_lib,lzma),)
XCFLAGS  += -DEXT4DIST_WITH_XZ
LDLIBS   += -llzma
STATIC_LDLIBS += -llzma
endif
ifneq ($(call have_static_lib,zstd),)
XCFLAGS  += -DEXT4DIST_WITH_ZSTD
LDLIBS   += -lzstd
STATIC_LDLIBS += -lzstd
# Linked before libzstd.a: its decoders of the 2015-2016 frame formats
# left out (src/zstd_no_legacy.c).
ZSTD_STUB_OBJ := $(BUILD)/src/zstd_no_legacy.o
# -Bdynamic after it would undo a static link's -static (LDFLAGS=-static,
# tests/unit-cross.sh): the test then wanted a dynamic loader.
ZSTD_STATIC := -Wl,-Bstatic -lzstd $(if $(filter -static,$(LDFLAGS)),,-Wl,-Bdynamic)
endif
# The shipped binary carries no debug info (build/ext4dist-dyn keeps it),
# nor the functions and data nothing calls (each in a section of its own,
# dropped by the linker: 16 KB), nor unwind tables for its own code (C,
# no exceptions, no backtrace(): .eh_frame of our objects, 21 KB on
# x86_64; -g still writes .debug_frame for a debugger).
STATIC_LDFLAGS ?= -s
XCFLAGS  += -ffunction-sections -fdata-sections \
            -fno-asynchronous-unwind-tables -fno-unwind-tables
GC_LDFLAGS := -Wl,--gc-sections

BPF_SRC  := bpf/ext4dist.bpf.c
# The object for kernels of ARCH; a 32-bit ARM build carries the one for
# 64-bit ARM kernels too (a 32-bit user space on an arm64 kernel), and the
# binary picks by the kernel it runs on (src/tool/engine/bpf_blob_pick.c).
BPF_OBJ  := $(BUILD)/ext4dist.bpf.o
BPF_OBJ64 := $(if $(filter arm,$(ARCH)),$(BUILD)/ext4dist-arm64.bpf.o)
# Each kernel architecture's object, as clang builds it from bpf/
# (BUILD/fresh) and as shipped for builds without clang (bpf/prebuilt,
# which make check holds byte for byte against the fresh ones; make
# bpf-prebuilt writes them).  The objects need no header of the target:
# the UAPI ones of the build machine's multiarch directory serve all.
# Each is in its kernel's byte order (bpfel, or bpfeb for s390), never
# the build machine's.
BPF_KERNEL_ARCHES := x86 arm64 arm mips s390 riscv
bpf_target = $(if $(filter s390,$(1)),bpfeb,bpfel)
BPF_PREBUILT_DIR := bpf/prebuilt
BPF_CLANG := $(if $(CLANG),$(shell command -v $(CLANG) 2>/dev/null))
BPF_ORIGIN := $(if $(BPF_CLANG),$(BUILD)/fresh,$(BPF_PREBUILT_DIR))
BPF_MULTIARCH := $(if $(BPF_CLANG),$(shell $(CLANG) -print-multiarch 2>/dev/null))
BPF_CFLAGS := -O2 -g -fdebug-prefix-map=$(CURDIR)=. -Wall $(WERROR_FLAG) -Iinclude -Ibpf \
              -idirafter /usr/include/$(BPF_MULTIARCH)

LIB_SRC  := $(sort $(wildcard src/loader/*/*.c src/tool/*/*.c src/output/*.c src/serve/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
BLOB_OBJ := $(BUILD)/src/tool/bpf_blob.o
MAIN_OBJ := $(BUILD)/src/main.o
# Linked into the static binaries as an object (libelf.a, after the
# library on the command line, may need it): src/compat/glibc_c23.c.
COMPAT_OBJ := $(BUILD)/src/compat/glibc_c23.o
# Linked before libz: zlib's compressor left out (src/zlib_no_deflate.c).
ZLIB_STUB_OBJ := $(BUILD)/src/zlib_no_deflate.o
# The test build: the command line with the --test-* fixture-path options
# (EXT4DIST_TEST_HOOKS); everything else is the shipped binary's.
HOOKS_ARGS_OBJ := $(BUILD)/hooks/src/tool/cli/args.o
TEST_BINARY := $(BUILD)/ext4dist-test

TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_NAMES := $(TEST_SRC:tests/unit/test_%.c=%)
TEST_BIN := $(TEST_NAMES:%=$(BUILD)/tests/test_%) $(BUILD)/tests/test_args_hooks
TEST_LIB := $(BUILD)/tests/test.o
# Fixtures and golden files are found from any working directory.
TEST_CFLAGS := -Itests -DTEST_SRCDIR='"$(CURDIR)"'

# Objects depend on the flags they were built with: changing CFLAGS,
# WERROR or ARCH rebuilds them, where make alone sees only file times.
# The version's users depend on the version the same way.
FLAGS_FILE := $(BUILD)/flags
FLAGS_NOW := $(CC) $(CFLAGS) $(XCFLAGS) $(TEST_CFLAGS) $(XLDFLAGS) | $(BPF_CLANG) $(BPF_CFLAGS)
VERSION_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter src/%,$(VERSION_SRCS))) \
		$(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(filter tests/unit/%,$(VERSION_SRCS))) \
		$(if $(filter src/tool/cli/args.c,$(VERSION_SRCS)),$(HOOKS_ARGS_OBJ)) \
		$(if $(filter tests/unit/test_args.c,$(VERSION_SRCS)),$(BUILD)/tests/test_args_hooks)
ifneq ($(BUILDING),)
ifneq ($(file <$(FLAGS_FILE)),$(FLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_FILE),$(FLAGS_NOW))
endif
ifneq ($(file <$(VERSION_FILE)),$(FULL_VERSION))
$(shell mkdir -p $(BUILD))
$(file >$(VERSION_FILE),$(FULL_VERSION))
endif
endif

.PHONY: all deps bpf bpf-fresh bpf-prebuilt unit-tests test-binary check demo install clean \
	dist release version

all: $(BIN) $(TEST_BINARY) $(if $(BPF_CLANG),$(BUILD)/ext4dist.bpf.debug.o)

deps:
	@tests/deps.sh

bpf: $(BPF_OBJ) $(BPF_OBJ64)

version:
	@echo '$(FULL_VERSION)'

# make -s print-NAME: the value of a variable (tools/release.sh asks
# COMMIT and SOURCE_DATE_EPOCH).
print-%:
	@echo '$($*)'

# Keep the objects with DWARF (they are intermediates of the stripped ones).
.SECONDARY: $(BPF_KERNEL_ARCHES:%=$(BUILD)/fresh/ext4dist-%.bpf.debug.o) \
	    $(BUILD)/fresh/ext4dist-s390-bpfel.bpf.debug.o $(BUILD)/fresh/ext4dist-s390-bpfel.bpf.o

# Written when make starts; again here after a clean in the same run
# (make expands a recipe line before running it: mkdir in the expansion).
$(FLAGS_FILE):
	$(shell mkdir -p $(@D))$(file >$@,$(FLAGS_NOW))
$(VERSION_FILE):
	$(shell mkdir -p $(@D))$(file >$@,$(FULL_VERSION))
$(VERSION_OBJS): $(VERSION_FILE)

# Compiled with -g: the .debug.o keeps the DWARF (llvm-objdump -S reads
# it, tests/host/test_binary.sh compares); the embedded object keeps only
# .BTF and .BTF.ext, whose line_info gives --dump-bpf its C lines.  The
# local symbols (jump labels), the DWARF and the relocations of the BTF
# sections (for a linker) go: nothing reads them, and the object is
# carried in every binary.  The loader never sends BTF to the kernel.
BPF_STRIP := --strip-unneeded --remove-section=.rel.BTF --remove-section=.rel.BTF.ext

$(BUILD)/fresh/ext4dist-%.bpf.debug.o: $(BPF_SRC) $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(if $(BPF_CLANG),,$(error no clang ($(or $(CLANG),CLANG is empty)) to build the BPF objects from bpf/: install clang and llvm (make deps does)))
	$(CLANG) -target $(call bpf_target,$*) $(BPF_CFLAGS) -D__TARGET_ARCH_$* $(DEPFLAGS) -c $< -o $@

$(BUILD)/fresh/%.bpf.o: $(BUILD)/fresh/%.bpf.debug.o
	$(LLVM_STRIP) $(BPF_STRIP) -o $@ $<

# The embedded objects: clang's, or without clang those shipped.
$(BPF_OBJ): $(BPF_ORIGIN)/ext4dist-$(BPF_ARCH).bpf.o $(FLAGS_FILE)
	@mkdir -p $(@D)
	cp $< $@
$(BUILD)/ext4dist-arm64.bpf.o: $(BPF_ORIGIN)/ext4dist-arm64.bpf.o $(FLAGS_FILE)
	@mkdir -p $(@D)
	cp $< $@
$(BUILD)/ext4dist.bpf.debug.o: $(BUILD)/fresh/ext4dist-$(BPF_ARCH).bpf.debug.o
	cp $< $@

# make bpf-fresh: every kernel architecture's object from bpf/ (make
# check compares them with bpf/prebuilt); make bpf-prebuilt: copies them
# there with the list of what they were made from (the sources' hashes,
# clang's version).
BPF_FRESH := $(BPF_KERNEL_ARCHES:%=$(BUILD)/fresh/ext4dist-%.bpf.o)
BPF_INPUTS := $(sort $(wildcard bpf/*.c bpf/*.h include/*.h))
# The s390 object's little-endian twin, gzip-compressed: the unit tests
# hold the big-endian object, read on any machine, against it
# (tests/unit/test_elf_obj.c); make bpf-prebuilt keeps it there.
BPF_TWIN := $(BUILD)/fresh/ext4dist-s390-bpfel.bpf.o.gz
BPF_TWIN_FIXTURE ?= tests/unit/fixtures/ext4dist-s390-bpfel.bpf.o.gz
bpf-fresh: $(BPF_FRESH) $(BPF_TWIN)

$(BUILD)/fresh/ext4dist-s390-bpfel.bpf.debug.o: $(BPF_SRC) $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(if $(BPF_CLANG),,$(error no clang ($(or $(CLANG),CLANG is empty)) to build the BPF objects from bpf/: install clang and llvm (make deps does)))
	$(CLANG) -target bpfel $(BPF_CFLAGS) -D__TARGET_ARCH_s390 $(DEPFLAGS) -c $< -o $@

bpf-prebuilt: $(BPF_FRESH) $(BPF_TWIN)
	@mkdir -p $(BPF_PREBUILT_DIR)
	cp $(BPF_FRESH) $(BPF_PREBUILT_DIR)/
	cp $(BPF_TWIN) $(BPF_TWIN_FIXTURE)
	{ echo "# make bpf-prebuilt: the objects of bpf/prebuilt were built from these files"; \
	  echo "clang: $$($(CLANG) --version | head -n 1)"; \
	  sha256sum $(BPF_INPUTS); } > $(BPF_PREBUILT_DIR)/SOURCES

$(BUILD)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(call version_flag,$<) $(DEPFLAGS) -c $< -o $@

$(HOOKS_ARGS_OBJ): src/tool/cli/args.c $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(call version_flag,$<) -DEXT4DIST_TEST_HOOKS $(DEPFLAGS) -c $< -o $@

# Embedded gzip-compressed (-n: no name or time, the same bytes every
# build), in three pieces: the bytes before the object's source lines,
# the lines (.BTF and .BTF.ext, tools/bpf_lines_range.sh; none when it
# cannot tell where they lie), the bytes after them.  A run inflates the
# first and the last alone: the lines are for the listings.  The first
# is itself a member per kind of program (tools/bpf_parts.sh), of which
# a run inflates those that hold its programs; .parts lists each one's
# end and compressed length.  Each object's size and where its lines lie
# go with them.
%.bpf.o.gz: %.bpf.o tools/bpf_lines_range.sh tools/bpf_parts.sh
	set -- $$(tools/bpf_lines_range.sh $<); \
	size=$$(wc -c < $<); off=$$1; len=$$2; [ "$$len" != 0 ] || off=$$size; \
	from=0; : > $@.0; : > $@.parts; \
	for end in $$(tools/bpf_parts.sh $< $$off) $$off; do \
		tail -c +$$((from + 1)) $< | head -c $$((end - from)) | gzip -9n > $@.part && \
		echo "$$end,$$(wc -c < $@.part)," >> $@.parts && \
		cat $@.part >> $@.0 && rm -f $@.part && from=$$end || exit 1; \
	done; \
	tail -c +$$((off + 1)) $< | head -c $$len | gzip -9n > $@.1 && \
	tail -c +$$((off + len + 1)) $< | gzip -9n > $@.2 && \
	echo "$$off $$len" > $@.lines && \
	cat $@.0 $@.1 $@.2 > $@

$(BLOB_OBJ): src/tool/engine/bpf_blob.S $(BPF_OBJ:=.gz) $(BPF_OBJ64:=.gz)
	@mkdir -p $(@D)
	set -- $$(cat $(BPF_OBJ).gz.lines) $$(cat $(or $(BPF_OBJ64:=.gz.lines),/dev/null)); \
	$(CC) -c -DBPF_OBJ_GZ_PATH='"$(BPF_OBJ).gz"' \
		-DBPF_OBJ_SIZE=$$(wc -c < $(BPF_OBJ)) \
		-DBPF_OBJ_LINES_OFF=$$1 -DBPF_OBJ_LINES_LEN=$$2 \
		-DBPF_OBJ_GZ0=$$(wc -c < $(BPF_OBJ).gz.0) \
		-DBPF_OBJ_GZ1=$$(wc -c < $(BPF_OBJ).gz.1) \
		-DBPF_OBJ_PARTS="$$(tr -d '\n' < $(BPF_OBJ).gz.parts)" \
		$(if $(BPF_OBJ64),-DBPF_OBJ64_GZ_PATH='"$(BPF_OBJ64).gz"' \
		-DBPF_OBJ64_SIZE=$$(wc -c < $(BPF_OBJ64)) \
		-DBPF_OBJ64_LINES_OFF=$$3 -DBPF_OBJ64_LINES_LEN=$$4 \
		-DBPF_OBJ64_GZ0=$$(wc -c < $(BPF_OBJ64).gz.0) \
		-DBPF_OBJ64_GZ1=$$(wc -c < $(BPF_OBJ64).gz.1) \
		-DBPF_OBJ64_PARTS="$$(tr -d '\n' < $(BPF_OBJ64).gz.parts)") $< -o $@

$(BUILD)/libext4dist.a: $(LIB_OBJ) $(BLOB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(MAIN_OBJ) $(ZSTD_STUB_OBJ) $(ZLIB_STUB_OBJ) $(COMPAT_OBJ) $(BUILD)/libext4dist.a
	$(CC) -static $(STATIC_LDFLAGS) $(GC_LDFLAGS) $(CFLAGS) $(XCFLAGS) $(XLDFLAGS) -o $@ $^ $(STATIC_LDLIBS)

# Its args.o comes first, so the library's is not linked.
$(TEST_BINARY): $(MAIN_OBJ) $(ZSTD_STUB_OBJ) $(ZLIB_STUB_OBJ) $(HOOKS_ARGS_OBJ) $(COMPAT_OBJ) $(BUILD)/libext4dist.a
	$(CC) -static $(STATIC_LDFLAGS) $(GC_LDFLAGS) $(CFLAGS) $(XCFLAGS) $(XLDFLAGS) -o $@ $^ $(STATIC_LDLIBS)

test-binary: $(TEST_BINARY)

$(TEST_LIB): tests/test.c $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(TEST_LIB) $(BUILD)/libext4dist.a $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(call version_flag,$<) $(TEST_CFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ \
		$(XLDFLAGS) -o $@ $< $(TEST_LIB) $(BUILD)/libext4dist.a $(LDLIBS)

# The zstd stubs' test links them as the binary does: before a static
# libzstd.
$(BUILD)/tests/test_zstd_legacy: tests/unit/test_zstd_legacy.c $(TEST_LIB) $(ZSTD_STUB_OBJ) $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ \
		$(XLDFLAGS) -o $@ $< $(TEST_LIB) $(ZSTD_STUB_OBJ) $(ZSTD_STATIC) -lz

# The zlib stubs' test links them as the binary does: before libz.
$(BUILD)/tests/test_zlib_no_deflate: tests/unit/test_zlib_no_deflate.c $(TEST_LIB) $(ZLIB_STUB_OBJ) $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ \
		$(XLDFLAGS) -o $@ $< $(TEST_LIB) $(ZLIB_STUB_OBJ) -lz

# The parser tests again, against the test build's parser.
$(BUILD)/tests/test_args_hooks: tests/unit/test_args.c $(TEST_LIB) $(HOOKS_ARGS_OBJ) \
				$(BUILD)/libext4dist.a $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(call version_flag,$<) $(TEST_CFLAGS) -DEXT4DIST_TEST_HOOKS $(DEPFLAGS) \
		-MF $@.d -MT $@ $(XLDFLAGS) -o $@ $< $(TEST_LIB) $(HOOKS_ARGS_OBJ) \
		$(BUILD)/libext4dist.a $(LDLIBS)

# A dynamically linked twin of ext4dist: valgrind can only follow malloc
# in a dynamic binary.
$(BUILD)/ext4dist-dyn: $(MAIN_OBJ) $(BUILD)/libext4dist.a
	$(CC) $(CFLAGS) $(XCFLAGS) $(XLDFLAGS) -o $@ $^ $(LDLIBS)

unit-tests: $(TEST_BIN)

# make test-NAME (NAME's underscores may be dashes): one unit test suite,
# built and run; build/tests/test_NAME CASE... runs some of its cases.
define unit_test_rule
.PHONY: test-$(1) $(if $(findstring _,$(1)),test-$(subst _,-,$(1)))
test-$(1) $(if $(findstring _,$(1)),test-$(subst _,-,$(1))): $(BUILD)/tests/test_$(1)
	$(BUILD)/tests/test_$(1)
endef
$(foreach t,$(TEST_NAMES) args_hooks,$(eval $(call unit_test_rule,$(t))))

# Every suite of tests/run-all.sh, which prints the closing line
# "N passed, N failed, N skipped"; SUITES picks some (make check SUITES="unit host").
# Packages first (make deps), then a fresh make sees the tools.
SUITES ?=
check: deps
	@$(MAKE) --no-print-directory WERROR=1 all unit-tests $(BUILD)/ext4dist-dyn
	@WERROR=1 tests/run-all.sh $(SUITES)

# make check-SUITE: one suite of tests/run-all.sh with what it needs built.
RUN_ALL_SUITES := unit host asan valgrind fuzz lint budget unit-cross vm vm-arm64 vm-armhf
.PHONY: $(RUN_ALL_SUITES:%=check-%)
check-unit: unit-tests
check-host check-vm check-budget: $(BIN) $(TEST_BINARY)
check-valgrind: $(BUILD)/ext4dist-dyn
$(RUN_ALL_SUITES:%=check-%):
	@tests/run-all.sh $(@:check-%=%)

# Every armhf kernel of tests/vm-armhf (armmp 6.1 and 5.10, JIT on and
# off, and arm64 6.1 under the armhf user space): longer than make check's
# vm-armhf, which boots armmp 6.1 with the JIT on.
.PHONY: check-vm-armhf-all
check-vm-armhf-all:
	@mkdir -p build/test-logs; bash tests/vm-armhf/run.sh all | tee build/test-logs/vm-armhf-all.log; \
	 echo "$$(grep -c '^PASS ' build/test-logs/vm-armhf-all.log) passed, $$(grep -c '^FAIL ' build/test-logs/vm-armhf-all.log) failed, $$(grep -c '^SKIP ' build/test-logs/vm-armhf-all.log) skipped"; \
	 ! grep -q '^FAIL ' build/test-logs/vm-armhf-all.log

# The mipsel, s390x and riscv64 binaries on Debian's kernels of those
# architectures (tests/vm-cross), one boot each under TCG: make check's
# vm-cross suite boots s390x 6.1 and mipsel 6.1 (JIT on), this adds
# riscv64 6.12; VM_CROSS_SPECS="s390x-6.1" picks some (tests/vm-cross/run.sh
# all: every spec, the JIT off too).
VM_CROSS_SPECS ?= s390x-6.1 riscv64-6.12-jit mipsel-6.1-jit
.PHONY: check-vm-cross
check-vm-cross:
	@mkdir -p build/test-logs; bash tests/vm-cross/run.sh $(VM_CROSS_SPECS) | tee build/test-logs/vm-cross.log; \
	 echo "$$(grep -c '^PASS ' build/test-logs/vm-cross.log) passed, $$(grep -c '^FAIL ' build/test-logs/vm-cross.log) failed, $$(grep -c '^SKIP ' build/test-logs/vm-cross.log) skipped"; \
	 ! grep -q '^FAIL ' build/test-logs/vm-cross.log

demo: deps
	@$(MAKE) --no-print-directory ext4dist
	@tests/vm/demo.sh

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/sbin/ext4dist
	install -D -m 0644 man/ext4dist.8 $(DESTDIR)$(PREFIX)/share/man/man8/ext4dist.8
	ln -sf ext4dist $(DESTDIR)$(PREFIX)/sbin/ext4slower
	install -D -m 0644 man/ext4slower.8 $(DESTDIR)$(PREFIX)/share/man/man8/ext4slower.8
	for n in xfsdist xfsslower btrfsdist btrfsslower f2fsdist f2fsslower; do \
		ln -sf ext4dist $(DESTDIR)$(PREFIX)/sbin/$$n && \
		install -D -m 0644 man/$$n.8 $(DESTDIR)$(PREFIX)/share/man/man8/$$n.8 || exit 1; \
	done

clean:
	rm -rf $(BUILD) $(BIN)

# ---- make dist, make release (tools/release.sh) ---------------------------
# RELEASE_DIR (default build/release) receives the tarballs;
# RELEASE_ARCHES (default x86_64 arm64 armhf) the binaries built.
RELEASE_DIR ?= build/release
RELEASE_ARCHES ?= x86_64 arm64 armhf
dist:
	@tools/release.sh dist '$(RELEASE_DIR)'
release:
	+@RELEASE_ARCHES='$(RELEASE_ARCHES)' tools/release.sh release '$(RELEASE_DIR)'
# ---- end of make dist, make release ---------------------------------------

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(HOOKS_ARGS_OBJ:.o=.d) $(ZSTD_STUB_OBJ:.o=.d) $(ZLIB_STUB_OBJ:.o=.d) $(COMPAT_OBJ:.o=.d) \
	 $(wildcard $(BUILD)/fresh/*.bpf.debug.d) $(TEST_LIB:.o=.d) $(TEST_BIN:=.d)

# ---- fuzzing and static analysis (tests/fuzz/README.md) ---------------
# make fuzz         every libFuzzer target for FUZZ_SECONDS (default 60) each
# make fuzz-smoke   every target for FUZZ_SMOKE_SECONDS (default 5) each
# make lint         cppcheck + clang-tidy (.clang-tidy) on src/ and tests/fuzz/,
#                   the code that comments name (tests/lint/comment_names.py),
#                   and no two files of src/ calling into each other
#                   (tests/lint/link_cycles.py, on the objects built), no
#                   file of src/ over 700 lines (tests/lint/file_lines.sh)
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5

.PHONY: fuzz fuzz-smoke lint

fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh full

fuzz-smoke:
	FUZZ_SMOKE_SECONDS=$(FUZZ_SMOKE_SECONDS) tests/fuzz/run.sh smoke

lint: $(LIB_OBJ) $(MAIN_OBJ)
	tests/lint.sh
	tests/lint/comment_names.py
	tests/lint/link_cycles.py $(BUILD)/src
	tests/lint/file_lines.sh
# ---- end of fuzzing and static analysis -------------------------------

# ---- make bench (docs/performance.md); not part of make check ----------
# Boots the Debian 6.1 kernel in qemu (TCG, then TCG -icount) and measures
# ext4dist: ns/op traced vs untraced, bpf_stats per program, start-up, RSS,
# syscalls, and alternative per-event designs; tables + build/bench/result.json.
.PHONY: bench size-report
bench: ext4dist size-report
	CC='$(CC)' CLANG='$(CLANG)' BENCH_LDLIBS='$(STATIC_LDLIBS)' tests/bench/run.sh
	tests/vm-armhf/bench.sh

# What each library and object file costs the static binary: the link
# again with a map (BUILD/ext4dist.map), summed by tests/bench/size_report.awk.
size-report: $(MAIN_OBJ) $(ZSTD_STUB_OBJ) $(ZLIB_STUB_OBJ) $(BUILD)/libext4dist.a
	@$(CC) -static $(STATIC_LDFLAGS) $(GC_LDFLAGS) $(CFLAGS) $(XCFLAGS) $(XLDFLAGS) \
		-Wl,-Map=$(BUILD)/ext4dist.map -o $(BUILD)/ext4dist.sized $^ $(STATIC_LDLIBS)
	@echo "size report: $(BIN), $$(wc -c < $(BUILD)/ext4dist.sized) bytes ($(ARCH))"
	@awk -f tests/bench/size_report.awk $(BUILD)/ext4dist.map
# ---- end of make bench ----------------------------------------------------
