#!/usr/bin/env bash
# packaging/: the Buildroot BR2_EXTERNAL tree and the OpenWrt package.
# Neither build system is here, so: what they pass the Makefile must be
# variables it reads, their version its VERSION, the kernel options they
# name README's; and each one's recipe is run for real by a stand-in for
# its build system (the variables Buildroot's package/Makefile.in and
# OpenWrt's rules.mk give a package, for Debian's cross compilers and the
# sysroots of tools/sysroot.sh): Buildroot's for arm64, OpenWrt's for
# armhf, each binary byte for byte the one of the build the arm VM suites
# run (make ARCH=arm64|arm SYSROOT=...).
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

top=$(pwd)
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
BR=packaging/buildroot
BR_MK=$BR/package/ext4dist/ext4dist.mk
OW_MK=packaging/openwrt/ext4dist/Makefile

expect_eq "buildroot: external.desc names the tree as its files use it" \
	"$(sed -n 's/^name: //p' "$BR/external.desc") $(grep -c 'BR2_EXTERNAL_EXT4DIST_PATH' "$BR/Config.in" "$BR/external.mk" "$BR_MK" | tr '\n' ' ')" \
	"EXT4DIST $BR/Config.in:1 $BR/external.mk:1 $BR_MK:1 "
expect_eq "buildroot: the package's version is the Makefile's" \
	"$(sed -n 's/^EXT4DIST_VERSION = //p' "$BR_MK")" "$version"
expect_eq "openwrt: the package's version is the Makefile's" \
	"$(sed -n 's/^PKG_VERSION:=//p' "$OW_MK")" "$version"
expect_eq "both: the licence file exists" \
	"$(sed -n 's/^EXT4DIST_LICENSE_FILES = //p' "$BR_MK") $(sed -n 's/^PKG_LICENSE_FILES:=//p' "$OW_MK") $(test -s COPYING && echo present)" \
	"COPYING COPYING present"

# block FILE START: the lines from START up to the next endef or blank line.
block() { awk -v s="$2" 'index($0, s) == 1 { on = 1 } on && (/^endef/ || /^$/) { exit } on' "$1"; }

# What each hands the Makefile on its command line, and what Buildroot's
# TARGET_CONFIGURE_OPTS and OpenWrt's Build/Compile set: each must be a
# variable the Makefile reads, or it does nothing.
passed=$( (block "$BR_MK" "EXT4DIST_MAKE_OPTS ="; block "$BR_MK" "define EXT4DIST_INSTALL_TARGET_CMDS";
	   block "$OW_MK" "define Build/Compile") |
	grep -oE '(^|[[:space:]])[A-Z_]+=' | tr -d ' \t=' | sort -u | tr '\n' ' ')
expect_eq "both: the variables they pass" "$passed" \
	"AR BIN BUILD CC CFLAGS CLANG CPPFLAGS DESTDIR LDFLAGS PREFIX SYSROOT "
for v in $passed CC CFLAGS CPPFLAGS LDFLAGS PKG_CONFIG AR; do
	grep -q "\$($v)" Makefile || echo "$v"
done > "$TMP/unread"
expect_eq "both: the Makefile reads every one of them (and PKG_CONFIG, Buildroot's)" \
	"$(tr '\n' ' ' < "$TMP/unread")" ""
expect_eq "both: no clang (the BPF objects of bpf/prebuilt)" \
	"$(grep -c 'CLANG= ' "$BR_MK" "$OW_MK" | tr '\n' ' ')" "$BR_MK:1 $OW_MK:1 "

# The kernel options: README's required ones, in both.
required=$(sed -n '/^<!-- kernel-options -->/,/^$/p' README.md |
	awk -F'|' '$2 ~ /required/ { print $3 }' | grep -oE 'CONFIG_[A-Z_]+' | sort | tr '\n' ' ')
expect_eq "README: the kernel options required" "$required" \
	"CONFIG_BPF_EVENTS CONFIG_BPF_SYSCALL CONFIG_FTRACE CONFIG_KPROBES CONFIG_KPROBE_EVENTS CONFIG_PERF_EVENTS "
expect_eq "buildroot: its kernel fixups enable README's options" \
	"$(grep -oE 'KCONFIG_ENABLE_OPT,CONFIG_[A-Z_]+' "$BR_MK" | sed 's/.*,//' | sort | tr '\n' ' ')" "$required"
for f in "$BR/package/ext4dist/Config.in" "$OW_MK"; do
	expect_eq "$f: its text names README's options" \
		"$(for o in $required; do grep -q "$o\\b" "$f" || echo "$o missing"; done)" ""
done
expect_eq "openwrt: the kernel symbols it depends on are README's" \
	"$(grep '^  DEPENDS:=' "$OW_MK" | grep -oE '@KERNEL_[A-Z_]+' | sed 's/@KERNEL_/CONFIG_/' |
	   while read -r o; do case " $required " in *" $o "*) ;; *) echo "$o not in README"; esac; done)" ""

