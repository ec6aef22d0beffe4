// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF reader against real blobs: Debian 6.1's and 6.12's vmlinux and
 * ext4 BTF (the .BTF sections of their vmlinuz and ext4.ko, which the VM
 * scenario fentry checks are /sys/kernel/btf/{vmlinux,ext4} byte for
 * byte), a small clang-made BTF of the common kinds, blobs made here
 * (prototypes before and after their functions, far from a checkpoint, in
 * the base), and corrupted copies, each refused with its reason.  Every result
 * again through windows of 13, 64 and 4096 bytes, so names and types
 * straddle the window's edge.  The expected ids and counts come from an
 * independent reader (a few lines of Python over the same files).
 * fentry_resolve() over the same blobs laid out as /sys/kernel/btf.
 * Every blob again in the other byte order (each 32-bit word swapped:
 * what a big-endian kernel writes), and clang's BTF of the big-endian
 * s390 object against its little-endian riscv twin's.
 */
#include "loader/btf/btf.h"
#include "loader/util/byteorder.h"
#include "tool/engine/fentry.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btf.h>

#include "test.h"

#define VMLINUX_GZ TEST_FIXTURES "btf/vmlinux-6.1.btf.gz"
#define EXT4_GZ TEST_FIXTURES "btf/ext4-6.1.btf.gz"
#define VMLINUX_612_GZ TEST_FIXTURES "btf/vmlinux-6.12.btf.gz"
#define EXT4_612_GZ TEST_FIXTURES "btf/ext4-6.12.btf.gz"
#define TINY TEST_FIXTURES "btf/tiny.btf"

/* The 6.1 fixtures' sections (from their headers: hdr_len 24, types first). */
#define V_TYPES 2566192u
#define V_STRS 1794321u
#define E_TYPES 80248u
#define E_STRS 61883u

/* Windows every result is read through again; 0 is BTF_WINDOW. */
static const size_t windows[] = { 13, 64, 4096, 0 };
#define NR_WINDOWS (sizeof(windows) / sizeof(windows[0]))

/* The functions called names[0..nr), to ask btf_read() for. */
static unsigned int asking(struct btf_func *f, const char *const *names)
{
	unsigned int n;

	for (n = 0; names[n]; n++) {
		memset(&f[n], 0, sizeof(f[n]));
		f[n].name = names[n];
	}
	return n;
}

static void expect_func(const char *what, const struct btf_func *f,
			uint32_t id, uint32_t proto_id, unsigned int nargs)
{
	char label[200];

	snprintf(label, sizeof(label), "%s: %s found", what, f->name);
	if (!check_int(label, f->err, 0))
		return;
	snprintf(label, sizeof(label), "%s: %s: id", what, f->name);
	check_int(label, f->id, id);
	snprintf(label, sizeof(label), "%s: %s: its prototype", what, f->name);
	check_int(label, f->proto_id, proto_id);
	snprintf(label, sizeof(label), "%s: %s: arguments", what, f->name);
	check_int(label, f->nr_args, nargs);
}

static void expect_err(const char *what, const struct btf_func *f, int err)
{
	char label[200];

	snprintf(label, sizeof(label), "%s: %s", what, f->name);
	check_int(label, f->err, err);
}

/* Reads size bytes at d through window over base; 0 or btf_read()'s. */
static int read_mem(struct btf *b, struct btf_src *s, const void *d,
		    size_t size, size_t window, const struct btf *base,
		    struct btf_func *f, unsigned int nr, struct errbuf *eb)
{
	btf_src_mem(s, d, size, "blob");
	if (window)
		s->window = window;
	return btf_read(b, s, base, f, nr, eb);
}

/* A kernel's fixtures (6.1's unless said), decompressed. */
struct fixtures {
	unsigned char *v, *e;
	size_t vlen, elen;
	const char *order;	/* "" or ", other byte order" */
};

static int fixtures_load_from(struct fixtures *fx, const char *v_gz,
			      const char *e_gz)
{
	fx->order = "";
	fx->v = test_read_gz(v_gz, &fx->vlen);
	fx->e = test_read_gz(e_gz, &fx->elen);
	if (CHECK(fx->v && fx->e, "fixtures readable"))
		return 0;
	free(fx->v);
	free(fx->e);
	return -1;
}

static int fixtures_load(struct fixtures *fx)
{
	return fixtures_load_from(fx, VMLINUX_GZ, EXT4_GZ);
}

static void fixtures_free(struct fixtures *fx)
{
	free(fx->v);
	free(fx->e);
}

/*
 * d, a blob of len bytes, rewritten in the other byte order: the header's
 * fields and every 32-bit word of the type section (the only fields of
 * BTF wider than a byte).  0, or -1 when its header does not hold.
 */
static int swap_blob(unsigned char *d, size_t len)
{
	struct btf_header h;
	int swapped;
	uint32_t i, *w;

	if (len < sizeof(h))
		return -1;
	memcpy(&h, d, sizeof(h));
	swapped = h.magic != BTF_MAGIC;
	h.hdr_len = bo32(h.hdr_len, swapped);
	h.type_off = bo32(h.type_off, swapped);
	h.type_len = bo32(h.type_len, swapped);
	if (h.hdr_len > len || (uint64_t)h.type_off + h.type_len > len - h.hdr_len ||
	    (h.type_off | h.type_len) % 4)
		return -1;
	for (i = 0; i < h.type_len; i += 4) {
		w = (uint32_t *)(void *)(d + h.hdr_len + h.type_off + i);
		*w = bo32(*w, 1);
	}
	memcpy(&h, d, sizeof(h));
	h.magic = bo16(h.magic, 1);
	h.hdr_len = bo32(h.hdr_len, 1);
	h.type_off = bo32(h.type_off, 1);
	h.type_len = bo32(h.type_len, 1);
	h.str_off = bo32(h.str_off, 1);
	h.str_len = bo32(h.str_len, 1);
	memcpy(d, &h, sizeof(h));
	return 0;
}

