// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: args_parse() on an argv made of the input split on
 * NUL bytes (argv[0] is "ext4dist").  Every argument is its own
 * exact-size heap block, so ASan sees any read past its NUL.  Output goes
 * to a memory stream, freed every run (the leak checker sees the rest).
 */
#include "tool/cli/args.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps one run's cost bounded: argparse has no limit, we need one. */
#define MAX_ARGS 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2];
	struct ext4dist_args a;
	char *outbuf = NULL, *errtext = NULL;
	size_t outlen = 0, errsize = 0, start = 0, i;
	FILE *out, *err;
	int argc = 0, ret, code;

	argv[argc++] = strdup("ext4dist");
	for (i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i < size && data[i] != '\0')
			continue;
		argv[argc] = malloc(i - start + 1);
		if (!argv[argc])
			abort();
		memcpy(argv[argc], data + start, i - start);
		argv[argc][i - start] = '\0';
		argc++;
		start = i + 1;
	}
	argv[argc] = NULL;

	out = open_memstream(&outbuf, &outlen);
	err = open_memstream(&errtext, &errsize);
	if (!out || !err || !argv[0])
		abort();
	ret = args_parse(argc, argv, &a, out, err);
	fflush(out);
	fflush(err);
	code = args_exit_code(ret);
	if (code < 0 || code > 2)
		abort();
	if (ret == 0) {
		/* A run: the values must be in the documented ranges. */
		if (a.pid > ARGS_PID_MAX || a.maxactive > ARGS_MAXACTIVE_MAX ||
		    a.interval > ARGS_INTERVAL_MAX || !a.count ||
		    a.count > ARGS_COUNT_MAX || !a.ops_mask ||
		    (a.prometheus && !*a.prometheus) || errsize)
			abort();
	}
	if (ret == ARGS_ERR_USAGE &&
	    (errsize == 0 || strncmp(errtext, "usage: ext4dist", 15) != 0))
		abort();
	/* Error text echoes argv escaped: only printable ASCII and '\n'. */
	for (i = 0; i < errsize; i++)
		if ((errtext[i] < 0x20 && errtext[i] != '\n') ||
		    errtext[i] >= 0x7f)
			abort();
	fclose(out);
	fclose(err);
	free(outbuf);
	free(errtext);
	for (i = 0; i < (size_t)argc; i++)
		free(argv[i]);
	return 0;
}
