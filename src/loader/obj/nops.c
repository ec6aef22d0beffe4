// SPDX-License-Identifier: GPL-2.0
#include "loader/obj/nops.h"

#include <errno.h>
#include <stdlib.h>

#include "loader/obj/map_value.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)

/* gotol (BPF_JMP32 | BPF_JA, 6.4+) jumps by its imm, other jumps by off. */
static int is_long_ja(const struct bpf_insn *in)
{
	return in->code == (BPF_JMP32 | BPF_JA);
}

static int is_jump(const struct bpf_insn *in)
{
	unsigned int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL &&
	       op != BPF_EXIT;
}

static long long jump_off(const struct bpf_insn *in)
{
	return is_long_ja(in) ? in->imm : in->off;
}

/* What the copy cannot have: its offsets are of code the copy moves. */
static int has_subprog(const struct bpf_insn *in, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++)
		if ((in[i].code == (BPF_JMP | BPF_CALL) &&
		     in[i].src_reg == BPF_PSEUDO_CALL) ||
		    (in[i].code == LD_IMM64 &&
		     in[i].src_reg == BPF_PSEUDO_FUNC))
			return 1;
	return 0;
}

static void index_map(const struct bpf_insn *in, size_t cnt, uint32_t *at)
{
	size_t i, n = 0;

	for (i = 0; i < cnt; i++) {
		at[i] = (uint32_t)n;
		if (in[i].code == LD_IMM64 && i + 1 < cnt) {
			at[++i] = (uint32_t)++n;
			n++;
		} else if (!map_value_is_nop(&in[i])) {
			n++;
		}
	}
	at[cnt] = (uint32_t)n;
}

/* Where the jump at i lands in the copy, as an offset: -ERANGE if nowhere. */
static int new_offset(const struct bpf_insn *in, size_t cnt,
		      const uint32_t *at, size_t i, int32_t *off)
{
	long long t = (long long)i + 1 + jump_off(&in[i]), o;

	if (t < 0 || t > (long long)cnt)
		return -ERANGE;
	o = (long long)at[t] - at[i] - 1;
	if (!is_long_ja(&in[i]) && (o < INT16_MIN || o > INT16_MAX))
		return -ERANGE;
	*off = (int32_t)o;
	return 0;
}

/* Whether every jump of in lands in the copy, before out is written. */
static int jumps_land(const struct bpf_insn *in, size_t cnt, const uint32_t *at)
{
	int32_t off;
	size_t i;

	for (i = 0; i < cnt; i++) {
		if (in[i].code == LD_IMM64) {
			i++;
			continue;
		}
		if (is_jump(&in[i]) && !map_value_is_nop(&in[i]) &&
		    new_offset(in, cnt, at, i, &off))
			return -ERANGE;
	}
	return 0;
}

long nops_compact(const struct bpf_insn *in, size_t cnt, struct bpf_insn *out,
		  uint32_t *at)
{
	uint32_t *map = at ? at : malloc((cnt + 1) * sizeof(*map));
	int32_t off = 0;
	size_t i;
	long ret;

	if (!map)
		return -ENOMEM;
	if (has_subprog(in, cnt)) {
		ret = -ENOTSUP;
		goto out;
	}
	index_map(in, cnt, map);
	ret = jumps_land(in, cnt, map);
	if (ret)
		goto out;
	for (i = 0; i < cnt; i++) {
		if (map_value_is_nop(&in[i]))
			continue;
		out[map[i]] = in[i];
		if (in[i].code == LD_IMM64 && i + 1 < cnt) {
			out[map[i] + 1] = in[i + 1];
			i++;
		} else if (is_jump(&in[i]) &&
			   !new_offset(in, cnt, map, i, &off)) {
			if (is_long_ja(&in[i]))
				out[map[i]].imm = off;
			else
				out[map[i]].off = (int16_t)off;
		}
	}
	ret = (long)map[cnt];
out:
	if (map != at)
		free(map);
	return ret;
}
