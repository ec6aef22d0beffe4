// SPDX-License-Identifier: GPL-2.0
/*
 * Kernels before 5.0 refuse a kprobe program whose kern_version differs
 * from their LINUX_VERSION_CODE (the check went away in 5.0, commit
 * 6c4fc209fcf9).  uname -r is not always that version: Debian's
 * "4.19.0-26-amd64" is built from upstream 4.19.304, and Ubuntu's
 * "5.4.0-150-generic" from 5.4.233.  Both distributions say the real one
 * elsewhere.
 */
#include "loader/kernel/kversion.h"
#include "loader/util/small_file.h"
#include "loader/kernel/vdso_version.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

unsigned int kversion_code(unsigned int a, unsigned int b, unsigned int c)
{
	/*
	 * The sublevel has 8 bits; stable kernels since 4.9.256 and 4.4.256
	 * clamp it at 255 in their own LINUX_VERSION_CODE as well.
	 */
	return (a << 16) + (b << 8) + (c > 255 ? 255 : c);
}

/* Reads a decimal number of at most 6 digits; returns the end or NULL. */
static const char *parse_num(const char *p, unsigned int *val)
{
	int digits = 0;

	*val = 0;
	while (*p >= '0' && *p <= '9') {
		if (++digits > 6)
			return NULL;
		*val = *val * 10 + (unsigned int)(*p - '0');
		p++;
	}
	return digits ? p : NULL;
}

/*
 * Parses "a.b" or "a.b.c" at the start of s, followed by anything that is
 * not a digit or '.'; a and b must fit the 8 bits they get in the code.
 * Sets *end (if not NULL) to the first byte after the version.
 */
static int parse_version(const char *s, unsigned int *code, const char **end)
{
	unsigned int a, b, c = 0;
	const char *p = s;

	p = parse_num(p, &a);
	if (!p || *p != '.')
		return -EINVAL;
	p = parse_num(p + 1, &b);
	if (!p)
		return -EINVAL;
	if (*p == '.') {
		p = parse_num(p + 1, &c);
		if (!p)
			return -EINVAL;
	}
	if (*p == '.' || a > 255 || b > 255)
		return -EINVAL;
	*code = kversion_code(a, b, c);
	if (end)
		*end = p;
	return 0;
}

int kversion_parse_release(const char *release, unsigned int *code)
{
	if (!release)
		return -EINVAL;
	return parse_version(release, code, NULL);
}

int kversion_parse_debian(const char *uname_version, unsigned int *code)
{
	const char *p = uname_version;

	if (!p)
		return -EINVAL;
	/* "... Debian 6.1.119-1 (2024-11-22)": the word, then the version */
	while ((p = strstr(p, "Debian ")) != NULL) {
		if (p == uname_version || p[-1] == ' ') {
			if (parse_version(p + 7, code, NULL) == 0)
				return 0;
		}
		p += 7;
	}
	return -EINVAL;
}

int kversion_parse_ubuntu(const char *signature, unsigned int *code)
{
	const char *end, *start, *vend;
	unsigned int v;

	if (!signature)
		return -EINVAL;
	end = signature + strlen(signature);
	while (end > signature && (end[-1] == '\n' || end[-1] == ' ' ||
				   end[-1] == '\t' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > signature && start[-1] != ' ' && start[-1] != '\t')
		start--;
	/* A signature has at least two fields; the last is the version. */
	if (start == end || start == signature)
		return -EINVAL;
	/* The field is the upstream version and nothing else. */
	if (parse_version(start, &v, &vend) || vend != end)
		return -EINVAL;
	*code = v;
	return 0;
}

int kversion_from(const char *release, const char *uname_version,
		  const char *signature, unsigned int *code)
{
	if (kversion_parse_debian(uname_version, code) == 0)
		return 0;
	if (kversion_parse_ubuntu(signature, code) == 0)
		return 0;
	return kversion_parse_release(release, code);
}

int kversion_get(const char *signature_path, unsigned int *code)
{
	struct utsname u;
	char sig[256] = "";
	int err;

	if (uname(&u) < 0)
		return -errno;
	err = small_file_read(signature_path ? signature_path :
			      KVERSION_SIGNATURE_PATH, sig, sizeof(sig));
	if (err == -ENOENT)
		sig[0] = '\0';
	else if (err < 0)
		return err;
	return kversion_from(u.release, u.version, sig[0] ? sig : NULL, code);
}

int kversion_running(unsigned int *code, const char **source)
{
	if (vdso_version_code(code) == 0) {
		*source = "vDSO note";
		return 0;
	}
	*source = "uname";
	return kversion_get(NULL, code);
}