static void fixtures_swap(struct fixtures *fx)
{
	fx->order = ", other byte order";
	CHECK(swap_blob(fx->v, fx->vlen) == 0 && swap_blob(fx->e, fx->elen) == 0,
	      "fixtures turned into the other byte order");
}

/* A function's id, its prototype's and its argument count. */
struct fn_want {
	uint32_t id, proto, nargs;
};

/*
 * What a kernel's blobs hold, from an independent reader: vmlinux's
 * counts and three of its functions (generic_file_read_iter, noop_fsync,
 * the first parse_options), then ext4's counts and functions over it
 * (read, write, open, fsync, getattr, and its own parse_options).
 */
struct real_want {
	const char *kernel, *v_gz, *e_gz;
	size_t v_size, e_size;
	uint32_t v_types, v_type_bytes, v_str_bytes;
	struct fn_want v_fn[3];
	uint32_t e_types, e_str_bytes;
	struct fn_want e_fn[6];
};

static const struct real_want real_kernels[] = {
	{ "6.1", VMLINUX_GZ, EXT4_GZ, 4360537, 142155,
	  100810, V_TYPES, V_STRS,
	  { { 67560, 17548, 2 }, { 17551, 17550, 4 }, { 28438, 28437, 2 } },
	  2928, E_STRS,
	  /* Each prototype but parse_options's is vmlinux's (deduplicated
	   * into the base); 5.12+ put the idmap argument in front of
	   * getattr's. */
	  { { 103562, 18906, 2 }, { 103552, 10849, 2 }, { 103547, 10314, 2 },
	    { 101009, 17550, 4 }, { 101466, 17536, 5 },
	    { 102620, 102619, 2 } } },
	{ "6.12", VMLINUX_612_GZ, EXT4_612_GZ, 4919552, 149345,
	  112806, 2873944, 2045584,
	  /* Its first parse_options is another one than 6.1's. */
	  { { 36890, 36889, 2 }, { 45931, 45930, 4 }, { 52048, 52047, 1 } },
	  3074, 66645,
	  { { 113208, 38120, 2 }, { 113197, 21335, 2 }, { 113193, 12004, 2 },
	    { 113248, 45930, 4 }, { 113414, 38164, 5 },
	    { 114796, 114795, 2 } } },
};

static void expect_fn(const char *what, const struct btf_func *f,
		      const struct fn_want *w)
{
	expect_func(what, f, w->id, w->proto, w->nargs);
}

/*
 * vmlinux, then ext4 over it, through window: the functions the tool
 * asks for, and a name the module has only in vmlinux's strings.
 */
static void real_through(const struct fixtures *fx, const struct real_want *w,
			 size_t window)
{
	static const char *const in_v[] = {
		"generic_file_read_iter", "noop_fsync", "ext4_file_read_iter",
		/* Two static functions of vmlinux: the first. */
		"parse_options", NULL
	};
	static const char *const in_e[] = {
		"ext4_file_read_iter", "ext4_file_write_iter", "ext4_file_open",
		"ext4_sync_file", "ext4_file_getattr",
		"generic_file_read_iter", "parse_options", NULL
	};
	struct errbuf eb = { "" };
	struct btf_func f[8];
	struct btf_src vs, es;
	struct btf v, e;
	unsigned int nr, k;
	char what[64];

	snprintf(what, sizeof(what), "%s%s, window %zu: vmlinux", w->kernel,
		 fx->order, window);
	nr = asking(f, in_v);
	if (!check_int(what, read_mem(&v, &vs, fx->v, fx->vlen, window, NULL,
				      f, nr, &eb), 0)) {
		printf("  %s\n", eb.msg);
		return;
	}
	check_int("vmlinux: types", v.nr_types, w->v_types);
	check_int("vmlinux: first id", v.start_id, 1);
	check_int("vmlinux: type bytes", v.types_len, w->v_type_bytes);
	check_int("vmlinux: string bytes", v.strs_len, w->v_str_bytes);
	check_int("vmlinux: a checkpoint every 256 types",
		  v.nr_checkpoints, (w->v_types + 255) / 256);
	expect_fn(what, &f[0], &w->v_fn[0]);
	expect_fn(what, &f[1], &w->v_fn[1]);
	/* ext4's functions are the module's. */
	expect_err(what, &f[2], -ENOENT);
	expect_fn(what, &f[3], &w->v_fn[2]);

	snprintf(what, sizeof(what), "%s%s, window %zu: ext4 over vmlinux",
		 w->kernel, fx->order, window);
	nr = asking(f, in_e);
	if (!check_int(what, read_mem(&e, &es, fx->e, fx->elen, window, &v,
				      f, nr, &eb), 0)) {
		printf("  %s\n", eb.msg);
		btf_free(&v);
		return;
	}
	check_int("ext4: types", e.nr_types, w->e_types);
	check_int("ext4: first id continues vmlinux's", e.start_id,
		  w->v_types + 1);
	check_int("ext4: strings continue vmlinux's", e.start_str,
		  w->v_str_bytes);
	check_int("ext4: string bytes", e.strs_len, w->e_str_bytes);
	for (k = 0; k < 5; k++)
		expect_fn(what, &f[k], &w->e_fn[k]);
	/* The base's functions are not its own. */
	expect_err(what, &f[5], -ENOENT);
	/* Named by vmlinux's string; its prototype the module's own. */
	expect_fn(what, &f[6], &w->e_fn[5]);
	btf_free(&e);
	btf_free(&v);
}

