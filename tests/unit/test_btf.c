// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF reader against real blobs: Debian 6.1's vmlinux and ext4 BTF
 * (the .BTF sections of its vmlinuz and ext4.ko, which the VM scenario
 * fentry checks are /sys/kernel/btf/{vmlinux,ext4} byte for byte), a
 * small clang-made BTF of the common kinds, and corrupted copies, each
 * refused with its reason.  The expected ids and counts come from an
 * independent reader (a few lines of Python over the same files).
 * fentry_resolve() over the same blobs laid out as /sys/kernel/btf.
 */
#include "loader/btf/btf.h"
#include "tool/fentry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include <linux/btf.h>

#include "test.h"

#define VMLINUX_GZ TEST_FIXTURES "btf/vmlinux-6.1.btf.gz"
#define EXT4_GZ TEST_FIXTURES "btf/ext4-6.1.btf.gz"
#define TINY TEST_FIXTURES "btf/tiny.btf"

/* A gzip fixture, whole; NULL on failure. */
static unsigned char *gunzip(const char *path, size_t *len)
{
	gzFile f = gzopen(path, "rb");
	unsigned char *buf = NULL, *grown;
	size_t cap = 0;
	int n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1u << 20;
			grown = realloc(buf, cap);
			if (!grown)
				break;
			buf = grown;
		}
		n = gzread(f, buf + *len, (unsigned int)(cap - *len));
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	gzclose(f);
	return buf;
}

static void expect_func(const struct btf *b, const char *name, uint32_t id,
			unsigned int nargs)
{
	struct btf_func f = { 0, 0, 0 };
	char label[160];

	snprintf(label, sizeof(label), "%s found", name);
	if (!check_int(label, btf_find_func(b, name, &f), 0))
		return;
	snprintf(label, sizeof(label), "%s: id", name);
	check_int(label, f.id, id);
	snprintf(label, sizeof(label), "%s: arguments", name);
	check_int(label, f.nr_args, nargs);
	snprintf(label, sizeof(label), "%s: prototype's kind", name);
	check_int(label, btf_kind(b, f.proto_id), BTF_KIND_FUNC_PROTO);
}

static void test_real_vmlinux_and_ext4(void)
{
	struct errbuf eb = { "" };
	struct btf v, e;
	unsigned char *vd, *ed;
	size_t vlen, elen;
	struct btf_func f;

	vd = gunzip(VMLINUX_GZ, &vlen);
	ed = gunzip(EXT4_GZ, &elen);
	if (!CHECK(vd && ed, "fixtures readable")) {
		free(vd);
		free(ed);
		return;
	}
	check_int("vmlinux: size", (long long)vlen, 4360537);
	check_int("ext4: size", (long long)elen, 142155);
	if (!check_int("vmlinux parses", btf_parse(&v, vd, vlen, NULL, &eb), 0)) {
		printf("  %s\n", eb.msg);
		goto out;
	}
	check_int("vmlinux: types", v.nr_types, 100810);
	check_int("vmlinux: first id", v.start_id, 1);
	check_int("vmlinux: string bytes", v.strs_len, 1794321);
	check_str("vmlinux: id 0's name is empty", btf_str(&v, 0), "");
	check_int("vmlinux: id 0 (void) is no type here", btf_kind(&v, 0), -ENOENT);
	check_int("vmlinux: past the last id", btf_kind(&v, 100811), -ENOENT);
	expect_func(&v, "generic_file_read_iter", 67560, 2);
	expect_func(&v, "noop_fsync", 17551, 4);
	check_int("vmlinux: ext4's functions are the module's",
		  btf_find_func(&v, "ext4_file_read_iter", &f), -ENOENT);

	if (!check_int("ext4 parses over vmlinux",
		       btf_parse(&e, ed, elen, &v, &eb), 0)) {
		printf("  %s\n", eb.msg);
		btf_free(&v);
		goto out;
	}
	check_int("ext4: types", e.nr_types, 2928);
	check_int("ext4: first id continues vmlinux's", e.start_id, 100811);
	check_int("ext4: strings continue vmlinux's", e.start_str, 1794321);
	check_int("ext4: string bytes", e.strs_len, 61883);
	expect_func(&e, "ext4_file_read_iter", 103562, 2);
	expect_func(&e, "ext4_file_write_iter", 103552, 2);
	expect_func(&e, "ext4_file_open", 103547, 2);
	expect_func(&e, "ext4_sync_file", 101009, 4);
	/* 5.12+ added the idmap argument in front. */
	expect_func(&e, "ext4_file_getattr", 101466, 5);
	check_int("ext4: the base's functions are not its own",
		  btf_find_func(&e, "generic_file_read_iter", &f), -ENOENT);
	check_int("ext4: a base type by id", btf_kind(&e, 67560), BTF_KIND_FUNC);
	btf_free(&e);

	/* Without its base, its names point past its own strings. */
	check_int("ext4 alone refused", btf_parse(&e, ed, elen, NULL, &eb),
		  -EINVAL);
	CHECK(strstr(eb.msg, "outside the strings") ||
	      strstr(eb.msg, "start with the empty name"),
	      "ext4 alone: its strings do not hold");
	btf_free(&v);
out:
	free(vd);
	free(ed);
}

