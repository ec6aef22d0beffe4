// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming kallsyms reader.  /proc/kallsyms has about 100,000 lines and
 * the kernel formats every one of them on read(), so the file is read once
 * for all wanted names, with one fixed buffer and no allocation per line.
 */
#include "loader/ksym/kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>


struct line_reader {
	int fd;
	int eof;
	size_t start;			/* first unconsumed byte */
	size_t end;			/* one past the last byte read */
	unsigned long too_long;		/* lines dropped: too long */
	/* Many lines per read(): System.map is a file of megabytes. */
	char buf[8 * (KALLSYMS_MAX_LINE + 1)];
};

struct ksym_line {
	unsigned long long addr;
	char type;
	const char *name;
	size_t name_len;
	const char *module;		/* "" for the core kernel */
	size_t module_len;
};

/* Moves the unconsumed bytes to the front and reads more after them. */
static int reader_fill(struct line_reader *r)
{
	ssize_t got;

	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	do {
		got = read(r->fd, r->buf + r->end, sizeof(r->buf) - r->end);
	} while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	if (got == 0)
		r->eof = 1;
	r->end += got;
	return 0;
}

/* Opens path (NULL: /proc/kallsyms) for reading lines; -1 with errno. */
static int reader_open(struct line_reader *r, const char *path)
{
	r->fd = open(path ? path : KALLSYMS_PATH, O_RDONLY | O_CLOEXEC);
	r->eof = 0;
	r->start = r->end = 0;
	r->too_long = 0;
	return r->fd < 0 ? -1 : 0;
}

/* Drops everything up to and including the next '\n' (or up to EOF). */
static int reader_skip_line(struct line_reader *r)
{
	const char *nl;
	int err;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl) {
			r->start = nl - r->buf + 1;
			return 0;
		}
		r->start = r->end = 0;
		if (r->eof)
			return 0;
		err = reader_fill(r);
		if (err)
			return err;
	}
}

/*
 * Returns 1 with the next line (without its '\n'), 0 at the end of the
 * file, or -errno.  The last line may lack its '\n'.  Lines longer than
 * KALLSYMS_MAX_LINE are skipped and counted in too_long.
 */
static int reader_next(struct line_reader *r, const char **line, size_t *len)
{
	const char *nl;
	size_t avail;
	int err;

	for (;;) {
		avail = r->end - r->start;
		nl = memchr(r->buf + r->start, '\n', avail);
		if (nl) {
			*line = r->buf + r->start;
			*len = nl - *line;
			r->start += *len + 1;
			if (*len <= KALLSYMS_MAX_LINE)
				return 1;
			r->too_long++;
			continue;
		}
		if (r->eof) {
			if (!avail)
				return 0;
			*line = r->buf + r->start;
			*len = avail;
			r->start = r->end;
			if (avail <= KALLSYMS_MAX_LINE)
				return 1;
			r->too_long++;
			continue;
		}
		if (avail > KALLSYMS_MAX_LINE) {
			/* No '\n' in more than a line's worth: too long. */
			r->too_long++;
			r->start = r->end = 0;
			err = reader_skip_line(r);
			if (err)
				return err;
			continue;
		}
		err = reader_fill(r);
		if (err)
			return err;
	}
}

/*
 * 1 + the value of each hexadecimal digit, 0 for anything else: about
 * 100,000 lines of 16 digits each, where a table costs a third of the
 * comparisons of hex_digit().
 */
static const unsigned char hex_plus_one[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
	['E'] = 15, ['F'] = 16,
};

/*
 * Splits "ADDR TYPE NAME" with an optional "\t[MODULE]" after it, the
 * format of kernel/kallsyms.c (s_show()) and of System.map.  A trailing
 * '\r' is tolerated.  Returns 0, or -EINVAL for anything else.
 */
static int parse_line(const char *p, size_t len, struct ksym_line *out)
{
	const char *end, *name;
	unsigned int d;
	int digits = 0;

	if (len && p[len - 1] == '\r')
		len--;
	/* A NUL would end a name early and let it match a longer one. */
	if (memchr(p, '\0', len))
		return -EINVAL;
	end = p + len;

	out->addr = 0;
	while (p < end && (d = hex_plus_one[(unsigned char)*p]) != 0) {
		out->addr = out->addr << 4 | (d - 1);
		p++;
		digits++;
	}
	if (digits > 16)
		return -EINVAL;
	if (!digits || end - p < 4 || p[0] != ' ' || p[2] != ' ' ||
	    p[1] == ' ' || p[1] == '\t' || (unsigned char)p[1] < 0x21 ||
	    (unsigned char)p[1] > 0x7e)
		return -EINVAL;
	out->type = p[1];
	p += 3;

	/* The name runs to a tab or the end: memchr, not a loop per byte. */
	name = p;
	p = memchr(name, '\t', (size_t)(end - name));
	if (!p)
		p = end;
	if (p == name || memchr(name, ' ', (size_t)(p - name)))
		return -EINVAL;
	out->name = name;
	out->name_len = p - name;
	out->module = "";
	out->module_len = 0;
	if (p == end)
		return 0;

	/* "\t[module]" and nothing after it */
	if (end - p < 4 || p[0] != '\t' || p[1] != '[' || end[-1] != ']')
		return -EINVAL;
	out->module = p + 2;
	out->module_len = end - 1 - out->module;
	if (memchr(out->module, ']', out->module_len) ||
	    memchr(out->module, ' ', out->module_len) ||
	    memchr(out->module, '\t', out->module_len))
		return -EINVAL;
	return 0;
}

static int is_data_type(char t)
{
	return t == 'd' || t == 'D' || t == 'b' || t == 'B' ||
	       t == 'r' || t == 'R';
}

