// SPDX-License-Identifier: GPL-2.0
#include "tool/outq.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool/run_loop.h"

/* One write for fd, of which done bytes are out. */
struct chunk {
	struct chunk *next;
	int fd;
	size_t len, done;
	unsigned char data[];
};

static struct {
	pthread_mutex_t mu;
	pthread_cond_t wake;		/* for the writer: more, or the end */
	pthread_cond_t room;		/* for the run: progress */
	struct chunk *head, *tail;
	size_t queued;			/* bytes not written yet */
	int started, closing;
	int writing;			/* head is being written */
	int err;			/* stdout's failed write, -errno */
	unsigned long long lost, lost_err;
	int stop_sig;			/* taken while waiting for room */
	struct timespec progress;	/* the writer's last progress */
	pthread_t thr;
	FILE *orig_out, *orig_err;
} q = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
	.room = PTHREAD_COND_INITIALIZER,
};

static long ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000L +
	       (now.tv_nsec - t->tv_nsec) / 1000000L;
}

/* Waits on cond (q.mu held) for ms milliseconds at most. */
static void wait_ms(pthread_cond_t *cond, long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	pthread_cond_timedwait(cond, &q.mu, &t);
}

static void *writer(void *arg)
{
	struct chunk *c;
	ssize_t n;
	int e;

	(void)arg;
	pthread_mutex_lock(&q.mu);
	for (;;) {
		while (!q.head && !q.closing)
			pthread_cond_wait(&q.wake, &q.mu);
		c = q.head;
		if (!c)
			break;
		q.writing = 1;
		pthread_mutex_unlock(&q.mu);
		/* May block for good: nothing else waits on it. */
		n = write(c->fd, c->data + c->done, c->len - c->done);
		e = errno;
		pthread_mutex_lock(&q.mu);
		q.writing = 0;
		if (n < 0 && e == EINTR)
			continue;
		if (n < 0) {
			/* Its error stands for the chunk (stderr's: nobody to tell). */
			if (c->fd == 1 && !q.err)
				q.err = -e;
			n = (ssize_t)(c->len - c->done);
		}
		c->done += (size_t)n;
		q.queued -= (size_t)n;
		clock_gettime(CLOCK_MONOTONIC, &q.progress);
		if (c->done == c->len) {
			q.head = c->next;
			if (!q.head)
				q.tail = NULL;
			free(c);
		}
		pthread_cond_broadcast(&q.room);
	}
	pthread_mutex_unlock(&q.mu);
	return NULL;
}

/* Blocking writes, for a process that never started the queue. */
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
	struct chunk *c;
	int err;

	if (!q.started)
		return write_all(fd, data, len);
	if (!len)
		return 0;
	pthread_mutex_lock(&q.mu);
	if (fd == 1 && q.err) {
		err = q.err;
		pthread_mutex_unlock(&q.mu);
		return err;
	}
	/* Room, unless a stop signal comes first. */
	while (q.queued && q.queued + len > OUTQ_CAP && !q.stop_sig) {
		wait_ms(&q.room, 10);
		if (q.queued && q.queued + len > OUTQ_CAP) {
			pthread_mutex_unlock(&q.mu);
			err = run_loop_take_stop();
			pthread_mutex_lock(&q.mu);
			if (err && !q.stop_sig)
				q.stop_sig = err;
		}
	}
	/*
	 * Stopping with the queue full: stdout's text is dropped, stderr's
	 * (the stop's last words: warnings, losses) kept to be salvaged.
	 */
	c = q.queued && q.queued + len > OUTQ_CAP && fd == 1 ? NULL :
	    malloc(sizeof(*c) + len);
	if (!c) {
		if (fd == 1)
			q.lost += len;
		else
			q.lost_err += len;
		pthread_mutex_unlock(&q.mu);
		return 0;
	}
	c->next = NULL;
	c->fd = fd;
	c->len = len;
	c->done = 0;
	memcpy(c->data, data, len);
	if (q.tail)
		q.tail->next = c;
	else
		q.head = c;
	q.tail = c;
	if (!q.queued)
		clock_gettime(CLOCK_MONOTONIC, &q.progress);
	q.queued += len;
	pthread_cond_signal(&q.wake);
	pthread_mutex_unlock(&q.mu);
	return 0;
}

/* A field the writer or the waits set, read under the lock. */
static int locked(const int *field)
{
	int v;

	pthread_mutex_lock(&q.mu);
	v = *field;
	pthread_mutex_unlock(&q.mu);
	return v;
}

