// SPDX-License-Identifier: GPL-2.0
#include "tool/run/outq.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tool/run/stop_signals.h"

/* How a stream is written without blocking. */
enum sink_kind {
	SINK_PLAIN,	/* a regular file, or no other way: as it is */
	SINK_TWIN,	/* a descriptor of our own on it, O_NONBLOCK */
	SINK_SOCKET,	/* send(MSG_DONTWAIT) */
};

struct sink {
	enum sink_kind kind;
	int fd;		/* the one written: the twin, or 1 or 2 itself */
};

/* Kept output, for one fd, done bytes of it written. */
struct kept {
	struct kept *next;
	int fd;
	size_t len, done;
	unsigned char data[];
};

static struct {
	int started;
	struct sink sink[3];		/* [1] stdout, [2] stderr */
	int stopping;			/* no write waits any more */
	int stop_sig;			/* taken while waiting for room */
	int err;			/* stdout's failed write, -errno */
	struct kept *head, *tail;
	size_t kept_out;		/* stdout's bytes kept */
	unsigned long long lost, lost_err;
	FILE *orig_out, *orig_err;
} q;

/*
 * A descriptor of our own on what fd writes to, O_NONBLOCK: a new open
 * file description, whose flags are ours alone (fd's may be the shell's
 * terminal or a pipe others write to).  /proc/self/fd/N opens the pipe,
 * FIFO or terminal itself; O_NOCTTY: a terminal opened so never becomes
 * the controlling one.
 */
static struct sink sink_for(int fd)
{
	struct sink s = { SINK_PLAIN, fd };
	char path[32];
	struct stat st;
	int twin;

	if (fstat(fd, &st))
		return s;
	if (S_ISSOCK(st.st_mode)) {
		s.kind = SINK_SOCKET;
		return s;
	}
	if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return s;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	twin = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (twin >= 0) {
		s.kind = SINK_TWIN;
		s.fd = twin;
	}
	return s;
}

/* Up to len bytes to fd's sink: how many, or -errno (-EAGAIN: no room). */
static ssize_t try_write(int fd, const void *p, size_t len)
{
	const struct sink *s = &q.sink[fd];
	ssize_t n;

	do
		n = s->kind == SINK_SOCKET ?
		    send(s->fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL) :
		    write(s->fd, p, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return n;
}

static long ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000L +
	       (now.tv_nsec - t->tv_nsec) / 1000000L;
}

/*
 * Waits until fd's sink takes more, at most ms (-1: no limit), looking
 * for a stop signal every 10 ms (they are blocked: the run waits for
 * them).  1 when it can be written, 0 at the limit, -signal for a stop
 * signal taken.
 */
static int wait_room(int fd, long ms)
{
	struct pollfd p = { .fd = q.sink[fd].fd, .events = POLLOUT };
	struct timespec start;
	int sig;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (poll(&p, 1, 10) > 0)
			return 1;
		sig = stop_take();
		if (sig)
			return -sig;
		if (ms >= 0 && ms_since(&start) >= ms)
			return 0;
	}
}

/* The rest of data kept for later (stdout's beyond OUTQ_CAP: lost). */
static void keep(int fd, const unsigned char *data, size_t len)
{
	struct kept *k;

	if (fd == 1 && q.kept_out + len > OUTQ_CAP) {
		q.lost += len;
		return;
	}
	k = malloc(sizeof(*k) + len);
	if (!k) {
		if (fd == 1)
			q.lost += len;
		else
			q.lost_err += len;
		return;
	}
	k->next = NULL;
	k->fd = fd;
	k->len = len;
	k->done = 0;
	memcpy(k->data, data, len);
	if (q.tail)
		q.tail->next = k;
	else
		q.head = k;
	q.tail = k;
	if (fd == 1)
		q.kept_out += len;
}