static void test_real_vmlinux_and_ext4(void)
{
	struct errbuf eb = { "" };
	struct fixtures fx;
	struct btf_src s;
	struct btf e;
	size_t i, k;

	for (k = 0; k < sizeof(real_kernels) / sizeof(real_kernels[0]); k++) {
		const struct real_want *w = &real_kernels[k];
		char label[64];

		if (fixtures_load_from(&fx, w->v_gz, w->e_gz))
			return;
		snprintf(label, sizeof(label), "%s vmlinux: size", w->kernel);
		check_int(label, (long long)fx.vlen, (long long)w->v_size);
		snprintf(label, sizeof(label), "%s ext4: size", w->kernel);
		check_int(label, (long long)fx.elen, (long long)w->e_size);
		for (i = 0; i < NR_WINDOWS; i++)
			real_through(&fx, w, windows[i]);
		/* The same blobs as a big-endian kernel (or a little-endian
		 * one, read here on a big-endian machine) writes them. */
		fixtures_swap(&fx);
		for (i = 0; i < NR_WINDOWS; i++)
			real_through(&fx, w, windows[i]);
		/* Without its base, its strings do not start with the empty name. */
		snprintf(label, sizeof(label), "%s ext4 alone refused", w->kernel);
		check_int(label,
			  read_mem(&e, &s, fx.e, fx.elen, 0, NULL, NULL, 0, &eb),
			  -EINVAL);
		check_str("ext4 alone: why", eb.msg,
			  "BTF: string section does not start with the empty name");
		fixtures_free(&fx);
	}
}

/*
 * What ext4 over vmlinux reads when every name is in ext4's strings:
 * vmlinux's header, its string section's two ends and its type section
 * (to count its types), then from a checkpoint to each prototype there;
 * ext4's header, its strings' last byte, its strings and its types.
 * vmlinux's strings (1.8 MB) are never read.
 */
static void test_bytes_read(void)
{
	static const char *const ops[] = {
		"ext4_file_read_iter", "ext4_file_write_iter", "ext4_file_open",
		"ext4_sync_file", "ext4_file_getattr", NULL
	};
	struct errbuf eb = { "" };
	struct btf_func f[6];
	struct fixtures fx;
	struct btf_src vs, es;
	struct btf v, e;
	uint64_t before;

	if (fixtures_load(&fx))
		return;
	if (!check_int("vmlinux, no function asked",
		       read_mem(&v, &vs, fx.v, fx.vlen, 0, NULL, NULL, 0, &eb),
		       0))
		goto out;
	/*
	 * The members of the types that run past a window's edge are
	 * skipped unread: 1,104 of the type section's bytes.
	 */
	check_int("vmlinux: header, string ends, types",
		  (long long)vs.bytes, 24 + 2 + V_TYPES - 1104);
	/* 1 header, 2 ends, 40 windows of 64 KiB. */
	check_int("vmlinux: reads", (long long)vs.reads, 1 + 2 + 40);
	before = vs.bytes;
	if (check_int("ext4 over it, its five functions",
		      read_mem(&e, &es, fx.e, fx.elen, 0, &v, f, asking(f, ops),
			       &eb), 0)) {
		check_int("ext4: header, strings' end, strings, types",
			  (long long)es.bytes, 24 + 1 + E_STRS + E_TYPES);
		check_int("ext4: reads", (long long)es.reads, 1 + 1 + 1 + 2);
		/* 5 prototypes: one 2 pages from its checkpoint. */
		check_int("vmlinux: a page or two for each prototype, none of its strings",
			  (long long)(vs.bytes - before), 6LL * 4096);
		check_int("ext4: every function found",
			  f[0].err | f[1].err | f[2].err | f[3].err | f[4].err,
			  0);
		btf_free(&e);
	}
	/* A name ext4 has only in vmlinux's strings: those are read. */
	before = vs.bytes;
	asking(f, (const char *const[]){ "parse_options", NULL });
	if (check_int("ext4 over it, a name of vmlinux's strings",
		      read_mem(&e, &es, fx.e, fx.elen, 0, &v, f, 1, &eb), 0)) {
		expect_func("vmlinux's string", &f[0], 102620, 102619, 2);
		/* Its string at 326953: the pass stops in the 5th window. */
		check_int("vmlinux's strings read to the window of parse_options",
			  (long long)(vs.bytes - before), 5LL * 65536);
		btf_free(&e);
	}
	btf_free(&v);
out:
	fixtures_free(&fx);
}

