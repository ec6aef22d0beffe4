// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/loader/modsym.c and src/loader/module_file.c.  The module
 * file is a small relocatable ELF object written here with libelf, then
 * compressed with zlib (and liblzma/libzstd when the build has them);
 * little-endian (x86_64's), then big-endian (s390x's), with its build id
 * note as that kernel's sysfs shows it.
 */
#include "test.h"
#include "loader/ksym/module_file.h"
#include "loader/ksym/modsym.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#ifdef EXT4DIST_WITH_XZ
#include <lzma.h>
#endif
#ifdef EXT4DIST_WITH_ZSTD
#include <zstd.h>
#endif

#define SECTIONS TEST_FIXTURES "sections"

static const char *tmpdir;
/* ---- a tiny module object ------------------------------------------- */

static const char shstrtab[] =
	"\0.text\0.rodata\0.symtab\0.strtab\0.shstrtab\0.note.gnu.build-id";
enum { SH_TEXT = 1, SH_RODATA = 7, SH_SYMTAB = 15, SH_STRTAB = 23,
       SH_SHSTRTAB = 31, SH_NOTE = 41 };

/* A GNU build id note: namesz 4, descsz 8, NT_GNU_BUILD_ID, "GNU", id. */
static const unsigned char build_id[24] = {
	4, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
	0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04,
};
/* The build id note in the byte order of the module written (msb). */
static int module_msb;

static void note_in_order(unsigned char *note, const unsigned char *le)
{
	size_t w, b;

	memcpy(note, le, sizeof(build_id));
	if (!module_msb)
		return;
	for (w = 0; w < 3; w++)
		for (b = 0; b < 4; b++)
			note[4 * w + b] = le[4 * w + 3 - b];
}

static const char strtab[] =
	"\0ext4_file_open\0printk\0ext4_file_operations\0abs_sym\0big_offset";
enum { ST_OPEN = 1, ST_PRINTK = 16, ST_FOPS = 23, ST_ABS = 44,
       ST_BIG = 52 };

static int add_section(Elf *e, void *buf, size_t size, Elf_Type type,
		       Elf64_Word name, Elf64_Word sh_type,
		       Elf64_Xword flags, Elf64_Word link, Elf64_Word info,
		       Elf64_Xword entsize)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d;
	Elf64_Shdr *sh;

	if (!scn)
		return -1;
	d = elf_newdata(scn);
	sh = elf64_getshdr(scn);
	if (!d || !sh)
		return -1;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = type;
	d->d_align = 8;
	d->d_version = EV_CURRENT;
	sh->sh_name = name;
	sh->sh_type = sh_type;
	sh->sh_flags = flags;
	sh->sh_link = link;
	sh->sh_info = info;
	sh->sh_entsize = entsize;
	sh->sh_addralign = 8;
	return 0;
}

/*
 * Sections: 1 .text (0x40 bytes), 2 .rodata (0x140), 3 .symtab,
 * 4 .strtab, 5 .shstrtab, 6 .note.gnu.build-id.  Symbols: local
 * ext4_file_open at .text+0x10, undefined printk, ext4_file_operations at
 * .rodata+0x40, an SHN_ABS symbol, one whose offset lies past the end
 * of .rodata, and file_open at .text+0x30, named by the tail of
 * ext4_file_open's string.
 */
static int write_module(const char *path)
{
	static unsigned char text[0x40], rodata[0x140], note[sizeof(build_id)];
	static char shstr[sizeof(shstrtab)], str[sizeof(strtab)];
	static Elf64_Sym syms[7];
	Elf64_Ehdr *eh;
	Elf *e;
	int fd, ret = -1;

	memcpy(shstr, shstrtab, sizeof(shstr));
	note_in_order(note, build_id);
	memcpy(str, strtab, sizeof(str));
	memset(syms, 0, sizeof(syms));
	syms[1] = (Elf64_Sym){ ST_OPEN, ELF64_ST_INFO(STB_LOCAL, STT_FUNC), 0,
			       1, 0x10, 0x20 };
	syms[2] = (Elf64_Sym){ ST_PRINTK,
			       ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE), 0,
			       SHN_UNDEF, 0, 0 };
	syms[3] = (Elf64_Sym){ ST_FOPS, ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
			       0, 2, 0x40, 0x100 };
	syms[4] = (Elf64_Sym){ ST_ABS, ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
			       0, SHN_ABS, 0x1234, 0 };
	syms[5] = (Elf64_Sym){ ST_BIG, ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
			       0, 2, 0x1000, 8 };
	/* A name that is the tail of another's string, as linkers share. */
	syms[6] = (Elf64_Sym){ ST_OPEN + 5,
			       ELF64_ST_INFO(STB_LOCAL, STT_FUNC), 0, 1, 0x30,
			       0x8 };

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e)
		goto out_close;
	eh = elf64_newehdr(e);
	if (!eh)
		goto out_end;
	eh->e_ident[EI_DATA] = module_msb ? ELFDATA2MSB : ELFDATA2LSB;
	eh->e_type = ET_REL;
	eh->e_machine = module_msb ? EM_S390 : EM_X86_64;
	eh->e_version = EV_CURRENT;
	if (add_section(e, text, sizeof(text), ELF_T_BYTE, SH_TEXT,
			SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 0) ||
	    add_section(e, rodata, sizeof(rodata), ELF_T_BYTE, SH_RODATA,
			SHT_PROGBITS, SHF_ALLOC, 0, 0, 0) ||
	    add_section(e, syms, sizeof(syms), ELF_T_SYM, SH_SYMTAB,
			SHT_SYMTAB, 0, 4, 2, sizeof(Elf64_Sym)) ||
	    add_section(e, str, sizeof(str), ELF_T_BYTE, SH_STRTAB,
			SHT_STRTAB, 0, 0, 0, 0) ||
	    add_section(e, shstr, sizeof(shstr), ELF_T_BYTE, SH_SHSTRTAB,
			SHT_STRTAB, 0, 0, 0, 0) ||
	    add_section(e, note, sizeof(note), ELF_T_BYTE, SH_NOTE, SHT_NOTE,
			SHF_ALLOC, 0, 0, 0))
		goto out_end;
	eh->e_shstrndx = 5;
	if (elf_update(e, ELF_C_WRITE) < 0)
		goto out_end;
	ret = 0;
