/* SPDX-License-Identifier: MIT */
/*
 * A walk's samples into the stacks model (stacks.h), symbolized as they
 * come (symbolize.h), on one thread or, with the walk's jobs, on several
 * (walk.h pd_par_visitor): each worker a replica of the symbolizer fed
 * the map records in the walk's order.  Unordered (folded, which sorts
 * its lines), each worker gathers its samples in stacks of its own,
 * merged into st when the walk ends: the order of st's entries is then
 * not the samples'.  Ordered (pprof, whose ids follow the first use),
 * each batch gathers its samples in stacks of its own, merged into st on
 * the caller's thread in the batches' order: st's entries come in the
 * order one thread would have made them, byte for byte the same output.
 * The first sample's event (stacks.h first_event) is the first batch's,
 * as one thread would have seen it; the warnings a symbolizer gives once
 * are said once, by the first batch that gives them.  After a parallel
 * walk, z answers through the replica that ran the last batch
 * (pd_symbolizer_adopt): the DSOs of st's frames, their lines.  No
 * printing.
 */
#ifndef PD_STACKS_WALK_H
#define PD_STACKS_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/analysis/stacks.h"
#include "lib/analysis/symbolize.h"
#include "lib/session/walk.h"

/* Workers at most (profile.h) */
#define PD_STACKS_WALK_JOBS_MAX PD_PROF_JOBS_MAX

/* The walk's arg of pd_stacks_walk_visitor. */
struct pd_stacks_walk {
	struct pd_symbolizer *z; /* the caller's; the replicas' model */
	struct pd_stacks *st;	 /* the samples go here */
	bool ordered;		 /* st's entries in the samples' order */
	/* private: the first batch's first sample's event; the worker of
	 * the last batch written */
	bool any;
	uint32_t first;
	void *last;
};

/* Its record and state: the samples that pass the filter into st, the
 * maps kept by every record. */
extern const struct pd_visitor pd_stacks_walk_visitor;

/*
 * One sample into st with its frames f: its event and period (the
 * attr's without PERIOD, as perf's evsel__parse_sample), its thread.
 */
void pd_stacks_sample(struct pd_stacks *st, const struct pd_event *ev,
		      const struct pd_decoded *d, const struct pd_frames *f);

#endif
