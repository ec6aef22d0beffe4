// SPDX-License-Identifier: GPL-2.0
#include "loader/util/own_mount.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loader/util/vlog.h"

/* The new mount API (5.2+): the same numbers on every architecture. */
#ifndef SYS_fsopen
#define SYS_fsopen	430
#define SYS_fsconfig	431
#define SYS_fsmount	432
#endif
#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC		0x00000001
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC		0x00000001
#endif
#define CMD_CREATE		6	/* FSCONFIG_CMD_CREATE */

/* sub inside the mount whose root dirfd is, or the root itself. */
static int open_in(int dirfd, const char *sub, int flags)
{
	int fd = openat(dirfd, sub[0] ? sub : ".", flags | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/*
 * A mount that is never attached to any path: fsopen() makes the
 * superblock, fsmount() a mount of it that only its descriptor reaches.
 * -ENOSYS before 5.2.
 */
static int detached_mount(const char *type, const char *sub, int flags)
{
	int fsfd, mfd, fd;

	fsfd = (int)syscall(SYS_fsopen, type, FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fsfd, CMD_CREATE, NULL, NULL, 0) < 0) {
		fd = -errno;
		close(fsfd);
		return fd;
	}
	mfd = (int)syscall(SYS_fsmount, fsfd, FSMOUNT_CLOEXEC, 0);
	fd = mfd < 0 ? -errno : 0;
	close(fsfd);
	if (mfd < 0)
		return fd;
	fd = open_in(mfd, sub, flags);
	close(mfd);
	return fd;
}

/* fd (or the -errno in its place) to the other end of sock. */
static void send_fd(int sock, int fd)
{
	char data[sizeof(int)], ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	memcpy(data, &fd, sizeof(fd));
	if (fd >= 0) {
		memset(ctl, 0, sizeof(ctl));
		msg.msg_control = ctl;
		msg.msg_controllen = sizeof(ctl);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	}
	if (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0)
		_exit(1);
}

/* The descriptor, or the child's -errno, from the other end of sock. */
static int recv_fd(int sock)
{
	char data[sizeof(int)], ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *c;
	ssize_t n;
	int v;

	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(int))
		return -EIO;
	memcpy(&v, data, sizeof(v));
	if (v < 0)
		return v;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EIO;
	memcpy(&v, CMSG_DATA(c), sizeof(v));
	return v;
}

/*
 * Before 5.2: a child in a mount namespace of its own, whose mounts
 * reach no other namespace (private), mounts type on where there, opens
 * sub and hands the descriptor back; its namespace, and the mount with
 * it, goes when the descriptor is closed.  The caller's namespace never
 * holds the mount, so nobody can unmount another's in its place.
 */
static int private_mount(const char *type, const char *where,
			 const char *sub, int flags)
{
	int sv[2], fd, status;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	/*
	 * fork() as the system call alone: the child makes system calls
	 * only, so it needs none of libc's fork handlers (nor their code in
	 * a static binary).  Flags alone, the rest 0: the same on every
	 * architecture's argument order.
	 */
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid < 0) {
		fd = -errno;
		close(sv[0]);
		close(sv[1]);
		return fd;
	}
	if (pid == 0) {
		close(sv[0]);
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("nodev", where, type, 0, NULL)) {
			send_fd(sv[1], -errno);
		} else {
			int dfd = open(where, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			send_fd(sv[1], dfd < 0 ? -errno : open_in(dfd, sub, flags));
		}
		_exit(0);
	}
	close(sv[1]);
	fd = recv_fd(sv[0]);
	close(sv[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return fd;
}

int own_mount_open(const char *type, const char *where, const char *sub,
		   int flags)
{
	int fd = detached_mount(type, sub, flags);

	if (fd >= 0) {
		vlog(1, "mounted %s for this process alone (fsmount(): never attached to a path; it goes when the process exits)",
		     type);
		return fd;
	}
	if (fd != -ENOSYS) {
		vlog(1, "fsopen/fsmount of %s failed: %s", type, strerror(-fd));
		return fd;
	}
	fd = private_mount(type, where, sub, flags);
	if (fd >= 0)
		vlog(1, "mounted %s on %s in a mount namespace of its own (no fsmount() before 5.2), for this process alone: it goes when the process exits",
		     type, where);
	else
		vlog(1, "mount -t %s %s in a mount namespace of its own failed: %s",
		     type, where, strerror(-fd));
	return fd;
}
