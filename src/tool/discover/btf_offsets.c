// SPDX-License-Identifier: GPL-2.0
#include "tool/discover/btf_offsets.h"

#include <errno.h>
#include <stdio.h>

#include "loader/btf/btf.h"

int btf_file_offsets(const char *btf_dir, struct file_offsets *o,
		     struct errbuf *why)
{
	struct btf_field f[] = {
		{ .type = "file", .name = "f_op" },
		{ .type = "file", .name = "f_path" },
		{ .type = "path", .name = "dentry" },
		{ .type = "dentry", .name = "d_name" },
		{ .type = "qstr", .name = "name" },
	};
	struct btf_src src;
	unsigned int k;
	int err;

	snprintf(o->source, sizeof(o->source), "%.40s/vmlinux",
		 btf_dir ? btf_dir : "/sys/kernel/btf");
	err = btf_src_open(&src, o->source, why);
	if (err)
		return err;
	err = btf_fields(&src, f, sizeof(f) / sizeof(f[0]), why);
	btf_src_close(&src);
	if (err)
		return err;
	for (k = 0; k < sizeof(f) / sizeof(f[0]); k++)
		if (f[k].err)
			return errbuf_set(why, f[k].err,
					  "%s has no struct %s with a member %s%s",
					  o->source, f[k].type, f[k].name,
					  f[k].err == -EINVAL ?
					  " at a whole byte" : "");
	o->fop = (int)f[0].off;
	o->dentry = (int)(f[1].off + f[2].off);
	o->dname = (int)(f[3].off + f[4].off);
	return 0;
}