static void test_tiny_kinds(void)
{
	static const char *const names[] = {
		"ext4_file_read_iter", "ext4_sync_file", "kiocb", NULL
	};
	struct errbuf eb = { "" };
	size_t len = 0, i;
	char *d = test_read_file(TINY, &len);
	struct btf_func f[3];
	struct btf_src s;
	struct btf b;
	char what[64];

	if (!CHECK(d, "tiny fixture readable"))
		return;
	for (i = 0; i < 2 * NR_WINDOWS; i++) {
		if (i == NR_WINDOWS)
			CHECK(swap_blob((unsigned char *)d, len) == 0,
			      "tiny in the other byte order");
		snprintf(what, sizeof(what), "window %zu: tiny%s",
			 windows[i % NR_WINDOWS],
			 i < NR_WINDOWS ? "" : ", other byte order");
		if (!check_int(what, read_mem(&b, &s, d, len,
					      windows[i % NR_WINDOWS], NULL,
					      f, asking(f, names), &eb), 0)) {
			printf("  %s\n", eb.msg);
			continue;
		}
		check_int("tiny: types", b.nr_types, 19);
		/* What clang kept of tiny.c; vmlinux has every kind. */
		check_int("tiny: int, ptr, struct, fwd, typedef, volatile, const, func, func_proto, var, datasec",
			  b.kinds, 1 << BTF_KIND_INT | 1 << BTF_KIND_PTR |
			  1 << BTF_KIND_STRUCT | 1 << BTF_KIND_FWD |
			  1 << BTF_KIND_TYPEDEF | 1 << BTF_KIND_VOLATILE |
			  1 << BTF_KIND_CONST | 1 << BTF_KIND_FUNC |
			  1 << BTF_KIND_FUNC_PROTO | 1 << BTF_KIND_VAR |
			  1 << BTF_KIND_DATASEC);
		expect_func(what, &f[0], 9, 6, 2);
		expect_func(what, &f[1], 12, 11, 4);
		/* A struct's name: no function. */
		expect_err(what, &f[2], -ENOENT);
		btf_free(&b);
	}
	free(d);
}

/* The byte order refused() changes tiny in: its file's, or the other. */
static int blob_other_order;

static void put32(unsigned char *p, uint32_t v)
{
	v = bo32(v, blob_other_order != !HOST_LITTLE_ENDIAN);
	memcpy(p, &v, 4);
}

static uint32_t get32(const unsigned char *p)
{
	return get_bo32(p, blob_other_order != !HOST_LITTLE_ENDIAN);
}

/*
 * A copy of tiny (little-endian) with change() applied must be refused
 * with want; again in the other byte order.
 */
static void refused(const char *name, void (*change)(unsigned char *d,
						    size_t *len),
		    const char *want)
{
	struct errbuf eb = { "" };
	size_t len = 0;
	unsigned char *d;
	struct btf_src s;
	struct btf b;
	char label[160];

	for (blob_other_order = 0; blob_other_order < 2; blob_other_order++) {
		d = (unsigned char *)test_read_file(TINY, &len);
		if (!d)
			return;
		if (blob_other_order && swap_blob(d, len)) {
			free(d);
			return;
		}
		change(d, &len);
		snprintf(label, sizeof(label), "%s%s: refused", name,
			 blob_other_order ? ", big-endian" : "");
		check_int(label, read_mem(&b, &s, d, len, 13, NULL, NULL, 0, &eb),
			  -EINVAL);
		snprintf(label, sizeof(label), "%s%s: why", name,
			 blob_other_order ? ", big-endian" : "");
		check_str(label, eb.msg, want);
		free(d);
	}
}

/* tiny.btf: 743 bytes, a 24-byte header, types 0+344, strings 344+375. */
static void cut_header(unsigned char *d, size_t *len) { (void)d; *len = 20; }
/* 9f eb (little-endian) or eb 9f becomes 00 eb. */
static void bad_magic(unsigned char *d, size_t *len)
{
	(void)len;
	d[0] = 0;
	d[1] = 0xeb;
}
/* The magic alone in the other order: the header's words are not. */
static void magic_swapped(unsigned char *d, size_t *len)
{
	unsigned char b = d[0];

	(void)len;
	d[0] = d[1];
	d[1] = b;
}
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
/* The last string's offset, 374, is the last inside; 375 is outside. */
static void name_just_outside(unsigned char *d, size_t *len)
{
	(void)len;
	put32(d + 24 + 12, 375);
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
/* No string section at all. */
static void no_strings(unsigned char *d, size_t *len)
{
	(void)len;
	put32(d + 20, 0);
}

static void test_corrupted(void)
{
	refused("shorter than the header", cut_header,
		"BTF: 20 bytes, shorter than its 24-byte header");
	refused("bad magic", bad_magic,
		"BTF: starts with bytes 00 eb, not the magic 0xeb9f in either byte order");
	refused("the magic alone in the other byte order", magic_swapped,
		"BTF: header length 402653184 outside 24..743");
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
	refused("no strings", no_strings, "BTF: no string section");
	refused("unknown kind", unknown_kind,
		"BTF: type 1 has kind 31, which this reader does not know (a kernel newer than 6.12?)");
	refused("name outside the strings", name_outside,
		"BTF: type 1 names string offset 2147483632, outside the strings");
	refused("name one past the strings", name_just_outside,
		"BTF: type 2 names string offset 375, outside the strings");
	refused("members past the section", huge_vlen,
		"BTF: type 1 (kind 4, vlen 60000) runs past the type section");
	refused("last type cut short", cut_type,
		"BTF: type 19 cut short at byte 332 of the type section");
}

/* A blob made here: its types and its own strings, then laid out. */
struct blob {
	unsigned char types[32768];
	char strs[256];
	uint32_t types_len, strs_len, nr;
};

static uint32_t blob_str(struct blob *b, const char *s)
{
	uint32_t off = b->strs_len;

	memcpy(b->strs + off, s, strlen(s) + 1);
	b->strs_len += (uint32_t)strlen(s) + 1;
	return off;
}

/* A type of kind with vlen and extra zero bytes after its 12; its n-th. */
static uint32_t blob_type(struct blob *b, uint32_t name, unsigned int kind,
			  unsigned int vlen, uint32_t type, uint32_t extra)
{
	unsigned char *t = b->types + b->types_len;
	const uint32_t words[3] = { name, (uint32_t)kind << 24 | vlen, type };

	memcpy(t, words, sizeof(words));
	memset(t + 12, 0, extra);
	b->types_len += 12 + extra;
	return ++b->nr;
}

/* INTs without names, up to (and not counting) type n. */
static void blob_pad(struct blob *b, uint32_t n)
{
	while (b->nr + 1 < n)
		blob_type(b, 0, BTF_KIND_INT, 0, 4, 4);
}

/* The blob as BTF into out: header, types, strings; its size. */
static size_t blob_bytes(const struct blob *b, unsigned char *out)
{
	const struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(h), .type_off = 0, .type_len = b->types_len,
		.str_off = b->types_len, .str_len = b->strs_len,
	};

	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), b->types, b->types_len);
	memcpy(out + sizeof(h) + b->types_len, b->strs, b->strs_len);
	return sizeof(h) + b->types_len + b->strs_len;
}

