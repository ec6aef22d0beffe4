/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's LINUX_VERSION_CODE, which BPF_PROG_LOAD wants in
 * kern_version for kprobe programs before Linux 5.0.
 */
#ifndef EXT4DIST_LOADER_KERNEL_KVERSION_H
#define EXT4DIST_LOADER_KERNEL_KVERSION_H

#define KVERSION_SIGNATURE_PATH	"/proc/version_signature"

/* LINUX_VERSION_CODE of a.b.c, the sublevel clamped to 255 as since 4.9.256. */
unsigned int kversion_code(unsigned int a, unsigned int b, unsigned int c);

/*
 * Each parser returns 0 and sets *code, or -EINVAL when the string holds
 * no version where that source puts it.
 *
 * kversion_parse_release: "4.9.0-19-amd64" (uname -r); "4.14" is 4.14.0.
 * kversion_parse_debian:  uname -v of Debian kernels,
 *                         "#1 SMP Debian 4.19.304-1 (2024-01-09)".
 * kversion_parse_ubuntu:  /proc/version_signature, the last field of
 *                         "Ubuntu 5.4.0-150.167-generic 5.4.233".
 */
int kversion_parse_release(const char *release, unsigned int *code);
int kversion_parse_debian(const char *uname_version, unsigned int *code);
int kversion_parse_ubuntu(const char *signature, unsigned int *code);

/*
 * Picks the first usable source: Debian's uname -v, then Ubuntu's
 * version signature, then the release.  Any argument may be NULL.
 * Returns 0 or -EINVAL.
 */
int kversion_from(const char *release, const char *uname_version,
		  const char *signature, unsigned int *code);

/*
 * kversion_from() on uname() and the signature file at signature_path
 * (NULL means KVERSION_SIGNATURE_PATH; a missing file is fine).
 * Returns 0, -EINVAL, or -errno from uname()/reading the file.
 */
int kversion_get(const char *signature_path, unsigned int *code);

/*
 * The kern_version to load programs with: the vDSO's own note when there
 * is one (*source = "vDSO note"), else kversion_get() (*source = "uname").
 */
int kversion_running(unsigned int *code, const char **source);

#endif
