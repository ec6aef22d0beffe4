// SPDX-License-Identifier: GPL-2.0
#include "tool/discover/pid_filter.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader/loader.h"

/* The initial PID namespace's inode number (include/linux/proc_ns.h, 3.8+). */
#define PROC_PID_INIT_INO 0xEFFFFFFCU

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434	/* the same on every architecture, 5.3+ */
#endif

/* The number after "field:" in a /proc status-like file. */
static int status_field(const char *path, const char *field, long *out)
{
	size_t n = strlen(field);
	char line[256];
	int err = -ENOENT;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			*out = strtol(line + n + 1, NULL, 10);
			err = 0;
			break;
		}
	fclose(f);
	return err;
}

/*
 * 1 when the ns/pid link at path is the initial PID namespace, 0 when it
 * is another, -errno when it cannot be told (another process's link
 * needs ptrace access to it: EACCES without CAP_SYS_PTRACE).
 */
static int initial_pidns(const char *path)
{
	struct stat st;

	/* No such link (before 3.8, or CONFIG_PID_NS off): one namespace. */
	if (stat(path, &st))
		return errno == ENOENT ? 1 : -errno;
	return st.st_ino == PROC_PID_INIT_INO;
}

static int is_thread(unsigned int pid, long tgid, struct errbuf *eb)
{
	if (tgid > 0)
		return errbuf_set(eb, -EINVAL,
				  "-p %u is a thread of process %ld, not a process: -p keeps one process (all its threads); use -p %ld",
				  pid, tgid, tgid);
	return errbuf_set(eb, -EINVAL,
			  "-p %u is a thread, not a process: -p keeps one process (all its threads); give the PID of its process",
			  pid);
}

static int untranslatable(unsigned int pid, const char *why,
			  struct errbuf *eb)
{
	return errbuf_set(eb, -EOPNOTSUPP,
			  "-p %u cannot be honoured: ext4dist runs in a PID namespace of its own, the BPF programs compare the PIDs of the initial one, and %s; run ext4dist in the initial PID namespace (on the host) with the PID seen there",
			  pid, why);
}

/*
 * In a child PID namespace: a pidfd names the process exactly, and its
 * fdinfo "Pid:" is the PID in the namespace of the /proc it is read from
 * (pidfd_show_fdinfo(), 5.3+).
 */
static int global_tgid(unsigned int pid, unsigned int *tgid,
		       struct errbuf *eb)
{
	char path[64], why[128];
	long nr = 0;
	int fd, err;

	fd = (int)syscall(SYS_pidfd_open, (int)pid, 0);
	/* Not a thread-group leader: EINVAL, ENOENT from 6.15 on. */
	if (fd < 0 && (errno == EINVAL || errno == ENOENT))
		return is_thread(pid, 0, eb);
	err = fd < 0 ? -errno : 0;
	if (errbuf_nofile(eb, err, "-p %u: cannot open a pidfd to translate it",
			  pid))
		return err;
	if (fd < 0 && errno == ESRCH)
		return errbuf_set(eb, -ESRCH,
				  "no process with PID %u (-p): nothing to trace",
				  pid);
	if (fd < 0) {
		snprintf(why, sizeof(why), errno == ENOSYS ?
			 "this kernel has no pidfd_open (5.3+) to translate them" :
			 "pidfd_open failed: %s", strerror(errno));
		return untranslatable(pid, why, eb);
	}
	err = initial_pidns("/proc/1/ns/pid");
	if (err != 1) {
		close(fd);
		if (err < 0) {
			snprintf(why, sizeof(why),
				 "it cannot tell whether /proc shows those (stat /proc/1/ns/pid: %s)",
				 strerror(-err));
			return untranslatable(pid, why, eb);
		}
		return untranslatable(pid, "this /proc shows the PIDs of another namespace", eb);
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (status_field(path, "Pid", &nr) || nr <= 0) {
		close(fd);
		return untranslatable(pid, "its pidfd shows no PID there", eb);
	}
	close(fd);
	*tgid = (unsigned int)nr;
	vlog(1, "-p %u is PID %ld in the initial PID namespace (pidfd fdinfo)",
	     pid, nr);
	return 0;
}

/* The number /proc/self names, in the namespace of that /proc. */
static int proc_self(unsigned int *pid)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);
	unsigned long v;
	char *end;

	if (n <= 0)
		return -ENOENT;
	buf[n] = '\0';
	v = strtoul(buf, &end, 10);
	if (*end || !v || v > 0x7fffffffUL)
		return -EINVAL;
	*pid = (unsigned int)v;
	return 0;
}

int pid_filter_self(unsigned int *tgid, struct errbuf *eb)
{
	struct errbuf why = { "" };
	int err;

	/* No ns/pid link at all (before 3.8, no CONFIG_PID_NS): one namespace. */
	if (initial_pidns("/proc/self/ns/pid") == 1 &&
	    access("/proc/self", F_OK) == 0) {
		*tgid = (unsigned int)getpid();
		return 0;
	}
	if (initial_pidns("/proc/1/ns/pid") == 1 && proc_self(tgid) == 0) {
		vlog(1, "own PID: %u in the initial PID namespace (/proc/self, of the initial namespace's /proc), %d in ext4dist's own",
		     *tgid, (int)getpid());
		return 0;
	}
	err = own_tgid_bpf(tgid, &why);
	if (!err) {
		vlog(1, "own PID: %u in the initial PID namespace (asked through BPF), %d in ext4dist's own",
		     *tgid, (int)getpid());
		return 0;
	}
	if (errno_nofile(err))
		return errbuf_set(eb, err, "%s", why.msg);
	return errbuf_set(eb, err,
			  "cannot tell ext4dist's own PID in the initial PID namespace, which its BPF programs compare to leave its own file operations out: it runs in a PID namespace of its own, /proc shows another namespace's PIDs, and %s; run it with the initial namespace's /proc mounted, or on the host",
			  why.msg);
}

int pid_filter_resolve(unsigned int pid, unsigned int *tgid,
		       struct errbuf *eb)
{
	char path[64];
	long tg = 0;
	int err;

	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return errbuf_set(eb, -ESRCH,
				  "no process with PID %u (-p): nothing to trace",
				  pid);
	/* Our own link needs no ptrace access: 1 or 0. */
	if (initial_pidns("/proc/self/ns/pid") == 0)
		return global_tgid(pid, tgid, eb);
	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	err = status_field(path, "Tgid", &tg);
	if (err == -ENOENT)
		return errbuf_set(eb, -ESRCH,
				  "no process with PID %u (-p): nothing to trace",
				  pid);
	if (!err && tg != (long)pid)
		return is_thread(pid, tg, eb);
	*tgid = pid;
	return 0;
}
