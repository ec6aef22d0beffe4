/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow mode's file names without BTF: the offsets of f_path.dentry in
 * struct file and of d_name.name in struct dentry, discovered at start-up
 * on a memfd ext4dist creates with a name of its own choosing.  Under a
 * probe on noop_fsync (the ->fsync of shmem and ramfs files) the peek
 * program copies what ext4dist asks for each time ext4dist fsyncs that
 * memfd: first the struct file, then every word of it that could be the
 * dentry; name_offsets.c searches the copies.
 */
#ifndef EXT4DIST_TOOL_NAME_DISCOVER_H
#define EXT4DIST_TOOL_NAME_DISCOVER_H

#include "loader/loader.h"

/* The function the peek program goes on. */
#define NAME_PEEK_FUNC "noop_fsync"

struct name_env {
	struct bpf_obj *obj;		/* its "peek" map created */
	/* Loads and attaches the peek program on func ... */
	int (*attach_peek)(void *arg, const char *func,
			   struct probe_link *link, struct errbuf *eb);
	/* ... and detaches and unloads it again. */
	void (*detach_peek)(void *arg, struct probe_link *link);
	void *arg;
	struct karch k;			/* the kernel's words and addresses */
};

struct name_found {
	int dentry_off;		/* offsetof(struct file, f_path.dentry) */
	int dname_off;		/* offsetof(struct dentry, d_name.name) */
	unsigned int rounds;	/* fsyncs under the probe */
	unsigned int candidates;	/* words of struct file tried */
	char name[64];		/* the memfd's dentry name */
};

/*
 * Finds both offsets.  On failure eb says why (events then have no
 * names); nothing is left behind either way (memfd closed, probe gone).
 */
int name_discover(const struct name_env *env, struct name_found *out,
		  struct errbuf *eb);

#endif
