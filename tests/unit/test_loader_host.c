// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's verifier accepts every program of the embedded
 * object, and every map is created, also with each fallback forced.
 * (This host can load kprobe programs; it cannot attach them.)  The
 * loader's own syscall program that asks the kernel for symbol addresses
 * runs here.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ext4dist_abi.h"
#include "loader/obj/bpf_sys.h"
#include "loader/ksym/ksym_bpf.h"
#include "loader/obj/obj_load.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"
#include "tool/plan/prog_select.h"

static int map_info_type(int fd, unsigned int *type, char *name)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	int err;

	memset(&info, 0, sizeof(info));
	err = bpf_obj_info(fd, &info, &len);
	if (!err) {
		*type = info.type;
		memcpy(name, info.name, sizeof(info.name));
	}
	return err;
}

static void load_all(const char *label, const struct obj_load_opts *o,
		     unsigned int want_hist_type, const char *want_name)
{
	struct obj_load_state st = { 0 };
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	char name[64];
	unsigned int type = 0;
	size_t i;
	int err;

	err = bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &obj,
			    &eb);
	if (!check_int("parse", err, 0))
		return;
	/*
	 * 6 kprobe pairs (5 functions and the generic read path), 2 pairs
	 * of kprobe_multi programs with one inlined copy per operation;
	 * each program twice (plain and atomic adds: PROG_ATOMIC), and
	 * twice more for slow mode (PROG_SLOW) but getattr's.  The f_op
	 * scan and the name discovery's peek keep ext4dist in.  Then the
	 * fentry and fexit programs of the same 6 functions (no atomic
	 * twins; slow mode's but getattr's): 11 of each; and the 2 fsync
	 * tracepoints' (one entry, one return).
	 */
	check_int("placeholder PATCH_TGID patched in every entry and return program",
		  bpf_obj_patch_imm64(&obj, PATCH_TGID, 0), 124 + 22 + 2);
	check_int("placeholder PATCH_FACTOR patched in every return program",
		  bpf_obj_patch_imm64(&obj, PATCH_FACTOR, 1000), 62 + 11 + 1);
	/*
	 * The start records' slot: once in every entry and return, once
	 * per operation in the kprobe_multi ones (150 in the 44 kprobe
	 * and 16 kprobe_multi programs, 25 in the fentry and fexit ones, 2
	 * in the tracepoints'), and again in a slow entry that keeps
	 * slow_start's state.  The tag: once per program.
	 */
	check_int("PATCH_START_MASK patched in every entry and return program",
		  bpf_obj_patch_alu64_imm(&obj, BPF_AND, PATCH_START_MASK,
					  4095),
		  150 + 25 + 2);
	check_int("PATCH_START_MASK: none left",
		  bpf_obj_patch_alu64_imm(&obj, BPF_AND, PATCH_START_MASK,
					  4095), 0);
	/*
	 * The CPU's calls row: once in every entry program, once per
	 * operation in the kprobe_multi ones (22 + 8 * 5 = 62 kprobe and
	 * kprobe_multi, 11 fentry, the fsync tracepoint's).
	 */
	check_int("PATCH_CPU_MASK patched in every entry program",
		  bpf_obj_patch_alu64_imm(&obj, BPF_AND, PATCH_CPU_MASK, 1),
		  62 + 11 + 1);
	check_int("PATCH_CPU_MASK: none left",
		  bpf_obj_patch_alu64_imm(&obj, BPF_AND, PATCH_CPU_MASK, 1), 0);
	/* calls sized for those 2 rows, as the tracer sizes it. */
	bpf_obj_find_map(&obj, "calls")->def.value_size =
		CALLS_ROWS(2) * sizeof(struct calls_row);
	check_int("PATCH_START_SHIFT patched in every entry and return program",
		  bpf_obj_patch_alu64_imm(&obj, BPF_RSH, PATCH_START_SHIFT,
					  43),
		  124 + 22 + 2);
	check_int("PATCH_START_SHIFT: none left",
		  bpf_obj_patch_alu64_imm(&obj, BPF_RSH, PATCH_START_SHIFT,
					  43), 0);
	/* Every operation traced: 40 bytes a slot, op's record at 8 * op. */
	check_int("PATCH_START_STRIDE patched where the mask is",
		  bpf_obj_patch_alu64_imm(&obj, BPF_MUL, PATCH_START_STRIDE,
					  40),
		  150 + 25 + 2);
	check_int("the start records' offsets patched (test_start_slots)",
		  bpf_obj_patch_dw_off(&obj, PATCH_OFF_START_REC(OP_READ), 0) +
		  bpf_obj_patch_dw_off(&obj, PATCH_OFF_START_REC(OP_WRITE), 8) +
		  bpf_obj_patch_dw_off(&obj, PATCH_OFF_START_REC(OP_OPEN), 16) +
		  bpf_obj_patch_dw_off(&obj, PATCH_OFF_START_REC(OP_FSYNC), 24) +
		  bpf_obj_patch_dw_off(&obj, PATCH_OFF_START_REC(OP_GETATTR), 32),
		  80 + 56 + 56 + 60 + 44);
	check_int("PATCH_FOPS patched once per twin", bpf_obj_patch_imm64(&obj, PATCH_FOPS, 0xffffffff81000000ULL), 4 + 2);
	check_int("PATCH_FOP_OFF patched once per twin", bpf_obj_patch_imm64(&obj, PATCH_FOP_OFF, 40), 4 + 2);
	/* Every entry keeps ext4dist itself out; the f_op scan keeps it in. */
	check_int("PATCH_SELF patched in every entry program and the f_op scan",
		  bpf_obj_patch_imm64(&obj, PATCH_SELF, (uint64_t)getpid()), 64 + 11 + 1);
	/* The exit tracepoint's "ret", where x86_64's format file has it. */
	check_int("the tracepoint field's offset patched",
		  bpf_obj_patch_off16(&obj, PATCH_OFF_TP_RET, 24), 1);
	/* Slow mode's: the threshold in its returns, name offsets in its events. */
	check_int("PATCH_SLOW_NS patched in every slow return program",
		  bpf_obj_patch_imm64(&obj, PATCH_SLOW_NS, 0), 26 + 5);
	/*
	 * fexit's: each function's argument count, in the read fexit
	 * programs, twice in slow mode's (the event's return value too).
	 */
	check_int("PATCH_NARGS_READ patched in the read fexit programs",
		  bpf_obj_patch_imm64(&obj, PATCH_NARGS_BASE + OP_READ, 2), 6);
	CHECK(bpf_obj_patch_imm64(&obj, PATCH_DENTRY_OFF, 0) > 0 &&
	      bpf_obj_patch_imm64(&obj, PATCH_DNAME_OFF, 0) > 0,
	      "name offsets patched in the slow returns");
	check_int("no placeholder left after patching", bpf_obj_patch_imm64(&obj, PATCH_TGID, 0), 0);

	err = bpf_obj_create_maps(&obj, o, &st, &eb);
	snprintf(name, sizeof(name), "%s: all maps created", label);
	if (!check_int(name, err, 0)) {
		printf("  %s\n", eb.msg);
		goto out;
	}
	for (i = 0; i < obj.nr_progs; i++) {
		char tname[200];

		/*
		 * A tracing program loads only for a function named by its
		 * BTF id, on a kernel that lets it: the VM's fentry
		 * scenarios load them.  The lessons, broken on purpose:
		 * test_lessons and --dump-bpf=refused.
		 */
		if (obj.progs[i].tracing || prog_is_lesson(&obj.progs[i]))
			continue;
		err = bpf_obj_load_prog(&obj, &obj.progs[i], o, &st, &eb);
		snprintf(tname, sizeof(tname), "%s: verifier accepts %s", label,
			 obj.progs[i].section);
		if (!check_int(tname, err, 0))
			printf("  %s\n%s\n", eb.msg,
			       st.verifier_log ? st.verifier_log : "");
	}
	err = map_info_type(bpf_obj_find_map(&obj, "hist")->fd, &type, name);
	check_int("map info readable", err, 0);
	check_int("hist map type as expected", type, want_hist_type);
	check_str("hist map name as expected", name, want_name);