out_end:
	elf_end(e);
out_close:
	close(fd);
	return ret;
}

static int write_gzip(const char *path, const void *data, size_t len)
{
	gzFile gz = gzopen(path, "wb9");
	int ok;

	if (!gz)
		return -1;
	ok = gzwrite(gz, data, len) == (int)len;
	return gzclose(gz) == Z_OK && ok ? 0 : -1;
}

/* ---- the module tests ------------------------------------------------ */

static void check_module(const char *tag, const char *path)
{
	unsigned long long off = 0, addr = 0;
	char section[32], name[128];
	struct errbuf eb;

	snprintf(name, sizeof(name), "%s: find fops", tag);
	check_int(name, modsym_find(path, "ext4_file_operations", section,
				    sizeof(section), &off, &eb),
		  0);
	snprintf(name, sizeof(name), "%s: fops section", tag);
	check_str(name, section, ".rodata");
	snprintf(name, sizeof(name), "%s: fops offset", tag);
	check_int(name, off, 0x40);
	snprintf(name, sizeof(name), "%s: resolve fops", tag);
	check_int(name, modsym_resolve(path, SECTIONS, "ext4_file_operations",
				       &addr, &eb), 0);
	snprintf(name, sizeof(name), "%s: fops address", tag);
	check_int(name, addr, (long long)0xffffffffc0600040ULL);
	snprintf(name, sizeof(name), "%s: resolve local text symbol", tag);
	check_int(name, modsym_resolve(path, SECTIONS, "ext4_file_open",
				       &addr, NULL), 0);
	snprintf(name, sizeof(name), "%s: text address", tag);
	check_int(name, addr, (long long)0xffffffffc05fe010ULL);
	snprintf(name, sizeof(name), "%s: a name in another's tail", tag);
	check_int(name, modsym_resolve(path, SECTIONS, "file_open", &addr,
				       NULL), 0);
	snprintf(name, sizeof(name), "%s: its address", tag);
	check_int(name, addr, (long long)0xffffffffc05fe030ULL);
}

