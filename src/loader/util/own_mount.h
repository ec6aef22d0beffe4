/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel file system (tracefs, debugfs) that is not mounted, reached
 * all the same without leaving a mount behind.
 */
#ifndef EXT4DIST_LOADER_UTIL_OWN_MOUNT_H
#define EXT4DIST_LOADER_UTIL_OWN_MOUNT_H

/*
 * Mounts type on where, opens path (inside it) with flags, and detaches
 * the mount right away: the descriptor holds it, nobody else ever uses
 * it, and it vanishes with the descriptor.  Unmounting it later instead
 * would pull it from under another process that found it mounted
 * meanwhile, and a kill -9 would leave it mounted.  Another process that
 * looked in the instant between mount and detach holds its own descriptor
 * of it: no harm either.  (No new mount namespace: the paths of the
 * user's files mean what they meant.)  Returns the fd, or -errno of the
 * mount or the open.
 */
int own_mount_open(const char *type, const char *where, const char *path,
		   int flags);

#endif
