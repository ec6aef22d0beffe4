// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-bpf=refused: the verifier at work on programs it must refuse.
 * The object carries the lessons (kprobe/lesson/NAME, tool/dump/lessons.c):
 * each is loaded alone, with the maps it names, and printed with the
 * verifier's verdict, the line of its log that says why, and the log.
 * Nothing is attached; no run ever loads them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/engine/bpf_blob.h"
#include "tool/dump/dump_bpf.h"
#include "tool/dump/lessons.h"
#include "tool/plan/prog_select.h"

#define MAX_SKIP 32

/* The maps no selected lesson names: not created. */
static void maps_unused(const struct bpf_obj *obj, const char *glob,
			const char *skip[MAX_SKIP])
{
	size_t m, i, j, n = 0;

	for (m = 0; m < obj->nr_maps && n + 1 < MAX_SKIP; m++) {
		int used = 0;

		for (i = 0; i < obj->nr_progs && !used; i++) {
			const struct obj_prog *p = &obj->progs[i];

			if (!prog_is_lesson(p) || !prog_selected(p, glob))
				continue;
			for (j = 0; j < p->nr_relocs; j++)
				used |= p->relocs[j].map == m;
		}
		if (!used)
			skip[n++] = obj->maps[m].name;
	}
	skip[n] = NULL;
}

static void print_log(FILE *out, const struct obj_prog *p, const char *log,
		      const char *verdict, unsigned int level)
{
	size_t len = strlen(log);

	fprintf(out, "--- verifier log of %s (%s, log_level %u) ---\n%s%s",
		p->section, verdict, level, log,
		len && log[len - 1] != '\n' ? "\n" : "");
	fprintf(out, "--- end of the verifier log ---\n");
}

/* The lines of the log that say why, as the kernel wrote them. */
static void print_why(FILE *out, const char *const lines[LESSON_MAX_LINES])
{
	size_t i;

	for (i = 0; i < LESSON_MAX_LINES && lines[i]; i++)
		fprintf(out, "%s%.*s\n", i ? "                       " :
			"the verifier's reason: ", (int)strcspn(lines[i], "\n"),
			lines[i]);
}

/*
 * Loads the lesson's program and says what the verifier made of it: 0
 * when it did what the lesson says, -EPROTO when not, -errno when the
 * kernel could not be asked.
 */
static int one_lesson(FILE *out, struct bpf_obj *obj, struct obj_prog *p,
		      const struct lesson *l, const struct obj_load_opts *base,
		      struct obj_load_state *st, struct errbuf *eb)
{
	struct obj_load_opts o = *base;
	const struct bpf_disasm_name *names;
	const char *lines[LESSON_MAX_LINES], *why;
	unsigned int level;
	size_t nr_names;
	int err, said;

	names = dump_bpf_placeholders(&nr_names);
	fprintf(out, "\nlesson %s: %s\n", l->name, l->wrong);
	if (l->license)
		fprintf(out, "loaded under the licence \"%s\" instead of the object's \"%s\"\n",
			l->license, obj->license);
	err = bpf_disasm_prog_named(out, obj, p, names, nr_names);
	if (err)
		return errbuf_set(eb, err, "--dump-bpf=refused: cannot write the listing");
	o.license = l->license;
	o.log_always = 0;
	level = o.log_level ? o.log_level : 1;
	err = bpf_obj_load_prog(obj, p, &o, st, eb);
	if (!err) {
		bpf_obj_unload_prog(p);
		if (l->accepted) {
			fprintf(out, "verdict: accepted by this kernel: %s\n",
				l->accepted);
			return 0;
		}
		fprintf(out, "verdict: accepted, where every kernel must refuse it\n");
		return errbuf_set(eb, -EPROTO,
				  "--dump-bpf=refused: the verifier accepted %s, which it must refuse (%s)",
				  p->section, l->wrong);
	}
	if ((err != -EACCES && err != -EINVAL) || !st->verifier_log)
		return err;
	why = l->why;
	said = lesson_log_says(st->verifier_log, why, lines);
	if (!said && l->why_before) {
		why = l->why_before;
		said = lesson_log_says(st->verifier_log, why, lines);
	}
	fprintf(out, "verdict: refused (%s)%s\n", strerror(-err),
		l->accepted ? ", as kernels before 6.14 refuse it" :
		said ? ", as every kernel must" : "");
	if (said)
		print_why(out, lines);
	print_log(out, p, st->verifier_log, "refused", level);
	if (!said)
		return errbuf_set(eb, -EPROTO,
				  "--dump-bpf=refused: the verifier refused %s for another reason than the lesson's (its log says why)",
				  p->section);
	return 0;
}

