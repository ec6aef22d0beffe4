// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/preempt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "loader/util/errbuf.h"
#include "loader/util/own_mount.h"
#include "loader/util/small_file.h"
#include "loader/util/vlog.h"

/* A mode as sched/preempt, preempt= and the configs name them. */
static enum preempt_model of_mode(const char *m, size_t len)
{
	if ((len == 4 && !strncmp(m, "none", 4)) ||
	    (len == 9 && !strncmp(m, "voluntary", 9)))
		return PREEMPT_MODEL_OFF;
	/* lazy (6.13+): tasks in the kernel are preempted at the next tick. */
	if ((len == 4 && !strncmp(m, "full", 4)) ||
	    (len == 4 && !strncmp(m, "lazy", 4)))
		return PREEMPT_MODEL_ON;
	return PREEMPT_MODEL_UNKNOWN;
}

static enum preempt_model found(enum preempt_model model, const char *m,
				size_t len, char *mode, size_t size)
{
	snprintf(mode, size, "%.*s", (int)len, m);
	return model;
}

/* The next word of s (spaces and newlines between), its length in *len. */
static const char *word(const char *s, size_t *len)
{
	s += strspn(s, " \t\n");
	*len = strcspn(s, " \t\n");
	return *len ? s : NULL;
}

enum preempt_model preempt_from_uname(const char *version, char *mode,
				      size_t size)
{
	enum preempt_model model = PREEMPT_MODEL_OFF;
	const char *w = version, *flag = "none or voluntary";
	size_t len, flag_len = strlen(flag);

	/* "#1 SMP PREEMPT_DYNAMIC Debian ...": mkcompile_h's flags. */
	while ((w = word(w, &len))) {
		if (len == 10 && !strncmp(w, "PREEMPT_RT", len))
			return found(PREEMPT_MODEL_ON, w, len, mode, size);
		if ((len == 15 && !strncmp(w, "PREEMPT_DYNAMIC", len)) ||
		    (len == 7 && !strncmp(w, "PREEMPT", len)) ||
		    (len == 12 && !strncmp(w, "PREEMPT_LAZY", len))) {
			model = len == 15 ? PREEMPT_MODEL_DYNAMIC :
				PREEMPT_MODEL_ON;
			flag = w;
			flag_len = len;
		}
		w += len;
	}
	return found(model, flag, flag_len, mode, size);
}

enum preempt_model preempt_from_sched(const char *text, char *mode,
				      size_t size)
{
	const char *w = text;
	size_t len;

	/* "none voluntary (full) lazy": the one in use is in parentheses. */
	while ((w = word(w, &len))) {
		if (len > 2 && w[0] == '(' && w[len - 1] == ')')
			return found(of_mode(w + 1, len - 2), w + 1, len - 2,
				     mode, size);
		w += len;
	}
	return PREEMPT_MODEL_UNKNOWN;
}

enum preempt_model preempt_from_cmdline(const char *cmdline, char *mode,
					size_t size)
{
	enum preempt_model model = PREEMPT_MODEL_UNKNOWN;
	const char *w = cmdline;
	size_t len;

	/* The last preempt= wins, as the kernel parses them in order. */
	while ((w = word(w, &len))) {
		if (len > 8 && !strncmp(w, "preempt=", 8))
			model = found(of_mode(w + 8, len - 8), w + 8, len - 8,
				      mode, size);
		w += len;
	}
	return model;
}

enum preempt_model preempt_from_config(const char *text, char *mode,
				       size_t size)
{
	static const struct {
		const char *line;
		const char *mode;
		enum preempt_model model;
	} lines[] = {
		{ "CONFIG_PREEMPT_NONE=y", "none", PREEMPT_MODEL_OFF },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary", PREEMPT_MODEL_OFF },
		{ "CONFIG_PREEMPT=y", "full", PREEMPT_MODEL_ON },
		{ "CONFIG_PREEMPT_LAZY=y", "lazy", PREEMPT_MODEL_ON },
		{ "CONFIG_PREEMPT_RT=y", "PREEMPT_RT", PREEMPT_MODEL_ON },
	};
	enum preempt_model model = PREEMPT_MODEL_UNKNOWN;
	const char *l = text;
	size_t i, len;

	/* The RT line comes after the model's: the last match wins. */
	while ((l = word(l, &len))) {
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			if (len == strlen(lines[i].line) &&
			    !strncmp(l, lines[i].line, len))
				model = found(lines[i].model, lines[i].mode,
					      strlen(lines[i].mode), mode, size);
		l += len;
	}
	return model;
}

/*
 * debugfs's sched/preempt into buf.  Where debugfs is not mounted (and
 * may_mount: the real place), on a mount of our own for that read alone
 * (own_mount.h, as tracefs.c does with tracefs): nothing stays behind.
 */