static void test_module_errors(const char *ko, const unsigned char *elf,
			       size_t len)
{
	unsigned long long off, addr = 1;
	char section[32];
	struct errbuf eb;
	unsigned char *copy;
	size_t i;
	int ret, ok = 1;

	eb.msg[0] = '\0';
	check_int("missing symbol", modsym_resolve(ko, SECTIONS, "no_such_sym",
		  &addr, &eb), -ENOENT);
	CHECK(strstr(eb.msg, "no symbol no_such_sym"),
	      "missing symbol message");
	check_int("missing symbol leaves addr", addr, 1);
	check_int("undefined reference is not a definition",
		  modsym_find(ko, "printk", section, sizeof(section), &off,
			      NULL), -ENOENT);
	check_int("SHN_ABS symbol", modsym_find(ko, "abs_sym", section,
		  sizeof(section), &off, NULL), -EINVAL);
	check_int("offset past the section", modsym_find(ko, "big_offset",
		  section, sizeof(section), &off, NULL), -EINVAL);
	check_int("section name too long for buffer", modsym_find(ko,
		  "ext4_file_operations", section, 7, &off, NULL), -ERANGE);
	check_int("missing ko file", modsym_resolve(test_tmp_path("nope.ko"),
		  SECTIONS, "ext4_file_operations", &addr, NULL), -ENOENT);
	check_int("missing sections file", modsym_resolve(ko,
		  TEST_FIXTURES "sections_hidden", "ext4_file_open", &addr, &eb),
		  -ENOENT);
	CHECK(strstr(eb.msg, "sections_hidden/.text"),
	      "missing sections file message names it");
	check_int("missing sections dir", modsym_resolve(ko,
		  TEST_FIXTURES "no_such_dir", "ext4_file_operations", &addr, NULL),
		  -ENOENT);
	check_int("hidden section address", modsym_resolve(ko,
		  TEST_FIXTURES "sections_hidden", "ext4_file_operations", &addr,
		  &eb), -EPERM);
	check_int("bad section file", modsym_resolve(ko,
		  TEST_FIXTURES "sections_bad", "ext4_file_operations", &addr, NULL),
		  -EINVAL);

	check_int("garbage file", test_write_file(test_tmp_path("garbage.ko"),
		  "this is not an ELF file at all\n", 31), 0);
	check_int("garbage ELF", modsym_resolve(test_tmp_path("garbage.ko"),
		  SECTIONS, "ext4_file_operations", &addr, &eb),
		  -EINVAL);
	check_int("empty file", test_write_file(test_tmp_path("empty.ko"), "", 0), 0);
	check_int("empty ELF", modsym_resolve(test_tmp_path("empty.ko"), SECTIONS,
		  "ext4_file_operations", &addr, NULL), -EINVAL);
	check_int("truncated file", test_write_file(test_tmp_path("trunc.ko"), elf,
		  100), 0);
	check_int("truncated ELF", modsym_resolve(test_tmp_path("trunc.ko"),
		  SECTIONS, "ext4_file_operations", &addr, NULL), -EINVAL);
	check_int("directory as ko", modsym_resolve(tmpdir, SECTIONS,
		  "ext4_file_operations", &addr, NULL), -EINVAL);

	copy = malloc(len);
	if (!CHECK(copy, "corrupt: alloc"))
		return;
	memcpy(copy, elf, len);
	copy[16 + module_msb] = ET_EXEC;	/* e_type's low byte */
	test_write_file(test_tmp_path("exec.ko"), copy, len);
	check_int("ET_EXEC rejected", modsym_find(test_tmp_path("exec.ko"),
		  "ext4_file_operations", section, sizeof(section), &off, NULL),
		  -EINVAL);

	/* Every single-byte corruption: a result, never a crash. */
	for (i = 0; i < len; i++) {
		memcpy(copy, elf, len);
		copy[i] ^= 0xff;
		test_write_file(test_tmp_path("flip.ko"), copy, len);
		ret = modsym_find(test_tmp_path("flip.ko"), "ext4_file_operations",
				  section, sizeof(section), &off, NULL);
		if (ret != 0 && ret != -ENOENT && ret != -EINVAL &&
		    ret != -ERANGE && ret != -ENOTSUP) {
			printf("# byte %zu: %d\n", i, ret);
			ok = 0;
		}
	}
	CHECK(ok, "corrupt: every flipped byte gives 0/-ENOENT/-EINVAL");
	free(copy);
}

static void test_compressed(const unsigned char *elf, size_t len)
{
	static const unsigned char xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0,
						  1, 2, 3, 4, 5, 6 };
	static const unsigned char zst_magic[] = { 0x28, 0xb5, 0x2f, 0xfd,
						   9, 9, 9, 9 };
	unsigned long long addr;
	struct errbuf eb;
	size_t gzlen;
	unsigned char *gz;

	if (!CHECK(write_gzip(test_tmp_path("mod.ko.gz"), elf, len) == 0,
		   "gzip: write"))
		return;
	check_module("gzip", test_tmp_path("mod.ko.gz"));

	gz = (unsigned char *)test_read_file(test_tmp_path("mod.ko.gz"), &gzlen);
	if (CHECK(gz && gzlen > 40, "gzip: read back")) {
		test_write_file(test_tmp_path("trunc.ko.gz"), gz, gzlen / 2);
		check_int("gzip: truncated stream", modsym_resolve(
			  test_tmp_path("trunc.ko.gz"), SECTIONS,
			  "ext4_file_operations", &addr, NULL), -EINVAL);
		gz[gzlen / 2] ^= 0x55;
		gz[gzlen / 2 + 1] ^= 0xaa;
		test_write_file(test_tmp_path("bad.ko.gz"), gz, gzlen);
		check_int("gzip: corrupted stream", modsym_resolve(
			  test_tmp_path("bad.ko.gz"), SECTIONS,
			  "ext4_file_operations", &addr, NULL), -EINVAL);
	}
	free(gz);

	/* Magic bytes then junk: a format error, or not built in. */
	test_write_file(test_tmp_path("junk.ko.xz"), xz_magic, sizeof(xz_magic));
	test_write_file(test_tmp_path("junk.ko.zst"), zst_magic, sizeof(zst_magic));
	eb.msg[0] = '\0';
