// SPDX-License-Identifier: GPL-2.0
/* Tests for src/loader/kversion.c: every version source, exact codes. */
#include "test.h"
#include "loader/kernel/kversion.h"

#include <errno.h>
#include <sys/utsname.h>


#define V(a, b, c) (((a) << 16) + ((b) << 8) + (c))

struct vcase {
	const char *in;
	int ret;
	unsigned int code;
};

static void run_cases(const char *what,
		      int (*parse)(const char *, unsigned int *),
		      const struct vcase *c, size_t n)
{
	char name[160], shown[120];
	unsigned int code;
	size_t i, j;
	int ret;

	for (i = 0; i < n; i++) {
		/* The input on one line: a newline shows as '|'. */
		for (j = 0; c[i].in && c[i].in[j] && j < sizeof(shown) - 1; j++)
			shown[j] = c[i].in[j] == '\n' ? '|' : c[i].in[j];
		shown[j] = '\0';
		code = 0xdeadbeef;
		ret = parse(c[i].in, &code);
		snprintf(name, sizeof(name), "%s \"%s\" ret", what,
			 c[i].in ? shown : "(null)");
		check_int(name, ret, c[i].ret);
		snprintf(name, sizeof(name), "%s \"%s\" code", what,
			 c[i].in ? shown : "(null)");
		/* On failure the output is left alone. */
		check_int(name, code, c[i].ret ? 0xdeadbeef : c[i].code);
	}
}

static void test_code(void)
{
	check_int("code 4.9.0", kversion_code(4, 9, 0), 0x040900);
	check_int("code 6.1.119", kversion_code(6, 1, 119), 0x060177);
	check_int("code 4.9.337 clamps", kversion_code(4, 9, 337), 0x0409ff);
	check_int("code 4.19.255 stays", kversion_code(4, 19, 255), 0x0413ff);
}

static void test_release(void)
{
	static const struct vcase c[] = {
		{ "4.9.0-19-amd64", 0, V(4, 9, 0) },
		{ "5.15.0", 0, V(5, 15, 0) },
		{ "6.18.44-fc-v1045", 0, V(6, 18, 44) },
		{ "4.14", 0, V(4, 14, 0) },
		{ "4.14-custom", 0, V(4, 14, 0) },
		{ "4.9.337", 0, V(4, 9, 255) },
		{ "5.4.0-150-generic", 0, V(5, 4, 0) },
		{ "3.10.0-1160.el7.x86_64", 0, V(3, 10, 0) },
		{ "5.10.0+", 0, V(5, 10, 0) },
		{ "6.1.0-rc7", 0, V(6, 1, 0) },
		{ "", -EINVAL, 0 },
		{ "4", -EINVAL, 0 },
		{ "4.", -EINVAL, 0 },
		{ "v4.9.0", -EINVAL, 0 },
		{ "4.x.0", -EINVAL, 0 },
		{ "4.9.", -EINVAL, 0 },
		{ "4.9.1.2", -EINVAL, 0 },
		{ "256.1.0", -EINVAL, 0 },
		{ "4.256.0", -EINVAL, 0 },
		{ "99999999.1.1", -EINVAL, 0 },
		{ NULL, -EINVAL, 0 },
	};

	run_cases("release", kversion_parse_release, c,
		  sizeof(c) / sizeof(c[0]));
}

static void test_debian(void)
{
	static const struct vcase c[] = {
		{ "#1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22)", 0,
		  V(6, 1, 119) },
		{ "#1 SMP Debian 4.19.304-1 (2024-01-09)", 0, V(4, 19, 255) },
		{ "#1 SMP Debian 5.10.226-1 (2024-10-03)", 0, V(5, 10, 226) },
		{ "#1 SMP Debian 4.9.337-1 (2023-10-02)", 0, V(4, 9, 255) },
		{ "#1 SMP Debian 3.16.56-1+deb8u1 (2018-05-08)", 0,
		  V(3, 16, 56) },
		{ "#1 SMP Debian 5.10.46-4~bpo10+1 (2021-08-07)", 0,
		  V(5, 10, 46) },
		{ "#1 SMP PREEMPT_DYNAMIC Debian 6.12.6-1 (2024-12-21)", 0,
		  V(6, 12, 6) },
		{ "Debian 4.19.98-1", 0, V(4, 19, 98) },
		/* The word alone, or inside another word, is no version. */
		{ "#1 SMP PREEMPT_DYNAMIC Debian-custom", -EINVAL, 0 },
		{ "#1 SMP NotDebian 4.19.1-1", -EINVAL, 0 },
		{ "#1 SMP Debian build (2024-01-01)", -EINVAL, 0 },
		{ "#167-Ubuntu SMP Wed Sep 17 21:35:34 UTC 2023", -EINVAL, 0 },
		{ "#1 SMP PREEMPT_DYNAMIC @0", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ NULL, -EINVAL, 0 },
	};

	run_cases("debian", kversion_parse_debian, c, sizeof(c) / sizeof(c[0]));
}

