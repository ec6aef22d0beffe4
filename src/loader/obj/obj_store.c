// SPDX-License-Identifier: GPL-2.0
/*
 * The parsed object as the loader keeps it (elf_obj.c makes it): its
 * programs and maps looked up, its instructions dropped once every
 * program is in the kernel, and all of it freed.
 */
#include "loader/obj/elf_obj.h"

#include <stdlib.h>
#include <string.h>

#include "loader/util/kcall.h"

void bpf_obj_free(struct bpf_obj *obj)
{
	size_t i;

	for (i = 0; i < obj->nr_progs; i++) {
		if (obj->progs[i].fd >= 0)
			kcall_close(obj->progs[i].fd,
				    "program %s: the object is freed (the kernel keeps the program while an event or link holds it)",
				    obj->progs[i].section);
		if (!obj->borrowed)
			free(obj->progs[i].insns);
		free(obj->progs[i].imm64_at);
		free(obj->progs[i].relocs);
		free(obj->progs[i].lines);
	}
	for (i = 0; i < obj->nr_maps; i++)
		if (obj->maps[i].fd >= 0)
			kcall_close(obj->maps[i].fd,
				    "map %s: the object is freed; the map goes with the last program using it",
				    obj->maps[i].name);
	free(obj->progs);
	free(obj->maps);
	free(obj->line_strs);
	memset(obj, 0, sizeof(*obj));
}

void bpf_obj_drop_insns(struct bpf_obj *obj)
{
	size_t i;

	for (i = 0; i < obj->nr_progs; i++) {
		struct obj_prog *p = &obj->progs[i];

		if (!obj->borrowed)
			free(p->insns);
		free(p->imm64_at);
		free(p->relocs);
		free(p->lines);
		p->insns = NULL;
		p->insn_cnt = 0;
		p->imm64_at = NULL;
		p->nr_imm64 = 0;
		p->imm64_of = NULL;
		p->imm64_of_cnt = 0;
		p->relocs = NULL;
		p->nr_relocs = 0;
		p->lines = NULL;
		p->nr_lines = 0;
	}
	free(obj->line_strs);
	obj->line_strs = NULL;
}

struct obj_prog *bpf_obj_find_prog(struct bpf_obj *obj, enum probe_kind kind,
				   const char *target, const char *variant)
{
	size_t i;

	if (!variant)
		variant = "";
	for (i = 0; i < obj->nr_progs; i++)
		if (obj->progs[i].kind == kind && !obj->progs[i].multi &&
		    !obj->progs[i].tracing && !obj->progs[i].tracepoint &&
		    strcmp(obj->progs[i].target, target) == 0 &&
		    strcmp(obj->progs[i].variant, variant) == 0)
			return &obj->progs[i];
	return NULL;
}

struct obj_prog *bpf_obj_find_tracing(struct bpf_obj *obj,
				      enum probe_kind kind, const char *target,
				      const char *variant)
{
	size_t i;

	if (!variant)
		variant = "";
	for (i = 0; i < obj->nr_progs; i++)
		if (obj->progs[i].kind == kind && obj->progs[i].tracing &&
		    strcmp(obj->progs[i].target, target) == 0 &&
		    strcmp(obj->progs[i].variant, variant) == 0)
			return &obj->progs[i];
	return NULL;
}

struct obj_prog *bpf_obj_find_multi(struct bpf_obj *obj, enum probe_kind kind,
				    const char *label, const char *variant)
{
	size_t i;

	if (!variant)
		variant = "";
	for (i = 0; i < obj->nr_progs; i++)
		if (obj->progs[i].kind == kind && obj->progs[i].multi &&
		    strcmp(obj->progs[i].target, label) == 0 &&
		    strcmp(obj->progs[i].variant, variant) == 0)
			return &obj->progs[i];
	return NULL;
}

struct obj_prog *bpf_obj_find_tracepoint(struct bpf_obj *obj,
					 const char *target,
					 const char *variant)
{
	size_t i;

	for (i = 0; i < obj->nr_progs; i++)
		if (obj->progs[i].tracepoint &&
		    strcmp(obj->progs[i].target, target) == 0 &&
		    strcmp(obj->progs[i].variant, variant) == 0)
			return &obj->progs[i];
	return NULL;
}

struct obj_map *bpf_obj_find_map(struct bpf_obj *obj, const char *name)
{
	size_t i;

	for (i = 0; i < obj->nr_maps; i++)
		if (strcmp(obj->maps[i].name, name) == 0)
			return &obj->maps[i];
	return NULL;
}
