// SPDX-License-Identifier: GPL-2.0
/*
 * unitrun SOCKET_UNIT SERVICE_UNIT [ARG...]: starts a service as systemd
 * would from the shipped unit files (packaging/systemd/), in a guest
 * that has no systemd: the socket unit's ListenStream= bound and passed
 * as descriptor 3 with LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES; the
 * service's CapabilityBoundingSet= applied (every other capability
 * dropped from the bounding set, so that root's exec keeps those alone)
 * and NoNewPrivileges=; then its ExecStart= run, ARGs after its own.
 * The other settings of the units (the file system and namespace
 * sandboxing) are not emulated; their names are printed on stderr.
 *
 * UNITRUN_CAPS="CAP_A CAP_B", when set and not empty, replaces the
 * unit's capability set (to show what each one is for).  Static build:
 * gcc -static -O2 -o unitrun unitrun.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* The kernel's capability numbers (include/uapi/linux/capability.h). */
static const char *const cap_names[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
	"CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD",
	"CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};
#define NR_CAP_NAMES (int)(sizeof(cap_names) / sizeof(cap_names[0]))

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "unitrun: %s%s%s\n", what, detail ? ": " : "",
		detail ? detail : "");
	exit(126);
}

/* The value of key= in a unit file (the last one), or NULL. */
static char *unit_value(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[1024], *v = NULL;
	size_t k = strlen(key);

	if (!f)
		die(path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, key, k) && line[k] == '=') {
			free(v);
			v = strdup(line + k + 1);
		}
	}
	fclose(f);
	return v;
}

/* The unit's other settings, said: what this emulation leaves out. */
static void say_others(const char *path)
{
	static const char *const done[] = {
		"ListenStream", "Accept", "ExecStart", "CapabilityBoundingSet",
		"NoNewPrivileges", "Description", "Documentation", "Requires",
		"After", "WantedBy", "Also", "Type", "Restart",
	};
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned int i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');

		if (line[0] == '#' || line[0] == '[' || !eq)
			continue;
		*eq = '\0';
		for (i = 0; i < sizeof(done) / sizeof(done[0]); i++)
			if (!strcmp(line, done[i]))
				break;
		if (i == sizeof(done) / sizeof(done[0]))
			fprintf(stderr, "unitrun: %s: %s= not emulated\n", path,
				line);
	}
	fclose(f);
}

static int listen_on(const char *spec)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	const char *colon = strrchr(spec, ':');
	char host[64];
	int fd, one = 1;

	if (!colon || (size_t)(colon - spec) >= sizeof(host))
		die("ListenStream= must be A.B.C.D:PORT here", spec);
	memcpy(host, spec, (size_t)(colon - spec));
	host[colon - spec] = '\0';
	if (inet_pton(AF_INET, host, &in.sin_addr) != 1)
		die("ListenStream= must be A.B.C.D:PORT here", spec);
	in.sin_port = htons((unsigned short)atoi(colon + 1));
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&in, sizeof(in)) ||
	    listen(fd, SOMAXCONN))
		die("cannot listen on ListenStream=", spec);
	return fd;
}

static int cap_last(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int last = 36;	/* 3.5 to 5.8 */

	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = 36;
		fclose(f);
	}
	return last;
}

/* Every capability not named in set leaves the bounding set. */
static void bound(const char *set)
{
	int c, last = cap_last();
	char keep[64] = { 0 };
	char *copy = strdup(set), *tok, *save = NULL;

	for (tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		for (c = 0; c < NR_CAP_NAMES; c++)
			if (!strcmp(tok, cap_names[c]))
				break;
		if (c == NR_CAP_NAMES)
			die("unknown capability", tok);
		if (c > last)
			fprintf(stderr, "unitrun: %s: not in this kernel (its last is %d)\n",
				tok, last);
		else
			keep[c] = 1;
	}
	free(copy);
	for (c = 0; c <= last && c < 64; c++)
		if (!keep[c] && prctl(PR_CAPBSET_DROP, c, 0, 0, 0))
			die("cannot drop a capability", strerror(errno));
}

int main(int argc, char **argv)
{
	char *listen, *exec, *caps, *nnp, *tok, *save = NULL;
	char *args[64], pid[32];
	int n = 0, fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: unitrun SOCKET_UNIT SERVICE_UNIT [ARG...]\n");
		return 2;
	}
	listen = unit_value(argv[1], "ListenStream");
	exec = unit_value(argv[2], "ExecStart");
	caps = getenv("UNITRUN_CAPS") && *getenv("UNITRUN_CAPS") ?
	       strdup(getenv("UNITRUN_CAPS")) :
	       unit_value(argv[2], "CapabilityBoundingSet");
	nnp = unit_value(argv[2], "NoNewPrivileges");
	if (!listen || !exec)
		die("the units need ListenStream= and ExecStart=", NULL);
	say_others(argv[1]);
	say_others(argv[2]);
	fd = listen_on(listen);
	if (fd != 3 && (dup2(fd, 3) < 0 || close(fd)))
		die("cannot make the socket descriptor 3", strerror(errno));
	if (caps)
		bound(caps);
	if (nnp && !strcmp(nnp, "yes") && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("NoNewPrivileges", strerror(errno));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "1", 1);
	setenv("LISTEN_FDNAMES", "ext4dist.socket", 1);
	for (tok = strtok_r(exec, " \t", &save); tok && n < 60;
	     tok = strtok_r(NULL, " \t", &save))
		args[n++] = tok;
	for (i = 3; i < argc && n < 63; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execv(args[0], args);
	die(args[0], strerror(errno));
	return 126;
}
