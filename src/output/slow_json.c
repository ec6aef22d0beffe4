// SPDX-License-Identifier: GPL-2.0
/*
 * --json in slow mode: one object per event, on one line.  Strings are
 * the clean UTF-8 of slow_text.c, escaped as JSON requires.
 */
#include <errno.h>

#include "output/report.h"
#include "output/slow.h"

static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/*
 * {"time":S,"end_ns":N,"comm":"...","pid":N,"tid":N,"op":"read",
 *  "ret":N,"offset":N,"latency_ns":N,"file":"..." or null}
 */
int slow_json_line(FILE *f, const struct slow_event *ev, time_t now,
		   const char *comm, const char *file)
{
	const char *op = report_op_name(ev->op);

	fprintf(f, "{\"time\":%lld,\"end_ns\":%llu,\"comm\":", (long long)now,
		ev->end_ns);
	put_string(f, comm);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"op\":\"%s\",\"ret\":%lld,\"offset\":%llu,\"latency_ns\":%llu,\"file\":",
		ev->tgid, ev->tid, op ? op : "?", ev->ret, ev->pos,
		ev->delta_ns);
	if (file)
		put_string(f, file);
	else
		fputs("null", f);
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}
