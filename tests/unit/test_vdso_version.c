// SPDX-License-Identifier: GPL-2.0
/* kern_version from the vDSO's "Linux" note: synthetic images and the real one. */
#include <elf.h>
#include <stddef.h>
#include <errno.h>
#include <string.h>

#include "loader/kernel/kversion.h"
#include "loader/kernel/vdso_version.h"
#include "test.h"

/* ELF header, one PT_NOTE program header, then the notes. */
struct image {
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned char notes[64];
};

static size_t add_note(unsigned char *p, const char *name, unsigned int type,
		       unsigned int desc)
{
	Elf64_Nhdr nh = {
		.n_namesz = (Elf64_Word)strlen(name) + 1,
		.n_descsz = 4,
		.n_type = type,
	};
	size_t name_sz = (nh.n_namesz + 3u) & ~3u;

	memcpy(p, &nh, sizeof(nh));
	memset(p + sizeof(nh), 0, name_sz);
	memcpy(p + sizeof(nh), name, nh.n_namesz);
	memcpy(p + sizeof(nh) + name_sz, &desc, 4);
	return sizeof(nh) + name_sz + 4;
}

static void build(struct image *im, size_t notes_len)
{
	memset(&im->eh, 0, sizeof(im->eh) + sizeof(im->ph));
	memcpy(im->eh.e_ident, ELFMAG, SELFMAG);
	im->eh.e_ident[EI_CLASS] = ELFCLASS64;
	im->eh.e_phoff = offsetof(struct image, ph);
	im->eh.e_phentsize = sizeof(Elf64_Phdr);
	im->eh.e_phnum = 1;
	im->ph.p_type = PT_NOTE;
	im->ph.p_offset = offsetof(struct image, notes);
	im->ph.p_filesz = notes_len;
}

/* Synthetic images: the note found, and every malformed image refused. */
static void test_synthetic(void)
{
	struct image im;
	unsigned int code = 0;
	size_t n;

	/* A GNU note first, then Linux's: 6.1.192 = 0x0601c0. */
	n = add_note(im.notes, "GNU", 0, 7);
	n += add_note(im.notes + n, "Linux", 0, 0x0601c0);
	build(&im, n);
	check_int("note found", elf_image_linux_note(&im, sizeof(im), &code), 0);
	check_int("LINUX_VERSION_CODE read", code, 0x0601c0);

	/*
	 * Vanilla 4.19.222's note (its image is withdrawn from the suite):
	 * 0x0413ff, the code its verifier demands of kern_version, where
	 * uname would give 0x0413de (test_kversion).
	 */
	n = add_note(im.notes, "Linux", 0, 0x0413ff);
	build(&im, n);
	check_int("4.19.222: note found",
		  elf_image_linux_note(&im, sizeof(im), &code), 0);
	check_int("4.19.222: its kernel's own code", code, 0x0413ff);

	n = add_note(im.notes, "Linux", 1, 0x040913);
	build(&im, n);
	check_int("wrong note type is not it",
		  elf_image_linux_note(&im, sizeof(im), &code), -ENOENT);

	n = add_note(im.notes, "Linux", 0, 0x040913);
	build(&im, n);
	im.ph.p_filesz = 1000;	/* past the image: segment ignored */
	check_int("note segment past the end",
		  elf_image_linux_note(&im, sizeof(im), &code), -ENOENT);
	build(&im, n);
	im.eh.e_phnum = 200;
	check_int("program headers past the end",
		  elf_image_linux_note(&im, sizeof(im), &code), -EINVAL);
	build(&im, n);
	((Elf64_Nhdr *)im.notes)->n_namesz = 0x7fffffff;
	/* A malformed note segment is skipped like one without the note. */
	check_int("note name past the segment",
		  elf_image_linux_note(&im, sizeof(im), &code), -ENOENT);
	check_int("not ELF", elf_image_linux_note("nope", 4, &code), -EINVAL);
}

/* The real one: the kernel's word agrees with parsing uname here. */
static void test_this_process(void)
{
	unsigned int code = 0, parsed = 0;

	check_int("this process has a vDSO note", vdso_version_code(&code), 0);
	if (kversion_get(NULL, &parsed) == 0)
		check_int("vDSO note equals the parsed uname version", code,
			  parsed);
}

static const struct test_case test_cases[] = {
	TEST_CASE(synthetic),
	TEST_CASE(this_process),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
