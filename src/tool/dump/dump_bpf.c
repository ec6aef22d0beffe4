// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-bpf: what ext4dist would hand the kernel, readable.  The object
 * is printed in its own order (license, maps, programs) and before any
 * patching, so the placeholders show by name.
 */
#include <errno.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "tool/engine/bpf_blob.h"
#include "tool/dump/dump_bpf.h"
#include "tool/dump/prog_batch.h"
#include "output/report.h"
#include "tool/plan/prog_select.h"

static const struct bpf_disasm_name patch_names[] = {
	{ PATCH_TGID, "PATCH_TGID" },
	{ PATCH_FACTOR, "PATCH_FACTOR" },
	{ PATCH_FOPS, "PATCH_FOPS" },
	{ PATCH_FOP_OFF, "PATCH_FOP_OFF" },
	{ PATCH_SELF, "PATCH_SELF" },
	{ PATCH_SLOW_NS, "PATCH_SLOW_NS" },
	{ PATCH_DENTRY_OFF, "PATCH_DENTRY_OFF" },
	{ PATCH_DNAME_OFF, "PATCH_DNAME_OFF" },
	{ PATCH_START_MASK, "PATCH_START_MASK" },	/* an AND's immediate */
	{ PATCH_START_SHIFT, "PATCH_START_SHIFT" },	/* a shift's immediate */
	{ PATCH_START_STRIDE, "PATCH_START_STRIDE" },	/* a multiply's immediate */
	{ PATCH_CPU_MASK, "PATCH_CPU_MASK" },	/* an AND's immediate */
	{ PATCH_IP_BASE + OP_READ, "PATCH_IP_READ" },
	{ PATCH_IP_BASE + OP_WRITE, "PATCH_IP_WRITE" },
	{ PATCH_IP_BASE + OP_OPEN, "PATCH_IP_OPEN" },
	{ PATCH_IP_BASE + OP_FSYNC, "PATCH_IP_FSYNC" },
	{ PATCH_IP_BASE + OP_GETATTR, "PATCH_IP_GETATTR" },
	{ PATCH_NARGS_BASE + OP_READ, "PATCH_NARGS_READ" },
	{ PATCH_NARGS_BASE + OP_WRITE, "PATCH_NARGS_WRITE" },
	{ PATCH_NARGS_BASE + OP_OPEN, "PATCH_NARGS_OPEN" },
	{ PATCH_NARGS_BASE + OP_FSYNC, "PATCH_NARGS_FSYNC" },
	{ PATCH_NARGS_BASE + OP_GETATTR, "PATCH_NARGS_GETATTR" },
};

const struct bpf_disasm_name *dump_bpf_placeholders(size_t *n)
{
	*n = sizeof(patch_names) / sizeof(patch_names[0]);
	return patch_names;
}

static void print_maps(FILE *out, const struct bpf_obj *obj)
{
	size_t i;

	fprintf(out, "maps: %zu\n", obj->nr_maps);
	for (i = 0; i < obj->nr_maps; i++) {
		const struct obj_map *m = &obj->maps[i];

		fprintf(out, "  %-12.63s %-14s key %u, value %u, entries %u\n",
			m->name, map_type_name(m->def.type), m->def.key_size,
			m->def.value_size, m->def.max_entries);
	}
}

/* The families of the program matrix (docs/learn.md), in order. */
enum family { FAM_KPROBE, FAM_MULTI, FAM_TRACING, FAM_TRACEPOINT,
	      FAM_HELPER, FAM_LESSON, NR_FAMILIES };

static enum family family_of(const struct obj_prog *p)
{
	if (prog_is_lesson(p))
		return FAM_LESSON;
	if (p->multi)
		return FAM_MULTI;
	if (p->tracing)
		return FAM_TRACING;
	if (p->tracepoint)
		return FAM_TRACEPOINT;
	/* The f_op scan and the name discovery's peek: variants of no pair. */
	if (!strcmp(p->variant, "scan_release") || !strcmp(p->variant, "peek"))
		return FAM_HELPER;
	return FAM_KPROBE;
}

/* "programs: 95: 44 kprobe and kretprobe, 16 kprobe_multi, ...". */
static void print_counts(FILE *out, const struct bpf_obj *obj)
{
	static const char *const names[NR_FAMILIES] = {
		"kprobe and kretprobe", "kprobe_multi", "fentry and fexit",
		"tracepoint", "helpers", "lessons",
	};
	size_t n[NR_FAMILIES] = { 0 }, i;
	int f, first = 1;

	for (i = 0; i < obj->nr_progs; i++)
		n[family_of(&obj->progs[i])]++;
	fprintf(out, "programs: %zu:", obj->nr_progs);
	for (f = 0; f < NR_FAMILIES; f++) {
		if (!n[f])
			continue;
		fprintf(out, "%s %zu %s", first ? "" : ",", n[f], names[f]);
		first = 0;
	}
	fputc('\n', out);
}

