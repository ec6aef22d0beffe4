// SPDX-License-Identifier: GPL-2.0
/*
 * A symbol in a module's ELF file (section and offset), and where the
 * running kernel put that section: together, the symbol's address.
 */
#include "loader/ksym/modsym.h"
#include "loader/ksym/module_file.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The SHT_SYMTAB_SHNDX data that goes with symtab section index i. */
static Elf_Data *find_xindex(Elf *e, size_t symtab_idx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == symtab_idx)
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/* Where sym, found as symbol s, lives: section name and offset. */
static int symbol_place(Elf *e, const GElf_Sym *s, GElf_Word shndx,
			char *section, size_t section_len,
			unsigned long long *offset)
{
	size_t shstrndx, len;
	const char *name;
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return -EINVAL;
	scn = elf_getscn(e, shndx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return -EINVAL;
	name = elf_strptr(e, shstrndx, sh.sh_name);
	if (!name || !name[0])
		return -EINVAL;
	/* In ET_REL files st_value is the offset within the section. */
	if (s->st_value > sh.sh_size)
		return -EINVAL;
	len = strlen(name);
	if (len >= section_len)
		return -ERANGE;
	memcpy(section, name, len + 1);
	*offset = s->st_value;
	return 0;
}

/* Where one of the names stands in a string table. */
struct name_at {
	size_t off;
	int name;
};

/*
 * Every offset of the string table strs[0..len) at which one of names
 * stands with its NUL: the only st_name values that can name it (not
 * only after a NUL: a linker may share a string's tail between names).
 * A symbol is then matched by its st_name, its string never read nor
 * compared: ext4.ko has some 5000 symbols for 5 names.  Returns how
 * many (*at malloc'ed, for the caller to free), or -ENOMEM.
 */
static int names_at(const char *strs, size_t len, const char *const *names,
		    size_t n, struct name_at **at)
{
	struct name_at *a = NULL, *na;
	const char *s, *hit;
	size_t i, l, k = 0, cap = 0;

	for (i = 0; i < n; i++) {
		l = strlen(names[i]) + 1;
		for (s = strs; (hit = memmem(s, len - (size_t)(s - strs),
					     names[i], l)) != NULL;
		     s = hit + 1) {
			if (k == cap) {
				cap = cap ? 2 * cap : 16;
				na = k < INT_MAX / 2 ?
				     realloc(a, cap * sizeof(*a)) : NULL;
				if (!na) {
					free(a);
					return -ENOMEM;
				}
				a = na;
			}
			a[k].off = (size_t)(hit - strs);
			a[k++].name = (int)i;
		}
	}
	*at = a;
	return (int)k;
}

/* The index in names of the symbol whose st_name is off, or -1. */
static int name_at_index(const struct name_at *at, int k, size_t off)
{
	int m;

	for (m = 0; m < k; m++)
		if (at[m].off == off)
			return at[m].name;
	return -1;
}

/* sh's string table in e, *len its size (NULL if it cannot be read). */
static const char *strtab_of(Elf *e, const GElf_Shdr *sh, size_t *len)
{
	Elf_Scn *scn = elf_getscn(e, sh->sh_link);
	GElf_Shdr ssh;
	Elf_Data *d;

	if (!scn || !gelf_getshdr(scn, &ssh) || ssh.sh_type != SHT_STRTAB)
		return NULL;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || !d->d_size)
		return NULL;
	*len = d->d_size;
	return d->d_buf;
}

/*
 * One pass over the symbol tables for every name: fills place[i] (section
 * and offset) and found[i] for the defined ones.  Returns how many were
 * found, or -EINVAL for a damaged file.
 */
static int elf_find_many(Elf *e, const char *const *names, size_t n,
			 struct modsym_place *place, int *found)
{
	struct name_at *at = NULL;
	Elf_Data *data, *xdata;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	GElf_Sym s;
	GElf_Word shndx;
	const char *strs;
	size_t i, count, nsec, len = 0;
	int symtabs = 0, hits = 0, k, nat, err = 0;

	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) ||
	    eh.e_type != ET_REL || elf_getshdrnum(e, &nsec) != 0 || nsec < 2)
		return -EINVAL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			return -EINVAL;
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		symtabs++;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			return -EINVAL;
		xdata = find_xindex(e, elf_ndxscn(scn));
		count = data->d_size / sh.sh_entsize;
		if (count > INT_MAX)
			return -EINVAL;
		/* No string table: no symbol has a name to be found by. */
		strs = strtab_of(e, &sh, &len);
		nat = strs ? names_at(strs, len, names, n, &at) : 0;
		if (nat < 0)
			return nat;
		for (i = 1; i < count && (size_t)hits < n && nat; i++) {
			err = -EINVAL;
			if (!gelf_getsymshndx(data, xdata, (int)i, &s, &shndx))
				goto out;
			k = name_at_index(at, nat, s.st_name);
			if (k < 0 || found[k])
				continue;
			if (s.st_shndx == SHN_UNDEF)
				continue;	/* a reference, not a definition */
			if (s.st_shndx == SHN_XINDEX && !xdata)
				goto out;
			if (s.st_shndx >= SHN_LORESERVE &&
			    s.st_shndx != SHN_XINDEX)
				goto out;	/* SHN_ABS, SHN_COMMON */
			if (s.st_shndx != SHN_XINDEX)
				shndx = s.st_shndx;
			err = symbol_place(e, &s, shndx, place[k].section,
					   sizeof(place[k].section),
					   &place[k].offset);
			if (err)
				goto out;
			found[k] = 1;
			hits++;
		}
		free(at);
		at = NULL;
	}
	/* Every loadable module has a symbol table: none means damage. */
	return symtabs ? hits : -EINVAL;
