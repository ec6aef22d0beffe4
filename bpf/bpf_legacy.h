/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The little a BPF program for old kernels needs, written for this project:
 * helper ids from the UAPI enum, the legacy "maps" section definition, and
 * the probe argument/return registers per architecture.
 */
#ifndef EXT4DIST_BPF_BPF_LEGACY_H
#define EXT4DIST_BPF_BPF_LEGACY_H

#include <linux/types.h>
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
#define INLINE static inline __attribute__((always_inline))

/* Helpers are called by number; the numbers are the UAPI enum's. */
static void *(*bpf_map_lookup_elem)(void *map, const void *key) =
	(void *)BPF_FUNC_map_lookup_elem;
static long (*bpf_map_update_elem)(void *map, const void *key,
				   const void *value, __u64 flags) =
	(void *)BPF_FUNC_map_update_elem;
static long (*bpf_map_delete_elem)(void *map, const void *key) =
	(void *)BPF_FUNC_map_delete_elem;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)BPF_FUNC_ktime_get_ns;
static __u64 (*bpf_get_current_pid_tgid)(void) =
	(void *)BPF_FUNC_get_current_pid_tgid;
/* Only in kprobe_multi programs (5.18+), never on the legacy path. */
static __u64 (*bpf_get_attach_cookie)(void *ctx) =
	(void *)BPF_FUNC_get_attach_cookie;
/* kprobe_multi programs: the traced function's address (5.18+). */
static __u64 (*bpf_get_func_ip)(void *ctx) = (void *)BPF_FUNC_get_func_ip;
/*
 * bpf_probe_read, not _kernel: the latter arrived in 5.5.  But s390's
 * kernel and user address spaces overlap, and its kernels offer the plain
 * one to no program (6.1: "unknown func bpf_probe_read#4"): _kernel there.
 */
#if defined(__TARGET_ARCH_s390)
static long (*bpf_probe_read)(void *dst, __u32 size, const void *src) =
	(void *)BPF_FUNC_probe_read_kernel;
#else
static long (*bpf_probe_read)(void *dst, __u32 size, const void *src) =
	(void *)BPF_FUNC_probe_read;
#endif

/* Slow mode's events (4.4+; BPF_F_CURRENT_CPU as the index). */
static long (*bpf_perf_event_output)(void *ctx, void *map, __u64 flags,
				     void *data, __u64 size) =
	(void *)BPF_FUNC_perf_event_output;
static long (*bpf_get_current_comm)(void *buf, __u32 size) =
	(void *)BPF_FUNC_get_current_comm;
/* The lessons' number the verifier knows nothing about. */
static __u32 (*bpf_get_prandom_u32)(void) = (void *)BPF_FUNC_get_prandom_u32;
static __u64 (*bpf_get_smp_processor_id)(void) =
	(void *)BPF_FUNC_get_smp_processor_id;

#include "legacy_map_def.h"

/*
 * A 64-bit constant the compiler cannot see through, emitted as exactly one
 * ld_imm64 so the loader can find it and patch the real value in.
 */
#define PATCHED_CONST(placeholder) ({					\
	__u64 __v;							\
	asm volatile("%0 = %1 ll" : "=r"(__v) : "i"(placeholder));	\
	__v;								\
})

/*
 * struct pt_regs as seen by kprobe programs, and the kernel's own word:
 * kptr_t is what one kernel pointer occupies (bpf_probe_read of a pointer
 * reads that many bytes), klong_t the return value (REGS_RC) as the
 * kernel's signed long (ssize_t).  The register values are zero-extended to 64 bits.
 */
#if defined(__TARGET_ARCH_x86)
/* x86_64 pt_regs: rdi holds argument 1, rax the return value. */
#define REGS_PARM1(ctx) (((const __u64 *)(ctx))[14])	/* di */
#define REGS_PARM2(ctx) (((const __u64 *)(ctx))[13])	/* si */
#define REGS_RC(ctx) (((const __u64 *)(ctx))[10])	/* ax */
typedef __u64 kptr_t;
typedef __s64 klong_t;
#elif defined(__TARGET_ARCH_arm64)
/* arm64 user_pt_regs: regs[0..30], sp, pc, pstate. */
#define REGS_PARM1(ctx) (((const __u64 *)(ctx))[0])
#define REGS_PARM2(ctx) (((const __u64 *)(ctx))[1])
#define REGS_RC(ctx) (((const __u64 *)(ctx))[0])
typedef __u64 kptr_t;
typedef __s64 klong_t;
#elif defined(__TARGET_ARCH_arm)
/*
 * 32-bit ARM pt_regs: uregs[18] of 32-bit words (r0..r15, cpsr,
 * orig_r0); AAPCS passes arguments 1 and 2 in r0 and r1 and returns in
 * r0.  Pointers and longs are 32 bits.
 */
#define REGS_PARM1(ctx) ((__u64)((const __u32 *)(ctx))[0])
#define REGS_PARM2(ctx) ((__u64)((const __u32 *)(ctx))[1])
#define REGS_RC(ctx) ((__u64)((const __u32 *)(ctx))[0])
typedef __u32 kptr_t;
typedef __s32 klong_t;
#elif defined(__TARGET_ARCH_mips)
/*
 * 32-bit MIPS (o32) pt_regs: 8 words of argument save space (pad0), then
 * regs[32]; a0 and a1 (r4, r5) carry arguments 1 and 2, v0 (r2) the
 * return value (Debian 6.1's asm-offsets: PT_R4 48, PT_R2 40).
 */
#define REGS_PARM1(ctx) ((__u64)((const __u32 *)(ctx))[8 + 4])
#define REGS_PARM2(ctx) ((__u64)((const __u32 *)(ctx))[8 + 5])
#define REGS_RC(ctx) ((__u64)((const __u32 *)(ctx))[8 + 2])
typedef __u32 kptr_t;
typedef __s32 klong_t;
#elif defined(__TARGET_ARCH_s390)
/*
 * s390x user_pt_regs: args[1], the PSW (mask, addr), then gprs[16]; the
 * s390x ELF ABI passes arguments 1 and 2 in r2 and r3 and returns in r2.
 * Big-endian: the object is built for bpfeb.
 */
#define REGS_PARM1(ctx) (((const __u64 *)(ctx))[3 + 2])
#define REGS_PARM2(ctx) (((const __u64 *)(ctx))[3 + 3])
#define REGS_RC(ctx) (((const __u64 *)(ctx))[3 + 2])
typedef __u64 kptr_t;
typedef __s64 klong_t;
#elif defined(__TARGET_ARCH_riscv)
/*
 * riscv64 user_regs_struct: pc, ra, sp, gp, tp, t0-t2, s0, s1, then
 * a0-a7; a0 and a1 carry arguments 1 and 2, a0 the return value.
 */
#define REGS_PARM1(ctx) (((const __u64 *)(ctx))[10])
#define REGS_PARM2(ctx) (((const __u64 *)(ctx))[11])
#define REGS_RC(ctx) (((const __u64 *)(ctx))[10])
typedef __u64 kptr_t;
typedef __s64 klong_t;
#else
#error "set __TARGET_ARCH_x86, arm64, arm, mips, s390 or riscv"
#endif

#endif
