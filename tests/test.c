// SPDX-License-Identifier: GPL-2.0
#include "test.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

int test_failed;
int test_passed;

int test_report(int ok, const char *file, int line, const char *name,
		const char *expr)
{
	if (ok) {
		test_passed++;
		printf("PASS %s\n", name);
	} else {
		test_failed++;
		printf("FAIL %s (%s:%d: %s)\n", name, file, line, expr);
	}
	return ok;
}

int check_int(const char *name, long long got, long long want)
{
	if (got == want) {
		test_passed++;
		printf("PASS %s\n", name);
		return 1;
	}
	test_failed++;
	printf("FAIL %s: got %lld, want %lld\n", name, got, want);
	return 0;
}

int check_str(const char *name, const char *got, const char *want)
{
	if (got && want && strcmp(got, want) == 0) {
		test_passed++;
		printf("PASS %s\n", name);
		return 1;
	}
	test_failed++;
	printf("FAIL %s:\n  got:  \"%s\"\n  want: \"%s\"\n", name,
	       got ? got : "(null)", want ? want : "(null)");
	return 0;
}

int check_mem(const char *name, const void *got, size_t got_len,
	      const void *want, size_t want_len)
{
	if (got_len == want_len && memcmp(got, want, got_len) == 0) {
		test_passed++;
		printf("PASS %s\n", name);
		return 1;
	}
	test_failed++;
	printf("FAIL %s: %zu bytes differ from the %zu expected\n"
	       "--- got ---\n%.*s--- want ---\n%.*s--- end ---\n",
	       name, got_len, want_len, (int)got_len, (const char *)got,
	       (int)want_len, (const char *)want);
	return 0;
}

unsigned char *test_read_gz(const char *path, size_t *len)
{
	gzFile f = gzopen(path, "rb");
	unsigned char *buf = NULL, *grown;
	size_t cap = 0;
	int n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1u << 20;
			grown = realloc(buf, cap);
			if (!grown)
				break;
			buf = grown;
		}
		n = gzread(f, buf + *len, (unsigned int)(cap - *len));
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	/*
	 * gzclose() would name gzclose_w(), whose file names deflate: a
	 * static link would take zlib's compressor in beside
	 * src/zlib_no_deflate.c's stand-ins (test_zlib_no_deflate).
	 */
	gzclose_r(f);
	return buf;
}

char *test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *nb;

			cap = (cap + 4096) * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, 4096, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int test_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, data, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}

static char test_dir[256];

const char *test_tmpdir(const char *tag)
{
	const char *base = getenv("TMPDIR");

	if (!base || !base[0])
		base = "/tmp";
	snprintf(test_dir, sizeof(test_dir), "%s/%s.XXXXXX", base, tag);
	return mkdtemp(test_dir);
}

const char *test_tmp_path(const char *name)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", test_dir, name);
	return p;
}

int check_golden(const char *name, const char *got, size_t got_len,
		 const char *golden_path)
{
	size_t want_len;
	char *want = test_read_file(golden_path, &want_len);
	int ok;

	if (!want) {
		test_failed++;
		printf("FAIL %s: cannot read golden file %s\n", name,
		       golden_path);
		return 0;
	}
	ok = check_mem(name, got, got_len, want, want_len);
	free(want);
	return ok;
}

int test_done(void)
{
	printf("# totals: pass=%d fail=%d\n", test_passed, test_failed);
	return test_failed ? 1 : 0;
}

static const struct test_case *find_case(const struct test_case *cases,
					 const char *name)
{
	for (; cases->name; cases++)
		if (strcmp(cases->name, name) == 0)
			return cases;
	return NULL;
}

/* No name in argv: every case; else the named ones. */
static int wanted(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

int test_main(int argc, char **argv, const struct test_case *cases)
{
	const struct test_case *c;
	int i;

	for (i = 1; i < argc; i++) {
		if (find_case(cases, argv[i]))
			continue;
		fprintf(stderr, "%s: no test case '%s'; the cases are:\n",
			argv[0], argv[i]);
		for (c = cases; c->name; c++)
			fprintf(stderr, "  %s\n", c->name);
		return 2;
	}
	for (c = cases; c->name; c++) {
		if (!wanted(c->name, argc, argv))
			continue;
		printf("# case %s\n", c->name);
		c->fn();
	}
	return test_done();
}
