// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol addresses from System.map and from module files, for the data
 * symbols kallsyms leaves out when CONFIG_KALLSYMS_ALL is off.
 */
#include "loader/sysmap.h"
#include "loader/kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>
#ifdef EXT4DIST_WITH_XZ
#include <lzma.h>
#endif
#ifdef EXT4DIST_WITH_ZSTD
#include <zstd.h>
#endif

struct buf {
	unsigned char *data;
	size_t len;
	size_t cap;
};

static void set_err(char *errbuf, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errbuf || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(errbuf, errlen, fmt, ap);
	va_end(ap);
}

/* ---- System.map ---------------------------------------------------- */

static int default_map_path(char *path, size_t len)
{
	struct utsname u;
	int n;

	if (uname(&u) < 0)
		return -errno;
	n = snprintf(path, len, "/boot/System.map-%s", u.release);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Looks names up in a System.map (kallsyms format without modules). */
static int map_lookup(const char *map_path, const char *const *names,
		      size_t n, struct ksym_result *res)
{
	char path[512];
	int ret;

	if (!map_path) {
		ret = default_map_path(path, sizeof(path));
		if (ret)
			return ret;
		map_path = path;
	}
	ret = kallsyms_lookup(map_path, names, n, 0, res, NULL);
	/* An all-zero System.map is no permission problem: just useless. */
	return ret == -EPERM ? -EINVAL : ret;
}

int sysmap_lookup(const char *map_path, const char *sym,
		  unsigned long long *addr, char *type)
{
	struct ksym_result res;
	int ret;

	if (!sym || !addr)
		return -EINVAL;
	ret = map_lookup(map_path, &sym, 1, &res);
	if (ret < 0)
		return ret;
	if (!res.found)
		return -ENOENT;
	*addr = res.addr;
	if (type)
		*type = res.type;
	return 0;
}

int sysmap_resolve(const char *map_path, const char *kallsyms_path,
		   const char *sym, unsigned long long *addr,
		   char *errbuf, size_t errlen)
{
	const char *names[2] = { sym, "_text" };
	struct ksym_result map[2], live;
	int ret;

	if (!sym || !addr)
		return -EINVAL;
	ret = map_lookup(map_path, names, 2, map);
	if (ret < 0) {
		set_err(errbuf, errlen, "System.map: %s", strerror(-ret));
		return ret;
	}
	if (!map[0].found || !map[1].found) {
		set_err(errbuf, errlen, "System.map has no %s",
			map[0].found ? "_text" : sym);
		return -ENOENT;
	}
	ret = kallsyms_lookup(kallsyms_path, &names[1], 1, 0, &live, NULL);
	if (ret == -EPERM) {
		set_err(errbuf, errlen, "kallsyms addresses are hidden");
		return ret;
	}
	if (ret < 0) {
		set_err(errbuf, errlen, "kallsyms: %s", strerror(-ret));
		return ret;
	}
	if (!live.found) {
		set_err(errbuf, errlen, "kallsyms has no _text");
		return -ENOENT;
	}
	/* KASLR moves the whole kernel image by one offset (unsigned wrap). */
	*addr = map[0].addr + (live.addr - map[1].addr);
	return 0;
}

/* ---- reading and decompressing a module file ------------------------ */

static int read_file(const char *path, struct buf *b)
{
	struct stat st;
	ssize_t got;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out;
	}
	if (st.st_size > (off_t)MODSYM_MAX_SIZE) {
		err = -EFBIG;
		goto out;
	}
	b->cap = st.st_size ? (size_t)st.st_size : 1;
	b->len = 0;
	b->data = malloc(b->cap);
	if (!b->data) {
		err = -ENOMEM;
		goto out;
	}
	while (b->len < b->cap) {
		got = read(fd, b->data + b->len, b->cap - b->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			goto out_free;
		}
		if (got == 0)
			break;
		b->len += got;
	}
	close(fd);
	return 0;

out_free:
	free(b->data);
	b->data = NULL;
out:
	close(fd);
	return err;
}