#ifdef EXT4DIST_WITH_XZ
	check_int("xz: junk stream", modsym_resolve(test_tmp_path("junk.ko.xz"),
		  SECTIONS, "ext4_file_operations", &addr, &eb),
		  -EINVAL);
	{
		size_t cap = len + 4096, out = 0;
		uint8_t *xz = malloc(cap);

		if (CHECK(xz && lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32,
			  NULL, elf, len, xz, &out, cap) == LZMA_OK,
			  "xz: encode")) {
			test_write_file(test_tmp_path("mod.ko.xz"), xz, out);
			check_module("xz", test_tmp_path("mod.ko.xz"));
			test_write_file(test_tmp_path("trunc.ko.xz"), xz, out - 10);
			check_int("xz: truncated stream", modsym_resolve(
				  test_tmp_path("trunc.ko.xz"), SECTIONS,
				  "ext4_file_operations", &addr, NULL),
				  -EINVAL);
		}
		free(xz);
	}
#else
	check_int("xz: not built in", modsym_resolve(test_tmp_path("junk.ko.xz"),
		  SECTIONS, "ext4_file_operations", &addr, &eb),
		  -ENOTSUP);
	CHECK(strstr(eb.msg, "xz-compressed modules are not supported"),
	      "xz: message says so");
#endif
#ifdef EXT4DIST_WITH_ZSTD
	check_int("zstd: junk stream", modsym_resolve(test_tmp_path("junk.ko.zst"),
		  SECTIONS, "ext4_file_operations", &addr, NULL), -EINVAL);
	{
		size_t cap = ZSTD_compressBound(len), out;
		void *zst = malloc(cap);

		out = zst ? ZSTD_compress(zst, cap, elf, len, 19) : 0;
		if (CHECK(zst && !ZSTD_isError(out), "zstd: encode")) {
			test_write_file(test_tmp_path("mod.ko.zst"), zst, out);
			check_module("zstd", test_tmp_path("mod.ko.zst"));
			test_write_file(test_tmp_path("trunc.ko.zst"), zst, out - 5);
			check_int("zstd: truncated stream", modsym_resolve(
				  test_tmp_path("trunc.ko.zst"), SECTIONS,
				  "ext4_file_operations", &addr, NULL),
				  -EINVAL);
		}
		free(zst);
	}
#else
	check_int("zstd: not built in", modsym_resolve(
		  test_tmp_path("junk.ko.zst"), SECTIONS, "ext4_file_operations",
		  &addr, &eb), -ENOTSUP);
	CHECK(strstr(eb.msg, "zstd-compressed modules are not supported"),
	      "zstd: message says so");
#endif
}

static void test_section_addr(void)
{
	unsigned long long addr = 0;

	check_int("section .rodata", modsym_section_addr(SECTIONS, ".rodata",
		  &addr), 0);
	check_int("section .rodata address", addr,
		  (long long)0xffffffffc0600000ULL);
	check_int("section name with '/'", modsym_section_addr(SECTIONS,
		  "../sections/.rodata", &addr), -EINVAL);
	check_int("section name '..'", modsym_section_addr(SECTIONS, "..",
		  &addr), -EINVAL);
	check_int("section name empty", modsym_section_addr(SECTIONS, "",
		  &addr), -EINVAL);
	check_int("section hidden", modsym_section_addr(TEST_FIXTURES
		  "sections_hidden", ".rodata", &addr), -EPERM);
	check_int("section bad content", modsym_section_addr(TEST_FIXTURES
		  "sections_bad", ".rodata", &addr), -EINVAL);
}

static void test_ko_path(void)
{
	char buf[512], want[512];

	snprintf(want, sizeof(want), "%s/ext4.ko.zst", tmpdir);
	test_write_file(want, "x", 1);
	check_int("ko path: compressed variant", modsym_ko_path(
		  test_tmp_path("ext4.ko"), buf, sizeof(buf)), 0);
	check_str("ko path: .zst found", buf, want);
	snprintf(want, sizeof(want), "%s/ext4.ko", tmpdir);
	test_write_file(want, "x", 1);
	check_int("ko path: plain first", modsym_ko_path(test_tmp_path("ext4.ko"),
		  buf, sizeof(buf)), 0);
	check_str("ko path: .ko found", buf, want);
	check_int("ko path: none", modsym_ko_path(test_tmp_path("xfs.ko"), buf,
		  sizeof(buf)), -ENOENT);
	check_int("ko path: too long", modsym_ko_path(test_tmp_path("ext4.ko"),
		  buf, 8), -ENAMETOOLONG);
	unlink(test_tmp_path("ext4.ko"));
	unlink(test_tmp_path("ext4.ko.zst"));
}

