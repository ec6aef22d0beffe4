/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's LINUX_VERSION_CODE, as the kernel itself states it:
 * every x86 and arm64 vDSO carries an ELF note ("Linux", type 0) holding
 * it.  Truer than parsing uname strings, which distributions rewrite.
 */
#ifndef EXT4DIST_LOADER_KERNEL_VDSO_VERSION_H
#define EXT4DIST_LOADER_KERNEL_VDSO_VERSION_H

#include <stddef.h>

/* From the vDSO mapped into this process: 0, or -ENOENT without one. */
int vdso_version_code(unsigned int *code);

/* The same search in an ELF image of size bytes (tests, fuzzing). */
int elf_image_linux_note(const void *image, size_t size, unsigned int *code);

#endif