static void test_tiny_kinds(void)
{
	struct errbuf eb = { "" };
	size_t len = 0;
	char *d = test_read_file(TINY, &len);
	struct btf b;
	uint32_t id;
	int kinds = 0;

	if (!CHECK(d, "tiny fixture readable"))
		return;
	if (check_int("tiny parses", btf_parse(&b, d, len, NULL, &eb), 0)) {
		check_int("tiny: types", b.nr_types, 19);
		for (id = 1; id <= b.nr_types; id++)
			kinds |= 1 << btf_kind(&b, id);
		/* What clang kept of tiny.c; vmlinux has every kind. */
		check_int("tiny: int, ptr, struct, fwd, typedef, volatile, const, func, func_proto, var, datasec",
			  kinds, 1 << BTF_KIND_INT | 1 << BTF_KIND_PTR |
			  1 << BTF_KIND_STRUCT | 1 << BTF_KIND_FWD |
			  1 << BTF_KIND_TYPEDEF | 1 << BTF_KIND_VOLATILE |
			  1 << BTF_KIND_CONST | 1 << BTF_KIND_FUNC |
			  1 << BTF_KIND_FUNC_PROTO | 1 << BTF_KIND_VAR |
			  1 << BTF_KIND_DATASEC);
		expect_func(&b, "ext4_file_read_iter", 9, 2);
		expect_func(&b, "ext4_sync_file", 12, 4);
		btf_free(&b);
	} else {
		printf("  %s\n", eb.msg);
	}
	free(d);
}

