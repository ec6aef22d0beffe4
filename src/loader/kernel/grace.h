/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waiting until every BPF program that started before now has finished:
 * after user space changes a value the programs read (an epoch), the old
 * value can still be in use by a program running on another CPU.
 */
#ifndef EXT4DIST_LOADER_KERNEL_GRACE_H
#define EXT4DIST_LOADER_KERNEL_GRACE_H

/* How the last grace period was obtained, for -v. */
enum grace_how {
	GRACE_MEMBARRIER,	/* membarrier(): the kernel's RCU grace period */
	GRACE_MIGRATION,	/* ran on every online CPU in turn */
	GRACE_SLEEP,		/* neither could be had: slept instead */
};

/*
 * Returns once every kprobe or kprobe_multi program running when it was
 * called has returned.  They run with preemption disabled, so a grace
 * period of RCU-sched is enough: membarrier(MEMBARRIER_CMD_GLOBAL) waits
 * for one (4.3+, CONFIG_MEMBARRIER).  Without it, this thread visits
 * every online CPU in turn (sched_setaffinity): a CPU that switched to it
 * has left every preempt-disabled section it was in.  Only when that is
 * refused too (a cpuset) it sleeps 10 ms, far longer than any of our
 * programs runs.  Never fails.
 */
enum grace_how bpf_grace_period(void);

#endif
