/* SPDX-License-Identifier: MIT */
/* pprof.h's insides: the tables pprof.c builds and pprof_encode.c turns
 * into profile.proto's messages. */
#ifndef PD_PPROF_INT_H
#define PD_PPROF_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/base/hindex.h"
#include "lib/export/pprof.h"

/* An array of elements, grown by doubling (push). */
struct vec {
	void *v;
	uint32_t n, cap;
};

/* A table's entries at most: ids and indices stay 32-bit. */
#define MAX_ENTRIES (1u << 30)

struct pmap {
	uint32_t dso;
	uint64_t start, end, pgoff;
	int64_t file, build_id;
	bool funcs, files, lines, inl;
	bool kernel;
};

struct pfunc {
	int64_t name, sys, file;
};

struct pline {
	uint32_t func; /* its index + 1 */
	int64_t line;
};

struct ploc {
	uint32_t map; /* its index + 1, 0: none */
	uint64_t addr;
	uint32_t line0, nlines; /* in lines */
};

struct pp_thread {
	int64_t comm; /* 0: none */
	bool has_tid;
	uint32_t pid, tid;
};

struct psample {
	uint32_t thread;
	uint32_t loc0, nloc; /* in sample_locs */
	uint32_t vals;	     /* 2 * nevents values from here */
};

struct pprof_event {
	int64_t name, unit; /* string table indices */
	uint64_t period;    /* the attr's, 0: not one */
};

struct pd_pprof {
	uint32_t nevents;
	struct pprof_event *ev;
	uint64_t time_nanos, duration;
	struct arena strs;
	struct vec str; /* const char * */
	struct vec maps, funcs, lines, locs, threads, samples;
	struct vec sample_locs; /* uint64_t location ids */
	struct vec vals;	/* int64_t */
	struct pd_hindex str_ix, map_ix, func_ix, loc_ix, thread_ix, sample_ix;
	bool want_lines; /* pd_pprof_add_stacks asks for lines */
	bool oom;
};

#define AT(x, type, i) (&((type *)(x).v)[i])

/* A string's index in the string table (0: "", and out of memory). */
int64_t pprof_str(struct pd_pprof *b, const char *s);

#endif
