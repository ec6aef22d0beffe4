/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One human-readable message per failure, written by the function that
 * knows the context, so the caller can print it once.
 */
#ifndef EXT4DIST_LOADER_UTIL_ERRBUF_H
#define EXT4DIST_LOADER_UTIL_ERRBUF_H

#include <errno.h>

struct errbuf {
	char msg[512];
};

/* Formats the message into eb (if not NULL). */
void errbuf_fmt(struct errbuf *eb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Formats the message and yields err unchanged, so a failure reads
 * "return errbuf_set(eb, -EINVAL, ...)".  A macro, so analysers see the
 * value; err is evaluated first, before formatting can touch errno.
 */
#define errbuf_set(eb, err, ...) ({			\
	int errbuf_err_ = (err);			\
	errbuf_fmt((eb), __VA_ARGS__);			\
	errbuf_err_;					\
})

/*
 * For err -EMFILE or -ENFILE (the file table of this process, or of the
 * system, is full), eb's line says so: what failed (fmt), why, and what
 * to do.  Returns err then, else 0 with eb untouched: a full table is
 * never taken for a missing kernel feature.
 */
int errbuf_nofile(struct errbuf *eb, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* 1 for -EMFILE and -ENFILE. */
static inline int errno_nofile(int err)
{
	return err == -EMFILE || err == -ENFILE;
}

#endif
