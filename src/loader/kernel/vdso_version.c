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

int elf_image_linux_note(const void *image, size_t size, unsigned int *code)
{
	const unsigned char *base = image;
	Elf64_Ehdr eh;
	unsigned int i;

	if (size < sizeof(eh))
		return -EINVAL;
	memcpy(&eh, base, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
	    (size - eh.e_phoff) / sizeof(Elf64_Phdr) < eh.e_phnum)
		return -EINVAL;
	for (i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, base + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset > size ||
		    ph.p_filesz > size - ph.p_offset)
			continue;
		if (scan_notes(base + ph.p_offset, ph.p_filesz, code) == 0)
			return 0;
	}
	return -ENOENT;
}

int vdso_version_code(unsigned int *code)
{
	const unsigned char *vdso =
		(const void *)(unsigned long)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;

	if (!vdso)
		return -ENOENT;
	/* The vDSO is mapped whole; its size follows from its headers. */
	memcpy(&eh, vdso, sizeof(eh));
	return elf_image_linux_note(vdso, eh.e_shoff +
				    (size_t)eh.e_shnum * eh.e_shentsize, code);
}
