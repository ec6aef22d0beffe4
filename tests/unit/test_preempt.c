// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/loader/kernel/preempt.c: each source of the preemption
 * model parsed, and the order kernel_preemption() asks them in.
 */
#include "test.h"
#include "loader/kernel/preempt.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef enum preempt_model (*parser)(const char *, char *, size_t);

static void parses(const char *name, parser p, const char *in,
		   enum preempt_model want, const char *want_mode)
{
	char mode[32] = "", label[200];

	snprintf(label, sizeof(label), "%s: model", name);
	check_int(label, p(in, mode, sizeof(mode)), want);
	if (want_mode) {
		snprintf(label, sizeof(label), "%s: mode", name);
		check_str(label, mode, want_mode);
	}
}

static void test_uname(void)
{
	parses("Debian 6.12", preempt_from_uname,
	       "#1 SMP PREEMPT_DYNAMIC Debian 6.12.118-1 (2025-11-01)",
	       PREEMPT_MODEL_DYNAMIC, "PREEMPT_DYNAMIC");
	parses("Debian 5.10: voluntary, built in", preempt_from_uname,
	       "#1 SMP Debian 5.10.244-1 (2025-09-29)", PREEMPT_MODEL_OFF,
	       "none or voluntary");
	parses("full, built in", preempt_from_uname,
	       "#1 SMP PREEMPT Tue Mar 5 10:00:00 UTC 2024", PREEMPT_MODEL_ON,
	       "PREEMPT");
	parses("real-time", preempt_from_uname,
	       "#1 SMP PREEMPT_RT Debian 6.1.158-1 (2025-11-09)",
	       PREEMPT_MODEL_ON, "PREEMPT_RT");
	/* RT wins wherever it stands among the flags. */
	parses("real-time after PREEMPT", preempt_from_uname,
	       "#1 SMP PREEMPT PREEMPT_RT Mon Jan 1", PREEMPT_MODEL_ON,
	       "PREEMPT_RT");
	/* A word that merely starts with the flag is not it. */
	parses("PREEMPTED is no flag", preempt_from_uname,
	       "#1 SMP PREEMPTED-build", PREEMPT_MODEL_OFF, NULL);
	parses("empty", preempt_from_uname, "", PREEMPT_MODEL_OFF, NULL);
}

static void test_sched(void)
{
	parses("voluntary", preempt_from_sched, "none (voluntary) full\n",
	       PREEMPT_MODEL_OFF, "voluntary");
	parses("none", preempt_from_sched, "(none) voluntary full\n",
	       PREEMPT_MODEL_OFF, "none");
	parses("full", preempt_from_sched, "none voluntary (full)\n",
	       PREEMPT_MODEL_ON, "full");
	parses("lazy (6.13+)", preempt_from_sched,
	       "none voluntary full (lazy)\n", PREEMPT_MODEL_ON, "lazy");
	parses("an unknown mode", preempt_from_sched, "(strange) full\n",
	       PREEMPT_MODEL_UNKNOWN, "strange");
	parses("no mode marked", preempt_from_sched, "none voluntary full\n",
	       PREEMPT_MODEL_UNKNOWN, NULL);
	parses("empty parentheses", preempt_from_sched, "() full\n",
	       PREEMPT_MODEL_UNKNOWN, NULL);
}

static void test_cmdline(void)
{
	parses("preempt=full", preempt_from_cmdline,
	       "BOOT_IMAGE=/vmlinuz root=/dev/vda preempt=full quiet\n",
	       PREEMPT_MODEL_ON, "full");
	parses("the last one wins", preempt_from_cmdline,
	       "preempt=full preempt=none\n", PREEMPT_MODEL_OFF, "none");
	parses("none given", preempt_from_cmdline, "root=/dev/vda quiet\n",
	       PREEMPT_MODEL_UNKNOWN, NULL);
	parses("another parameter's value", preempt_from_cmdline,
	       "nopreempt=full\n", PREEMPT_MODEL_UNKNOWN, NULL);
	parses("an empty value", preempt_from_cmdline, "preempt= quiet\n",
	       PREEMPT_MODEL_UNKNOWN, NULL);
}

