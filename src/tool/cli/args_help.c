// SPDX-License-Identifier: GPL-2.0
/*
 * The usage lines and --help texts of both commands (ext4dist, ext4slower),
 * in ext4's words, which args_named() turns into the file system's;
 * --attach's default is the attach order's own sentence (attach_order.h).
 */
#include <errno.h>
#include <string.h>

#include "tool/cli/args_priv.h"
#include "tool/plan/attach_order.h"

#define HELP_INDENT	24
#define HELP_WIDTH	74

const char args_usage_dist[] =
	"usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]\n";

/*
 * The help in parts: those that speak of the generic read path only where
 * the file system has one.  Its words (the tool's name, BCC's
 * description) come from the file system's table (args_named()).
 */
static const char dist_head[] =
	"\n"
	"Summarize ext4 operation latency\n"
	"\n"
	"positional arguments:\n"
	"  interval              output interval, in seconds\n"
	"  count                 number of outputs\n"
	"\n"
	"optional arguments:\n"
	"  -h, --help            show this help message and exit\n"
	"  -T, --notimestamp     don't include timestamp on interval output\n"
	"  -m, --milliseconds    output in milliseconds\n"
	"  -p PID, --pid PID     trace this PID only\n"
	"  -t TYPE, --type TYPE  the file systems to trace, comma separated:\n"
	"                        ext4, xfs, btrfs, f2fs (default: the one the\n"
	"                        name run as says, as xfsdist and xfsslower\n"
	"                        say xfs; else ext4)\n"
	"  -v, --verbose         explain each load and attach step (repeat "
	"for more)\n"
	"  -j, --json            print each output as one line of JSON\n"
	"  -e, --extended        print count, mean, max and percentiles after\n"
	"                        each histogram\n"
	"  --ops LIST            operations to trace, comma separated, from\n"
	"                        read, write, open, fsync, getattr (default:\n"
	"                        read,write,open,fsync)\n"
	"  --prometheus FILE     also keep FILE up to date in Prometheus text\n"
	"                        format (replaced atomically at each output)\n"
	"  --listen [ADDR:]PORT  serve the same metrics over HTTP at /metrics\n"
	"                        for Prometheus, counted from the start (a\n"
	"                        port alone: on 127.0.0.1; systemd: the\n"
	"                        sockets of a socket unit)\n"
	"  --heatmap FILE.svg    with an interval: keep FILE up to date as a\n"
	"                        latency heatmap, a column per interval\n"
	"  --attach {auto,pmu,tracefs,multi,fentry,tracepoint}\n";
static const char dist_read_path[] =
	"  --read-path {auto,generic}\n"
	"                        generic: probe generic_file_read_iter filtered\n"
	"                        on ext4_file_operations, as on kernels < 4.10\n"
	"                        (default: auto)\n";
static const char dist_maxactive[] =
	"  --maxactive N         kretprobe instances per probe, 1 to 4096\n"
	"                        (default on tracefs: 4 per possible CPU, at\n"
	"                        least 64; elsewhere the kernel's)\n";
static const char dist_fops_addr[] =
	"  --fops-addr ADDR      address of ext4_file_operations (0x... or\n"
	"                        decimal) instead of looking it up (System.map,\n"
	"                        /proc/kallsyms, the module file)\n";
