// SPDX-License-Identifier: GPL-2.0
/*
 * An LD_PRELOAD library for build/ext4dist-dyn: memory runs out at the
 * Nth allocation (malloc, calloc, realloc, posix_memalign, aligned_alloc)
 * and stays out: FAILMALLOC_NTH=N.  FAILMALLOC_COUNT=FILE writes the
 * number of allocations made to FILE at exit (to size a sweep).  Built
 * by tests/host/test_oom.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);

static unsigned long calls, nth;
static int ready;

static void setup(void)
{
	const char *v = getenv("FAILMALLOC_NTH");

	ready = 1;
	nth = v ? strtoul(v, NULL, 10) : 0;
}

/* 1 when this allocation must fail. */
static int out_of_memory(void)
{
	if (!ready)
		setup();
	calls++;
	if (nth && calls >= nth) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t size)
{
	return out_of_memory() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return out_of_memory() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	/* A free in disguise cannot fail. */
	if (p && !size)
		return __libc_realloc(p, size);
	return out_of_memory() ? NULL : __libc_realloc(p, size);
}

int posix_memalign(void **p, size_t align, size_t size)
{
	if (out_of_memory())
		return ENOMEM;
	*p = __libc_memalign(align, size);
	return *p ? 0 : ENOMEM;
}

void *aligned_alloc(size_t align, size_t size)
{
	return out_of_memory() ? NULL : __libc_memalign(align, size);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("FAILMALLOC_COUNT");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%lu\n", calls);
		fclose(f);
	}
}
