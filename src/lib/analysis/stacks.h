/* SPDX-License-Identifier: MIT */
/*
 * The samples as distinct stacks, for the exports (perfdump export): each
 * stack a thread (pid, tid, and its name at the sample's time) and a
 * sequence of interned frames, leaf first, with its sample count and
 * period sum per event.  Fed with the frames of symbolize.h, one sample
 * at a time, by a walk in time order; memory grows with the distinct
 * frames, threads and stacks, never with the number of samples.
 * A frame is one address of one DSO (its DSO's index and the address in
 * it), so a stack keeps what pprof's locations need: the DSO (its name,
 * build-id: pd_symbolizer_dso), the address in it and the first
 * process's, the symbol and offset, and with lines the source line and
 * the calls inlined there.  Context markers are left out (perf script
 * prints none); the cpumode they set says which frames are the kernel's.
 * No printing.
 */
#ifndef PD_STACKS_H
#define PD_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/analysis/symbolize.h"
#include "lib/base/arena.h"
#include "lib/base/hindex.h"

#define PD_STK_NONE UINT32_MAX

/* One frame: the strings are the model's own copies. */
struct pd_stk_frame {
	uint64_t ip;	 /* the address in the first sample that had it */
	uint64_t rel;	 /* in its DSO (ip - map start + pgoff); no map: ip */
	const char *sym; /* NULL: no symbol holds it ([unknown]) */
	const char *raw_sym; /* with sym: as the symbol table has it */
	uint64_t symoff;     /* rel's offset in sym */
	const char *dso;     /* NULL: no map holds it */
	uint32_t dso_index;  /* PD_STK_NONE without dso; pd_symbolizer_dso */
	/* with dso: the map of ip, [map_start, map_end) at pgoff in it */
	uint64_t map_start, map_end, pgoff;
	bool kernel;	 /* in the kernel's cpumode (a kernel or guest
			     * kernel context, or a sample's misc) */
	bool unverified; /* symbolize.h */
	bool unwound;	 /* of a user stack unwound from its copy (where
			     * perf script shows the inlined calls) */
	/* with lines: the source line (of the outermost inlined call when
	 * there are some; file NULL: not known), the calls inlined at the
	 * address, innermost first */
	const char *file;
	int line;
	const struct pd_inline_frame *inl;
	uint32_t ninl;
};

/* A thread as a sample names it: its name at the sample's time (perf
 * script's: ":TID" before a COMM, "" without TID). */
struct pd_stk_thread {
	uint32_t pid, tid; /* UINT32_MAX: perf's -1 */
	const char *comm;
};

/* A stack's samples of one event; next: the stack's next event's, or
 * PD_STK_NONE. */
struct pd_stk_count {
	uint32_t event; /* evsel index */
	uint32_t next;
	uint64_t samples, period;
};

struct pd_stk_stack {
	uint32_t thread;	/* index in threads */
	uint32_t nframes;	/* 0: a sample without ip or frames */
	const uint32_t *frames; /* indices in frames, leaf first */
	uint32_t count;		/* its first count (counts) */
};

struct pd_stacks {
	struct pd_stk_frame *frames;
	struct pd_stk_thread *threads;
	struct pd_stk_stack *stacks;
	struct pd_stk_count *counts;
	uint32_t nframes, nthreads, nstacks, ncounts;
	uint32_t capf, capt, caps, capc;
	uint64_t samples;     /* added */
	uint32_t first_event; /* the first sample's; PD_STK_NONE: none yet */
	/* the samples' times, first to last (stacks_walk.h
	 * pd_stacks_sample: those with PERF_SAMPLE_TIME; none: !has_time) */
	bool has_time;
	uint64_t first_time, last_time;
	bool oom; /* out of memory: some samples were not added */
	/* private */
	struct pd_hindex fx, tx, sx;
	struct arena a;
	uint32_t seq[PD_FRAMES_MAX];
};

/* An empty model; pd_stacks_free frees it (and leaves it empty). */
void pd_stacks_init(struct pd_stacks *st);
void pd_stacks_free(struct pd_stacks *st);
/* Empty again, its memory kept for the next samples (a parallel walk's
 * batch: stacks_walk.c). */
void pd_stacks_reset(struct pd_stacks *st);

/*
 * One sample of event `event` with `period`: of thread pid/tid named
 * comm (NULL: ""), cpumode its misc's cpumode (PD_MISC_*), its frames f
 * (NULL or none: a stack without frames).  Returns 0, or -1 when out of
 * memory (st->oom set; the sample is not counted).
 */
int pd_stacks_add(struct pd_stacks *st, uint32_t event, uint64_t period,
		  uint32_t pid, uint32_t tid, const char *comm,
		  unsigned cpumode, const struct pd_frames *f);

/*
 * The samples of another model (a worker's or a batch's, in a parallel
 * walk) added to st: its frames, threads and stacks interned in st in
 * from's order, their counts summed (a stack's events in the order
 * they came), the time spans joined.  st's first_event is left as it is
 * (the caller knows which sample came first).  Returns 0, or -1 when out
 * of memory (st->oom).  Models of consecutive runs of samples merged in
 * their order give st the entries in the order of the samples, as one
 * model fed them all would have them (pprof's); a worker's, not.
 */
int pd_stacks_merge(struct pd_stacks *st, const struct pd_stacks *from);

#endif