# The recipes, run.  Both need a sysroot each (make deps fetches them).
arm64_sysroot=$(tools/sysroot.sh --path arm64)
armhf_sysroot=$(tools/sysroot.sh --path armhf)
commit=$(make -s --no-print-directory print-COMMIT)

# prepare SYSTEM ARCH SYSROOT CC: the build of the arm VM suite of ARCH
# into TMP/ref-ARCH, or a SKIP line for SYSTEM when SYSROOT or CC is not
# there (make deps brings them).
prepare() {
	if [ ! -e "$3/.packages" ] || ! command -v "$4" > /dev/null; then
		echo "SKIP packaging $1: no $3 or no $4 (make deps)"
		return 1
	fi
	make -s -j2 --no-print-directory ARCH="$2" SYSROOT="$3" BUILD="$TMP/ref-$2" \
		BIN="$TMP/ref-$2/ext4dist" "$TMP/ref-$2/ext4dist" > "$TMP/ref-$2.log" 2>&1
}

if prepare buildroot arm64 "$arm64_sysroot" aarch64-linux-gnu-gcc; then
	out=$TMP/br
	mkdir -p "$out"
	cat > "$out/stub.mk" <<EOF
# Buildroot's package variables (package/Makefile.in, pkg-generic.mk), as
# they would be for an arm64 glibc toolchain whose staging is the sysroot.
BR2_EXTERNAL_EXT4DIST_PATH := $top/$BR
STAGING_DIR := $arm64_sysroot
TARGET_DIR := $out/target
BUILD_DIR := $out/build
TARGET_CC := aarch64-linux-gnu-gcc
TARGET_MAKE_ENV := GIT_DIR=. PATH="\$(PATH)"
TARGET_CONFIGURE_OPTS := \$(TARGET_MAKE_ENV) AR="aarch64-linux-gnu-ar" \\
	AS="aarch64-linux-gnu-as" LD="aarch64-linux-gnu-ld" NM="aarch64-linux-gnu-nm" \\
	CC="\$(TARGET_CC)" GCC="\$(TARGET_CC)" CPP="\$(TARGET_CC) -E" \\
	RANLIB="aarch64-linux-gnu-ranlib" STRIP="aarch64-linux-gnu-strip" \\
	CPPFLAGS="" CFLAGS="-O2 -g" LDFLAGS="" \\
	PKG_CONFIG="env PKG_CONFIG_LIBDIR=\$(STAGING_DIR)/usr/lib/aarch64-linux-gnu/pkgconfig PKG_CONFIG_SYSROOT_DIR=\$(STAGING_DIR) pkg-config" \\
	STAGING_DIR="\$(STAGING_DIR)"