static void test_config(void)
{
	parses("Debian's default", preempt_from_config,
	       "CONFIG_PREEMPT_BUILD=y\n# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_COUNT=y\nCONFIG_PREEMPTION=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
	       PREEMPT_MODEL_OFF, "voluntary");
	parses("full by default", preempt_from_config,
	       "CONFIG_PREEMPT=y\nCONFIG_PREEMPT_DYNAMIC=y\n", PREEMPT_MODEL_ON,
	       "full");
	parses("real-time", preempt_from_config,
	       "CONFIG_PREEMPT=y\nCONFIG_PREEMPT_RT=y\n", PREEMPT_MODEL_ON,
	       "PREEMPT_RT");
	parses("no model", preempt_from_config, "CONFIG_SMP=y\n",
	       PREEMPT_MODEL_UNKNOWN, NULL);
}

/* kernel_preemption() on files of a test directory. */
static void test_sources(void)
{
	const char *dir = test_tmpdir("preempt");
	char dbg[300], sched[320], cmdline[300], config[300], why[512];
	struct preempt_paths p;

	snprintf(dbg, sizeof(dbg), "%s/debug", dir);
	snprintf(sched, sizeof(sched), "%s/sched", dbg);
	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", dir);
	snprintf(config, sizeof(config), "%s/config", dir);
	mkdir(dbg, 0755);
	mkdir(sched, 0755);
	snprintf(sched, sizeof(sched), "%s/sched/preempt", dbg);
	memset(&p, 0, sizeof(p));
	p.debugfs = dbg;
	p.cmdline = cmdline;
	p.config = config;

	p.uname_version = "#1 SMP Debian 5.10.244-1 (2025-09-29)";
	check_int("built in, voluntary", kernel_preemption(&p, why, sizeof(why)),
		  PREEMPT_MODEL_OFF);
	check_str("built in, voluntary: why", why,
		  "none or voluntary, built in (uname -v: #1 SMP Debian 5.10.244-1 (2025-09-29))");
	p.uname_version = "#1 SMP PREEMPT Tue Mar 5";
	check_int("built in, full", kernel_preemption(&p, why, sizeof(why)),
		  PREEMPT_MODEL_ON);
	check_str("built in, full: why", why,
		  "full, built in (uname -v: #1 SMP PREEMPT Tue Mar 5)");

	/*
	 * Dynamic: sched/preempt first, then preempt=, then the config.  A
	 * debugfs path of the caller's is never mounted over.
	 */
	p.uname_version = "#1 SMP PREEMPT_DYNAMIC Debian 6.12.118-1";
	test_write_file(sched, "none voluntary (full) lazy\n", 27);
	test_write_file(cmdline, "preempt=none\n", 13);
	test_write_file(config, "CONFIG_PREEMPT_VOLUNTARY=y\n", 27);
	check_int("dynamic, debugfs", kernel_preemption(&p, why, sizeof(why)),
		  PREEMPT_MODEL_ON);
	{
		char want[400];

		snprintf(want, sizeof(want), "full (%s/sched/preempt)", dbg);
		check_str("dynamic, debugfs: why", why, want);
	}
	remove(sched);
	check_int("dynamic, command line",
		  kernel_preemption(&p, why, sizeof(why)), PREEMPT_MODEL_OFF);
	{
		char want[400];

		snprintf(want, sizeof(want), "none (preempt= in %s)", cmdline);
		check_str("dynamic, command line: why", why, want);
	}
	test_write_file(cmdline, "root=/dev/vda\n", 14);
	check_int("dynamic, config", kernel_preemption(&p, why, sizeof(why)),
		  PREEMPT_MODEL_OFF);
	{
		char want[400];

		snprintf(want, sizeof(want),
			 "voluntary (the build's default, in %s)", config);
		check_str("dynamic, config: why", why, want);
	}
	remove(config);
	check_int("dynamic, nothing says", kernel_preemption(&p, why, sizeof(why)),
		  PREEMPT_MODEL_UNKNOWN);
	{
		char want[1200];

		snprintf(want, sizeof(want),
			 "unknown: PREEMPT_DYNAMIC, and neither %s/sched/preempt, preempt= in %s nor %s says which mode",
			 dbg, cmdline, config);
		check_str("dynamic, nothing says: why", why, want);
	}
}

static const struct test_case test_cases[] = {
	TEST_CASE(uname),
	TEST_CASE(sched),
	TEST_CASE(cmdline),
	TEST_CASE(config),
	TEST_CASE(sources),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
