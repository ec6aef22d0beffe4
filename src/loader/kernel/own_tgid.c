// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/own_tgid.h"

#include <string.h>

#include "loader/obj/bpf_sys.h"
#include "loader/obj/insn.h"
#include "loader/util/kcall.h"

/* The kernel's ENOTSUPP: no BPF_PROG_TEST_RUN for the type (before 5.10). */
#define ENOTSUPP_KERNEL 524

static const struct bpf_insn whoami[] = {
	CALL(BPF_FUNC_get_current_pid_tgid),
	RSH64_IMM(BPF_REG_0, 32),
	EXIT(),
};

int own_tgid_bpf(unsigned int *tgid, struct errbuf *eb)
{
	struct bpf_prog_load_req req = {
		.type = BPF_PROG_TYPE_RAW_TRACEPOINT,
		.insns = whoami,
		.insn_cnt = sizeof(whoami) / sizeof(whoami[0]),
		.license = "GPL",
	};
	uint32_t ret = 0;
	int fd, err;

	kcall_why("a raw tracepoint program of the loader's own (%zu instructions: r0 = bpf_get_current_pid_tgid() >> 32), to learn this process's PID as BPF programs see it: in a child PID namespace getpid() gives another",
		  req.insn_cnt);
	fd = bpf_prog_load_fd(&req);
	if (errbuf_nofile(eb, fd, "cannot load the PID question's program"))
		return fd;
	if (fd < 0)
		return errbuf_set(eb, fd,
				  "cannot load a raw tracepoint program: %s (4.17+)",
				  strerror(-fd));
	kcall_why("run it once, in this task, with no context: the kernel hands back its r0");
	err = bpf_prog_run_ctx(fd, NULL, 0, &ret);
	kcall_close(fd, "the PID question's program: answered, not needed");
	if (err == -ENOTSUPP_KERNEL || err == -EINVAL)
		return errbuf_set(eb, err,
				  "this kernel cannot run a raw tracepoint program on demand (BPF_PROG_TEST_RUN of them: 5.10+)");
	if (err)
		return errbuf_set(eb, err,
				  "cannot run the PID question's program: %s",
				  strerror(-err));
	if (!ret)
		return errbuf_set(eb, -EINVAL,
				  "the PID question's program answered 0");
	*tgid = ret;
	return 0;
}