/* "shown: 31 of them: those a run tracing fsync may load". */
static void print_shown(FILE *out, const struct tracer_config *cfg,
			size_t shown)
{
	unsigned int op;
	int first = 1;

	fprintf(out, "shown: %zu of them:", shown);
	if (cfg->ops_given) {
		fprintf(out, " those a run tracing");
		for (op = 0; op < NR_OPS; op++)
			if (cfg->ops_mask & (1u << op)) {
				fprintf(out, "%s %s", first ? "" : ",",
					report_op_name(op));
				first = 0;
			}
		fprintf(out, " may load");
	}
	if (cfg->prog_glob)
		fprintf(out, "%s--prog %s", cfg->ops_given ? ", matching " : " ",
			cfg->prog_glob);
	fputc('\n', out);
}

/* The programs the listing shows: those of --ops and --prog. */
static int shown_here(const struct obj_prog *p, void *arg)
{
	const struct tracer_config *cfg = arg;

	return prog_shown(p, cfg->ops_given, cfg->ops_mask, cfg->prog_glob);
}

/* Whether the object has source lines: the first program's are read. */
static int print_lines_note(FILE *out, const struct bpf_obj *names,
			    struct errbuf *eb)
{
	struct prog_batch b = { .names = names };
	int err = prog_batch_next(&b, 1, eb);

	if (err < 0)
		return err;
	/* clang -g's line_info: shown here, never sent to a kernel. */
	if (b.obj.lines_note[0])
		fprintf(out, "source lines: none (%s)\n", b.obj.lines_note);
	else
		fprintf(out, "source lines: from .BTF.ext (clang -g), each above its first instruction\n");
	prog_batch_end(&b);
	return 0;
}

/* Each program shown, with its source lines, a batch at a time. */
static int print_progs(FILE *out, const struct bpf_obj *names,
		       const struct tracer_config *cfg, struct errbuf *eb)
{
	struct prog_batch b = { .names = names, .want = shown_here,
				.arg = (void *)cfg };
	size_t i;
	int more, err = 0;

	while (!err && (more = prog_batch_next(&b, 1, eb)) != 0) {
		if (more < 0)
			err = more;
		for (i = 0; more > 0 && i < b.obj.nr_progs && !err; i++) {
			fputc('\n', out);
			err = bpf_disasm_prog_named(out, &b.obj, &b.obj.progs[i],
						    patch_names,
						    sizeof(patch_names) /
						    sizeof(patch_names[0]));
			if (err)
				errbuf_set(eb, err, "--dump-bpf: cannot write the listing");
		}
	}
	prog_batch_end(&b);
	return err;
}

int dump_bpf_text(FILE *out, const struct tracer_config *cfg,
		  struct errbuf *eb)
{
	static const struct obj_parse_opts list = { .no_code = 1 };
	struct bpf_obj obj;
	struct bpf_blob blob;
	size_t i, shown = 0;
	int err;

	/*
	 * The running kernel's object, as a run would load it: its
	 * programs' names without their code, which the listings inflate
	 * a few programs at a time.
	 */
	err = bpf_blob_running(0, prog_batch_none, NULL, &blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(blob.data, blob.size, &list, &obj, eb);
	bpf_blob_release(&blob);
	if (err)
		return err;
	fprintf(out, "license: %.127s\n", obj.license);
	/* The loader writes the running kernel's version code instead. */
	fprintf(out, "kernel version: %u (replaced at load)\n", obj.version);
	fprintf(out, "for kernels: %s\n", blob.arch);
	err = print_lines_note(out, &obj, eb);
	if (!err) {
		print_maps(out, &obj);
		print_counts(out, &obj);
		for (i = 0; i < obj.nr_progs; i++)
			shown += shown_here(&obj.progs[i], (void *)cfg);
		if (shown != obj.nr_progs)
			print_shown(out, cfg, shown);
		err = print_progs(out, &obj, cfg, eb);
	}
	if (!err && (fflush(out) == EOF || ferror(out)))
		err = errbuf_set(eb, -EIO, "--dump-bpf: cannot write the listing");
	if (!err && !shown)
		err = errbuf_set(eb, -ENOENT, "--dump-bpf: no program matches%s%s",
				 cfg->prog_glob ? " --prog " : " --ops",
				 cfg->prog_glob ? cfg->prog_glob : "");
	bpf_obj_free(&obj);
	return err;
}

int dump_each_loaded(FILE *out, const struct tracer_config *cfg,
		     const char *mode,
		     int (*setup)(void *arg, struct tracer *t,
				  const struct tracer_config *cfg,
				  struct errbuf *eb),
		     void (*each)(void *arg, const struct obj_prog *p),
		     void *arg, const size_t *shown, struct errbuf *eb)
{
	struct tracer *t = tracer_new();
	int err;

	if (!t)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	err = tracer_prepare(t, cfg, eb);
	if (!err)
		err = setup(arg, t, cfg, eb);
	text_pages_drop();
	if (!err)
		err = tracer_verify_each(t, each, arg, eb);
	if (!err && (fflush(out) == EOF || ferror(out)))
		err = errbuf_set(eb, -EIO, "--dump-bpf=%s: cannot write the listing",
				 mode);
	if (!err && !*shown && cfg->prog_glob)
		err = errbuf_set(eb, -ENOENT,
				 "--dump-bpf=%s: no program a run loads here matches --prog %s",
				 mode, cfg->prog_glob);
	tracer_free(t);
	return err;
}
