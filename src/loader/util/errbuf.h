/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One human-readable message per failure, written by the function that
 * knows the context, so the caller can print it once.
 */
#ifndef EXT4DIST_LOADER_UTIL_ERRBUF_H
#define EXT4DIST_LOADER_UTIL_ERRBUF_H

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

#endif