/* module_file_load() directly: the bytes come back as they were. */
static void test_module_file(const unsigned char *elf, size_t len)
{
	struct module_image img = { NULL, 0, 0 };
	struct errbuf eb = { "" };

	check_int("load: gzip", module_file_load(test_tmp_path("mod.ko.gz"), &img,
		  &eb), 0);
	check_mem("load: gzip content", img.data, img.len, elf, len);
	module_file_free(&img);
	CHECK(!img.data && !img.len, "load: free empties the image");
	check_int("load: plain", module_file_load(test_tmp_path("mod.ko"), &img,
		  NULL), 0);
	check_mem("load: plain content", img.data, img.len, elf, len);
	module_file_free(&img);
	img.data = (unsigned char *)1;
	img.len = 1;
	check_int("load: missing file", module_file_load(test_tmp_path("nope.ko"),
		  &img, &eb), -ENOENT);
	CHECK(!img.data && !img.len, "load: failure leaves the image empty");
	CHECK(strstr(eb.msg, "nope.ko: No such file or directory"),
	      "load: missing file message names it");
	check_int("load: truncated gzip", module_file_load(
		  test_tmp_path("trunc.ko.gz"), &img, &eb), -EINVAL);
	CHECK(strstr(eb.msg, "cannot decompress gzip data"),
	      "load: truncated gzip message");
	CHECK(!img.data, "load: truncated gzip leaves no data");
}

/*
 * A loaded module as sysfs shows it: <dir>/sections/.text, .rodata and
 * <dir>/notes/.note.gnu.build-id, the note as given.
 */
static void make_module_dir(const char *dir, const unsigned char *note,
			    size_t len)
{
	char path[512];

	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/sections", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sections/.text", dir);
	test_write_file(path, "0xffffffffc0500000\n", 19);
	snprintf(path, sizeof(path), "%s/sections/.rodata", dir);
	test_write_file(path, "0xffffffffc0600000\n", 19);
	snprintf(path, sizeof(path), "%s/notes", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/notes/.note.gnu.build-id", dir);
	test_write_file(path, note, len);
}

/* Addresses from the file only when it is the build the kernel loaded. */
static void check_loaded(const char *ko)
{
	static const char *const names[] = { "ext4_file_open",
					     "ext4_file_operations",
					     "no_such_symbol" };
	const char *dir = test_tmp_path("module");
	unsigned long long addrs[3] = { 0 };
	unsigned char note[sizeof(build_id)], other[sizeof(build_id)];
	struct errbuf eb = { "" };
	int found[3];

	note_in_order(note, build_id);
	make_module_dir(dir, note, sizeof(note));
	check_int("loaded: two of three names", modsym_resolve_loaded(ko, dir,
		  names, 3, addrs, found, &eb), 2);
	check_int("loaded: .text + 0x10", addrs[0],
		  (long long)0xffffffffc0500010ULL);
	check_int("loaded: .rodata + 0x40", addrs[1],
		  (long long)0xffffffffc0600040ULL);
	CHECK(found[0] && found[1] && !found[2], "loaded: found flags");

	memcpy(other, note, sizeof(other));
	other[23] ^= 1;
	make_module_dir(dir, other, sizeof(other));
	check_int("loaded: another build", modsym_resolve_loaded(ko, dir, names,
		  3, addrs, found, &eb), -ESTALE);
	CHECK(strstr(eb.msg, "the module file's build id is not the loaded module's"),
	      "loaded: another build: message");
	make_module_dir(dir, note, 20);
	check_int("loaded: a note cut short", modsym_resolve_loaded(ko, dir,
		  names, 3, addrs, found, &eb), -ESTALE);
}

/*
 * The module file written once, then read plain, with errors, compressed
 * and through module_file_load() (which reads the compressed copies).
 */
static void test_module(void)
{
	unsigned char *elf;
	size_t len;

	for (module_msb = 0; module_msb < 2; module_msb++) {
		printf("# %s module\n", module_msb ? "big-endian (s390x)" :
			"little-endian (x86_64)");
		if (!CHECK(write_module(test_tmp_path("mod.ko")) == 0,
			   "write module ELF"))
			return;
		elf = (unsigned char *)test_read_file(test_tmp_path("mod.ko"),
						      &len);
		if (CHECK(elf && len > 64 && elf[EI_DATA] ==
			  (module_msb ? ELFDATA2MSB : ELFDATA2LSB),
			  "read module ELF back, in its byte order")) {
			check_module("plain", test_tmp_path("mod.ko"));
			check_loaded(test_tmp_path("mod.ko"));
			test_module_errors(test_tmp_path("mod.ko"), elf, len);
			test_compressed(elf, len);
			test_module_file(elf, len);
		}
		free(elf);
	}
	module_msb = 0;
}

/* ---- module-file bombs: memory follows what is kept ------------------ */

enum fmt { F_GZIP, F_XZ, F_ZSTD };

/* A streaming compressor writing to a file, fed piece by piece. */
struct packer {
	enum fmt fmt;
	FILE *f;
	z_stream z;
#ifdef EXT4DIST_WITH_XZ
	lzma_stream x;
#endif
#ifdef EXT4DIST_WITH_ZSTD
	ZSTD_CCtx *zc;
#endif
	int bad;
};

static unsigned char pack_out[1 << 16];

