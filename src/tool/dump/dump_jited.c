// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-bpf=jited: each program a run loads, as the machine code the
 * kernel's JIT made of it (BPF_OBJ_GET_INFO_BY_FD's jited_prog_insns,
 * 4.13+), in hex, 16 bytes a line at their offsets.  Where the JIT is
 * off the kernel interprets the instructions and has no such code.  The
 * bytes read back as instructions with objdump -D -b binary and the
 * machine's -m.  Needs root: it loads the programs, as --check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/dump/dump_bpf.h"
#include "tool/plan/prog_select.h"
#include "tool/engine/tracer.h"

struct jit {
	FILE *out;
	struct karch ka;		/* the machine the code is for */
	const char *glob;		/* --prog */
	size_t shown;
	unsigned long long bytes;	/* of the programs shown */
};

static void print_hex(FILE *out, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%02x%s", i % 16 ? "" : "  ", b[i],
			i % 16 == 15 || i + 1 == n ? "\n" :
			i % 16 == 7 ? "  " : " ");
}

/* Called with each program while it is loaded. */
static void jit_one(void *arg, const struct obj_prog *p)
{
	struct jit *j = arg;
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	unsigned char *code;
	char tag[17];

	if (!prog_selected(p, j->glob))
		return;
	j->shown++;
	fprintf(j->out, "\nprogram %s: kernel id %u, tag %s, %zu BPF instructions\n",
		p->section, p->kinfo.id,
		bpf_tag_text(p->kinfo.tag, tag, sizeof(tag)), p->sent_cnt);
	if (!p->kinfo.jited_len) {
		fprintf(j->out, "  not compiled: the kernel interprets it (its JIT is off, or the kernel does not say: BPF_OBJ_GET_INFO_BY_FD arrived in 4.13)\n");
		return;
	}
	code = calloc(1, p->kinfo.jited_len);
	memset(&info, 0, sizeof(info));
	info.jited_prog_len = code ? p->kinfo.jited_len : 0;
	info.jited_prog_insns = (uint64_t)(uintptr_t)code;
	kcall_why("the machine code the JIT made of %s (jited_prog_insns, %u bytes)",
		  p->section, p->kinfo.jited_len);
	if (!code || bpf_obj_info(p->fd, &info, &len) || !info.jited_prog_insns) {
		fprintf(j->out, "  JIT %u bytes, which the kernel does not show this process (it hides them from users who may not see kernel addresses)\n",
			p->kinfo.jited_len);
		free(code);
		return;
	}
	fprintf(j->out, "  JIT: %u bytes of machine code\n", p->kinfo.jited_len);
	print_hex(j->out, code, p->kinfo.jited_len);
	j->bytes += p->kinfo.jited_len;
	free(code);
}

static int jit_setup(void *arg, struct tracer *t,
		     const struct tracer_config *cfg, struct errbuf *eb)
{
	struct jit *j = arg;

	(void)t;
	(void)cfg;
	(void)eb;
	if (karch_running(&j->ka))
		snprintf(j->ka.machine, sizeof(j->ka.machine), "?");
	fprintf(j->out, "The programs a run loads here, patched as it patches them, as the kernel's JIT compiled them for %s.\n",
		j->ka.machine);
	return 0;
}

int dump_jited(FILE *out, const struct tracer_config *cfg, struct errbuf *eb)
{
	struct jit j = { .out = out, .glob = cfg->prog_glob };
	int err = dump_each_loaded(out, cfg, "jited", jit_setup, jit_one, &j,
				   &j.shown, eb);

	if (!err && j.bytes)
		fprintf(out, "\n%llu bytes of machine code; to read them: objdump -D -b binary -m %s on the bytes (xxd -r -p)\n",
			j.bytes, !strcmp(j.ka.machine, "x86_64") ? "i386:x86-64" :
			!strcmp(j.ka.machine, "aarch64") ? "aarch64" :
			!strcmp(j.ka.machine, "s390x") ? "s390:64-bit" :
			!strcmp(j.ka.machine, "riscv64") ? "riscv:rv64" :
			!strncmp(j.ka.machine, "mips", 4) ? "mips -EL" : "arm");
	if (!err && (fflush(out) == EOF || ferror(out)))
		err = errbuf_set(eb, -EIO, "--dump-bpf=jited: cannot write the listing");
	return err;
}