out:
	free(at);
	return err;
}

static int same_build(Elf *e, const char *module_dir, struct errbuf *eb);

/*
 * An uncompressed module file (an ELF header at its start), open for
 * libelf to read what it asks for with pread, the headers, the symbol
 * tables and the note (ELF_C_READ): mapped, each page touched brought
 * its neighbours in (the kernel maps the 64 KiB around a file page on
 * a fault), half a MiB of ext4.ko against the 180 kB its symbols take.
 * -1 for a compressed file, or one that cannot be opened (which
 * module_file_load() then says why).
 */
static int raw_open(const char *path)
{
	unsigned char magic[SELFMAG];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)MODSYM_MAX_SIZE ||
	    pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
	    memcmp(magic, ELFMAG, SELFMAG)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * What modsym_find_many() and modsym_resolve_loaded() share: the file
 * read (and inflated), its symbols found.  With module_dir, a file whose
 * build id differs from the loaded module's finds nothing (same_build()
 * says why in eb and returns nonzero).
 */
static int module_symbols(const char *ko_path, const char *module_dir,
			  const char *const *names, size_t n,
			  struct modsym_place *place, int *found,
			  struct errbuf *eb)
{
	struct module_image file = { NULL, 0, 0 };
	Elf *e;
	int err, fd;

	memset(found, 0, n * sizeof(*found));
	elf_version(EV_CURRENT);
	fd = raw_open(ko_path);
	if (fd < 0) {
		err = module_file_load(ko_path, &file, eb);
		if (err)
			return err;
	}
	e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) :
		      elf_memory((char *)file.data, file.len);
	if (!e) {
		err = -EINVAL;
	} else {
		err = module_dir ? same_build(e, module_dir, eb) : 0;
		if (!err)
			err = elf_find_many(e, names, n, place, found);
		elf_end(e);
	}
	if (fd >= 0)
		close(fd);
	else
		module_file_free(&file);
	if (err == -EINVAL)
		return errbuf_set(eb, err, "%s: not a valid relocatable ELF file",
				  ko_path);
	if (err < 0 && !module_dir)
		errbuf_fmt(eb, "%s: %s", ko_path, strerror(-err));
	return err;
}

int modsym_find_many(const char *ko_path, const char *const *names, size_t n,
		     struct modsym_place *place, int *found, struct errbuf *eb)
{
	if (!ko_path || !names || !place || !found || !n)
		return -EINVAL;
	return module_symbols(ko_path, NULL, names, n, place, found, eb);
}

/* The bytes of section name in e (NULL if none), *len their size. */
static const void *section_bytes(Elf *e, const char *name, size_t *len)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	Elf_Data *d;
	const char *n;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			return NULL;
		n = elf_strptr(e, shstrndx, sh.sh_name);
		if (!n || strcmp(n, name) != 0)
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || !d->d_buf)
			return NULL;
		*len = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

/*
 * Whether e is the build the kernel loaded: its GNU build id note, byte
 * for byte the note the kernel shows in <module_dir>/notes/.
 */
static int same_build(Elf *e, const char *module_dir, struct errbuf *eb)
{
	const char *note = ".note.gnu.build-id";
	unsigned char live[256];
	const void *file;
	size_t len = 0;
	char path[512];
	int fd;
	ssize_t n;

	file = section_bytes(e, note, &len);
	if (!file)
		return errbuf_set(eb, -ENOENT, "the module file has no %s", note);
	snprintf(path, sizeof(path), "%s/notes/%s", module_dir, note);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errbuf_set(eb, -errno, "%s: %s", path, strerror(errno));
	n = read(fd, live, sizeof(live));
	close(fd);
	if (n < 0 || (size_t)n != len || memcmp(live, file, len) != 0)
		return errbuf_set(eb, -ESTALE,
				  "the module file's build id is not the loaded module's (%s)",
				  path);
	return 0;
}

/*
 * Run-time addresses of the places found: each section's base where the
 * kernel loaded it (sections_dir, /sys/module/<name>/sections) plus the
 * symbol's offset in it.  Returns hits, or the first failure.
 */