/*
 * Functions whose prototypes come before them (from a checkpoint
 * hundreds of types back) and after them (seen by the pass), and
 * functions typed with no prototype.
 */
static void test_prototypes(void)
{
	static const char *const names[] = {
		"before", "after", "on_int", "on_void", "past_end", "on_self",
		"int", "absent", NULL
	};
	static struct blob b;
	static unsigned char d[sizeof(b.types) + 512];
	struct errbuf eb = { "" };
	struct btf_func f[8];
	struct btf_src s;
	struct btf r;
	char what[64];
	uint32_t before;
	size_t len, i;

	memset(&b, 0, sizeof(b));
	blob_str(&b, "");
	blob_type(&b, blob_str(&b, "int"), BTF_KIND_INT, 0, 4, 4);
	blob_pad(&b, 301);
	blob_type(&b, 0, BTF_KIND_FUNC_PROTO, 2, 1, 16);
	blob_pad(&b, 701);
	before = blob_str(&b, "before");
	blob_type(&b, before, BTF_KIND_FUNC, 0, 301, 0);
	blob_type(&b, blob_str(&b, "after"), BTF_KIND_FUNC, 0, 1000, 0);
	blob_type(&b, blob_str(&b, "on_int"), BTF_KIND_FUNC, 0, 1, 0);
	blob_type(&b, blob_str(&b, "on_void"), BTF_KIND_FUNC, 0, 0, 0);
	blob_type(&b, blob_str(&b, "past_end"), BTF_KIND_FUNC, 0, 5000, 0);
	blob_type(&b, blob_str(&b, "on_self"), BTF_KIND_FUNC, 0, 706, 0);
	blob_pad(&b, 1000);
	blob_type(&b, 0, BTF_KIND_FUNC_PROTO, 3, 1, 24);
	/* A second function "before": the first is the one. */
	blob_type(&b, before, BTF_KIND_FUNC, 0, 1000, 0);
	len = blob_bytes(&b, d);
	for (i = 0; i < NR_WINDOWS; i++) {
		snprintf(what, sizeof(what), "window %zu: made", windows[i]);
		if (!check_int(what, read_mem(&r, &s, d, len, windows[i], NULL,
					      f, asking(f, names), &eb), 0)) {
			printf("  %s\n", eb.msg);
			continue;
		}
		check_int("made: types", r.nr_types, 1001);
		check_int("made: checkpoints", r.nr_checkpoints, 4);
		expect_func(what, &f[0], 701, 301, 2);
		expect_func(what, &f[1], 702, 1000, 3);
		expect_err(what, &f[2], -EINVAL);
		expect_err(what, &f[3], -EINVAL);
		expect_err(what, &f[4], -EINVAL);
		expect_err(what, &f[5], -EINVAL);
		/* An int's name: no function. */
		expect_err(what, &f[6], -ENOENT);
		expect_err(what, &f[7], -ENOENT);
		btf_free(&r);
	}
}

/*
 * Split BTF over a base made here: a prototype in the base, a name in
 * the base's strings only, a prototype after its function and one
 * before it in the split blob; the base's own function is not the
 * split's.  Which of the base's bytes each question reads.
 */