KCONFIG_ENABLE_OPT = echo "\$(1)=y"
generic-package :=
include \$(BR2_EXTERNAL_EXT4DIST_PATH)/external.mk
D := \$(BUILD_DIR)/ext4dist-\$(EXT4DIST_VERSION)
# The local site method: the source copied without its VCS folder and the
# package's exclusions (rsync's anchored /NAME is tar's ./NAME), then
# the post-rsync hooks.
\$(D)/.stamp_rsynced: SRCDIR = \$(EXT4DIST_SITE)
\$(D)/.stamp_rsynced:
	mkdir -p \$(@D)
	tar -C \$(SRCDIR) --exclude=./.git \$(patsubst /%,--exclude=./%,\$(filter-out --exclude,\$(subst ',,\$(EXT4DIST_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS)))) -cf - . | tar -C \$(@D) -xf -
	\$(foreach hook,\$(EXT4DIST_POST_RSYNC_HOOKS),\$(call \$(hook)))
	touch \$@
\$(D)/.stamp_built: \$(D)/.stamp_rsynced
	\$(EXT4DIST_BUILD_CMDS)
	touch \$@
\$(D)/.stamp_target_installed: \$(D)/.stamp_built
	\$(EXT4DIST_INSTALL_TARGET_CMDS)
	touch \$@
linux-fixups:
	\$(EXT4DIST_LINUX_CONFIG_FIXUPS)
EOF
	d=$out/build/ext4dist-$version
	make -s -j2 -f "$out/stub.mk" "$d/.stamp_target_installed" > "$out/make.log" 2>&1
	if [ -s "$out/target/usr/sbin/ext4dist" ] && cmp -s "$out/target/usr/sbin/ext4dist" "$TMP/ref-arm64/ext4dist"; then
		pass "buildroot (arm64): the installed binary is the one of make ARCH=arm64 SYSROOT=..."
	else
		fail "buildroot (arm64): the installed binary is the one of make ARCH=arm64 SYSROOT=..." \
			"$(ls -l "$out/target/usr/sbin/ext4dist" "$TMP/ref-arm64/ext4dist" 2>&1 | tr '\n' ' ') $(tail -n 5 "$out/make.log" "$TMP/ref-arm64.log" | tr '\n' ' ')"
	fi
	expect_eq "buildroot: the copy has no build products of the tree, and the commit" \
		"$(for f in "$d/build" "$d"/build-arm* "$d/ext4dist"; do [ ! -e "$f" ] || echo "$f"; done) $(cut -d' ' -f1 "$d/.tarball-version" 2>/dev/null)" \
		" $commit"
	expect_eq "buildroot: the links and man pages installed" \
		"$(readlink "$out/target/usr/sbin/ext4slower") $(ls "$out/target/usr/share/man/man8" 2>/dev/null | wc -l)" "ext4dist 8"
	expect_eq "buildroot: no clang (the BPF objects of bpf/prebuilt, none built)" \
		"$([ -e "$d/build-target/fresh" ] || echo none) $(cmp -s "$d/build-target/ext4dist.bpf.o" bpf/prebuilt/ext4dist-arm64.bpf.o && echo prebuilt)" "none prebuilt"
	expect_eq "buildroot: the kernel fixups" \
		"$(make -s -f "$out/stub.mk" linux-fixups 2>&1 | tr '\n' ' ')" \
		"CONFIG_FTRACE=y CONFIG_KPROBES=y CONFIG_KPROBE_EVENTS=y CONFIG_PERF_EVENTS=y CONFIG_BPF_SYSCALL=y CONFIG_BPF_EVENTS=y "
fi

if prepare openwrt arm "$armhf_sysroot" arm-linux-gnueabihf-gcc; then
	out=$TMP/openwrt
	mkdir -p "$out/include"
	# OpenWrt's rules.mk and package.mk as far as the package uses them,
	# for an armhf toolchain whose staging is the sysroot.
	cat > "$out/rules.mk" <<EOF
INCLUDE_DIR := \$(TOPDIR)/include
BUILD_DIR := \$(TOPDIR)/build_dir
STAGING_DIR := $armhf_sysroot
TARGET_CC := arm-linux-gnueabihf-gcc
TARGET_AR := arm-linux-gnueabihf-ar
TARGET_CFLAGS := -O2 -g
TARGET_CPPFLAGS :=
TARGET_LDFLAGS :=
PKG_JOBS := -j2
INSTALL_DIR := install -d -m0755
INSTALL_BIN := install -m0755
LN := ln -sf
EOF
	cat > "$out/include/package.mk" <<'EOF'
PKG_BUILD_DIR ?= $(BUILD_DIR)/$(PKG_NAME)-$(PKG_VERSION)
define BuildPackage
$(PKG_BUILD_DIR)/.built:
	$$(Build/Prepare)
	$$(Build/Compile)
	touch $$@
install: $(PKG_BUILD_DIR)/.built
	$$(call Package/$(1)/install,$(TOPDIR)/ipkg-$(1))
endef
EOF
	make -s -C packaging/openwrt/ext4dist TOPDIR="$out" install > "$out/make.log" 2>&1
	bin=$out/ipkg-ext4dist/usr/sbin/ext4dist
	if [ -s "$bin" ] && cmp -s "$bin" "$TMP/ref-arm/ext4dist"; then
		pass "openwrt (armhf): the packaged binary is the one of make ARCH=arm SYSROOT=..."
	else
		fail "openwrt (armhf): the packaged binary is the one of make ARCH=arm SYSROOT=..." \
			"$(ls -l "$bin" "$TMP/ref-arm/ext4dist" 2>&1 | tr '\n' ' ') $(tail -n 5 "$out/make.log" "$TMP/ref-arm.log" | tr '\n' ' ')"
	fi
	d=$out/build_dir/ext4dist-$version
	expect_eq "openwrt: the copy has no build products of the tree, and the commit" \
		"$(for f in "$d/build" "$d"/build-arm* "$d/ext4dist"; do [ ! -e "$f" ] || echo "$f"; done) $(cut -d' ' -f1 "$d/.tarball-version" 2>/dev/null)" \
		" $commit"
	expect_eq "openwrt: the links" \
		"$(cd "$out/ipkg-ext4dist/usr/sbin" 2>/dev/null && for f in *; do printf '%s>%s ' "$f" "$(readlink "$f")"; done)" \
		"btrfsdist>ext4dist btrfsslower>ext4dist ext4dist> ext4slower>ext4dist f2fsdist>ext4dist f2fsslower>ext4dist xfsdist>ext4dist xfsslower>ext4dist "
	expect_eq "openwrt: no clang (the BPF objects of bpf/prebuilt, none built)" \
		"$([ -e "$d/build-target/fresh" ] || echo none) $(cmp -s "$d/build-target/ext4dist.bpf.o" bpf/prebuilt/ext4dist-arm.bpf.o && cmp -s "$d/build-target/ext4dist-arm64.bpf.o" bpf/prebuilt/ext4dist-arm64.bpf.o && echo prebuilt)" "none prebuilt"
fi