static int places_to_addrs(const char *sections_dir,
			   const struct modsym_place *place, const int *found,
			   size_t n, int hits, unsigned long long *addrs,
			   struct errbuf *eb)
{
	unsigned long long base = 0;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		if (!found[i])
			continue;
		err = modsym_section_addr(sections_dir, place[i].section, &base);
		if (err == -EPERM)
			return errbuf_set(eb, err,
					  "%s/%s: address hidden (needs CAP_SYSLOG)",
					  sections_dir, place[i].section);
		if (err)
			return errbuf_set(eb, err, "%s/%s: %s", sections_dir,
					  place[i].section, strerror(-err));
		addrs[i] = base + place[i].offset;
	}
	return hits;
}

int modsym_resolve_loaded(const char *ko_path, const char *module_dir,
			  const char *const *names, size_t n,
			  unsigned long long *addrs, int *found,
			  struct errbuf *eb)
{
	struct modsym_place place[MODSYM_MANY_MAX] = { 0 };
	char sections[512];
	int hits;

	if (!ko_path || !module_dir || !names || !n || n > MODSYM_MANY_MAX)
		return -EINVAL;
	hits = module_symbols(ko_path, module_dir, names, n, place, found, eb);
	if (hits < 0)
		return hits;
	snprintf(sections, sizeof(sections), "%s/sections", module_dir);
	return places_to_addrs(sections, place, found, n, hits, addrs, eb);
}

int modsym_find(const char *ko_path, const char *sym, char *section,
		size_t section_len, unsigned long long *offset,
		struct errbuf *eb)
{
	struct modsym_place place = { 0 };
	int found = 0, err;

	if (!ko_path || !sym || !section || !section_len || !offset)
		return -EINVAL;
	err = modsym_find_many(ko_path, &sym, 1, &place, &found, eb);
	if (err == 0) {
		errbuf_fmt(eb, "%s: no symbol %s", ko_path, sym);
		return -ENOENT;
	}
	if (err < 0)
		return err;
	if (strlen(place.section) >= section_len)
		return -ERANGE;
	strcpy(section, place.section);
	*offset = place.offset;
	return 0;
}

/* ---- where the running kernel put the module's sections -------------- */

int modsym_section_addr(const char *sections_dir, const char *section,
			unsigned long long *addr)
{
	char path[512], text[64], *end;
	unsigned long long val;
	ssize_t got;
	size_t len = 0;
	int fd, n;

	if (!sections_dir || !section || !addr || !section[0] ||
	    strchr(section, '/') || !strcmp(section, ".") ||
	    !strcmp(section, ".."))
		return -EINVAL;
	n = snprintf(path, sizeof(path), "%s/%s", sections_dir, section);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < sizeof(text) - 1) {
		got = read(fd, text + len, sizeof(text) - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += got;
	}
	n = got < 0 ? -errno : 0;
	close(fd);
	if (n)
		return n;
	text[len] = '\0';
	/* "0x" and 1 to 16 hex digits, then an optional newline */
	if (strncmp(text, "0x", 2) != 0 || !text[2] || text[2] == '-' ||
	    text[2] == '+' || text[2] == ' ')
		return -EINVAL;
	errno = 0;
	val = strtoull(text + 2, &end, 16);
	if (errno || end == text + 2 || end - (text + 2) > 16 ||
	    (*end && strcmp(end, "\n") != 0))
		return -EINVAL;
	/*
	 * Since Linux 5.8 these files read as 0 to openers without
	 * CAP_SYSLOG (the same rule as kallsyms); before, only root could
	 * open them (mode 0400).
	 */
	if (!val)
		return -EPERM;
	*addr = val;
	return 0;
}

int modsym_resolve_many(const char *ko_path, const char *sections_dir,
			const char *const *names, size_t n,
			unsigned long long *addrs, int *found,
			struct errbuf *eb)
{
	struct modsym_place place[MODSYM_MANY_MAX] = { 0 };
	int hits;

	if (n > MODSYM_MANY_MAX)
		return -E2BIG;
	if (!sections_dir)
		return -EINVAL;
	hits = modsym_find_many(ko_path, names, n, place, found, eb);
	if (hits <= 0)
		return hits;
	return places_to_addrs(sections_dir, place, found, n, hits, addrs, eb);
}

int modsym_resolve(const char *ko_path, const char *sections_dir,
		   const char *sym, unsigned long long *addr,
		   struct errbuf *eb)
{
	int found, n;

	if (!addr)
		return -EINVAL;
	n = modsym_resolve_many(ko_path, sections_dir, &sym, 1, addr, &found,
				eb);
	if (n == 0)
		return errbuf_set(eb, -ENOENT, "%s: no symbol %s", ko_path,
				  sym);
	return n < 0 ? n : 0;
}