/* A copy of tiny with change() applied must be refused with want. */
static void refused(const char *name, void (*change)(unsigned char *d,
						    size_t *len),
		    const char *want)
{
	struct errbuf eb = { "" };
	size_t len = 0;
	unsigned char *d = (unsigned char *)test_read_file(TINY, &len);
	struct btf b;
	char label[160];

	if (!d)
		return;
	change(d, &len);
	snprintf(label, sizeof(label), "%s: refused", name);
	check_int(label, btf_parse(&b, d, len, NULL, &eb), -EINVAL);
	snprintf(label, sizeof(label), "%s: why", name);
	check_str(label, eb.msg, want);
	free(d);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* tiny.btf: 743 bytes, a 24-byte header, types 0+344, strings 344+375. */
static void cut_header(unsigned char *d, size_t *len) { (void)d; *len = 20; }
static void bad_magic(unsigned char *d, size_t *len) { (void)len; d[0] = 0; }
static void swapped(unsigned char *d, size_t *len) { (void)len; d[0] = 0xeb; d[1] = 0x9f; }
static void version2(unsigned char *d, size_t *len) { (void)len; d[2] = 2; }
static void long_header(unsigned char *d, size_t *len) { put32(d + 4, (uint32_t)*len + 1); }
static void types_past(unsigned char *d, size_t *len) { (void)len; put32(d + 12, 0x7fffffff); }
static void misaligned(unsigned char *d, size_t *len) { (void)len; put32(d + 8, 2); }
static void overlap(unsigned char *d, size_t *len) { (void)len; put32(d + 16, 4); }
static void no_nul(unsigned char *d, size_t *len)
{
	d[24 + get32(d + 16) + get32(d + 20) - 1] = 'x';
	(void)len;
}
static void first_not_empty(unsigned char *d, size_t *len)
{
	(void)len;
	d[24 + get32(d + 16)] = 'x';
}
/* The first type's info word: kind 31. */
static void unknown_kind(unsigned char *d, size_t *len)
{
	(void)len;
	put32(d + 24 + 4, 31u << 24);
}
static void name_outside(unsigned char *d, size_t *len)
{
	(void)len;
	put32(d + 24, 0x7ffffff0);
}
/* The first type a struct of 60000 members: past the section. */
static void huge_vlen(unsigned char *d, size_t *len)
{
	(void)len;
	put32(d + 24 + 4, (uint32_t)BTF_KIND_STRUCT << 24 | 60000);
}
/* The type section ends 4 bytes into the last type (a fwd, 12 bytes). */
static void cut_type(unsigned char *d, size_t *len)
{
	(void)len;
	put32(d + 12, get32(d + 12) - 4);
}

static void test_corrupted(void)
{
	refused("shorter than the header", cut_header,
		"BTF: 20 bytes, shorter than its 24-byte header");
	refused("bad magic", bad_magic, "BTF: magic 0xeb00, not 0xeb9f");
	refused("other byte order", swapped,
		"BTF: magic 0x9feb: the other byte order's BTF, not this machine's");
	refused("version 2", version2, "BTF: version 2, not 1");
	refused("header past the end", long_header,
		"BTF: header length 744 outside 24..743");
	refused("types past the end", types_past,
		"BTF: types (0+2147483647) or strings (344+375) past the 719 bytes after the header");
	refused("misaligned types", misaligned,
		"BTF: type section at 2, not 4-byte aligned");
	refused("overlapping sections", overlap,
		"BTF: type and string sections overlap");
	refused("strings without their NUL", no_nul,
		"BTF: string section does not end with a NUL");
	refused("strings not starting empty", first_not_empty,
		"BTF: string section does not start with the empty name");
	refused("unknown kind", unknown_kind,
		"BTF: type 1 has kind 31, which this reader does not know (a kernel newer than 6.12?)");
	refused("name outside the strings", name_outside,
		"BTF: type 1 names string offset 2147483632, outside the strings");
	refused("members past the section", huge_vlen,
		"BTF: type 1 (kind 4, vlen 60000) runs past the type section");
	refused("last type cut short", cut_type,
		"BTF: type 19 cut short at byte 332 of the type section");
}

/* A function whose type is no prototype: found, but -EINVAL. */
static void test_func_without_proto(void)
{
	struct errbuf eb = { "" };
	size_t len = 0;
	unsigned char *d = (unsigned char *)test_read_file(TINY, &len);
	struct btf_func f;
	struct btf b;
	uint32_t off = 0, i;

	if (!d)
		return;
	/* Point every FUNC at type 1 (an int), walking tiny's types. */
	if (check_int("tiny parses", btf_parse(&b, d, len, NULL, &eb), 0)) {
		for (i = 0; i < b.nr_types; i++) {
			off = b.offs[i];
			if (btf_kind(&b, b.start_id + i) == BTF_KIND_FUNC)
				put32(d + 24 + off + 8, 1);
		}
		btf_free(&b);
	}
	if (check_int("tiny, functions retyped, parses",
		      btf_parse(&b, d, len, NULL, &eb), 0)) {
		check_int("a function without its prototype",
			  btf_find_func(&b, "ext4_sync_file", &f), -EINVAL);
		btf_free(&b);
	}
	free(d);
}

static void test_load_missing(void)
{
	struct errbuf eb = { "" };
	struct btf b;

	check_int("btf_load of a missing file",
		  btf_load(&b, "/nonexistent/vmlinux", NULL, &eb), -ENOENT);
	check_str("btf_load of a missing file: why", eb.msg,
		  "/nonexistent/vmlinux: No such file or directory");
}

/* The fixtures laid out as /sys/kernel/btf and /sys/module. */
static const char *sys_tree(int ext4_btf, int ext4_module)
{
	const char *dir = test_tmpdir("btf");
	unsigned char *d;
	size_t len;
	char path[512];

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/btf", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module", dir);
	mkdir(path, 0755);
	d = gunzip(VMLINUX_GZ, &len);
	snprintf(path, sizeof(path), "%s/btf/vmlinux", dir);
	if (!d || test_write_file(path, d, len))
		dir = NULL;
	free(d);
	if (dir && ext4_btf) {
		d = gunzip(EXT4_GZ, &len);
		snprintf(path, sizeof(path), "%s/btf/ext4", dir);
		if (!d || test_write_file(path, d, len))
			dir = NULL;
		free(d);
	}
	if (dir && ext4_module) {
		snprintf(path, sizeof(path), "%s/module/ext4", dir);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/module/ext4/initstate", dir);
		if (test_write_file(path, "live\n", 5))
			dir = NULL;
	}
	return dir;
}

