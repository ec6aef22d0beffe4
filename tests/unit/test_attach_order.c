// SPDX-License-Identifier: GPL-2.0
/*
 * The automatic attach order, written once (tool/plan/attach_order.c):
 * the decision (plan.c) takes each step exactly where the steps before it
 * are missing and it and the later ones are there, and --help's sentence
 * is the table's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "tool/plan/attach_order.h"

/* Runs the decision, answering every capability from has (bit per id). */
static int decide(unsigned int has, struct attach_choice *choice)
{
	struct attach_want w = { .mode = ATTACH_AUTO, .possible_cpus = 1 };
	struct attach_caps caps;
	struct errbuf eb = { "" };
	enum cap_id need;
	int err;

	memset(&caps, 0, sizeof(caps));
	while ((err = plan_attach(&w, &caps, choice, &need, &eb)) == 1)
		caps.c[need].state = has & (1u << need) ? CAP_YES : CAP_NO;
	return err;
}

static void test_plan_follows(void)
{
	struct attach_choice choice;
	unsigned int i, j, has;
	char label[200];

	check_int("five steps", attach_order_len, 5);
	for (i = 0; i < attach_order_len; i++) {
		const struct attach_step *s = &attach_order[i];

		/* This step's and every later step's capabilities alone. */
		for (has = 0, j = i; j < attach_order_len; j++)
			has |= attach_order[j].caps;
		snprintf(label, sizeof(label), "step %u (%s): decided", i,
			 s->help);
		if (!check_int(label, decide(has, &choice), 0))
			continue;
		snprintf(label, sizeof(label), "step %u (%s): its path", i,
			 s->help);
		check_str(label, plan_path_name(choice.path),
			  plan_path_name(s->path));
		snprintf(label, sizeof(label), "step %u (%s): sized", i,
			 s->help);
		check_int(label, choice.maxactive != 0, s->sized);
	}
	check_int("no step's capabilities: refused", decide(0, &choice),
		  -EOPNOTSUPP);
}

static void test_sentence(void)
{
	char buf[512], small[12];

	attach_order_text(buf, sizeof(buf));
	check_str("the sentence", buf,
		  "auto, kprobe_multi links where the kernel makes them, else tracefs where it can size return probes (4.12+), else the PMU, else tracefs, else fentry/fexit where the kernel's BTF names every function and it makes trampolines");
	attach_order_text(small, sizeof(small));
	check_str("cut to its buffer", small, "auto, kprob");
}

static const struct test_case test_cases[] = {
	TEST_CASE(plan_follows),
	TEST_CASE(sentence),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
