/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel file system (tracefs, debugfs) that is not mounted, reached
 * all the same without leaving a mount behind.
 */
#ifndef EXT4DIST_LOADER_UTIL_OWN_MOUNT_H
#define EXT4DIST_LOADER_UTIL_OWN_MOUNT_H

/*
 * A mount of type that only this process reaches: opens sub inside it
 * (relative to its root; "" for the root itself) with flags and returns
 * the fd, which holds the mount; it goes with the descriptor, even after
 * kill -9.  From 5.2 the mount is never attached to a path (fsopen(),
 * fsmount()); before, a child process mounts it on where in a mount
 * namespace of its own and hands the descriptor back.  Either way this
 * process's namespace never holds it: no other process finds it, and
 * nobody can unmount another's mount in its place (a mount on where,
 * then a detach of where, would take whichever was on top).  The
 * process stays in its namespace: the paths of the user's files mean
 * what they meant.  Returns the fd, or -errno of the mount or the open.
 */
int own_mount_open(const char *type, const char *where, const char *sub,
		   int flags);

#endif
