// SPDX-License-Identifier: GPL-2.0
/*
 * sigdfl CMD [ARG...]: reset SIGINT/SIGTERM to their default action and exec
 * CMD.  Used only by the shell stub of ext4dist (stub/ext4dist.sh): a
 * command started with '&' by a non-interactive shell has SIGINT ignored,
 * and a shell script cannot trap a signal that was ignored on entry.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: sigdfl CMD [ARG...]\n");
		return 2;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