static void test_split(void)
{
	static const char *const names[] = {
		"mod_fn", "shared", "late", "base_fn", "absent", NULL
	};
	static struct blob base, mod;
	static unsigned char bd[1024], md[1024];
	struct errbuf eb = { "" };
	struct btf_func f[5];
	struct btf_src bs, ms;
	struct btf b, m;
	size_t blen, mlen, i;
	uint32_t shared;
	char what[64];

	memset(&base, 0, sizeof(base));
	memset(&mod, 0, sizeof(mod));
	blob_str(&base, "");
	blob_type(&base, blob_str(&base, "int"), BTF_KIND_INT, 0, 4, 4);
	blob_type(&base, 0, BTF_KIND_FUNC_PROTO, 4, 1, 32);
	blob_type(&base, blob_str(&base, "base_fn"), BTF_KIND_FUNC, 0, 2, 0);
	shared = blob_str(&base, "shared");
	blen = blob_bytes(&base, bd);
	/* Its ids from 4, its strings from the base's 20 bytes on. */
	blob_type(&mod, 20 + blob_str(&mod, "mod_fn"), BTF_KIND_FUNC, 0, 2, 0);
	blob_type(&mod, shared, BTF_KIND_FUNC, 0, 6, 0);
	blob_type(&mod, 0, BTF_KIND_FUNC_PROTO, 5, 1, 40);
	blob_type(&mod, 20 + blob_str(&mod, "late"), BTF_KIND_FUNC, 0, 6, 0);
	mlen = blob_bytes(&mod, md);
	for (i = 0; i < NR_WINDOWS; i++) {
		snprintf(what, sizeof(what), "window %zu: split", windows[i]);
		if (!check_int("the base", read_mem(&b, &bs, bd, blen,
						    windows[i], NULL, NULL, 0,
						    &eb), 0))
			continue;
		check_int("base: strings", b.strs_len, 20);
		if (check_int(what, read_mem(&m, &ms, md, mlen, windows[i], &b,
					     f, asking(f, names), &eb), 0)) {
			check_int("split: first id", m.start_id, 4);
			check_int("split: types", m.nr_types, 4);
			expect_func(what, &f[0], 4, 2, 4);
			expect_func(what, &f[1], 5, 6, 5);
			expect_func(what, &f[2], 7, 6, 5);
			expect_err(what, &f[3], -ENOENT);
			expect_err(what, &f[4], -ENOENT);
			btf_free(&m);
		} else {
			printf("  %s\n", eb.msg);
		}
		btf_free(&b);
	}

	/* The base's bytes: its 72 of types for mod_fn's prototype alone. */
	if (!check_int("the base again", read_mem(&b, &bs, bd, blen, 0, NULL,
						  NULL, 0, &eb), 0))
		return;
	bs.bytes = 0;
	asking(f, names);
	if (check_int("split, mod_fn alone",
		      read_mem(&m, &ms, md, mlen, 0, &b, f, 1, &eb), 0)) {
		check_int("base read for mod_fn: its types, not its strings",
			  (long long)bs.bytes, 72);
		btf_free(&m);
	}
	bs.bytes = 0;
	if (check_int("split, shared alone",
		      read_mem(&m, &ms, md, mlen, 0, &b, f + 1, 1, &eb), 0)) {
		check_int("base read for shared: its strings, not its types",
			  (long long)bs.bytes, 20);
		btf_free(&m);
	}
	/* A module's blob in the other byte order than its base's. */
	if (CHECK(swap_blob(md, mlen) == 0, "the module in the other byte order")) {
		check_int("split over a base of the other byte order",
			  read_mem(&m, &ms, md, mlen, 0, &b, f, 1, &eb), -EINVAL);
		check_str("split over a base of the other byte order: why",
			  eb.msg, "BTF: in the other byte order than its base's");
	}
	btf_free(&b);
}

/* The .BTF section of an object file: malloc'ed, NULL when absent. */
static unsigned char *object_btf(const char *path, size_t *len)
{
	size_t flen = 0, shstrndx;
	char *file = test_read_file(path, &flen);
	unsigned char *out = NULL;
	Elf_Scn *scn = NULL;
	Elf *e;

	*len = 0;
	if (!file)
		return NULL;
	e = elf_memory(file, flen);
	if (e && !elf_getshdrstrndx(e, &shstrndx)) {
		while ((scn = elf_nextscn(e, scn)) != NULL) {
			GElf_Shdr sh;
			Elf_Data *d;
			const char *n;

			if (!gelf_getshdr(scn, &sh))
				break;
			n = elf_strptr(e, shstrndx, sh.sh_name);
			if (!n || strcmp(n, ".BTF") != 0)
				continue;
			d = elf_rawdata(scn, NULL);
			if (d && d->d_size && (out = malloc(d->d_size))) {
				memcpy(out, d->d_buf, d->d_size);
				*len = d->d_size;
			}
			break;
		}
	}
	if (e)
		elf_end(e);
	free(file);
	return out;
}

/*
 * clang's own big-endian BTF (-target bpfeb: the s390 object of
 * bpf/prebuilt) and its little-endian twin (the riscv object: the same
 * source, the same types): the same answers, and the same bytes once one
 * is turned into the other's order.
 */
static void test_clang_big_endian(void)
{
	static const char *const names[] = {
		"entry_read", "fexit_fsync",
		"scan_release", "no_such_program", NULL
	};
	struct errbuf eb = { "" };
	struct btf_func fb[4], fl[4];
	size_t blen, llen, i;
	unsigned char *be = object_btf(TEST_SRCDIR "/bpf/prebuilt/ext4dist-s390.bpf.o", &blen);
	unsigned char *le = object_btf(TEST_SRCDIR "/bpf/prebuilt/ext4dist-riscv.bpf.o", &llen);
	struct btf_src bs, ls;
	struct btf b, l;

	if (!CHECK(be && le, "the .BTF of the s390 and riscv objects"))
		goto out;
	check_str("s390's .BTF is big-endian: its magic's first byte",
		  be[0] == 0xeb ? "eb" : "not eb", "eb");
	check_str("riscv's .BTF is little-endian: its magic's first byte",
		  le[0] == 0x9f ? "9f" : "not 9f", "9f");
	for (i = 0; i < NR_WINDOWS; i++) {
		if (!check_int("s390 .BTF read", read_mem(&b, &bs, be, blen,
				windows[i], NULL, fb, asking(fb, names), &eb), 0)) {
			printf("  %s\n", eb.msg);
			continue;
		}
		if (check_int("riscv .BTF read", read_mem(&l, &ls, le, llen,
				windows[i], NULL, fl, asking(fl, names), &eb), 0)) {
			check_int("both: as many types", b.nr_types, l.nr_types);
			CHECK(b.nr_types > 100, "the objects' BTF has its types");
			check_int("both: the same kinds", b.kinds, l.kinds);
			expect_func("s390", &fb[0], fl[0].id, fl[0].proto_id, 1);
			expect_func("s390", &fb[1], fl[1].id, fl[1].proto_id, 1);
			expect_func("s390", &fb[2], fl[2].id, fl[2].proto_id, 1);
			expect_err("s390", &fb[3], -ENOENT);
			CHECK(fl[0].err == 0 && fl[1].err == 0 && fl[2].err == 0,
			      "riscv: the programs found");
			btf_free(&l);
		}
		btf_free(&b);
	}
	if (CHECK(swap_blob(le, llen) == 0, "riscv's turned big-endian"))
		check_mem("riscv's .BTF, turned, is s390's byte for byte",
			  le, llen, be, blen);
out:
	free(be);
	free(le);
}

