################################################################################
#
# ext4dist
#
################################################################################

# The source is the tree this BR2_EXTERNAL lives in (packaging/buildroot);
# EXT4DIST_OVERRIDE_SRCDIR names another (an unpacked `make dist`).
EXT4DIST_VERSION = 0.1.0
EXT4DIST_SITE = $(BR2_EXTERNAL_EXT4DIST_PATH)/../..
EXT4DIST_SITE_METHOD = local
EXT4DIST_LICENSE = GPL-2.0
EXT4DIST_LICENSE_FILES = COPYING
EXT4DIST_DEPENDENCIES = elfutils zlib host-pkgconf
# Not the tree's own build products.
EXT4DIST_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	--exclude /build --exclude '/build-*' --exclude /ext4dist

ifeq ($(BR2_PACKAGE_XZ),y)
EXT4DIST_DEPENDENCIES += xz
endif
ifeq ($(BR2_PACKAGE_ZSTD),y)
EXT4DIST_DEPENDENCIES += zstd
endif

# The copy has no .git: it gets the .tarball-version a dist tarball has,
# so that --version names the commit.
define EXT4DIST_TARBALL_VERSION
	$(MAKE) -s -C $(SRCDIR) --no-print-directory print-COMMIT print-SOURCE_DATE_EPOCH | \
		paste -sd ' ' > $(@D)/.tarball-version
endef
EXT4DIST_POST_RSYNC_HOOKS += EXT4DIST_TARBALL_VERSION

# The cross build make check runs (tests/host/test_packaging.sh): the
# toolchain's CC and flags, SYSROOT the staging directory, no clang (the
# BPF objects of bpf/prebuilt).
EXT4DIST_MAKE_OPTS = \
	SYSROOT="$(STAGING_DIR)" CLANG= \
	BUILD=build-target BIN=build-target/ext4dist

define EXT4DIST_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(TARGET_CONFIGURE_OPTS) $(MAKE) -C $(@D) \
		$(EXT4DIST_MAKE_OPTS)
endef

define EXT4DIST_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(TARGET_CONFIGURE_OPTS) $(MAKE) -C $(@D) \
		$(EXT4DIST_MAKE_OPTS) DESTDIR="$(TARGET_DIR)" PREFIX=/usr install
endef

# What the tool needs of the kernel, when Buildroot builds it.
define EXT4DIST_LINUX_CONFIG_FIXUPS
	$(call KCONFIG_ENABLE_OPT,CONFIG_FTRACE)
	$(call KCONFIG_ENABLE_OPT,CONFIG_KPROBES)
	$(call KCONFIG_ENABLE_OPT,CONFIG_KPROBE_EVENTS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_PERF_EVENTS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_BPF_SYSCALL)
	$(call KCONFIG_ENABLE_OPT,CONFIG_BPF_EVENTS)
endef

$(eval $(generic-package))
