// SPDX-License-Identifier: GPL-2.0
#include "loader/util/own_mount.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>

#include "loader/util/vlog.h"

int own_mount_open(const char *type, const char *where, const char *path,
		   int flags)
{
	int fd, err;

	if (mount("nodev", where, type, 0, NULL)) {
		err = -errno;
		vlog(1, "mount -t %s %s failed: %s", type, where, strerror(-err));
		return err;
	}
	fd = open(path, flags | O_CLOEXEC);
	err = fd < 0 ? -errno : 0;
	if (umount2(where, MNT_DETACH))
		vlog(1, "umount -l %s: %s", where, strerror(errno));
	return fd < 0 ? err : fd;
}
