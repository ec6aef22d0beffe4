// SPDX-License-Identifier: GPL-2.0
/*
 * How many start records a run keeps (tool/engine/start_slots.h), and
 * the reader of the memory figures --check and -v print: memlock of a
 * BPF fd's fdinfo and the process's VmHWM (loader/kernel/proc_field.h),
 * on copies of what kernels show.
 */
#include <errno.h>

#include "loader/kernel/proc_field.h"
#include "loader/obj/elf_obj.h"
#include "loader/obj/insn.h"
#include "loader/obj/obj_load.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"
#include "tool/engine/start_slots.h"

#define FIXTURE(name) TEST_SRCDIR "/tests/unit/fixtures/fdinfo/" name

static void test_rule(void)
{
	/* What a machine of that size shows as MemTotal, roughly. */
	check_int("24 GiB: the most", start_slots_for(24ULL << 30), 32768);
	check_int("512 MiB exactly: the most", start_slots_for(512ULL << 20),
		  32768);
	check_int("just under 512 MiB: half", start_slots_for((512ULL << 20) - 1),
		  16384);
	check_int("a 256 MB device (240 MiB)", start_slots_for(240ULL << 20),
		  8192);
	check_int("a 128 MB device (117 MiB)", start_slots_for(117ULL << 20),
		  4096);
	check_int("a 64 MB device (57 MiB): the least",
		  start_slots_for(57ULL << 20), 4096);
	check_int("nothing: the least", start_slots_for(0), 4096);
	/* The 128 MB device's records: 160 KiB, within its 512 KiB. */
	check_int("a 128 MB device's start records in bytes",
		  (long long)start_slots_for(117ULL << 20) *
		  start_slot_bytes((1u << NR_OPS) - 1), 163840);
	check_int("shift of 4096", start_slots_shift(4096), 12);
	check_int("shift of 32768", start_slots_shift(32768), 15);
	check_int("the tag's shift with 4096 slots", start_tag_shift(4096), 43);
	check_int("the tag's shift with 32768 slots", start_tag_shift(32768), 46);
	/* The record's tag: pid_max's 22 bits less the slot's fit above bit 54. */
	check_int("tag bits at the least slots fit the record",
		  22 - (long long)start_slots_shift(START_SLOTS_MIN) <= 64 - 54,
		  1);
}

/*
 * record_tag() as the programs compute it, from the whole pid_tgid word
 * (tgid above), against its definition: the bits of the thread id above
 * the slot's, over a live bit.  Every thread id pid_max allows (2^22),
 * at every table size.
 */
static void test_tag(void)
{
	unsigned int slots, tid, bad = 0, n = 0;

	for (slots = START_SLOTS_MIN; slots <= START_SLOTS_MAX; slots <<= 1) {
		unsigned int s = start_slots_shift(slots);
		unsigned int t = start_tag_shift(slots);

		for (tid = 0; tid < 1u << 22; tid++) {
			unsigned long long id = 0x12345ULL << 32 | tid;
			unsigned long long prog = id << 32 >> t | 1;

			bad += prog != ((unsigned long long)(tid >> s) << 1 | 1);
			n++;
		}
	}
	check_int("thread ids and table sizes tried", n, 4 << 22);
	check_int("tags unlike their definition", bad, 0);
}