/* Makes room for more output; fails past MODSYM_MAX_SIZE. */
static int buf_grow(struct buf *b)
{
	size_t cap = b->cap ? b->cap * 2 : 1u << 16;
	unsigned char *p;

	if (b->cap >= MODSYM_MAX_SIZE)
		return -EFBIG;
	if (cap > MODSYM_MAX_SIZE)
		cap = MODSYM_MAX_SIZE;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

static int gunzip(const struct buf *in, struct buf *out)
{
	z_stream z;
	int zret, err = 0;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	z.next_in = in->data;
	z.avail_in = in->len;
	for (;;) {
		if (out->len == out->cap) {
			err = buf_grow(out);
			if (err)
				break;
		}
		z.next_out = out->data + out->len;
		z.avail_out = out->cap - out->len;
		zret = inflate(&z, Z_NO_FLUSH);
		out->len = out->cap - z.avail_out;
		if (zret == Z_STREAM_END)
			break;
		if (zret == Z_OK || (zret == Z_BUF_ERROR && !z.avail_out))
			continue;
		/* Z_BUF_ERROR with room left: the input ended too early. */
		err = zret == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
		break;
	}
	inflateEnd(&z);
	return err;
}

#ifdef EXT4DIST_WITH_XZ
static int unxz(const struct buf *in, struct buf *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret;
	int err;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	s.next_in = in->data;
	s.avail_in = in->len;
	do {
		if (out->len == out->cap) {
			err = buf_grow(out);
			if (err)
				goto out;
		}
		s.next_out = out->data + out->len;
		s.avail_out = out->cap - out->len;
		/* LZMA_FINISH: all input is there; short input is an error */
		ret = lzma_code(&s, LZMA_FINISH);
		out->len = out->cap - s.avail_out;
	} while (ret == LZMA_OK);
	if (ret == LZMA_STREAM_END)
		err = 0;
	else
		err = ret == LZMA_MEM_ERROR ? -ENOMEM : -EINVAL;
out:
	lzma_end(&s);
	return err;
}
#endif

#ifdef EXT4DIST_WITH_ZSTD
static int unzstd(const struct buf *in, struct buf *out)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in->data, in->len, 0 };
	ZSTD_outBuffer ob;
	size_t left = 1;
	int err = 0;

	if (!ds)
		return -ENOMEM;
	/* left == 0 means a frame ended and its data was all flushed. */
	while (ib.pos < ib.size || left) {
		if (out->len == out->cap) {
			err = buf_grow(out);
			if (err)
				break;
		}
		ob.dst = out->data;
		ob.size = out->cap;
		ob.pos = out->len;
		left = ZSTD_decompressStream(ds, &ob, &ib);
		out->len = ob.pos;
		if (ZSTD_isError(left)) {
			err = -EINVAL;
			break;
		}
		/* No input left, output not full, frame not done: truncated. */
		if (left && ib.pos == ib.size && ob.pos < ob.size) {
			err = -EINVAL;
			break;
		}
	}
	ZSTD_freeDStream(ds);
	return err;
}
#endif

enum ko_format { KO_RAW, KO_GZIP, KO_XZ, KO_ZSTD };

static enum ko_format detect_format(const struct buf *b)
{
	static const unsigned char gz[] = { 0x1f, 0x8b };
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

	if (b->len >= sizeof(gz) && !memcmp(b->data, gz, sizeof(gz)))
		return KO_GZIP;
	if (b->len >= sizeof(xz) && !memcmp(b->data, xz, sizeof(xz)))
		return KO_XZ;
	if (b->len >= sizeof(zst) && !memcmp(b->data, zst, sizeof(zst)))
		return KO_ZSTD;
	return KO_RAW;
}

/* Reads path into *out, decompressed.  Frees nothing on error but *out. */
static int load_module_file(const char *path, struct buf *out,
			    char *errbuf, size_t errlen)
{
	struct buf raw = { 0 };
	const char *fmt = NULL;
	int err;

	err = read_file(path, &raw);
	if (err) {
		set_err(errbuf, errlen, "%s: %s", path, strerror(-err));
		return err;
	}
	switch (detect_format(&raw)) {
	case KO_RAW:
		*out = raw;
		return 0;
	case KO_GZIP:
		fmt = "gzip";
		err = gunzip(&raw, out);
		break;
	case KO_XZ:
		fmt = "xz";
#ifdef EXT4DIST_WITH_XZ
		err = unxz(&raw, out);
#else
		err = -ENOTSUP;
#endif
		break;
	case KO_ZSTD:
		fmt = "zstd";
#ifdef EXT4DIST_WITH_ZSTD
		err = unzstd(&raw, out);
#else
		err = -ENOTSUP;
#endif
		break;
	}
	free(raw.data);
	if (err == -ENOTSUP)
		set_err(errbuf, errlen,
			"%s: %s-compressed modules are not supported by this build",
			path, fmt);
	else if (err)
		set_err(errbuf, errlen, "%s: cannot decompress %s data: %s",
			path, fmt, strerror(-err));
	if (err) {
		free(out->data);
		out->data = NULL;
	}
	return err;
}

