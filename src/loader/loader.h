/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's public interface, for tools: everything a tool needs to
 * parse a legacy BPF object, create its maps, load and attach its
 * programs, find kernel symbols and read what the kernel offers.  The
 * headers it includes are the loader's public ones; the others under
 * src/loader/ (tracefs.h, perf_event.h, insn.h, small_file.h,
 * btf_stream.h, btf_names.h) are its own business.  The loader knows no
 * tool: names, messages and advice come from the caller (vlog_set()'s
 * prefix, attach_ctx_init()'s event prefix).
 *
 *   obj/     the ELF object, bpf(), maps and programs, the disassembler
 *   attach/  kprobes through the perf PMU or kprobe_events, kprobe_multi,
 *            fentry/fexit links
 *   btf/     the kernel's BTF: function ids by name (read through a
 *            window, never whole), BTF objects by name
 *   events/  the per-CPU perf rings bpf_perf_event_output() writes to
 *   ksym/    symbol addresses: kallsyms, System.map, module files, BPF
 *   kernel/  version code, privileges, CPUs, RCU grace periods, preemption
 *   util/    one-line error messages, the -v trace and its kernel calls
 */
#ifndef EXT4DIST_LOADER_LOADER_H
#define EXT4DIST_LOADER_LOADER_H

#include "loader/attach/attach.h"
#include "loader/btf/btf.h"
#include "loader/btf/btf_kobj.h"
#include "loader/events/perf_buf.h"
#include "loader/events/perf_ring.h"
#include "loader/kernel/cpus.h"
#include "loader/kernel/grace.h"
#include "loader/kernel/karch.h"
#include "loader/kernel/kversion.h"
#include "loader/kernel/meminfo.h"
#include "loader/kernel/own_tgid.h"
#include "loader/kernel/preempt.h"
#include "loader/kernel/privileges.h"
#include "loader/kernel/proc_field.h"
#include "loader/ksym/kallsyms.h"
#include "loader/ksym/ksym_bpf.h"
#include "loader/ksym/modsym.h"
#include "loader/ksym/module_file.h"
#include "loader/ksym/sysmap.h"
#include "loader/obj/bpf_disasm.h"
#include "loader/obj/bpf_sys.h"
#include "loader/obj/elf_obj.h"
#include "loader/obj/obj_load.h"
#include "loader/util/errbuf.h"
#include "loader/util/hex.h"
#include "loader/util/kcall.h"
#include "loader/util/text_pages.h"
#include "loader/util/vlog.h"

#endif
