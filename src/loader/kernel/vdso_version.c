// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/vdso_version.h"

#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/auxv.h>

/* Walks the notes of one PT_NOTE segment for ("Linux", 0, 4 bytes). */
static int scan_notes(const unsigned char *p, size_t len, unsigned int *code)
{
	size_t off = 0;

	/* Elf32_Nhdr and Elf64_Nhdr are the same three 32-bit words. */
	while (len - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t name_sz, desc_sz;

		memcpy(&nh, p + off, sizeof(nh));
		off += sizeof(nh);
		name_sz = (nh.n_namesz + 3u) & ~(size_t)3;
		desc_sz = (nh.n_descsz + 3u) & ~(size_t)3;
		if (name_sz > len - off || desc_sz > len - off - name_sz)
			return -EINVAL;
		if (nh.n_namesz == 6 && nh.n_type == 0 && nh.n_descsz == 4 &&
		    memcmp(p + off, "Linux", 6) == 0) {
			memcpy(code, p + off + name_sz, 4);
			return 0;
		}
		off += name_sz + desc_sz;
	}
	return -ENOENT;
}

/*
 * The fields of an ELF header and program header that matter here, of
 * either class: the vDSO is this process's word size (ELF32 for a 32-bit
 * ARM program, on a 64-bit kernel too).
 */
struct elf_view {
	int is64;
	unsigned long long phoff, shoff;
	unsigned int phnum, phentsize, shnum, shentsize;
};

static int elf_view(const unsigned char *base, size_t size,
		    struct elf_view *v)
{
	if (size < EI_NIDENT || memcmp(base, ELFMAG, SELFMAG))
		return -EINVAL;
	v->is64 = base[EI_CLASS] == ELFCLASS64;
	if (v->is64) {
		Elf64_Ehdr eh;

		if (size < sizeof(eh))
			return -EINVAL;
		memcpy(&eh, base, sizeof(eh));
		v->phoff = eh.e_phoff;
		v->shoff = eh.e_shoff;
		v->phnum = eh.e_phnum;
		v->phentsize = eh.e_phentsize;
		v->shnum = eh.e_shnum;
		v->shentsize = eh.e_shentsize;
		return eh.e_phentsize == sizeof(Elf64_Phdr) ? 0 : -EINVAL;
	}
	if (base[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;

		if (size < sizeof(eh))
			return -EINVAL;
		memcpy(&eh, base, sizeof(eh));
		v->phoff = eh.e_phoff;
		v->shoff = eh.e_shoff;
		v->phnum = eh.e_phnum;
		v->phentsize = eh.e_phentsize;
		v->shnum = eh.e_shnum;
		v->shentsize = eh.e_shentsize;
		return eh.e_phentsize == sizeof(Elf32_Phdr) ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/* Program header i: its type, file offset and size. */
static void phdr_at(const unsigned char *p, int is64, unsigned int *type,
		    unsigned long long *offset, unsigned long long *filesz)
{
	if (is64) {
		Elf64_Phdr ph;

		memcpy(&ph, p, sizeof(ph));
		*type = ph.p_type;
		*offset = ph.p_offset;
		*filesz = ph.p_filesz;
	} else {
		Elf32_Phdr ph;

		memcpy(&ph, p, sizeof(ph));
		*type = ph.p_type;
		*offset = ph.p_offset;
		*filesz = ph.p_filesz;
	}
}

int elf_image_linux_note(const void *image, size_t size, unsigned int *code)
{
	const unsigned char *base = image;
	struct elf_view v;
	unsigned int i;

	if (elf_view(base, size, &v) || v.phoff > size ||
	    (size - v.phoff) / v.phentsize < v.phnum)
		return -EINVAL;
	for (i = 0; i < v.phnum; i++) {
		unsigned long long off, len;
		unsigned int type;

		phdr_at(base + v.phoff + (size_t)i * v.phentsize, v.is64, &type,
			&off, &len);
		if (type != PT_NOTE || off > size || len > size - off)
			continue;
		if (scan_notes(base + off, (size_t)len, code) == 0)
			return 0;
	}
	return -ENOENT;
}

int vdso_version_code(unsigned int *code)
{
	const unsigned char *vdso =
		(const void *)(unsigned long)getauxval(AT_SYSINFO_EHDR);
	struct elf_view v;

	if (!vdso)
		return -ENOENT;
	/* The vDSO is mapped whole; its size follows from its headers. */
	if (elf_view(vdso, sizeof(Elf64_Ehdr), &v))
		return -EINVAL;
	return elf_image_linux_note(vdso, (size_t)(v.shoff +
				    (unsigned long long)v.shnum * v.shentsize),
				    code);
}
