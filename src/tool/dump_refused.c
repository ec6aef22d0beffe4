// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-bpf=refused: the verifier at work on a program it must refuse.
 * The object carries one broken on purpose (kprobe/ext4_file_open/refused:
 * a store past the end of a map value); it is loaded alone, with the maps
 * it names, and the refusal printed with the verifier's log.  Nothing is
 * attached; no run ever loads it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/bpf_blob.h"
#include "tool/dump_bpf.h"

#define REFUSED_TARGET "ext4_file_open"
#define REFUSED_VARIANT "refused"

static int load_refused(FILE *out, struct bpf_obj *obj, struct obj_prog *p,
			const struct tracer_config *cfg, struct errbuf *eb)
{
	struct obj_load_state st = { 0 };
	struct obj_load_opts o = cfg->load;
	const struct bpf_disasm_name *names;
	size_t nr_names;
	int err;

	names = dump_bpf_placeholders(&nr_names);
	fprintf(out, "A program broken on purpose, which no run loads: the verifier must refuse it.\n\n");
	err = bpf_disasm_prog_named(out, obj, p, names, nr_names);
	if (err)
		return errbuf_set(eb, err, "--dump-bpf=refused: cannot write the listing");
	if (privileges_check())
		return errbuf_set(eb, -EPERM,
				  "--dump-bpf=refused: permission denied: the verifier is the kernel's; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)");
	privileges_raise_memlock();
	{
		const char *source;

		kversion_running(&o.kern_version, &source);
	}
	o.log_always = 0;
	err = bpf_obj_create_maps(obj, &o, &st, eb);
	if (!err)
		err = bpf_obj_load_prog(obj, p, &o, &st, eb);
	if (!err) {
		err = errbuf_set(eb, -EPROTO,
				 "--dump-bpf=refused: the verifier accepted %s, whose store past the end of a map value it must refuse",
				 p->section);
	} else if ((err == -EACCES || err == -EINVAL) && st.verifier_log) {
		fprintf(out, "\n%s\n", eb->msg);
		fprintf(out, "--- verifier log of %s (refused) ---\n%s", p->section,
			st.verifier_log);
		if (st.verifier_log[0])
			fprintf(out, "%s--- end of the verifier log ---\n",
				st.verifier_log[strlen(st.verifier_log) - 1] == '\n' ?
				"" : "\n");
		err = 0;
	}
	obj_load_state_free(&st);
	return err;
}

/* The refused program alone is kept: none of the others is listed. */
static int refused_only(const char *section, void *arg)
{
	(void)arg;
	return !strcmp(section, "kprobe/" REFUSED_TARGET "/" REFUSED_VARIANT);
}

int dump_refused(FILE *out, const struct tracer_config *cfg, struct errbuf *eb)
{
	static const struct obj_parse_opts refused_alone = {
		.lines = 1, .borrow = 1, .keep = refused_only
	};
	struct bpf_blob blob;
	struct bpf_obj obj;
	struct obj_prog *p;
	int err;

	err = bpf_blob_running(1, refused_only, NULL, &blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(blob.data, blob.size, &refused_alone, &obj, eb);
	if (err)
		goto out_blob;
	p = bpf_obj_find_prog(&obj, PROBE_ENTRY, REFUSED_TARGET, REFUSED_VARIANT);
	if (!p)
		err = errbuf_set(eb, -ENOENT,
				 "--dump-bpf=refused: the object has no kprobe/" REFUSED_TARGET "/" REFUSED_VARIANT " program");
	else
		err = load_refused(out, &obj, p, cfg, eb);
	if (!err && (fflush(out) == EOF || ferror(out)))
		err = errbuf_set(eb, -EIO, "--dump-bpf=refused: cannot write the listing");
	bpf_obj_free(&obj);
out_blob:
	bpf_blob_release(&blob);
	return err;
}
