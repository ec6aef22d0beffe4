/*
 * One human-readable message per failure, written by the function that
 * knows the context, so the caller can print it once.
 */
#ifndef EXT4DIST_ERRBUF_H
#define EXT4DIST_ERRBUF_H

struct errbuf {
	char msg[512];
};

/* Formats the message into eb (if not NULL) and returns err unchanged. */
int errbuf_set(struct errbuf *eb, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