/*
 * As the kernel compresses modules: gzip -9 (32 KiB window), xz with a
 * 1 MiB dictionary (dict_mib), zstd -3 (window_log 0: its own).
 */
static int pack_open(struct packer *p, enum fmt fmt, const char *path,
		     unsigned int dict_mib, int window_log)
{
	memset(p, 0, sizeof(*p));
	p->fmt = fmt;
	p->f = fopen(path, "wb");
	if (!p->f)
		return -1;
	switch (fmt) {
	case F_GZIP:
		return deflateInit2(&p->z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
				    Z_DEFAULT_STRATEGY) == Z_OK ? 0 : -1;
#ifdef EXT4DIST_WITH_XZ
	case F_XZ: {
		lzma_stream init = LZMA_STREAM_INIT;
		lzma_options_lzma opt;
		lzma_filter f[2];

		p->x = init;
		if (lzma_lzma_preset(&opt, 0))
			return -1;
		opt.dict_size = dict_mib << 20;
		f[0].id = LZMA_FILTER_LZMA2;
		f[0].options = &opt;
		f[1].id = LZMA_VLI_UNKNOWN;
		return lzma_stream_encoder(&p->x, f, LZMA_CHECK_CRC32) == LZMA_OK ?
		       0 : -1;
	}
#endif
#ifdef EXT4DIST_WITH_ZSTD
	case F_ZSTD:
		p->zc = ZSTD_createCCtx();
		if (!p->zc)
			return -1;
		ZSTD_CCtx_setParameter(p->zc, ZSTD_c_compressionLevel, 3);
		if (window_log)
			ZSTD_CCtx_setParameter(p->zc, ZSTD_c_windowLog, window_log);
		return 0;
#endif
	default:
		return -1;
	}
}

/* data (NULL: zeros) of len bytes into the stream; last ends it. */
static void pack(struct packer *p, const void *data, size_t len, int last)
{
	static const unsigned char zeros[1 << 16];

	if (!len && !last)
		return;
	do {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);
		const void *src = data ? data : zeros;
		int end = last && n == len;

		switch (p->fmt) {
		case F_GZIP:
			p->z.next_in = (unsigned char *)src;
			p->z.avail_in = (uInt)n;
			do {
				p->z.next_out = pack_out;
				p->z.avail_out = sizeof(pack_out);
				if (deflate(&p->z, end ? Z_FINISH : Z_NO_FLUSH) ==
				    Z_STREAM_ERROR)
					p->bad = 1;
				fwrite(pack_out, 1, sizeof(pack_out) - p->z.avail_out,
				       p->f);
			} while (p->z.avail_out == 0 || (end && p->z.avail_in));
			break;
#ifdef EXT4DIST_WITH_XZ
		case F_XZ: {
			lzma_ret r;

			p->x.next_in = src;
			p->x.avail_in = n;
			do {
				p->x.next_out = pack_out;
				p->x.avail_out = sizeof(pack_out);
				r = lzma_code(&p->x, end ? LZMA_FINISH : LZMA_RUN);
				if (r != LZMA_OK && r != LZMA_STREAM_END)
					p->bad = 1;
				fwrite(pack_out, 1, sizeof(pack_out) - p->x.avail_out,
				       p->f);
			} while (!p->bad && (p->x.avail_in ||
					     (end && r != LZMA_STREAM_END)));
			break;
		}
#endif
#ifdef EXT4DIST_WITH_ZSTD
		case F_ZSTD: {
			ZSTD_inBuffer in = { src, n, 0 };
			size_t left;

			do {
				ZSTD_outBuffer out = { pack_out, sizeof(pack_out), 0 };

				left = ZSTD_compressStream2(p->zc, &out, &in,
							    end ? ZSTD_e_end :
								  ZSTD_e_continue);
				if (ZSTD_isError(left))
					p->bad = 1;
				fwrite(pack_out, 1, out.pos, p->f);
			} while (!p->bad && (in.pos < in.size || (end && left)));
			break;
		}
#endif
		}
		if (data)
			data = (const unsigned char *)data + n;
		len -= n;
	} while (len && !p->bad);
}

static int pack_close(struct packer *p)
{
	switch (p->fmt) {
	case F_GZIP:
		deflateEnd(&p->z);
		break;
#ifdef EXT4DIST_WITH_XZ
	case F_XZ:
		lzma_end(&p->x);
		break;
#endif
#ifdef EXT4DIST_WITH_ZSTD
	case F_ZSTD:
		ZSTD_freeCCtx(p->zc);
		break;
#endif
	}
	return fclose(p->f) || p->bad ? -1 : 0;
}

static uint64_t le_get(const unsigned char *b, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | b[n];
	return v;
}

