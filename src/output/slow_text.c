// SPDX-License-Identifier: GPL-2.0
/*
 * The text and CSV lines of BCC's ext4slower: the same columns, widths
 * and rounding.  BCC's figures come from its own event struct: a u32
 * size (the return value, truncated), the entry offset in bytes, the
 * latency in whole microseconds (ns / 1000), the end time in us.
 * Unlike BCC, comm and file names are escaped (utf8_put_field()): any
 * user names files and sets comm, and neither may end a line, forge a
 * CSV field or drive root's terminal.
 */
#include <errno.h>
#include <string.h>

#include "output/slow.h"
#include "output/utf8.h"

int slow_op_letter(unsigned int op)
{
	/* Indexed by enum ext4dist_op; getattr is not BCC's (G). */
	static const char letters[] = "RWOSG";

	return op < NR_OPS ? (unsigned char)letters[op] : '?';
}

int slow_banner(FILE *f, const char *fs_name, unsigned long min_ms)
{
	if (min_ms)
		fprintf(f, "Tracing %s operations slower than %lu ms\n", fs_name,
			min_ms);
	else
		fprintf(f, "Tracing %s operations\n", fs_name);
	return ferror(f) ? -EIO : 0;
}

int slow_header(FILE *f, enum slow_format fmt, const char *fs_name,
		unsigned long min_ms)
{
	switch (fmt) {
	case SLOW_CSV:
		fputs("ENDTIME_us,TASK,PID,TYPE,BYTES,OFFSET_b,LATENCY_us,FILE\n",
		      f);
		break;
	case SLOW_TEXT:
		slow_banner(f, fs_name, min_ms);
		fprintf(f, "%-8s %-14s %-6s %1s %-7s %-8s %7s %s\n", "TIME",
			"COMM", "PID", "T", "BYTES", "OFF_KB", "LAT(ms)",
			"FILENAME");
		break;
	default:
		break;
	}
	return ferror(f) ? -EIO : 0;
}

/* The event's comm and file name, decoded as BCC decodes them. */
struct names {
	char comm[3 * SLOW_COMM_LEN + 1];
	char file[3 * SLOW_NAME_LEN + 1];
	int known;
};

static void decode(const struct slow_event *ev, struct names *n)
{
	utf8_clean(ev->comm, sizeof(ev->comm), n->comm, sizeof(n->comm));
	n->known = !!(ev->flags & SLOW_NAME_READ);
	if (n->known)
		utf8_clean(ev->name, sizeof(ev->name), n->file,
			   sizeof(n->file));
	else
		snprintf(n->file, sizeof(n->file), "%s", SLOW_NAME_UNKNOWN);
}

int slow_event_print(FILE *f, enum slow_format fmt,
		     const struct slow_event *ev, time_t now)
{
	unsigned long long us = ev->delta_ns / 1000;
	/* BCC's u32 size field: the return value modulo 2^32. */
	unsigned int size = (unsigned int)ev->ret;
	struct names n;
	char when[16];
	struct tm tm;

	decode(ev, &n);
	switch (fmt) {
	case SLOW_CSV:
		fprintf(f, "%llu,", ev->end_ns / 1000);
		utf8_put_field(f, n.comm, 0, -1, ",");
		fprintf(f, ",%u,%c,%u,%llu,%llu,", ev->tgid,
			slow_op_letter(ev->op), size, ev->pos, us);
		utf8_put_field(f, n.file, 0, -1, ",");
		fputc('\n', f);
		break;
	case SLOW_JSON:
		return slow_json_line(f, ev, now, n.comm,
				      n.known ? n.file : NULL);
	default:
		if (!localtime_r(&now, &tm) ||
		    !strftime(when, sizeof(when), "%H:%M:%S", &tm))
			snprintf(when, sizeof(when), "??:??:??");
		fprintf(f, "%-8s ", when);
		utf8_put_field(f, n.comm, 14, 14, NULL);
		/*
		 * Python 3 divides the offset as a float and %d truncates
		 * it; the latency is float(us) / 1000 rounded by %.2f.
		 */
		fprintf(f, " %-6u %c %-7u %-8llu %7.2f ", ev->tgid,
			slow_op_letter(ev->op), size,
			(unsigned long long)((double)ev->pos / 1024.0),
			(double)us / 1000.0);
		utf8_put_field(f, n.file, 0, -1, NULL);
		fputc('\n', f);
		break;
	}
	return ferror(f) ? -EIO : 0;
}