/* The fields asked for, the last two not there. */
static const char *const field_names[][2] = {
	{ "file", "f_op" }, { "file", "f_path" }, { "path", "dentry" },
	{ "dentry", "d_name" }, { "qstr", "name" },
	{ "file", "f_no_such" }, { "no_such_struct", "name" },
};
#define NR_FIELDS (sizeof(field_names) / sizeof(field_names[0]))

/* The blob at d through window: each field at want[k], the last two not. */
static void fields_through(const char *what, const unsigned char *d,
			   size_t len, size_t window, const uint32_t *want)
{
	struct btf_field f[NR_FIELDS];
	struct errbuf eb = { "" };
	struct btf_src s;
	char label[200];
	unsigned int k;

	memset(f, 0, sizeof(f));
	for (k = 0; k < NR_FIELDS; k++) {
		f[k].type = field_names[k][0];
		f[k].name = field_names[k][1];
	}
	btf_src_mem(&s, d, len, "blob");
	if (window)
		s.window = window;
	snprintf(label, sizeof(label), "%s, window %zu: fields read", what,
		 window);
	if (!check_int(label, btf_fields(&s, f, NR_FIELDS, &eb), 0))
		return;
	for (k = 0; k < NR_FIELDS; k++) {
		snprintf(label, sizeof(label), "%s, window %zu: %s.%s", what,
			 window, f[k].type, f[k].name);
		if (k < NR_FIELDS - 2) {
			check_int(label, f[k].err, 0);
			check_int(label, f[k].off, want[k]);
		} else {
			check_int(label, f[k].err, -ENOENT);
		}
	}
}

/*
 * struct file's f_op and f_path, struct path's dentry, struct dentry's
 * d_name and struct qstr's name in both kernels' vmlinux BTF (the
 * offsets from the same independent reader), through every window and
 * in the other byte order.
 */
static void test_fields(void)
{
	static const uint32_t want[2][NR_FIELDS - 2] = {
		{ 40, 16, 8, 32, 8 },		/* 6.1 */
		{ 16, 64, 8, 32, 8 },		/* 6.12 */
	};
	static const char *const gz[2] = { VMLINUX_GZ, VMLINUX_612_GZ };
	struct btf_field many[17];
	struct errbuf eb = { "" };
	struct btf_src s;
	char what[80];
	unsigned char *d;
	unsigned int v, w, order;
	size_t len;

	for (v = 0; v < 2; v++) {
		d = test_read_gz(gz[v], &len);
		if (!CHECK(d, "fixture readable"))
			continue;
		for (order = 0; order < 2; order++) {
			if (order && !CHECK(swap_blob(d, len) == 0,
					    "in the other byte order"))
				break;
			snprintf(what, sizeof(what), "vmlinux %s%s",
				 v ? "6.12" : "6.1", order ? ", swapped" : "");
			for (w = 0; w < NR_WINDOWS; w++)
				fields_through(what, d, len, windows[w],
					       want[v]);
		}
		free(d);
	}
	memset(many, 0, sizeof(many));
	btf_src_mem(&s, "", 0, "blob");
	check_int("seventeen fields at once refused",
		  btf_fields(&s, many, 17, &eb), -E2BIG);
	check_str("why", eb.msg, "BTF: 17 members asked at once, more than 16");
}