static void test_fdinfo(void)
{
	unsigned long long v = 0;

	check_int("6.18 map: memlock read",
		  proc_field(FIXTURE("map_6.18.txt"), "memlock", &v), 0);
	check_int("6.18 map: its value", (long long)v, 164152);
	check_int("6.18 map: max_entries read",
		  proc_field(FIXTURE("map_6.18.txt"), "max_entries", &v), 0);
	check_int("6.18 map: 4096 entries", (long long)v, 4096);
	check_int("a kernel without the line: -ENODATA",
		  proc_field(FIXTURE("map_no_memlock.txt"), "memlock", &v),
		  -ENODATA);
	check_int("map_flags is hex: not a number here",
		  proc_field(FIXTURE("map_no_memlock.txt"), "map_flags", &v),
		  -EINVAL);
	check_int("VmHWM read, in kB",
		  proc_field(FIXTURE("status.txt"), "VmHWM", &v), 0);
	check_int("VmHWM's value", (long long)v, 1432);
	check_int("VmHWM in kB",
		  proc_field_unit(FIXTURE("status.txt"), "VmHWM", "kB", &v), 0);
	check_int("VmHWM is not in MB",
		  proc_field_unit(FIXTURE("status.txt"), "VmHWM", "MB", &v),
		  -EINVAL);
	check_int("a key is matched whole: no \"Vm\"",
		  proc_field(FIXTURE("status.txt"), "Vm", &v), -ENODATA);
	check_int("no such file", proc_field("/nonexistent/fdinfo", "memlock", &v),
		  -ENOENT);
	check_int("a bad fd: its fdinfo is not there",
		  proc_fd_memlock(-5, &v), -ENOENT);
}

#define ALL_OPS ((1u << NR_OPS) - 1)
#define BIT(op) (1u << (op))

static void test_stride(void)
{
	check_int("every operation: 40 bytes a slot", start_slot_bytes(ALL_OPS), 40);
	check_int("BCC's four: 32 bytes",
		  start_slot_bytes(ALL_OPS & ~BIT(OP_GETATTR)), 32);
	check_int("fsync alone: 8 bytes", start_slot_bytes(BIT(OP_FSYNC)), 8);
	check_int("none: still one record", start_slot_bytes(0), 8);
	check_int("bits past the operations count for nothing",
		  start_slot_bytes(BIT(OP_READ) | BIT(NR_OPS)), 8);
	check_int("getattr of all five: the fifth", start_rec_offset(ALL_OPS, OP_GETATTR), 32);
	check_int("fsync of all five: the fourth", start_rec_offset(ALL_OPS, OP_FSYNC), 24);
	check_int("fsync alone: the first", start_rec_offset(BIT(OP_FSYNC), OP_FSYNC), 0);
	check_int("getattr of write and getattr: the second",
		  start_rec_offset(BIT(OP_WRITE) | BIT(OP_GETATTR), OP_GETATTR), 8);
	check_int("read not traced: 0",
		  start_rec_offset(BIT(OP_WRITE) | BIT(OP_GETATTR), OP_READ), 0);
	check_int("past the operations: 0", start_rec_offset(ALL_OPS, NR_OPS), 0);
}

static int is_dw_mem(const struct bpf_insn *in)
{
	return in->code == (BPF_LDX | BPF_MEM | BPF_DW) ||
	       in->code == (BPF_STX | BPF_MEM | BPF_DW);
}

/*
 * The embedded object laid out for ops_mask with slots slots, against
 * the object as built: the map sizes, every multiply and every record's
 * load and store as patched, none of them left unpatched.
 */