out:
	obj_load_state_free(&st);
	bpf_obj_free(&obj);
}

static void test_verifier_rejection(void)
{
	struct obj_load_state st = { 0 };
	struct obj_load_opts o = { 0 };
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	struct obj_prog *p;
	int err;

	if (bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &obj,
			  &eb))
		return;
	bpf_obj_create_maps(&obj, &o, &st, &eb);
	p = bpf_obj_find_prog(&obj, PROBE_ENTRY, "open", NULL);
	/* r2 = *(u64 *)(ctx + 32760): far past struct pt_regs. */
	p->insns[0].code = BPF_LDX | BPF_MEM | BPF_DW;
	p->insns[0].dst_reg = 2;
	p->insns[0].src_reg = 1;
	p->insns[0].off = 32760;
	p->insns[0].imm = 0;
	err = bpf_obj_load_prog(&obj, p, &o, &st, &eb);
	check_int("broken program refused with EACCES", err, -EACCES);
	check_str("rejection message names the program", eb.msg,
		  "the kernel's verifier rejected BPF program kprobe/open: Permission denied (verifier log follows)");
	CHECK(st.verifier_log &&
	      strstr(st.verifier_log, "invalid bpf_context access off=32760 size=8"),
	      "verifier log kept and names the bad context access");
	obj_load_state_free(&st);
	bpf_obj_free(&obj);
}

