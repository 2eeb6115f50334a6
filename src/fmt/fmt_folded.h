/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks (perfdump export --to folded): one line per distinct
 * stack, "comm;outer;...;leaf COUNT", as FlameGraph's stackcollapse-perf.pl
 * writes them from perf script's output, for flamegraph.pl, inferno,
 * speedscope and d3-flame-graph.  Its rules, applied to each frame as
 * perf script prints it (sym+0xOFF (dso), [unknown] without a symbol):
 * the offset is left out; a frame without symbol is named [BASENAME] of
 * its DSO ([unknown] without one); ';' becomes ':'; everything from the
 * first '(' on is left out (not of "(anonymous namespace)", nor in a Go
 * name such as "net/http.(*Client).Do"); quotes are removed; a frame
 * whose name starts with '(' is left out; java's "Lpkg/Class;" loses its
 * L.  The first frame is the thread's name with spaces as '_'.  Lines are
 * sorted as the script sorts them (byte order of the stack).
 */
#ifndef PD_FMT_FOLDED_H
#define PD_FMT_FOLDED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct pd_stacks;

enum folded_first {
	FOLDED_COMM, /* comm */
	FOLDED_PID,  /* comm-PID (the script's --pid) */
	FOLDED_TID,  /* comm-PID/TID (--tid) */
};

/* Which frames show the calls inlined at them as frames of their own,
 * outermost first (perf script prints them innermost first, "(inlined)") */
enum folded_inline {
	/* the user stack unwound from a stack copy (--call-graph dwarf), as
	 * perf script does by default (its DWARF unwinding appends them) */
	FOLDED_INL_UNWOUND,
	FOLDED_INL_ALL,	 /* every frame's (--inline) */
	FOLDED_INL_NONE, /* none (perf script --no-inline) */
};

struct folded_opts {
	enum folded_first first;
	bool kernel_suffix; /* _[k] after kernel frames (the script's --kernel) */
	bool jit_suffix;    /* _[j] after JIT frames (--jit) */
	enum folded_inline inlines;
	bool period;	/* COUNT: the period's sum, not the samples */
	uint32_t event; /* the event whose samples are counted */
};

/* Write st's stacks of o->event to out.  Returns 0, or -1 when out of
 * memory (nothing written then). */
int fmt_folded(FILE *out, const struct pd_stacks *st,
	       const struct folded_opts *o);

#endif