static void check_layout(const char *label, unsigned int ops_mask,
			 unsigned int slots, unsigned int bytes,
			 const int off[NR_OPS])
{
	struct bpf_obj raw, obj;
	struct errbuf eb = { "" };
	unsigned int recs[NR_OPS] = { 0 }, muls = 0, bad = 0, left = 0, op;
	char name[160];
	size_t i, j;
	int n;

	if (!check_int("parse", bpf_obj_parse(ext4dist_bpf_obj,
					      ext4dist_bpf_obj_size(), &raw, &eb), 0))
		return;
	if (!check_int("parse again", bpf_obj_parse(ext4dist_bpf_obj,
						    ext4dist_bpf_obj_size(), &obj, &eb), 0)) {
		bpf_obj_free(&raw);
		return;
	}
	n = start_layout_apply(&obj, slots, ops_mask);
	for (i = 0; i < raw.nr_progs; i++) {
		for (j = 0; j < raw.progs[i].insn_cnt; j++) {
			const struct bpf_insn *r = &raw.progs[i].insns[j];
			const struct bpf_insn *o = &obj.progs[i].insns[j];

			if (r->code == (BPF_ALU64 | BPF_MUL | BPF_K) &&
			    r->imm == PATCH_START_STRIDE) {
				muls++;
				bad += o->imm != (int32_t)bytes;
			}
			if (is_dw_mem(o) && o->off >= PATCH_OFF_START_REC(0) &&
			    o->off <= PATCH_OFF_START_REC(NR_OPS - 1))
				left++;
			for (op = 0; op < NR_OPS; op++) {
				if (!is_dw_mem(r) || r->off != PATCH_OFF_START_REC(op))
					continue;
				recs[op]++;
				bad += o->off != off[op] || o->code != r->code;
			}
		}
	}
	snprintf(name, sizeof(name), "%s: start's value, every slot", label);
	check_int(name, bpf_obj_find_map(&obj, "start")->def.value_size,
		  (long long)slots * bytes);
	snprintf(name, sizeof(name), "%s: slow_start's entries", label);
	check_int(name, bpf_obj_find_map(&obj, "slow_start")->def.max_entries,
		  slots);
	/*
	 * A multiply where the slot's mask is (PATCH_START_MASK's 150 + 25
	 * + 2, test_loader_host).  Each operation's record read and written
	 * once at entry and once at return (2 instructions a program), in
	 * its programs and once per operation in the 16 kprobe_multi ones:
	 * write's in 8 kprobe, 16 kprobe_multi and 4 fentry/fexit programs
	 * (56), as open's; read's besides in the generic read path's 8 and
	 * 4 (80); fsync's in the 2 tracepoint ones too (60); getattr's in
	 * 4 kprobe (no slow mode), 16 kprobe_multi and 2 fentry/fexit (44).
	 */
	snprintf(name, sizeof(name), "%s: multiplies patched", label);
	check_int(name, muls, 150 + 25 + 2);
	snprintf(name, sizeof(name), "%s: read's records", label);
	check_int(name, recs[OP_READ], 80);
	snprintf(name, sizeof(name), "%s: write's records", label);
	check_int(name, recs[OP_WRITE], 56);
	snprintf(name, sizeof(name), "%s: open's records", label);
	check_int(name, recs[OP_OPEN], 56);
	snprintf(name, sizeof(name), "%s: fsync's records", label);
	check_int(name, recs[OP_FSYNC], 60);
	snprintf(name, sizeof(name), "%s: getattr's records", label);
	check_int(name, recs[OP_GETATTR], 44);
	snprintf(name, sizeof(name), "%s: each as the layout says", label);
	check_int(name, bad, 0);
	snprintf(name, sizeof(name), "%s: no placeholder offset left", label);
	check_int(name, left, 0);
	/* With the mask's and the shift's (124 + 22 + 2). */
	snprintf(name, sizeof(name), "%s: instructions patched in all", label);
	check_int(name, n, 177 + 148 + 177 + 80 + 56 + 56 + 60 + 44);
	bpf_obj_free(&obj);
	bpf_obj_free(&raw);
}

static void test_layout(void)
{
	static const int all[NR_OPS] = { 0, 8, 16, 24, 32 };
	static const int four[NR_OPS] = { 0, 8, 16, 24, 0 };
	static const int fsync[NR_OPS] = { 0, 0, 0, 0, 0 };
	static const int wg[NR_OPS] = { 0, 0, 0, 0, 8 };

	check_layout("all five", ALL_OPS, 32768, 40, all);
	check_layout("BCC's four", ALL_OPS & ~BIT(OP_GETATTR), 32768, 32, four);
	check_layout("fsync alone", BIT(OP_FSYNC), 4096, 8, fsync);
	check_layout("write and getattr", BIT(OP_WRITE) | BIT(OP_GETATTR),
		     8192, 16, wg);
}

static const struct test_case test_cases[] = {
	TEST_CASE(rule),
	TEST_CASE(stride),
	TEST_CASE(layout),
	TEST_CASE(tag),
	TEST_CASE(fdinfo),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