static int read_sched(const char *debugfs, int may_mount, char *buf,
		      size_t size)
{
	char path[300];
	int fd, n;

	snprintf(path, sizeof(path), "%s/sched/preempt", debugfs);
	n = small_file_read(path, buf, size);
	if (n != -ENOENT || !may_mount)
		return n;
	fd = own_mount_open("debugfs", debugfs, "sched/preempt", O_RDONLY);
	if (fd < 0)
		return errno_nofile(fd) ? fd : -ENOENT;
	n = small_file_read_fd(fd, buf, size);
	if (n >= 0)
		vlog(1, "read %s on a debugfs mounted for that read alone", path);
	return n;
}

/*
 * The config of the running kernel, line by line (some 250 KB: not read
 * whole).
 */
static enum preempt_model config_default(const char *path, char *mode,
					 size_t size)
{
	enum preempt_model model = PREEMPT_MODEL_UNKNOWN, m;
	FILE *f = fopen(path, "re");
	char line[128], found_mode[32];

	if (!f && errno_nofile(-errno))
		return PREEMPT_MODEL_NOFILE;
	if (!f)
		return model;
	while (fgets(line, sizeof(line), f)) {
		m = preempt_from_config(line, found_mode, sizeof(found_mode));
		if (m != PREEMPT_MODEL_UNKNOWN) {
			model = m;
			snprintf(mode, size, "%s", found_mode);
		}
	}
	fclose(f);
	return model;
}

enum preempt_model kernel_preemption(const struct preempt_paths *paths,
				     char *why, size_t size)
{
	const struct preempt_paths none = { 0 };
	const char *debugfs, *cmdline_path;
	enum preempt_model model;
	struct utsname u;
	char mode[32], text[4096], config[300];
	const char *version;
	struct errbuf eb;
	int n;

	if (!paths)
		paths = &none;
	debugfs = paths->debugfs ? paths->debugfs : "/sys/kernel/debug";
	cmdline_path = paths->cmdline ? paths->cmdline : "/proc/cmdline";
	if (uname(&u)) {
		snprintf(why, size, "unknown: uname() failed (%s)",
			 strerror(errno));
		return PREEMPT_MODEL_UNKNOWN;
	}
	version = paths->uname_version ? paths->uname_version : u.version;
	if (paths->config)
		snprintf(config, sizeof(config), "%s", paths->config);
	else
		snprintf(config, sizeof(config), "/boot/config-%s", u.release);
	model = preempt_from_uname(version, mode, sizeof(mode));
	if (model != PREEMPT_MODEL_DYNAMIC) {
		snprintf(why, size, "%s, built in (uname -v: %s)",
			 model == PREEMPT_MODEL_ON && strcmp(mode, "PREEMPT") == 0 ?
			 "full" : mode, version);
		return model;
	}
	/* PREEMPT_DYNAMIC (5.12+): the mode in use, wherever it is told. */
	n = read_sched(debugfs, !paths->debugfs, text, sizeof(text));
	if (errbuf_nofile(&eb, n, "cannot read %s/sched/preempt", debugfs))
		goto nofile;
	if (n > 0) {
		model = preempt_from_sched(text, mode, sizeof(mode));
		if (model != PREEMPT_MODEL_UNKNOWN) {
			snprintf(why, size, "%s (%s/sched/preempt)", mode,
				 debugfs);
			return model;
		}
	}
	n = small_file_read(cmdline_path, text, sizeof(text));
	if (errbuf_nofile(&eb, n, "cannot read %s", cmdline_path))
		goto nofile;
	if (n > 0) {
		model = preempt_from_cmdline(text, mode, sizeof(mode));
		if (model != PREEMPT_MODEL_UNKNOWN) {
			snprintf(why, size, "%s (preempt= in %s)", mode,
				 cmdline_path);
			return model;
		}
	}
	model = config_default(config, mode, sizeof(mode));
	if (model == PREEMPT_MODEL_NOFILE) {
		/* errno is still fopen()'s. */
		errbuf_nofile(&eb, -errno, "cannot open %s", config);
		goto nofile;
	}
	if (model != PREEMPT_MODEL_UNKNOWN) {
		snprintf(why, size, "%s (the build's default, in %s)", mode,
			 config);
		return model;
	}
	snprintf(why, size, "unknown: PREEMPT_DYNAMIC, and neither %s/sched/preempt, preempt= in %s nor %s says which mode",
		 debugfs, cmdline_path, config);
	return PREEMPT_MODEL_UNKNOWN;
nofile:
	snprintf(why, size, "%s", eb.msg);
	return PREEMPT_MODEL_NOFILE;
}