static void le_put(unsigned char *b, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

/*
 * The module (a 64-bit little-endian ELF from write_module()) with a
 * run of n1 zero bytes at offset at1 and one of n2 at at2, its section
 * headers' offsets moved to match, compressed into path.
 */
static int write_stretched(const char *path, enum fmt fmt,
			   const unsigned char *elf, size_t len, size_t at1,
			   uint64_t n1, size_t at2, uint64_t n2,
			   unsigned int dict_mib, int window_log)
{
	unsigned char *copy = malloc(len);
	uint64_t shoff, off;
	unsigned int i, shnum;
	struct packer p;

	if (!copy)
		return -1;
	memcpy(copy, elf, len);
	/* Shorter than an ELF header: bytes, as they are. */
	shoff = len < 64 ? 0 : le_get(copy + 40, 8);
	shnum = len < 64 ? 0 : (unsigned int)le_get(copy + 60, 2);
	for (i = 0; i < shnum; i++) {
		unsigned char *sh = copy + shoff + 64 * i;

		off = le_get(sh + 24, 8);
		if (le_get(sh + 4, 4) != SHT_NULL)
			le_put(sh + 24, off + (off >= at1 ? n1 : 0) +
			       (off >= at2 ? n2 : 0), 8);
	}
	if (len >= 64)
		le_put(copy + 40, shoff + (shoff >= at1 ? n1 : 0) +
		       (shoff >= at2 ? n2 : 0), 8);
	if (pack_open(&p, fmt, path, dict_mib, window_log)) {
		free(copy);
		return -1;
	}
	pack(&p, copy, at1, 0);
	pack(&p, NULL, n1, 0);
	pack(&p, copy + at1, at2 - at1, 0);
	pack(&p, NULL, n2, 0);
	pack(&p, copy + at2, len - at2, 1);
	free(copy);
	return pack_close(&p);
}

/*
 * What loading path costs a fresh child: its result, the inflated size,
 * and the growth of its peak resident set in KiB (ru_maxrss before and
 * after).  The child resolves ext4_file_operations too.
 */
struct cost {
	int ret, resolved;
	unsigned long long len;
	long grew_kib;
	char msg[sizeof(((struct errbuf *)0)->msg)];
};

static void load_in_child(const char *path, struct cost *c)
{
	int fds[2], status;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	c->ret = -999;
	if (pipe(fds))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct module_image img;
		struct errbuf eb = { "" };
		struct rusage before, after;
		unsigned long long addr = 0;

		close(fds[0]);
		getrusage(RUSAGE_SELF, &before);
		c->ret = module_file_load(path, &img, &eb);
		c->len = img.len;
		module_file_free(&img);
		c->resolved = modsym_resolve(path, SECTIONS,
					     "ext4_file_operations", &addr,
					     NULL) == 0 &&
			      addr == 0xffffffffc0600040ULL;
		getrusage(RUSAGE_SELF, &after);
		c->grew_kib = after.ru_maxrss - before.ru_maxrss;
		snprintf(c->msg, sizeof(c->msg), "%s", eb.msg);
		if (write(fds[1], c, sizeof(*c)) != (ssize_t)sizeof(*c))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], c, sizeof(*c)) != (ssize_t)sizeof(*c))
		c->ret = -998;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
}

/*
 * A few MiB: the windows kept, the decoders' state, libelf's tables.
 * (AddressSanitizer's allocator holds freed blocks back a while: more.)
 */
#ifdef __SANITIZE_ADDRESS__
#define BOMB_RSS_KIB (16 << 10)
#else
#define BOMB_RSS_KIB (8 << 10)
#endif

static void bomb(enum fmt fmt, const char *tag, const unsigned char *elf,
		 size_t len)
{
	char path[512], name[160];
	uint64_t shoff = le_get(elf + 40, 8);
	struct cost c;

	snprintf(path, sizeof(path), "%s", test_tmp_path("bomb.ko"));
	/* 200 MiB of zeros after the header: one pass keeps the tail. */
	if (!CHECK(write_stretched(path, fmt, elf, len, 64, 200 << 20, len, 0,
				   1, 0) == 0, "bomb: written"))
		return;
	load_in_child(path, &c);
	snprintf(name, sizeof(name), "%s, 200 MiB inflated: loaded", tag);
	check_int(name, c.ret, 0);
	snprintf(name, sizeof(name), "%s, 200 MiB inflated: its size", tag);
	check_int(name, (long long)c.len, (long long)len + (200 << 20));
	snprintf(name, sizeof(name), "%s, 200 MiB inflated: symbols found", tag);
	check_int(name, c.resolved, 1);
	printf("# %s: 200 MiB inflated, peak resident set grew by %ld KiB\n",
	       tag, c.grew_kib);
	snprintf(name, sizeof(name), "%s, 200 MiB inflated: the peak resident set grows by less than %d KiB",
		 tag, BOMB_RSS_KIB);
	CHECK(c.grew_kib < BOMB_RSS_KIB, name);

	/* Symbols far from both ends: a second pass keeps them. */
	if (CHECK(write_stretched(path, fmt, elf, len, 64, 8 << 20, shoff,
				  8 << 20, 1, 0) == 0, "bomb: written")) {
		load_in_child(path, &c);
		snprintf(name, sizeof(name), "%s, symbols 8 MiB from either end: found", tag);
		check_int(name, c.ret == 0 && c.resolved, 1);
	}

	/* No ELF header: refused after its first bytes. */
	if (CHECK(write_stretched(path, fmt, (const unsigned char *)"not ELF", 7,
				  7, 200 << 20, 7, 0, 1, 0) == 0, "bomb: written")) {
		load_in_child(path, &c);
		snprintf(name, sizeof(name), "%s, 200 MiB of no module: refused", tag);
		check_int(name, c.ret, -EINVAL);
		snprintf(name, sizeof(name), "%s, 200 MiB of no module: the peak resident set grows by less than %d KiB",
			 tag, BOMB_RSS_KIB);
		CHECK(c.grew_kib < BOMB_RSS_KIB, name);
	}
}