static void test_ubuntu(void)
{
	static const struct vcase c[] = {
		{ "Ubuntu 5.4.0-150.167-generic 5.4.233", 0, V(5, 4, 233) },
		{ "Ubuntu 5.4.0-150.167-generic 5.4.233\n", 0, V(5, 4, 233) },
		{ "Ubuntu 4.15.0-213.224-generic 4.15.18\n", 0,
		  V(4, 15, 18) },
		{ "Ubuntu 4.4.0-210.242-generic 4.4.302\n", 0, V(4, 4, 255) },
		{ "Ubuntu 6.8.0-45.45-generic 6.8.12", 0, V(6, 8, 12) },
		{ "5.4.233", -EINVAL, 0 },
		{ "Ubuntu 5.4.0-150.167-generic", -EINVAL, 0 },
		{ "Ubuntu 5.4.0-150.167-generic 5.4.233-custom", -EINVAL, 0 },
		{ "Ubuntu 5.4.0-150.167-generic 5.4.233.1", -EINVAL, 0 },
		{ "garbage\n", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ NULL, -EINVAL, 0 },
	};

	run_cases("ubuntu", kversion_parse_ubuntu, c, sizeof(c) / sizeof(c[0]));
}

static void test_from(void)
{
	unsigned int code;

	check_int("from: debian wins ret", kversion_from("4.19.0-26-amd64",
		  "#1 SMP Debian 4.19.304-1 (2024-01-09)", NULL, &code), 0);
	check_int("from: debian wins", code, V(4, 19, 255));
	check_int("from: ubuntu ret", kversion_from("5.4.0-150-generic",
		  "#167-Ubuntu SMP Wed Sep 17 21:35:34 UTC 2023",
		  "Ubuntu 5.4.0-150.167-generic 5.4.233\n", &code), 0);
	check_int("from: ubuntu", code, V(5, 4, 233));
	check_int("from: release ret", kversion_from("6.18.44-fc-v1045",
		  "#1 SMP PREEMPT_DYNAMIC @0", NULL, &code), 0);
	check_int("from: release", code, V(6, 18, 44));
	check_int("from: bad signature falls back ret",
		  kversion_from("4.9.0-19-amd64", NULL, "garbage", &code), 0);
	check_int("from: bad signature falls back", code, V(4, 9, 0));
	code = 7;
	check_int("from: nothing usable",
		  kversion_from("weird", "#1", "garbage", &code), -EINVAL);
	check_int("from: nothing usable leaves code", code, 7);
	check_int("from: all NULL", kversion_from(NULL, NULL, NULL, &code),
		  -EINVAL);
	/*
	 * Vanilla 4.19.222, as the suite booted it until its image was
	 * withdrawn: uname gives 4.19.222, but the 4.4-4.19 stable branches
	 * build 255 in as the patch level, and before 5.0 a kprobe program
	 * loads only with the kernel's own code (test_vdso_version reads
	 * 0x0413ff from the note): parsing uname would be refused there.
	 */
	check_int("from: vanilla 4.19.222 ret", kversion_from("4.19.222",
		  "#1 SMP Wed Dec 3 10:00:00 UTC 2026", NULL, &code), 0);
	check_int("from: vanilla 4.19.222 parses to a code its kernel refuses",
		  code, 0x0413de);
}

/* kversion_get() reads this host's uname: compare with kversion_from(). */
static void test_get(void)
{
	unsigned int got, want;
	struct utsname u;
	int ret_want;

	if (!CHECK(uname(&u) == 0, "get: uname"))
		return;
	ret_want = kversion_from(u.release, u.version, NULL, &want);
	check_int("get: no signature file", kversion_get(TEST_FIXTURES
		  "no_such_signature", &got), ret_want);
	if (ret_want == 0)
		check_int("get: same as uname fields", got, want);

	ret_want = kversion_from(u.release, u.version,
				 "Ubuntu 5.4.0-150.167-generic 5.4.233",
				 &want);
	check_int("get: signature file ret", kversion_get(TEST_FIXTURES
		  "version_signature_ubuntu.txt", &got), ret_want);
	check_int("get: signature file", got, want);

	ret_want = kversion_from(u.release, u.version, "garbage", &want);
	check_int("get: bad signature file ret", kversion_get(TEST_FIXTURES
		  "version_signature_bad.txt", &got), ret_want);
	if (ret_want == 0)
		check_int("get: bad signature file", got, want);

	check_int("get: signature path is a directory",
		  kversion_get(TEST_FIXTURES, &got), -EISDIR);
}

static const struct test_case test_cases[] = {
	TEST_CASE(code),
	TEST_CASE(release),
	TEST_CASE(debian),
	TEST_CASE(ubuntu),
	TEST_CASE(from),
	TEST_CASE(get),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