static void test_fentry_resolve(void)
{
	const unsigned int four = 1u << OP_READ | 1u << OP_WRITE |
				  1u << OP_OPEN | 1u << OP_FSYNC;
	struct errbuf why = { "" };
	struct fentry_ids ids;
	char btf[512], mod[512], want[1200];
	const char *dir = sys_tree(1, 1);

	if (!CHECK(dir, "a /sys tree of the fixtures"))
		return;
	snprintf(btf, sizeof(btf), "%s/btf", dir);
	snprintf(mod, sizeof(mod), "%s/module", dir);
	if (check_int("ext4 a module with its BTF",
		      fentry_resolve(&fs_ext4, four | 1u << OP_GETATTR, 0, btf,
				     mod, &ids, &why), 0)) {
		check_int("in the module's BTF", ids.in_module, 1);
		check_int("read's id", ids.id[OP_READ], 103562);
		check_int("fsync's id", ids.id[OP_FSYNC], 101009);
		check_int("fsync's arguments", ids.nargs[OP_FSYNC], 4);
		check_int("getattr's arguments", ids.nargs[OP_GETATTR], 5);
		check_int("no generic read asked", ids.generic_id, 0);
	} else {
		printf("  %s\n", why.msg);
	}
	if (check_int("generic read path",
		      fentry_resolve(&fs_ext4, four, 1, btf, mod, &ids, &why), 0)) {
		check_int("generic: read's id from vmlinux", ids.generic_id, 67560);
		check_int("generic: no ext4 read id", ids.id[OP_READ], 0);
		check_int("generic: write's from ext4", ids.id[OP_WRITE], 103552);
	}

	dir = sys_tree(0, 1);
	if (!CHECK(dir, "a /sys tree without ext4's BTF"))
		return;
	snprintf(btf, sizeof(btf), "%s/btf", dir);
	snprintf(mod, sizeof(mod), "%s/module", dir);
	check_int("a module without BTF",
		  fentry_resolve(&fs_ext4, four, 0, btf, mod, &ids, &why),
		  -ENOENT);
	snprintf(want, sizeof(want),
		 "ext4 is a module and the kernel has no BTF for modules (no %s/ext4: CONFIG_DEBUG_INFO_BTF_MODULES, 5.11+)",
		 btf);
	check_str("a module without BTF: why", why.msg, want);
	snprintf(mod, sizeof(mod), "%s/module", dir);
	check_int("the shared read function alone: vmlinux's",
		  fentry_resolve(&fs_ext4, 1u << OP_READ, 1, btf, mod, &ids,
				 &why), 0);
	check_int("the shared read function alone: its id", ids.generic_id,
		  67560);

	dir = sys_tree(0, 0);
	if (!CHECK(dir, "a /sys tree without ext4"))
		return;
	snprintf(btf, sizeof(btf), "%s/btf", dir);
	snprintf(mod, sizeof(mod), "%s/module", dir);
	check_int("ext4 not loaded",
		  fentry_resolve(&fs_ext4, four, 0, btf, mod, &ids, &why),
		  -ENOENT);
	snprintf(want, sizeof(want), "no function ext4_file_read_iter in %s/vmlinux", btf);
	check_str("ext4 not loaded: why", why.msg, want);
	check_int("no BTF at all",
		  fentry_resolve(&fs_ext4, four, 0, "/nonexistent", mod, &ids,
				 &why), -ENOENT);
	check_str("no BTF at all: why", why.msg,
		  "no /nonexistent/vmlinux: the kernel carries no BTF (CONFIG_DEBUG_INFO_BTF, 5.5+)");
}

static const struct test_case test_cases[] = {
	TEST_CASE(real_vmlinux_and_ext4),
	TEST_CASE(tiny_kinds),
	TEST_CASE(corrupted),
	TEST_CASE(func_without_proto),
	TEST_CASE(load_missing),
	TEST_CASE(fentry_resolve),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
