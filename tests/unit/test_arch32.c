// SPDX-License-Identifier: GPL-2.0
/*
 * What a 32-bit ARM build and a 32-bit ARM kernel change, checked on any
 * host: the kernel's architecture from uname, the f_op discovery over
 * 4-byte kernel words (and over s390x's big-endian ones, low in memory),
 * the vDSO note of an ELF32 image, exact wide sums without unsigned
 * __int128, and BPF programs that 32-bit ARM's JIT compiles (no atomic
 * add, no 64-bit division, no bpf-to-bpf call).
 */
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/kernel/vdso_version.h"
#include "loader/loader.h"
#include "output/numfmt.h"
#include "tool/engine/bpf_blob.h"
#include "tool/discover/read_path.h"
#include "test.h"

static void expect_arch(const char *machine, int err, const char *bpf_arch,
			unsigned int word)
{
	struct karch k;
	char name[128];

	snprintf(name, sizeof(name), "uname -m %s", machine);
	if (!check_int(name, karch_from_machine(machine, &k), err) || err)
		return;
	snprintf(name, sizeof(name), "uname -m %s: programs for %s", machine,
		 bpf_arch);
	check_str(name, k.bpf_arch, bpf_arch);
	snprintf(name, sizeof(name), "uname -m %s: %u-byte pointers", machine,
		 word);
	check_int(name, k.word, word);
}

/* A 64-bit ARM kernel says aarch64 to 32-bit programs, armv8l under linux32. */
static void test_kernel_arch(void)
{
	struct karch k;

	expect_arch("x86_64", 0, "x86", 8);
	expect_arch("aarch64", 0, "arm64", 8);
	expect_arch("armv8l", 0, "arm64", 8);
	expect_arch("armv7l", 0, "arm", 4);
	expect_arch("armv6l", 0, "arm", 4);
	expect_arch("mips", 0, "mips", 4);
	expect_arch("s390x", 0, "s390", 8);
	expect_arch("riscv64", 0, "riscv", 8);
	/* A 64-bit MIPS kernel's pt_regs has no argument save space. */
	expect_arch("mips64", -ENOENT, NULL, 0);
	expect_arch("ppc64le", -ENOENT, NULL, 0);
	check_int("this kernel's architecture is known", karch_running(&k), 0);
	check_int("karch_word() is its word", karch_word(), k.word);
}

/* Word i of a little-endian kernel's memory, on either kind of machine. */
static void put_word(unsigned long long *mem, unsigned int word,
		     unsigned int i, unsigned long long v)
{
	unsigned char *p = (unsigned char *)mem + (size_t)i * word;
	unsigned int b;

	for (b = 0; b < word; b++)
		p[b] = (unsigned char)(v >> (8 * b));
}

/* A little-endian kernel of 4-byte (32-bit ARM) or 8-byte words (arm64). */
static struct karch kernel_of(unsigned int word)
{
	struct karch k;

	karch_from_machine(word == 4 ? "armv7l" : "aarch64", &k);
	k.big_endian = 0;
	return k;
}

/*
 * struct file on Debian's armmp 6.1: f_op at byte 16 (f_u 8, f_path 8),
 * 4-byte words; inode->i_fop somewhere in the inode.  Other words of the
 * file point into it, into the inode, or are small numbers.
 */
static void arm32_scan(struct open_scan *s, unsigned long long fop)
{
	memset(s, 0, sizeof(*s));
	s->file_ptr = 0xc3a1e000ULL;
	s->inode_ptr = 0xc2f04a08ULL;
	put_word(s->file, 4, 0, s->file_ptr);		/* list head */
	put_word(s->file, 4, 1, s->file_ptr);
	put_word(s->file, 4, 2, 0xc2b5c010ULL);		/* f_path.mnt */
	put_word(s->file, 4, 3, 0xc2d1e6c0ULL);		/* f_path.dentry */
	put_word(s->file, 4, 4, fop);			/* f_op */
	put_word(s->file, 4, 5, s->inode_ptr);		/* f_inode */
	put_word(s->file, 4, 6, 0x8000);		/* f_mode */
	put_word(s->file, 4, 7, s->inode_ptr + 0x90);	/* f_mapping */
	put_word(s->inode, 4, 0, 0x41ed);		/* i_mode */
	put_word(s->inode, 4, 40, fop);			/* i_fop */
}