static const char dist_tail[] =
	"  --pretend LIST        behave as if the kernel lacked features, to see\n"
	"                        the fallbacks of older kernels; comma separated,\n"
	"                        from no-pmu, no-multi, no-percpu, no-names,\n"
	"                        no-kallsyms-data, no-tracefs, no-ext4,\n"
	"                        no-fentry, no-maxactive, no-read-iter,\n"
	"                        no-getattr, no-map-value\n"
	"  --slower MS           print each operation slower than MS milliseconds\n"
	"                        as it ends (0: every one), as ext4slower does,\n"
	"                        instead of histograms\n"
	"  --ring-pages N        with --slower: event ring pages per CPU, a power\n"
	"                        of two (default 64)\n"
	"  --start-slots N       start records, a power of two from 4096 to\n"
	"                        32768 (default: one per 16 KiB of memory)\n"
	"  --check               report what this kernel supports, then exit\n"
	"  --dump-bpf[=WHAT]     print the embedded BPF programs, then exit;\n"
	"                        WHAT: text (default), xlated (also as the\n"
	"                        kernel translated each one once loaded), jited\n"
	"                        (the machine code the kernel's JIT made), elf\n"
	"                        (sections, relocations, the bytes they change),\n"
	"                        refused (the programs broken on purpose, and\n"
	"                        the verifier's refusals); with --ops, only the\n"
	"                        programs a run of those operations may load\n"
	"  --prog GLOB           with --dump-bpf or --verifier-log: only the\n"
	"                        programs whose section, function or lesson\n"
	"                        name matches GLOB (kretprobe/fsync*)\n"
	"  --verifier-log[=LEVEL]\n"
	"                        print the verifier's log of every program\n"
	"                        loaded, also of those it accepts; LEVEL is the\n"
	"                        kernel's log_level: 1 the path it walked, 2\n"
	"                        its state at every instruction (default), 4\n"
	"                        its statistics alone\n"
	"  --dump-maps           at each output, print on stderr each CPU's\n"
	"                        counts of the histogram map and their sum\n"
	"  --version             show program's version number and exit\n"
	"\n"
	"examples:\n"
	"    ./ext4dist            # latency histograms, printed at Ctrl-C\n"
	"    ./ext4dist -p 181     # only process 181\n"
	"    ./ext4dist 1 10       # ten summaries, one per second\n"
	"    ./ext4dist -m 5       # a summary every 5 s, in milliseconds\n"
	"    ./ext4dist -e -j 1    # JSON with count, mean and max, every second\n"
	"    ./ext4dist --ops read,getattr     # only reads and getattr\n"
	"    ./ext4dist --prometheus /run/ext4dist.prom 10\n"
	"                          # keep a Prometheus textfile up to date\n"
	"    ./ext4dist -t ext4,xfs --listen 9435\n"
	"                          # an exporter on 127.0.0.1:9435/metrics\n"
	"    ./ext4dist --heatmap lat.svg 5\n"
	"                          # a latency heatmap, a column per 5 s\n"
	"    ./ext4dist --check    # can this kernel run ext4dist?\n"
	"    ./ext4dist --slower 1 # each operation slower than 1 ms\n"
	"    ./ext4dist -v --pretend=no-multi,no-percpu\n"
	"                          # kprobes and a plain array, as before 4.6\n";

const char args_usage_slower[] =
	"usage: ext4slower [-h] [-j] [-p PID] [min_ms]\n";

/* ext4slower's, in the same parts. */
static const char slower_head[] =
	"\n"
	"Print each ext4 read, write, open and fsync that takes longer than a\n"
	"threshold\n"
	"\n"
	"positional arguments:\n"
	"  min_ms                the threshold in milliseconds (default 10; 0\n"
	"                        prints every operation)\n"
	"\n"
	"optional arguments:\n"
	"  -h, --help            show this help message and exit\n"
	"  -j, --csv             print comma-separated fields instead of columns\n"
	"  -p PID, --pid PID     trace this process only\n"
	"  -t TYPE, --type TYPE  the file system to trace: ext4, xfs, btrfs or\n"
	"                        f2fs (default: the one the name run as says,\n"
	"                        as xfsdist and xfsslower say xfs; else ext4)\n"
	"  -v, --verbose         explain each load and attach step (repeat "
	"for more)\n"
	"  --json                print each event as one line of JSON\n"
	"  --ops LIST            operations to trace, comma separated, from\n"
	"                        read, write, open, fsync (default: all four)\n"
	"  --ring-pages N        event ring pages per CPU, a power of two\n"
	"                        (default 64)\n"
	"  --start-slots N       start records, a power of two from 4096 to\n"
	"                        32768 (default: one per 16 KiB of memory)\n"
	"  --heatmap FILE.svg    at the end, draw the events as a latency\n"
	"                        heatmap, a column per second\n"
	"  --attach {auto,pmu,tracefs,multi}\n"
	"                        how to create probes, as ext4dist --attach\n";