static int all_lessons(FILE *out, struct bpf_obj *obj,
		       const struct tracer_config *cfg, struct errbuf *eb)
{
	struct obj_load_state st = { 0 };
	struct obj_load_opts o = cfg->load;
	const char *skip[MAX_SKIP];
	struct errbuf leb = { "" };
	const char *source;
	size_t i, n = 0;
	int err = 0, bad = 0;

	maps_unused(obj, cfg->prog_glob, skip);
	o.skip_maps = skip;
	privileges_raise_memlock();
	kversion_running(&o.kern_version, &source);
	err = bpf_obj_create_maps(obj, &o, &st, eb);
	for (i = 0; i < obj->nr_progs && !err; i++) {
		struct obj_prog *p = &obj->progs[i];
		const struct lesson *l;

		if (!prog_is_lesson(p) || !prog_selected(p, cfg->prog_glob))
			continue;
		l = lesson_find(p->variant);
		if (!l) {
			err = errbuf_set(eb, -ENOENT,
					 "--dump-bpf=refused: %s is no lesson ext4dist knows (tool/dump/lessons.c)",
					 p->section);
			break;
		}
		n++;
		err = one_lesson(out, obj, p, l, &o, &st, &leb);
		if (err == -EPROTO) {
			/* The next lessons still run: the first failure is said. */
			if (!bad++)
				errbuf_set(eb, err, "%s", leb.msg);
			err = 0;
		} else if (err) {
			errbuf_set(eb, err, "%s", leb.msg);
		}
	}
	obj_load_state_free(&st);
	if (!err && !n)
		err = errbuf_set(eb, -ENOENT,
				 "--dump-bpf=refused: no lesson matches --prog %s",
				 cfg->prog_glob ? cfg->prog_glob : "");
	return err ? err : bad ? -EPROTO : 0;
}

/* The lessons alone are kept: no other program is listed. */
static int lessons_only(const char *section, void *arg)
{
	static const char prefix[] = "kprobe/" LESSON_TARGET "/";

	(void)arg;
	return !strncmp(section, prefix, sizeof(prefix) - 1);
}

int dump_refused(FILE *out, const struct tracer_config *cfg, struct errbuf *eb)
{
	static const struct obj_parse_opts lessons_alone = {
		.lines = 1, .borrow = 1, .keep = lessons_only
	};
	struct bpf_blob blob;
	struct bpf_obj obj;
	int err;

	err = bpf_blob_running(1, lessons_only, NULL, &blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(blob.data, blob.size, &lessons_alone, &obj, eb);
	if (err)
		goto out_blob;
	text_pages_drop();
	fprintf(out, "The lessons: programs broken on purpose, which no run loads, each loaded alone; the verifier must refuse them.\n");
	if (privileges_check())
		err = errbuf_set(eb, -EPERM,
				 "--dump-bpf=refused: permission denied: the verifier is the kernel's; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)");
	else
		err = all_lessons(out, &obj, cfg, eb);
	if (!err && (fflush(out) == EOF || ferror(out)))
		err = errbuf_set(eb, -EIO, "--dump-bpf=refused: cannot write the listing");
	bpf_obj_free(&obj);
out_blob:
	bpf_blob_release(&blob);
	return err;
}
