// SPDX-License-Identifier: GPL-2.0
/* --dump-bpf=WHAT: the mode asked for, handed to its file. */
#include <errno.h>

#include "tool/dump/dump_bpf.h"

/* --dump-bpf=WHAT: one handler per mode (bpftool's command table). */
static const struct {
	enum dump_bpf_mode mode;
	int (*run)(FILE *out, const struct tracer_config *cfg,
		   struct errbuf *eb);
} modes[] = {
	{ DUMP_BPF_TEXT, dump_bpf_text },
	{ DUMP_BPF_XLATED, dump_xlated },
	{ DUMP_BPF_JITED, dump_jited },
	{ DUMP_BPF_ELF, dump_elf },
	{ DUMP_BPF_REFUSED, dump_refused },
};

int dump_bpf_mode(enum dump_bpf_mode mode, FILE *out,
		  const struct tracer_config *cfg, struct errbuf *eb)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (modes[i].mode == mode)
			return modes[i].run(out, cfg, eb);
	return errbuf_set(eb, -EINVAL, "--dump-bpf: no such mode");
}
