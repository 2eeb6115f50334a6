/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of a sample's user stack (perf record --call-graph
 * dwarf): from the registers (PERF_SAMPLE_REGS_USER) and the copy of the
 * stack (PERF_SAMPLE_STACK_USER) the kernel saved, with elfutils' libdwfl
 * unwinder and the CFI of the process's DSOs, as perf's unwind-libdw.c
 * (tools/perf/util/unwind-libdw.c unwind__get_entries) does it.  The
 * caller says which DSO maps an address and gives its file; modules stay
 * loaded per process, so a DSO's CFI is read once, not once per sample.
 * No printing.
 */
#ifndef PD_UNWIND_H
#define PD_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/format/regs.h"

struct pd_sample;
struct pd_unwinder;

/* The caller's view of a process's address space. */
struct pd_unwind_ops {
	/* The DSO mapping addr in process pid: its key (stable while the
	 * map stays), the address its file's offset 0 is at (map start -
	 * pgoff), its name.  false: no map holds addr. */
	bool (*find)(void *arg, uint32_t pid, uint64_t addr, uint32_t *key,
		     uint64_t *base, const char **name);
	/* A new read-only descriptor of the key's ELF file (the file its
	 * symbols come from); -1: none, why in *why. */
	int (*open)(void *arg, uint32_t key, const char **why);
};

struct pd_unwinder *pd_unwinder_new(const struct pd_unwind_ops *ops, void *arg);
void pd_unwinder_free(struct pd_unwinder *u);

/* Does the sample carry what unwinding needs (registers of a known ABI
 * and a non-empty stack copy)? */
bool pd_unwind_possible(const struct pd_sample *smp);

/* How an unwinding ended. */
enum pd_unwind_end {
	PD_UNWIND_DONE,	   /* the outermost frame was reached */
	PD_UNWIND_CAPPED,  /* max frames were given */
	PD_UNWIND_STOPPED, /* it could not go on: why */
};

/*
 * The return addresses of smp's user stack, innermost first (the first
 * is the sample's user IP), into pcs[0 .. max); *n how many.  A
 * caller's frame is its return address less one, an address in the call,
 * as perf prints and symbolizes it.  *why: for PD_UNWIND_STOPPED, a
 * message that stays valid until the next call.
 */
enum pd_unwind_end pd_unwind(struct pd_unwinder *u, const struct pd_sample *smp,
			     enum pd_arch arch, uint64_t *pcs, uint32_t max,
			     uint32_t *n, const char **why);

#endif