static const char slower_read_path[] =
	"  --read-path {auto,generic}\n"
	"                        generic: probe generic_file_read_iter, as on\n"
	"                        kernels < 4.10 (default: auto)\n";
static const char slower_maxactive[] =
	"  --maxactive N         kretprobe instances per probe, 1 to 4096\n";
static const char slower_fops_addr[] =
	"  --fops-addr ADDR      address of ext4_file_operations\n";
static const char slower_tail[] =
	"  --pretend LIST        behave as if the kernel lacked features (as\n"
	"                        ext4dist --pretend)\n"
	"  --version             show program's version number and exit\n"
	"\n"
	"examples:\n"
	"    ./ext4slower          # operations slower than 10 ms\n"
	"    ./ext4slower 1        # slower than 1 ms\n"
	"    ./ext4slower -j 1     # slower than 1 ms, as CSV\n"
	"    ./ext4slower 0        # every operation (a lot of output)\n"
	"    ./ext4slower -p 185   # process 185 only\n"
	"    ./ext4slower --json 5 # slower than 5 ms, as JSON lines\n"
	"    ./ext4slower --heatmap slow.svg 0\n"
	"                          # every call, then drawn as a heatmap\n";

/* --attach's text, the default from the attach order (HELP_INDENT). */
static const char attach_text[] =
	"how to create probes: perf kprobe PMU, tracefs kprobe_events, "
	"kprobe_multi links (5.18+) or fentry/fexit (BTF, 5.5+) (default: %s); "
	"tracepoint: fsync alone, through ext4's own tracepoints (ext4 only), "
	"no kprobes needed (only when asked for)";

/* text's words on lines of HELP_WIDTH, each after HELP_INDENT spaces. */
static void wrap(char *buf, size_t len, const char *text)
{
	size_t n = 0, col = 0;

	while (*text && n + 1 < len) {
		size_t w = strcspn(text, " ");

		if (col && col + 1 + w > HELP_WIDTH) {
			n += (size_t)snprintf(buf + n, len - n, "\n");
			col = 0;
		}
		if (n + 1 >= len)
			break;
		n += (size_t)snprintf(buf + n, len - n, "%*s%.*s",
				      col ? 1 : HELP_INDENT, "", (int)w, text);
		col += (col ? 1 : HELP_INDENT) + w;
		text += w;
		text += strspn(text, " ");
	}
	if (n + 1 < len)
		snprintf(buf + n, len - n, "\n");
}

/* ARGS_EXIT_OK, or the failed write's -errno (stdio keeps it in errno). */
static int served(FILE *out)
{
	if (!ferror(out))
		return ARGS_EXIT_OK;
	return errno ? -errno : -EIO;
}

int args_served(struct args_ctx *c, const char *text1, const char *text2)
{
	errno = 0;
	args_put_named(c->out, text1, c->named);
	args_put_named(c->out, text2, c->named);
	return served(c->out);
}

int args_help(struct args_ctx *c)
{
	const char *const dist[] = { dist_head, dist_read_path, dist_maxactive,
				     dist_fops_addr, dist_tail };
	const char *const slower[] = { slower_head, slower_read_path,
				       slower_maxactive, slower_fops_addr,
				       slower_tail };
	const char *const *parts = c->slower ? slower : dist;
	int generic = c->named->generic_read != NULL;
	char order[512], text[1024], para[1200];
	unsigned int i;

	attach_order_text(order, sizeof(order));
	snprintf(text, sizeof(text), attach_text, order);
	wrap(para, sizeof(para), text);
	errno = 0;
	fputs(c->usage, c->out);
	for (i = 0; i < 5; i++) {
		if (!generic && (i == 1 || i == 3))
			continue;
		args_put_named(c->out, parts[i], c->named);
		if (i == 0 && !c->slower)
			args_put_named(c->out, para, c->named);
	}
	return served(c->out);
}