static void test_too_many_asked(void)
{
	struct errbuf eb = { "" };
	struct btf_func f[BTF_FUNCS_MAX + 1];
	size_t len = 0;
	char *d = test_read_file(TINY, &len);
	struct btf_src s;
	struct btf b;
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i <= BTF_FUNCS_MAX; i++)
		f[i].name = "ext4_sync_file";
	check_int("33 functions at once",
		  read_mem(&b, &s, d, len, 0, NULL, f, BTF_FUNCS_MAX + 1, &eb),
		  -E2BIG);
	check_str("33 functions at once: why", eb.msg,
		  "BTF: 33 functions asked at once, more than 32");
	if (check_int("32 functions at once",
		      read_mem(&b, &s, d, len, 0, NULL, f, BTF_FUNCS_MAX, &eb),
		      0)) {
		expect_func("the 32nd", &f[31], 12, 11, 4);
		btf_free(&b);
	}
	free(d);
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
	d = test_read_gz(VMLINUX_GZ, &len);
	snprintf(path, sizeof(path), "%s/btf/vmlinux", dir);
	if (!d || test_write_file(path, d, len))
		dir = NULL;
	free(d);
	if (dir && ext4_btf) {
		d = test_read_gz(EXT4_GZ, &len);
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

/* The files, read with pread() through the default window and a page. */
static void test_files(void)
{
	static const char *const in_v[] = { "generic_file_read_iter", NULL };
	static const char *const in_e[] = { "ext4_sync_file", NULL };
	const char *dir = sys_tree(1, 0);
	struct errbuf eb = { "" };
	char vpath[512], epath[512];
	struct btf_src vs, es;
	struct btf_func f[1];
	struct btf v, e;
	int i;

	if (!CHECK(dir, "a /sys tree of the fixtures"))
		return;
	snprintf(vpath, sizeof(vpath), "%s/btf/vmlinux", dir);
	snprintf(epath, sizeof(epath), "%s/btf/ext4", dir);
	for (i = 0; i < 2; i++) {
		if (!check_int("vmlinux opens", btf_src_open(&vs, vpath, &eb), 0))
			return;
		if (i)
			vs.window = 4096;
		check_int("vmlinux: its size from fstat", (long long)vs.size,
			  4360537);
		if (check_int("vmlinux reads",
			      btf_read(&v, &vs, NULL, f, asking(f, in_v), &eb),
			      0)) {
			check_int("vmlinux from its file: types", v.nr_types,
				  100810);
			expect_func("vmlinux from its file", &f[0], 67560,
				    17548, 2);
			if (check_int("ext4 opens",
				      btf_src_open(&es, epath, &eb), 0)) {
				es.window = vs.window;
				if (check_int("ext4 reads",
					      btf_read(&e, &es, &v, f,
						       asking(f, in_e), &eb),
					      0)) {
					expect_func("ext4 from its file", &f[0],
						    101009, 17550, 4);
					btf_free(&e);
				}
				btf_src_close(&es);
			}
			btf_free(&v);
		}
		btf_src_close(&vs);
	}
}

static void test_load_missing(void)
{
	struct errbuf eb = { "" };
	struct btf_src s;

	check_int("a missing file",
		  btf_src_open(&s, "/nonexistent/vmlinux", &eb), -ENOENT);
	check_str("a missing file: why", eb.msg,
		  "/nonexistent/vmlinux: No such file or directory");
}

/* A file larger than any BTF: refused before a byte is read. */
static void test_too_large(void)
{
	struct errbuf eb = { "" };
	const char *dir = test_tmpdir("btf");
	char path[512], want[600];
	struct btf_src s;
	struct btf b;
	int fd;

	if (!CHECK(dir, "a temporary directory"))
		return;
	snprintf(path, sizeof(path), "%s/huge", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!CHECK(fd >= 0 && ftruncate(fd, (64 << 20) + 1) == 0,
		   "a sparse file of 64 MiB and a byte")) {
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	if (!check_int("it opens", btf_src_open(&s, path, &eb), 0))
		return;
	check_int("larger than 64 MiB", btf_read(&b, &s, NULL, NULL, 0, &eb),
		  -EFBIG);
	snprintf(want, sizeof(want), "%s: larger than 64 MiB", path);
	check_str("larger than 64 MiB: why", eb.msg, want);
	check_int("larger than 64 MiB: nothing read", (long long)s.bytes, 0);
	btf_src_close(&s);
	unlink(path);
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
		snprintf(want, sizeof(want),
			 "%s/ext4 (2928 types) over %s/vmlinux (100810 types)",
			 btf, btf);
		check_str("where the ids came from", ids.source, want);
	} else {
		printf("  %s\n", why.msg);
	}
	if (check_int("generic read path",
		      fentry_resolve(&fs_ext4, four, 1, btf, mod, &ids, &why), 0)) {
		check_int("generic: read's id from vmlinux", ids.generic_id, 67560);
		check_int("generic: read's arguments", ids.generic_nargs, 2);
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
	snprintf(want, sizeof(want), "%s/vmlinux (100810 types)", btf);
	check_str("the shared read function alone: where", ids.source, want);

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
	/* Built in, as it seems: vmlinux's read, then its write not there. */
	check_int("ext4 not loaded, the generic read path",
		  fentry_resolve(&fs_ext4, four, 1, btf, mod, &ids, &why),
		  -ENOENT);
	snprintf(want, sizeof(want), "no function ext4_file_write_iter in %s/vmlinux", btf);
	check_str("ext4 not loaded, the generic read path: why", why.msg, want);
	check_int("ext4 not loaded, the generic read path: read's id",
		  ids.generic_id, 67560);
	check_int("no BTF at all",
		  fentry_resolve(&fs_ext4, four, 0, "/nonexistent", mod, &ids,
				 &why), -ENOENT);
	check_str("no BTF at all: why", why.msg,
		  "no /nonexistent/vmlinux: the kernel carries no BTF (CONFIG_DEBUG_INFO_BTF, 5.5+)");
}

static const struct test_case test_cases[] = {
	TEST_CASE(real_vmlinux_and_ext4),
	TEST_CASE(bytes_read),
	TEST_CASE(tiny_kinds),
	TEST_CASE(corrupted),
	TEST_CASE(prototypes),
	TEST_CASE(split),
	TEST_CASE(clang_big_endian),
	TEST_CASE(too_many_asked),
	TEST_CASE(files),
	TEST_CASE(load_missing),
	TEST_CASE(too_large),
	TEST_CASE(fentry_resolve),
	TEST_CASE(fields),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	elf_version(EV_CURRENT);
	return test_main(argc, argv, test_cases);
}