/* name's address as /proc/kallsyms prints it, 0 when absent. */
static uint64_t proc_kallsyms_addr(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
		    strcmp(sym, name) == 0)
			found = addr;
	fclose(f);
	return found;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void test_ksym_lookup(void)
{
	static const char *const two[] = { "vfs_read", "vfs_write" };
	static const char *const bad[] = { "vfs_read", "ext4dist_no_such_symbol" };
	static const char *const longname[] = {
		"a_name_of_sixty_four_bytes_which_is_one_more_than_fits_in_a_slot"
	};
	static const char *const scoped[] = { "ext4dist_no_such_module:vfs_read" };
	struct errbuf eb = { "" };
	uint64_t addrs[2] = { 0 };
	int err, fds, found[2] = { -1, -1 };

	fds = open_fds();
	err = ksym_bpf_lookup(two, 2, addrs, NULL, &eb);
	if (!check_int("ksym_lookup of vfs_read and vfs_write", err, 0))
		printf("  %s\n", eb.msg);
	check_int("vfs_read: the address /proc/kallsyms shows",
		  addrs[0] == proc_kallsyms_addr("vfs_read") && addrs[0], 1);
	check_int("vfs_write: the address /proc/kallsyms shows",
		  addrs[1] == proc_kallsyms_addr("vfs_write") && addrs[1], 1);
	check_int("no fd left open by the lookup", open_fds(), fds);
	err = ksym_bpf_lookup(bad, 2, addrs, NULL, &eb);
	check_int("unknown symbol: ENOENT", err, -ENOENT);
	check_str("unknown symbol: message names it", eb.msg,
		  "the kernel's kallsyms has no address for ext4dist_no_such_symbol: No such file or directory");
	/*
	 * With found[]: an unknown name is no error; "module:name" is looked
	 * for in that module alone, never in vmlinux.
	 */
	addrs[0] = addrs[1] = 0;
	err = ksym_bpf_lookup(bad, 2, addrs, found, &eb);
	check_int("found[]: unknown symbol no error", err, 0);
	check_int("found[]: vfs_read found, the other not",
		  found[0] * 10 + found[1], 10);
	check_int("found[]: vfs_read's address",
		  addrs[0] == proc_kallsyms_addr("vfs_read") && addrs[0], 1);
	err = ksym_bpf_lookup(scoped, 1, addrs, found, &eb);
	check_int("module:name of no loaded module: no error", err, 0);
	check_int("module:name of no loaded module: not found, not vmlinux's",
		  found[0], 0);
	err = ksym_bpf_lookup(longname, 1, addrs, NULL, &eb);
	check_int("64-byte name: ENAMETOOLONG", err, -ENAMETOOLONG);
	check_str("64-byte name: message", eb.msg,
		  "symbol lookup: name 'a_name_of_sixty_four_bytes_which_is_one_more_than_fits_in_a_slot' is empty or longer than 63 bytes");
	check_int("no fd left open after the failures", open_fds(), fds);
	/*
	 * A gate the kernel knows: the names looked up after it; one it
	 * does not: EOPNOTSUPP, and no name looked up.
	 */
	addrs[0] = addrs[1] = 0;
	found[0] = found[1] = -1;
	err = ksym_bpf_lookup_after("vfs_read", bad, 2, addrs, found, &eb);
	check_int("gate known: no error", err, 0);
	check_int("gate known: vfs_read found, the other not",
		  found[0] * 10 + found[1], 10);
	check_int("gate known: vfs_read's address",
		  addrs[0] == proc_kallsyms_addr("vfs_read") && addrs[0], 1);
	addrs[0] = addrs[1] = 0;
	found[0] = found[1] = -1;
	err = ksym_bpf_lookup_after("ext4dist_no_such_symbol", two, 2, addrs,
				    found, &eb);
	check_int("gate unknown: EOPNOTSUPP", err, -EOPNOTSUPP);
	check_str("gate unknown: message names it", eb.msg,
		  "the kernel has no ext4dist_no_such_symbol");
	check_int("gate unknown: no name looked up",
		  found[0] * 10 + found[1] == -11 && !addrs[0] && !addrs[1], 1);
	check_int("no fd left open after the gates", open_fds(), fds);
}

static void test_default(void)
{
	struct obj_load_opts o = { 0 };

	load_all("default", &o, BPF_MAP_TYPE_PERCPU_ARRAY, "hist");
}

static void test_no_percpu(void)
{
	struct obj_load_opts o = { .no_percpu = 1 };

	load_all("no per-CPU maps", &o, BPF_MAP_TYPE_ARRAY, "hist");
}

static void test_no_names(void)
{
	struct obj_load_opts o = { .no_names = 1 };

	load_all("no names", &o, BPF_MAP_TYPE_PERCPU_ARRAY, "");
}

static const struct test_case test_cases[] = {
	TEST_CASE(default),
	TEST_CASE(no_percpu),
	TEST_CASE(no_names),
	TEST_CASE(verifier_rejection),
	TEST_CASE(ksym_lookup),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
