/* SPDX-License-Identifier: MIT */
/* The walk's insides, shared by walk.c and walk_par.c (see walk.h). */
#ifndef PD_WALK_INT_H
#define PD_WALK_INT_H

#include "lib/base/arena.h"
#include "lib/session/walk.h"

struct walk {
	struct pd_session *s;
	const struct pd_walk_opts *o;
	const struct pd_visitor *v;
	void *arg;
	struct pd_reader_src src;
	const char **dir_names;
	struct arena scratch; /* a decoded record's arrays */
	uint64_t matched, shown;
	bool stopped; /* the visitor ended the walk */
	bool oom;
	/* time order in parallel: where the queue's records go, and what
	 * the reader said meanwhile (serial after all: said first) */
	struct par *par;
	struct pd_diags *rd;
	struct pd_order *ord; /* whose copies the batches keep (order.h) */
};

/* Does the decoded record pass f (but for skip, limit and at)? */
bool pd_walk_passes(const struct pd_filter *f, const struct pd_event *ev,
		    const struct pd_decoded *d);
/* A record decoded and handed to the visitor on this thread. */
bool pd_walk_hand_decoded(struct walk *w, const struct pd_event *ev);
/* A record to the visitor on this thread: decoded, or as it is to a
 * visitor of events. */
bool pd_walk_hand(struct walk *w, const struct pd_event *ev);
/* The loop's update step (walk.c). */
void pd_walk_set_step(struct walk *w, struct pd_walk_loop *l);

/*
 * walk_par.c: may this walk be parallel, and run it so, the loop's
 * reader saying its diagnostics into rd (they wait there for the
 * batches before them).
 */
bool pd_walk_par_ok(const struct walk *w);
void pd_walk_par(struct walk *w, struct pd_walk_loop *l, struct pd_diags *rd);
/*
 * The same, the records handed out by the caller (the time-order queue):
 * begin (NULL: no threads: the walk is serial), take each record in the
 * walk's order (false: the walk ends), end when they are all handed out.
 */
struct par;
struct par *pd_walk_par_begin(struct walk *w, struct pd_walk_loop *l,
			      struct pd_diags *rd);
bool pd_walk_par_take(struct par *p, const struct pd_event *ev);
void pd_walk_par_end(struct par *p);

#endif