static int same_module(const struct ksym_result *res,
		       const struct ksym_line *l)
{
	size_t have = strlen(res->module);
	size_t want = l->module_len;

	if (want > KSYM_MODULE_LEN - 1)
		want = KSYM_MODULE_LEN - 1;
	return have == want && memcmp(res->module, l->module, want) == 0;
}

static void record(struct ksym_result *res, const struct ksym_line *l)
{
	size_t mlen = l->module_len;

	if (res->found) {
		res->dups++;
		if (!same_module(res, l))
			res->dups_elsewhere++;
		return;
	}
	res->found = 1;
	res->addr = l->addr;
	res->type = l->type;
	if (mlen > KSYM_MODULE_LEN - 1)
		mlen = KSYM_MODULE_LEN - 1;
	memcpy(res->module, l->module, mlen);
	res->module[mlen] = '\0';
}

/* Records line l for every wanted name it matches; returns how many new. */
static size_t match_line(const struct ksym_line *l, const char *const *names,
			 size_t n, const unsigned long long *firsts,
			 struct ksym_result *out)
{
	unsigned char c = (unsigned char)l->name[0];
	size_t i, fresh = 0;

	/* Most lines start with no wanted name's first letter. */
	if (!(firsts[c >> 6] >> (c & 63) & 1))
		return 0;

	for (i = 0; i < n; i++) {
		if (names[i][0] != l->name[0] ||
		    strlen(names[i]) != l->name_len ||
		    memcmp(names[i], l->name, l->name_len) != 0)
			continue;
		if (!out[i].found)
			fresh++;
		record(&out[i], l);
	}
	return fresh;
}

/*
 * 1 when line may hold a wanted name: "ADDR T NAME" whose NAME starts
 * with a byte of firsts; also when it does not look like that at all
 * (then parse_line() judges it).  Most lines are dismissed here without
 * their address being read.
 */
static int may_want(const char *line, size_t len,
		    const unsigned long long *firsts)
{
	size_t at;
	unsigned char c;

	/* The address as wide as the kernel's words: 16 digits or 8. */
	if (len > 19 && line[16] == ' ' && line[18] == ' ')
		at = 19;
	else if (len > 11 && line[8] == ' ' && line[10] == ' ')
		at = 11;
	else
		return 1;
	c = (unsigned char)line[at];
	return (int)(firsts[c >> 6] >> (c & 63) & 1);
}

int kallsyms_lookup(const char *path, const char *const *names, size_t n,
		    unsigned int flags, struct ksym_result *out,
		    struct ksym_stats *stats)
{
	struct ksym_stats st = { 0 };
	struct line_reader r;
	struct ksym_line l;
	const char *line = NULL;
	unsigned long long firsts[4] = { 0 };	/* a bit per first byte */
	size_t i, len = 0, found = 0;
	int ret;

	if (n && (!names || !out))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		unsigned char c;

		if (!names[i] || !names[i][0])
			return -EINVAL;
		c = (unsigned char)names[i][0];
		firsts[c >> 6] |= 1ULL << (c & 63);
	}
	if (n)
		memset(out, 0, n * sizeof(*out));

	if (reader_open(&r, path))
		return -errno;

	while ((ret = reader_next(&r, &line, &len)) > 0) {
		/*
		 * Without stats to keep, a line of no interest is skipped
		 * once a real address has shown the file is not all zeros.
		 */
		if (!stats && st.nonzero && !may_want(line, len, firsts)) {
			st.lines++;
			continue;
		}
		if (parse_line(line, len, &l)) {
			st.malformed++;
			continue;
		}
		st.lines++;
		if (l.addr)
			st.nonzero++;
		if (is_data_type(l.type))
			st.data++;
		found += match_line(&l, names, n, firsts, out);
		if (found == n && !(flags & KSYM_SCAN_ALL))
			break;
	}
	st.malformed += r.too_long;
	st.complete = ret == 0;
	close(r.fd);
	if (ret < 0)
		return ret;
	if (stats)
		*stats = st;
	/*
	 * With kptr_restrict (or without CAP_SYSLOG under the default
	 * setting) the kernel prints every address as zeros instead of
	 * failing the read.  A few x86-64 per-CPU symbols really are 0,
	 * but they come first, before any text symbol.
	 */
	if (st.lines && !st.nonzero)
		return -EPERM;
	return (int)found;
}

static int is_text_type(char t)
{
	return t == 'T' || t == 't';
}

int kallsyms_first_text(const char *path, char *name, size_t size,
			unsigned long long *addr)
{
	struct line_reader r;
	struct ksym_line l;
	const char *line = NULL;
	size_t len = 0;
	int ret, zeros = 0;

	if (reader_open(&r, path))
		return -errno;
	while ((ret = reader_next(&r, &line, &len)) > 0) {
		if (parse_line(line, len, &l) || !is_text_type(l.type) ||
		    l.module_len)
			continue;
		if (!l.addr) {
			/* Hidden addresses: every line reads 0. */
			if (++zeros > 64) {
				ret = -EPERM;
				break;
			}
			continue;
		}
		if (l.name_len >= size) {
			ret = -ENAMETOOLONG;
			break;
		}
		memcpy(name, l.name, l.name_len);
		name[l.name_len] = '\0';
		*addr = l.addr;
		break;
	}
	close(r.fd);
	if (ret == 0)
		return zeros ? -EPERM : -ENOENT;
	return ret < 0 ? ret : 0;
}

int kallsyms_stats_have_data(const struct ksym_stats *stats)
{
	if (!stats || !stats->complete || !stats->lines)
		return -EAGAIN;
	return stats->data * 20 >= stats->lines;
}
