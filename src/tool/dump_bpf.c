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
#include "tool/bpf_blob.h"
#include "tool/dump_bpf.h"

static const struct bpf_disasm_name patch_names[] = {
	{ PATCH_TGID, "PATCH_TGID" },
	{ PATCH_FACTOR, "PATCH_FACTOR" },
	{ PATCH_FOPS, "PATCH_FOPS" },
	{ PATCH_FOP_OFF, "PATCH_FOP_OFF" },
	{ PATCH_SELF, "PATCH_SELF" },
	{ PATCH_SLOW_NS, "PATCH_SLOW_NS" },
	{ PATCH_DENTRY_OFF, "PATCH_DENTRY_OFF" },
	{ PATCH_DNAME_OFF, "PATCH_DNAME_OFF" },
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

/* Keeps the one program named by arg. */
static int only(const char *section, void *arg)
{
	return !strcmp(section, arg);
}

/*
 * Prints p with its source lines: the object parsed again, p's program
 * alone kept with its lines, so that the listing holds the lines of one
 * program at a time.
 */
static int print_prog(FILE *out, const struct bpf_blob *blob,
		      const struct obj_prog *p, int note, struct errbuf *eb)
{
	struct obj_parse_opts one = { .lines = 1, .borrow = 1, .keep = only };
	struct bpf_obj obj;
	int err;

	one.arg = (void *)p->section;
	err = bpf_obj_parse_in(blob->data, blob->size, &one, &obj, eb);
	if (err)
		return err;
	/* clang -g's line_info: shown here, never sent to a kernel. */
	if (note && obj.lines_note[0])
		fprintf(out, "source lines: none (%s)\n", obj.lines_note);
	else if (note)
		fprintf(out, "source lines: from .BTF.ext (clang -g), each above its first instruction\n");
	else
		err = bpf_disasm_prog_named(out, &obj, &obj.progs[0], patch_names,
					    sizeof(patch_names) /
					    sizeof(patch_names[0]));
	if (err)
		errbuf_set(eb, err, "--dump-bpf: cannot write the listing");
	bpf_obj_free(&obj);
	return err;
}

int dump_bpf(FILE *out, struct errbuf *eb)
{
	static const struct obj_parse_opts list = { .borrow = 1 };
	struct bpf_obj obj;
	struct bpf_blob blob;
	size_t i;
	int err;

	/*
	 * The running kernel's object, as a run would load it, read where
	 * it is inflated: the instructions are not copied.
	 */
	err = bpf_blob_running(1, NULL, NULL, &blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(blob.data, blob.size, &list, &obj, eb);
	if (err)
		goto out_blob;
	fprintf(out, "license: %.127s\n", obj.license);
	/* The loader writes the running kernel's version code instead. */
	fprintf(out, "kernel version: %u (replaced at load)\n", obj.version);
	fprintf(out, "for kernels: %s\n", blob.arch);
	err = print_prog(out, &blob, &obj.progs[0], 1, eb);
	if (!err) {
		print_maps(out, &obj);
		fprintf(out, "programs: %zu\n", obj.nr_progs);
	}
	for (i = 0; i < obj.nr_progs && !err; i++) {
		fputc('\n', out);
		err = print_prog(out, &blob, &obj.progs[i], 0, eb);
	}
	if (!err && (fflush(out) == EOF || ferror(out)))
		err = errbuf_set(eb, -EIO, "--dump-bpf: cannot write the listing");
	bpf_obj_free(&obj);
out_blob:
	bpf_blob_release(&blob);
	return err;
}
