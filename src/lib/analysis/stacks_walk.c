// SPDX-License-Identifier: MIT
/* A walk's samples into stacks, on one thread or several (see
 * stacks_walk.h). */
#include "lib/analysis/stacks_walk.h"

#include <stdlib.h>

#include "lib/format/perf_abi.h"
#include "lib/session/event.h"
#include "lib/session/sample.h"

void pd_stacks_sample(struct pd_stacks *st, const struct pd_event *ev,
		      const struct pd_decoded *d, const struct pd_frames *f)
{
	const struct pd_sample *smp = &d->smp;
	uint64_t period = smp->decoded_type & PD_SAMPLE_PERIOD
				  ? smp->period
				  : d->evsel->attr.sample_period;
	bool tid = smp->decoded_type & PD_SAMPLE_TID;
	uint64_t t = smp->common.time;

	if (smp->common.has_time) {
		if (!st->has_time || t < st->first_time)
			st->first_time = t;
		if (!st->has_time || t > st->last_time)
			st->last_time = t;
		st->has_time = true;
	}
	pd_stacks_add(st, d->evsel->idx, period,
		      tid ? smp->common.pid : UINT32_MAX,
		      tid ? smp->common.tid : UINT32_MAX, f ? f->comm : NULL,
		      ev->misc & PD_MISC_CPUMODE_MASK, f);
}

/* A sample symbolized by z into st (any other record: nothing) */
static void take(struct pd_symbolizer *z, struct pd_stacks *st,
		 const struct pd_event *ev, const struct pd_decoded *d)
{
	struct pd_frames f;

	if (pd_symbolizer_sample_frames(z, ev, d, &f))
		pd_stacks_sample(st, ev, d, &f);
}

/* ---- one thread ------------------------------------------------------- */

static bool walk_record(void *arg, const struct pd_event *ev,
			const struct pd_decoded *d)
{
	struct pd_stacks_walk *sw = arg;

	take(sw->z, sw->st, ev, d);
	return true;
}

static void walk_state(void *arg, const struct pd_event *ev,
		       const struct pd_decoded *d)
{
	struct pd_stacks_walk *sw = arg;

	pd_symbolizer_record(sw->z, ev, d);
}

/* ---- several (walk.h pd_par_visitor) ---------------------------------- */

/* A worker's replica of the symbolizer, and the stacks of its samples
 * (not in order: in order, each batch's its own) */
struct worker {
	struct pd_symbolizer *z;
	bool ordered;
	struct pd_stacks st;
};

/* A batch: the worker running it, the event of its first sample; in
 * order (pd_stacks_walk ordered), the stacks of its samples */
struct batch {
	struct worker *w;
	bool any;
	uint32_t first;
	struct pd_stacks st;
};

static void *fork_batch(void *arg)
{
	struct batch *b = calloc(1, sizeof(*b));

	(void)arg;
	if (b)
		pd_stacks_init(&b->st);
	return b;
}

static void batch_record(void *ctx, const struct pd_event *ev,
			 const struct pd_decoded *d)
{
	struct batch *b = ctx;

	if (!b->any && ev->type == PD_REC_SAMPLE && !d->smp.no_attr &&
	    d->evsel) {
		b->any = true;
		b->first = d->evsel->idx;
	}
	take(b->w->z, b->w->ordered ? &b->st : &b->w->st, ev, d);
}

/* In the batches' order: the first batch with samples names the first
 * event; in order, the batch's stacks into st (stacks.h: as one thread
 * would have made them).  The last batch's worker's replica is the one
 * whose maps followed every record (unfork_worker). */
static void flush_batch(void *arg, void *ctx)
{
	struct pd_stacks_walk *sw = arg;
	struct batch *b = ctx;

	if (b->any && !sw->any) {
		sw->any = true;
		sw->first = b->first;
	}
	b->any = false;
	sw->last = b->w;
	if (sw->ordered) {
		pd_stacks_merge(sw->st, &b->st);
		pd_stacks_reset(&b->st);
	}
}

static void join_batch(void *arg, void *ctx)
{
	struct batch *b = ctx;

	(void)arg;
	pd_stacks_free(&b->st);
	free(b);
}

static void *fork_worker(void *arg)
{
	struct pd_stacks_walk *sw = arg;
	struct worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	pd_stacks_init(&w->st);
	w->ordered = sw->ordered;
	if (!(w->z = pd_symbolizer_fork(sw->z))) {
		free(w);
		return NULL;
	}
	return w;
}

static void bind_worker(void *wctx, void *ctx, struct pd_session *ws)
{
	struct worker *w = wctx;

	pd_symbolizer_bind(w->z, ws);
	if (ctx)
		((struct batch *)ctx)->w = w;
}

static void worker_state(void *wctx, const struct pd_event *ev,
			 const struct pd_decoded *d)
{
	struct worker *w = wctx;

	pd_symbolizer_record(w->z, ev, d);
}

/* The walk's end: a worker's stacks into st, and the first batch's
 * first event st's (each worker's are merged in turn: st->samples
 * counts them all); the replica that ran the last batch answers for z
 * from now on (symbolize.h pd_symbolizer_adopt), the others freed */
static void unfork_worker(void *arg, void *wctx)
{
	struct pd_stacks_walk *sw = arg;
	struct worker *w = wctx;

	pd_stacks_merge(sw->st, &w->st);
	if (sw->any)
		sw->st->first_event = sw->first;
	pd_stacks_free(&w->st);
	if (w == sw->last)
		pd_symbolizer_adopt(sw->z, w->z);
	else
		pd_symbolizer_free(w->z);
	free(w);
}

static bool keep_diag(void *arg, const struct pd_diag *g)
{
	struct pd_stacks_walk *sw = arg;

	return pd_symbolizer_keep(sw->z, g);
}

static const struct pd_par_visitor par = {
	.fork = fork_batch,
	.record = batch_record,
	.flush = flush_batch,
	.join = join_batch,
	.worker = fork_worker,
	.bind = bind_worker,
	.state = worker_state,
	.unfork = unfork_worker,
	.keep = keep_diag,
	.state_types = PD_SYMBOLIZER_STATE_TYPES,
};

const struct pd_visitor pd_stacks_walk_visitor = {
	.record = walk_record,
	.state = walk_state,
	.par = &par,
};