static void test_fop_offset_32(void)
{
	unsigned long long fop = 0, want = 0xbf05c1a8ULL;	/* module .rodata */
	const struct karch k32 = kernel_of(4), k64 = kernel_of(8);
	struct karch k2 = k32;
	struct errbuf why = { "" };
	struct open_scan s;
	int off;

	arm32_scan(&s, want);
	off = read_path_find_fop_offset(&s, &k32, &fop, &why);
	check_int("4-byte words: f_op at byte 16", off, 16);
	check_int("4-byte words: the module address found", (long long)fop,
		  (long long)want);
	/* Read as 8-byte words, the same bytes show no 4-byte pointer. */
	check_int("the same scan read as 8-byte words finds nothing",
		  read_path_find_fop_offset(&s, &k64, &fop, NULL), -ENOENT);
	/* A kernel image address (below the modules, 2G/2G split) too. */
	arm32_scan(&s, 0x80d1c3a0ULL);
	check_int("4-byte words: a 2G/2G kernel address",
		  read_path_find_fop_offset(&s, &k32, &fop, NULL), 16);
	k2.word = 2;
	check_int("word 2 refused", read_path_find_fop_offset(&s, &k2, &fop, NULL),
		  -EINVAL);
}

/*
 * armmp 6.1 as seen in the VM: besides f_op, a heap pointer at byte 212
 * of the file that the inode holds too.  Both are candidates, in order;
 * the single-answer form says there are several.
 */
static void test_fop_candidates_32(void)
{
	const struct karch k32 = kernel_of(4);
	struct fop_candidates c;
	struct errbuf why = { "" };
	unsigned long long fop = 0;
	struct open_scan s;

	arm32_scan(&s, 0xbf0be158ULL);
	put_word(s.file, 4, 53, 0xc1c5f400ULL);
	put_word(s.inode, 4, 60, 0xc1c5f400ULL);
	check_int("two candidates", read_path_fop_candidates(&s, &k32, &c), 2);
	check_int("first: f_op's offset", c.off[0], 16);
	check_int("first: f_op", (long long)c.val[0], 0xbf0be158LL);
	check_int("second: the heap pointer's offset", c.off[1], 212);
	check_int("one answer asked: several", read_path_find_fop_offset(&s, &k32,
		  &fop, &why), -EEXIST);
	check_str("several, listed", why.msg,
		  "16: 0xbf0be158, 212: 0xc1c5f400");
}

/*
 * armmp 6.1 in CI: the copy of 256 bytes runs past the 4-byte-word struct
 * file into the next one in the slab, another directory of the same f_op:
 * the value again at 212 is that file's, one candidate, at its first
 * offset.
 */
static void test_fop_neighbour_32(void)
{
	const struct karch k32 = kernel_of(4);
	struct fop_candidates c;
	unsigned long long fop = 0;
	struct open_scan s;

	arm32_scan(&s, 0xc0e183c0ULL);
	put_word(s.file, 4, 53, 0xc0e183c0ULL);
	check_int("the neighbour's f_op: one candidate",
		  read_path_fop_candidates(&s, &k32, &c), 1);
	check_int("the neighbour's f_op: the first offset", c.off[0], 16);
	check_int("the neighbour's f_op: one answer",
		  read_path_find_fop_offset(&s, &k32, &fop, NULL), 16);
	check_int("the neighbour's f_op: its value", (long long)fop,
		  0xc0e183c0LL);
	/* Another value there is still a second candidate (above). */
	put_word(s.file, 4, 53, 0xc1c5f400ULL);
	put_word(s.inode, 4, 60, 0xc1c5f400ULL);
	check_int("a different value: two", read_path_fop_candidates(&s, &k32, &c),
		  2);
}

/*
 * s390x 6.1: f_op at 40 as on x86_64, in big-endian words, and every
 * address low (its own address space): the module's f_op at 0x3ff...,
 * the file and inode in the identity map.
 */
static void put_be64(unsigned long long *slot, uint64_t v)
{
	unsigned char *p = (unsigned char *)slot;
	unsigned int b;

	for (b = 0; b < 8; b++)
		p[b] = (unsigned char)(v >> (56 - 8 * b));
}