/* A header that places its section headers past 256 MiB: refused at once. */
static void bomb_header(const unsigned char *elf, size_t len)
{
	unsigned char *copy = malloc(len);
	struct errbuf eb = { "" };
	struct module_image img;
	char want[600];

	if (!CHECK(copy, "bomb header: alloc"))
		return;
	memcpy(copy, elf, len);
	le_put(copy + 40, (uint64_t)MODSYM_MAX_SIZE, 8);
	write_gzip(test_tmp_path("bomb.ko"), copy, len);
	check_int("section headers past 256 MiB: refused",
		  module_file_load(test_tmp_path("bomb.ko"), &img, &eb), -EFBIG);
	snprintf(want, sizeof(want), "%s: inflates to more than 256 MiB, or says it does: not a module file",
		 test_tmp_path("bomb.ko"));
	check_str("section headers past 256 MiB: message", eb.msg, want);
	free(copy);
}

/*
 * A stream whose decoder would need more than 16 MiB (an xz dictionary
 * of dict_mib, a zstd window of 2^window_log): refused as such.
 */
static void big_decoder(enum fmt fmt, const char *tag, const unsigned char *elf,
			size_t len, unsigned int dict_mib, int window_log)
{
	char name[160];
	struct cost c;

	snprintf(name, sizeof(name), "%s: written", tag);
	if (!CHECK(write_stretched(test_tmp_path("bomb.ko"), fmt, elf, len, 64,
				   1 << 20, len, 0, dict_mib, window_log) == 0,
		   name))
		return;
	load_in_child(test_tmp_path("bomb.ko"), &c);
	snprintf(name, sizeof(name), "%s: refused", tag);
	check_int(name, c.ret, -E2BIG);
	snprintf(name, sizeof(name), "%s: message", tag);
	CHECK(strstr(c.msg, "stream needs more than 16 MiB to inflate"), name);
}

static void test_bombs(void)
{
	unsigned char *elf;
	size_t len;

	if (!CHECK(write_module(test_tmp_path("mod.ko")) == 0, "write module ELF"))
		return;
	elf = (unsigned char *)test_read_file(test_tmp_path("mod.ko"), &len);
	if (!CHECK(elf && len > 64, "read module ELF back"))
		return;
	bomb(F_GZIP, "gzip", elf, len);
	bomb_header(elf, len);
#ifdef EXT4DIST_WITH_XZ
	bomb(F_XZ, "xz", elf, len);
	/* Dictionaries and windows no kernel's modules use. */
	big_decoder(F_XZ, "xz, 64 MiB dictionary", elf, len, 64, 0);
#endif
#ifdef EXT4DIST_WITH_ZSTD
	bomb(F_ZSTD, "zstd", elf, len);
	big_decoder(F_ZSTD, "zstd, 128 MiB window", elf, len, 1, 27);
#endif
	unlink(test_tmp_path("bomb.ko"));
	free(elf);
}

static void remove_tmpdir(void)
{
	static const char *const files[] = {
		"mod.ko", "mod.ko.gz", "mod.ko.xz", "mod.ko.zst",
		"trunc.ko", "trunc.ko.gz", "trunc.ko.xz",
		"trunc.ko.zst", "bad.ko.gz", "junk.ko.xz",
		"junk.ko.zst", "garbage.ko", "empty.ko", "exec.ko",
		"flip.ko",
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlink(test_tmp_path(files[i]));
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", test_tmp_path("module"));
		if (system(cmd))
			printf("# could not remove %s\n", test_tmp_path("module"));
	}
	rmdir(tmpdir);
}

static const struct test_case test_cases[] = {
	TEST_CASE(section_addr),
	TEST_CASE(ko_path),
	TEST_CASE(module),
	TEST_CASE(bombs),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	int ret;

	tmpdir = test_tmpdir("test_modsym");
	if (!CHECK(tmpdir, "temporary directory"))
		return test_done();
	elf_version(EV_CURRENT);
	ret = test_main(argc, argv, test_cases);
	remove_tmpdir();
	return ret;
}
