// SPDX-License-Identifier: GPL-2.0
#include "tool/discover/name_discover.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ext4dist_abi.h"
#include "tool/discover/name_offsets.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif

/*
 * One round: the request in, an fsync of the memfd (noop_fsync runs
 * before fsync() returns), the copies out.
 */
static int peek_round(int map_fd, int memfd, struct peek *pk,
		      unsigned int round, struct errbuf *eb)
{
	unsigned int key = 0;
	int err;

	pk->arg1 = 0;
	pk->runs = 0;
	err = bpf_map_update(map_fd, &key, pk, BPF_ANY);
	if (err)
		return errbuf_set(eb, err, "cannot write the peek map: %s",
				  strerror(-err));
	/* shmem's fsync is a no-op: nothing is written anywhere. */
	if (fsync(memfd) && errno != EINVAL)
		return errbuf_set(eb, -errno, "fsync of the memfd: %s",
				  strerror(errno));
	err = bpf_map_lookup(map_fd, &key, pk);
	if (err)
		return errbuf_set(eb, err, "cannot read the peek map: %s",
				  strerror(-err));
	if (!pk->runs)
		return errbuf_set(eb, -ENOENT,
				  "an fsync of a memfd did not run %s (round %u): this kernel's memfd files have another ->fsync",
				  NAME_PEEK_FUNC, round);
	return 0;
}

/*
 * -vvv: a copy as one line of hex, "peek ADDR: HEX", so that a run
 * captures memory images for tests/unit/test_name_offsets.c.
 */
static void dump_copy(unsigned long long addr, const unsigned char *mem)
{
	char hex[2 * PEEK_BYTES + 1];
	unsigned int i;

	if (vlog_level() < 3)
		return;
	for (i = 0; i < PEEK_BYTES; i++)
		snprintf(hex + (size_t)2 * i, 3, "%02x", mem[i]);
	vlog(3, "peek 0x%llx: %s", addr, hex);
}

/* The rounds: the file, then its candidate words 16 at a time. */
static int search(const struct name_env *env, int map_fd, int memfd,
		  struct name_found *out, struct errbuf *eb)
{
	static struct peek pk;	/* 4 KiB: not on the stack */
	struct name_cand cand[64];
	struct name_hit best = { 0 };
	unsigned int n, i, done, hits = 0;
	int err;

	memset(&pk, 0, sizeof(pk));
	err = peek_round(map_fd, memfd, &pk, ++out->rounds, eb);
	if (err)
		return err;
	dump_copy(pk.arg1, pk.arg1_mem);
	n = name_dentry_candidates(pk.arg1_mem, sizeof(pk.arg1_mem),
				   pk.arg1, &env->k, cand, 64);
	if (n > 64)
		n = 64;
	out->candidates = n;
	vlog(2, "file names: struct file of the memfd at 0x%llx, %u words that may point to its dentry",
	     pk.arg1, n);
	for (done = 0; done < n; done += PEEK_SLOTS) {
		unsigned int batch = n - done < PEEK_SLOTS ? n - done :
							      PEEK_SLOTS;

		memset(pk.req, 0, sizeof(pk.req));
		for (i = 0; i < batch; i++)
			pk.req[i] = cand[done + i].addr;
		err = peek_round(map_fd, memfd, &pk, ++out->rounds, eb);
		if (err)
			return err;
		for (i = 0; i < batch; i++) {
			struct name_hit hit, prev;
			int off;

			dump_copy(cand[done + i].addr, pk.mem[i]);
			off = name_find_dname(pk.mem[i], PEEK_BYTES,
						  cand[done + i].addr,
						  &env->k, out->name);

			vlog(2, "file names: offset %u of struct file, 0x%llx: %s",
			     cand[done + i].off, cand[done + i].addr,
			     off >= 0 ? "a dentry with our name" :
			     off == -EEXIST ? "our name more than once" :
			     "not our dentry");
			if (off < 0)
				continue;
			hit.file_off = cand[done + i].off;
			hit.addr = cand[done + i].addr;
			hit.dname_off = off;
			prev = best;
			if (name_hit_add(&best, &hits, &hit))
				return errbuf_set(eb, -EEXIST,
						  "words of struct file lead to two dentries named like the memfd (offsets %u and %u)",
						  best.file_off, hit.file_off);
			if (hits > 1) {
				const struct name_hit *o =
					best.file_off == hit.file_off ? &prev :
									&hit;

				vlog(2, "file names: offset %u of struct file points %llu bytes before the dentry that offset %u points to: the same name, offset %u kept",
				     o->file_off, best.addr - o->addr,
				     best.file_off, best.file_off);
			}
		}
	}
	out->dentry_off = (int)best.file_off;
	out->dname_off = best.dname_off;
	if (!hits)
		return errbuf_set(eb, -ENOENT,
				  "none of the %u words of struct file that look like kernel pointers leads to a dentry named \"%s\"",
				  n, out->name);
	return 0;
}

int name_discover(const struct name_env *env, struct name_found *out,
		  struct errbuf *eb)
{
	struct obj_map *m = bpf_obj_find_map(env->obj, "peek");
	struct probe_link link = { .perf_fd = -1 };
	char uname[32];
	int memfd, err;

	memset(out, 0, sizeof(*out));
	if (!m || m->fd < 0)
		return errbuf_set(eb, -EINVAL,
				  "the BPF object has no peek map for the discovery");
	/* Short enough to sit inline in the dentry (DNAME_INLINE_LEN). */
	snprintf(uname, sizeof(uname), "ext4dist.%d", (int)getpid());
	snprintf(out->name, sizeof(out->name), "memfd:%s", uname);
	memfd = (int)syscall(SYS_memfd_create, uname, MFD_CLOEXEC);
	err = memfd < 0 ? -errno : 0;
	if (errbuf_nofile(eb, err, "memfd_create"))
		return err;
	if (memfd < 0)
		return errbuf_set(eb, err, "memfd_create: %s (3.17+)",
				  strerror(-err));
	err = env->attach_peek(env->arg, NAME_PEEK_FUNC, &link, eb);
	if (!err) {
		err = search(env, m->fd, memfd, out, eb);
		env->detach_peek(env->arg, &link);
	}
	close(memfd);
	if (!err)
		vlog(1, "file names: f_path.dentry at offset %d of struct file, d_name.name at offset %d of struct dentry (an fsync of memfd \"%s\" under a probe on %s: %u words of its struct file copied in %u rounds)",
		     out->dentry_off, out->dname_off, out->name,
		     NAME_PEEK_FUNC, out->candidates, out->rounds);
	return err;
}