static void test_fop_offset_s390x(void)
{
	unsigned long long fop = 0, want = 0x000003ff80234560ULL;
	struct karch ks, kx = kernel_of(8);
	struct open_scan s;

	karch_from_machine("s390x", &ks);
	memset(&s, 0, sizeof(s));
	s.file_ptr = 0x0000000003a1e000ULL;
	s.inode_ptr = 0x0000000002f04a08ULL;
	put_be64(&s.file[0], s.file_ptr);		/* list head */
	put_be64(&s.file[2], 0x0000000002b5c010ULL);	/* f_path.mnt */
	put_be64(&s.file[4], s.inode_ptr);		/* f_inode */
	put_be64(&s.file[5], want);			/* f_op */
	put_be64(&s.inode[40], want);			/* i_fop */
	check_int("s390x: f_op at byte 40",
		  read_path_find_fop_offset(&s, &ks, &fop, NULL), 40);
	check_int("s390x: the module address found", (long long)fop,
		  (long long)want);
	check_int("s390x's scan read as a little-endian upper-half kernel's: nothing",
		  read_path_find_fop_offset(&s, &kx, &fop, NULL), -ENOENT);
}

/* The vDSO of a 32-bit program is ELF32 (on a 64-bit kernel too). */
static void test_vdso_elf32(void)
{
	struct {
		Elf32_Ehdr eh;
		Elf32_Phdr ph;
		Elf32_Nhdr nh;
		char name[8];
		unsigned int desc;
	} im;
	unsigned int code = 0;

	memset(&im, 0, sizeof(im));
	memcpy(im.eh.e_ident, ELFMAG, SELFMAG);
	im.eh.e_ident[EI_CLASS] = ELFCLASS32;
	im.eh.e_phoff = offsetof(__typeof__(im), ph);
	im.eh.e_phentsize = sizeof(Elf32_Phdr);
	im.eh.e_phnum = 1;
	im.ph.p_type = PT_NOTE;
	im.ph.p_offset = offsetof(__typeof__(im), nh);
	im.ph.p_filesz = sizeof(im) - offsetof(__typeof__(im), nh);
	im.nh.n_namesz = 6;
	im.nh.n_descsz = 4;
	memcpy(im.name, "Linux", 6);
	im.desc = 0x050adf;	/* 5.10.223 */
	check_int("ELF32 image: note found",
		  elf_image_linux_note(&im, sizeof(im), &code), 0);
	check_int("ELF32 image: 5.10.223", code, 0x050adf);
	im.eh.e_phentsize = sizeof(Elf64_Phdr);
	check_int("ELF32 image with ELF64 program headers refused",
		  elf_image_linux_note(&im, sizeof(im), &code), -EINVAL);
}

static void expect_dec(const char *name, u128 v, const char *want)
{
	char buf[NUMFMT_LEN];

	if (check_int(name, numfmt_u128(buf, sizeof(buf), v) > 0, 1))
		check_str(name, buf, want);
}

/* Exact without a 128-bit type: the values python prints for these. */
static void test_wide_sums(void)
{
	unsigned long long slots[NR_SLOTS];
	u128 max = { ~0ULL, ~0ULL }, q, r;
	char buf[NUMFMT_LEN];
	unsigned int i;

	for (i = 0; i < NR_SLOTS; i++)
		slots[i] = ~0ULL;
	expect_dec("64 slots of 2^64-1", numfmt_total(slots, NR_SLOTS),
		   "1180591620717411303360");
	expect_dec("2^128-1", max, "340282366920938463463374607431768211455");
	expect_dec("0", u128_of(0), "0");
	expect_dec("(2^64-1)^2", u128_mul64(u128_of(~0ULL), ~0ULL),
		   "340282366920938463426481119284349108225");
	q = u128_divmod(u128_mul64(u128_of(~0ULL), ~0ULL), u128_of(~0ULL), &r);
	check_int("(2^64-1)^2 / (2^64-1): no high bits", (long long)q.hi, 0);
	check_int("(2^64-1)^2 / (2^64-1) = 2^64-1", q.lo == ~0ULL, 1);
	check_int("remainder 0", u128_is_zero(r), 1);
	q = u128_divmod(max, u128_shl(u128_of(1000000007ULL), 40), &r);
	expect_dec("(2^128-1) / (1000000007 << 40)", q, "309485007654950015");
	expect_dec("(2^128-1) % (1000000007 << 40)", r,
		   "154075610035808894975");
	check_int("decimal with 9 places", numfmt_decimal(buf, sizeof(buf),
		  u128_add64(u128_mul64(u128_of(~0ULL), 1000), 7), 9, 1), 24);
	check_str("decimal with 9 places", buf, "18446744073709.551615007");
	check_int("compare", u128_cmp(u128_shl(u128_of(1), 64), u128_of(~0ULL)),
		  1);
}