/* Blocking writes, for a process that never started outq. */
static int write_all(int fd, const unsigned char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int outq_write(int fd, const void *data, size_t len)
{
	const unsigned char *p = data;
	ssize_t n;
	int w;

	if (!q.started)
		return write_all(fd, p, len);
	if (fd == 1 && q.err)
		return q.err;
	/* Behind what is kept already: in order, kept too. */
	if (q.head) {
		keep(fd, p, len);
		return 0;
	}
	while (len) {
		n = try_write(fd, p, len);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && n != -EAGAIN) {
			/* stderr's error: nobody to tell, nothing to stop. */
			if (fd == 1)
				q.err = (int)n;
			return fd == 1 ? (int)n : 0;
		}
		if (!q.stopping) {
			w = wait_room(fd, -1);
			if (w > 0)
				continue;
			q.stop_sig = -w;
			q.stopping = 1;
		}
		keep(fd, p, len);
		break;
	}
	return 0;
}

void outq_stopping(void)
{
	q.stopping = 1;
}

int outq_error(void)
{
	return q.err;
}

int outq_stop_signal(void)
{
	return q.stop_sig;
}

/* stdio's side of stdout and stderr: every write through outq_write(). */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
	int err = outq_write((int)(intptr_t)cookie, buf, size);

	if (err) {
		errno = -err;
		return 0;	/* stdio's word for an error */
	}
	return (ssize_t)size;
}

int outq_start(void)
{
	cookie_io_functions_t io = { .write = cookie_write };
	FILE *out = fopencookie((void *)(intptr_t)1, "w", io);
	FILE *err = fopencookie((void *)(intptr_t)2, "w", io);

	if (!out || !err) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		return -ENOMEM;
	}
	/* Reports are flushed whole; messages line by line. */
	setvbuf(out, NULL, _IOFBF, 64u << 10);
	setvbuf(err, NULL, _IOLBF, 4096);
	fflush(stdout);
	fflush(stderr);
	q.sink[1] = sink_for(1);
	q.sink[2] = sink_for(2);
	q.orig_out = stdout;
	q.orig_err = stderr;
	stdout = out;
	stderr = err;
	q.started = 1;
	return 0;
}

/*
 * What is kept, to the reader, while it takes some every OUTQ_STALL_MS
 * (OUTQ_MAX_MS at most, or until a stop signal); the rest counted.
 */
static void give_kept(struct outq_result *r)
{
	struct timespec start, progress;
	struct kept *k;
	ssize_t n;
	int w = 1;

	clock_gettime(CLOCK_MONOTONIC, &start);
	progress = start;
	while ((k = q.head) != NULL && w > 0 &&
	       ms_since(&progress) < OUTQ_STALL_MS &&
	       ms_since(&start) < OUTQ_MAX_MS) {
		n = try_write(k->fd, k->data + k->done, k->len - k->done);
		if (n > 0) {
			k->done += (size_t)n;
			clock_gettime(CLOCK_MONOTONIC, &progress);
		} else if (n == -EAGAIN) {
			w = wait_room(k->fd, OUTQ_STALL_MS - ms_since(&progress));
			continue;
		} else {
			if (k->fd == 1 && !q.err)
				q.err = (int)n;
			k->done = k->len;	/* its error stands for it */
		}
		if (k->done == k->len) {
			q.head = k->next;
			free(k);
		}
	}
	r->waited_ms = (unsigned int)ms_since(&start);
	while ((k = q.head) != NULL) {
		if (k->fd == 1)
			q.lost += k->len - k->done;
		else
			q.lost_err += k->len - k->done;
		q.head = k->next;
		free(k);
	}
	q.tail = NULL;
}

void outq_finish(struct outq_result *r,
		 void (*line)(char *buf, size_t size,
			      const struct outq_result *r, void *arg),
		 void *arg)
{
	FILE *out, *err;
	char text[512];
	int i;

	memset(r, 0, sizeof(*r));
	if (!q.started)
		return;
	q.stopping = 1;
	fflush(stdout);
	fflush(stderr);
	give_kept(r);
	r->err = q.err;
	r->lost = q.lost;
	r->lost_stderr = q.lost_err;
	/* Said once, as far as stderr takes it now. */
	if (r->lost && line) {
		line(text, sizeof(text), r, arg);
		try_write(2, text, strlen(text));
	}
	out = stdout;
	err = stderr;
	stdout = q.orig_out;
	stderr = q.orig_err;
	q.started = 0;
	fclose(out);
	fclose(err);
	for (i = 1; i <= 2; i++)
		if (q.sink[i].kind == SINK_TWIN)
			close(q.sink[i].fd);
}
