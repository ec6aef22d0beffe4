// SPDX-License-Identifier: GPL-2.0
#include "loader/btf/btf_kobj.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <linux/bpf.h>

#include "loader/obj/bpf_sys.h"
#include "loader/util/kcall.h"

/* 1 when the BTF object of fd is a kernel one called name. */
static int named(int fd, const char *name)
{
	struct bpf_btf_info info;
	char got[64] = "";
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.name = (uint64_t)(uintptr_t)got;
	info.name_len = sizeof(got);
	kcall_why("BTF object fd %d: its name, to find module %s's", fd, name);
	if (bpf_obj_info(fd, &info, &len))
		return 0;
	got[sizeof(got) - 1] = '\0';
	return info.kernel_btf && strcmp(got, name) == 0;
}

int btf_kobj_fd(const char *name, struct errbuf *eb)
{
	uint32_t id = 0;
	int fd, err;

	for (;;) {
		kcall_why("the next BTF object after id %u, looking for module %s's",
			  id, name);
		err = bpf_btf_next_id(id, &id);
		if (err == -ENOENT)
			return errbuf_set(eb, -ENOENT,
					  "no BTF object of the kernel is called %s",
					  name);
		if (err)
			return errbuf_set(eb, err,
					  "bpf(BPF_BTF_GET_NEXT_ID): %s",
					  strerror(-err));
		kcall_why("BTF object %u: an fd, to ask its name", id);
		fd = bpf_btf_fd_by_id(id);
		if (fd == -ENOENT)
			continue;	/* gone meanwhile (a module unloaded) */
		if (errbuf_nofile(eb, fd, "cannot open BTF object %u", id))
			return fd;
		if (fd < 0)
			return errbuf_set(eb, fd,
					  "bpf(BPF_BTF_GET_FD_BY_ID, %u): %s",
					  id, strerror(-fd));
		if (named(fd, name))
			return fd;
		kcall_close(fd, "BTF object %u is not %s's", id, name);
	}
}