/*
 * 32-bit ARM's JIT (arch/arm/net/bpf_jit_32.c, 5.10 and 6.1) has no
 * BPF_STX|BPF_ATOMIC, no 64-bit BPF_DIV or BPF_MOD, and no bpf-to-bpf
 * call: a program of the plain-add set must have none of them, and each
 * one must have its atomic twin for the plain-array fallback.
 */
static int jit32_ok(const struct obj_prog *p, char *why, size_t len)
{
	size_t i;

	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		unsigned int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

		if (cls == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC) {
			snprintf(why, len, "atomic at %zu", i);
			return 0;
		}
		if (cls == BPF_ALU64 && (op == BPF_DIV || op == BPF_MOD)) {
			snprintf(why, len, "64-bit division at %zu", i);
			return 0;
		}
		if (in->code == (BPF_JMP | BPF_CALL) &&
		    in->src_reg == BPF_PSEUDO_CALL) {
			snprintf(why, len, "bpf-to-bpf call at %zu", i);
			return 0;
		}
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW))
			i++;
	}
	return 1;
}

static int is_atomic_twin(const struct obj_prog *p)
{
	size_t n = strlen(p->variant), a = strlen(PROG_ATOMIC);

	return n >= a && strcmp(p->variant + n - a, PROG_ATOMIC) == 0;
}

static void check_object(const char *arch)
{
	struct errbuf eb = { "" };
	struct bpf_blob blob;
	struct bpf_obj obj;
	unsigned int plain = 0, twins = 0, lessons = 0;
	char name[256], why[64];
	size_t i;

	if (bpf_blob_for(arch, &blob))
		return;
	snprintf(name, sizeof(name), "the %s object parses", arch);
	if (!check_int(name, bpf_obj_parse(blob.data, blob.size, &obj, &eb), 0))
		return;
	for (i = 0; i < obj.nr_progs; i++) {
		struct obj_prog *p = &obj.progs[i];
		char twin[64];

		/*
		 * fentry/fexit and tracepoint programs: per-CPU maps always
		 * (5.5+, 4.7+), no twins.
		 */
		if (p->tracing || p->tracepoint)
			continue;
		if (is_atomic_twin(p)) {
			twins++;
			continue;
		}
		plain++;
		why[0] = '\0';
		snprintf(name, sizeof(name), "%s: %s is for 32-bit ARM's JIT",
			 arch, p->section);
		if (!CHECK(jit32_ok(p, why, sizeof(why)), name))
			printf("  %s\n", why);
		if (strcmp(p->variant, "scan_release") == 0 ||
		    strcmp(p->variant, "peek") == 0)
			continue;
		if (strcmp(p->target, "lesson") == 0) {
			lessons++;
			continue;
		}
		snprintf(twin, sizeof(twin), "%s%s%s", p->variant,
			 p->variant[0] ? "." : "", PROG_ATOMIC);
		snprintf(name, sizeof(name), "%s: %s has its atomic twin", arch,
			 p->section);
		CHECK(p->multi ? bpf_obj_find_multi(&obj, p->kind, p->target,
						    twin) :
		      bpf_obj_find_prog(&obj, p->kind, p->target,
					p->variant[0] ? twin : PROG_ATOMIC),
		      name);
	}
	snprintf(name, sizeof(name), "%s: one atomic twin per counting program",
		 arch);
	/* Not the f_op scan, the name peek, the programs broken on purpose. */
	check_int(name, twins, plain - 2 - lessons);
	snprintf(name, sizeof(name), "%s: the 9 lessons", arch);
	check_int(name, lessons, 9);
	bpf_obj_free(&obj);
}

static void test_jit32_programs(void)
{
	struct bpf_blob blob;

	check_int("the own object is embedded",
		  bpf_blob_for(bpf_blob_own_arch(), &blob), 0);
	check_object(bpf_blob_own_arch());
	/* A 32-bit ARM build carries arm64's too. */
	if (strcmp(bpf_blob_own_arch(), "arm") == 0)
		check_object("arm64");
	else
		check_int("no second object in a 64-bit build",
			  bpf_blob_for("arm64", &blob) == 0 &&
			  strcmp(bpf_blob_own_arch(), "arm64") != 0, 0);
}

static const struct test_case test_cases[] = {
	TEST_CASE(kernel_arch),
	TEST_CASE(fop_offset_32),
	TEST_CASE(fop_candidates_32),
	TEST_CASE(fop_neighbour_32),
	TEST_CASE(fop_offset_s390x),
	TEST_CASE(vdso_elf32),
	TEST_CASE(wide_sums),
	TEST_CASE(jit32_programs),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