int outq_error(void)
{
	return locked(&q.err);
}

int outq_stop_signal(void)
{
	return locked(&q.stop_sig);
}

/* stdio's side of stdout and stderr: everything into the queue. */
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
	sigset_t all, old;
	int e;

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
	/* The writer takes no signal: they are the run's to wait for. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&q.thr, NULL, writer, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		fclose(out);
		fclose(err);
		return -e;
	}
	fflush(stdout);
	fflush(stderr);
	q.orig_out = stdout;
	q.orig_err = stderr;
	stdout = out;
	stderr = err;
	q.started = 1;
	return 0;
}

/* The rest of stderr, written by a thread of its own. */
struct tail {
	unsigned char *data;
	size_t len;
	int done;
};

static void *tail_writer(void *arg)
{
	struct tail *t = arg;

	write_all(2, t->data, t->len);
	pthread_mutex_lock(&q.mu);
	t->done = 1;
	pthread_cond_broadcast(&q.room);
	pthread_mutex_unlock(&q.mu);
	return NULL;
}

/*
 * Stuck: stdout's bytes not written are lost; stderr's (but a chunk
 * being written) go to *t.  q.mu held.
 */
static void salvage(struct outq_result *r, struct tail *t)
{
	struct chunk *c;
	size_t n = 0;

	for (c = q.head; c; c = c->next)
		if (c->fd == 2 && !(c == q.head && q.writing))
			n += c->len - c->done;
	t->data = malloc(n + 512);
	t->len = 0;
	for (c = q.head; c; c = c->next) {
		if (c->fd == 1) {
			r->lost += c->len - c->done;
		} else if ((c == q.head && q.writing) || !t->data) {
			r->lost_stderr += c->len - c->done;
		} else {
			memcpy(t->data + t->len, c->data + c->done, c->len - c->done);
			t->len += c->len - c->done;
		}
	}
	/* The writer keeps the chunk it holds; the rest is no longer its. */
	c = q.head && q.writing ? q.head->next : q.head;
	while (c) {
		struct chunk *next = c->next;

		free(c);
		c = next;
	}
	if (q.head && q.writing) {
		q.head->next = NULL;
		q.tail = q.head;
	} else {
		q.head = q.tail = NULL;
	}
}

void outq_finish(struct outq_result *r,
		 void (*line)(char *buf, size_t size,
			      const struct outq_result *r, void *arg),
		 void *arg)
{
	static struct tail t;
	struct timespec start;
	FILE *out, *err;
	pthread_t thr;
	int stuck;

	memset(r, 0, sizeof(*r));
	if (!q.started)
		return;
	fflush(stdout);
	fflush(stderr);
	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&q.mu);
	/* The stall counts from now: the run itself was not waiting. */
	q.progress = start;
	while (q.head && ms_since(&q.progress) < OUTQ_STALL_MS &&
	       ms_since(&start) < OUTQ_MAX_MS) {
		wait_ms(&q.room, 10);
		pthread_mutex_unlock(&q.mu);
		stuck = run_loop_take_stop();
		pthread_mutex_lock(&q.mu);
		if (stuck)
			break;		/* another stop signal: no more waiting */
	}
	r->waited_ms = (unsigned int)ms_since(&start);
	r->err = q.err;
	r->lost = q.lost;
	r->lost_stderr = q.lost_err;
	stuck = q.head != NULL;
	if (stuck)
		salvage(r, &t);
	q.closing = 1;
	pthread_cond_signal(&q.wake);
	pthread_mutex_unlock(&q.mu);
	out = stdout;
	err = stderr;
	stdout = q.orig_out;
	stderr = q.orig_err;
	q.started = 0;
	if (!stuck) {
		pthread_join(q.thr, NULL);
		fclose(out);
		fclose(err);
		return;
	}
	/* The stuck writer stays behind: the process is about to exit. */
	pthread_detach(q.thr);
	if (line && t.data) {
		line((char *)t.data + t.len, 512, r, arg);
		t.len += strlen((char *)t.data + t.len);
	}
	if (!t.data || !t.len || pthread_create(&thr, NULL, tail_writer, &t))
		return;
	pthread_mutex_lock(&q.mu);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!t.done && ms_since(&start) < OUTQ_STALL_MS)
		wait_ms(&q.room, 10);
	stuck = !t.done;
	pthread_mutex_unlock(&q.mu);
	if (stuck)
		pthread_detach(thr);
	else
		pthread_join(thr, NULL);
}