int modsym_ko_path(const char *base, char *buf, size_t len)
{
	static const char *const suffixes[] = { "", ".xz", ".zst", ".gz" };
	size_t i;
	int n;

	if (!base || !buf)
		return -EINVAL;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		n = snprintf(buf, len, "%s%s", base, suffixes[i]);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (access(buf, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

/* ---- the symbol in the module's ELF file ---------------------------- */

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

static int elf_find(Elf *e, const char *sym, char *section,
		    size_t section_len, unsigned long long *offset)
{
	Elf_Data *data, *xdata;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	GElf_Sym s;
	GElf_Word shndx;
	const char *name;
	size_t i, count, nsec;
	int symtabs = 0;

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
		for (i = 1; i < count; i++) {
			if (!gelf_getsymshndx(data, xdata, i, &s, &shndx))
				return -EINVAL;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || strcmp(name, sym) != 0)
				continue;
			if (s.st_shndx == SHN_UNDEF)
				continue;	/* a reference, not a definition */
			if (s.st_shndx == SHN_XINDEX && !xdata)
				return -EINVAL;
			if (s.st_shndx >= SHN_LORESERVE &&
			    s.st_shndx != SHN_XINDEX)
				return -EINVAL;	/* SHN_ABS, SHN_COMMON */
			if (s.st_shndx != SHN_XINDEX)
				shndx = s.st_shndx;
			return symbol_place(e, &s, shndx, section,
					    section_len, offset);
		}
	}
	/* Every loadable module has a symbol table: none means damage. */
	return symtabs ? -ENOENT : -EINVAL;
}

int modsym_find(const char *ko_path, const char *sym, char *section,
		size_t section_len, unsigned long long *offset,
		char *errbuf, size_t errlen)
{
	struct buf file = { 0 };
	Elf *e;
	int err;

	if (!ko_path || !sym || !section || !section_len || !offset)
		return -EINVAL;
	err = load_module_file(ko_path, &file, errbuf, errlen);
	if (err)
		return err;
	elf_version(EV_CURRENT);
	e = elf_memory((char *)file.data, file.len);
	if (!e) {
		err = -EINVAL;
	} else {
		err = elf_find(e, sym, section, section_len, offset);
		elf_end(e);
	}
	free(file.data);
	if (err == -ENOENT)
		set_err(errbuf, errlen, "%s: no symbol %s", ko_path, sym);
	else if (err == -EINVAL)
		set_err(errbuf, errlen,
			"%s: not a valid relocatable ELF file for %s",
			ko_path, sym);
	else if (err)
		set_err(errbuf, errlen, "%s: %s: %s", ko_path, sym,
			strerror(-err));
	return err;
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

int modsym_resolve(const char *ko_path, const char *sections_dir,
		   const char *sym, unsigned long long *addr,
		   char *errbuf, size_t errlen)
{
	unsigned long long off, base;
	char section[256];
	int err;

	if (!addr)
		return -EINVAL;
	err = modsym_find(ko_path, sym, section, sizeof(section), &off,
			  errbuf, errlen);
	if (err)
		return err;
	err = modsym_section_addr(sections_dir, section, &base);
	if (err == -EPERM) {
		set_err(errbuf, errlen,
			"%s/%s: address hidden (needs CAP_SYSLOG)",
			sections_dir, section);
		return err;
	}
	if (err) {
		set_err(errbuf, errlen, "%s/%s: %s", sections_dir ?
			sections_dir : "(null)", section, strerror(-err));
		return err;
	}
	*addr = base + off;
	return 0;
}
