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

	if (ev->type != PD_REC_SAMPLE || d->smp.no_attr || !d->evsel)
		return;
	if (!pd_symbolizer_sample(z, ev, d, &f))
		f.n = 0;
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

/* A worker's replica of the symbolizer, and the stacks of its samples */
struct worker {
	struct pd_symbolizer *z;
	struct pd_stacks st;
};

/* A batch: the worker running it, the event of its first sample */
struct batch {
	struct worker *w;
	bool any;
	uint32_t first;
};

static void *fork_batch(void *arg)
{
	(void)arg;
	return calloc(1, sizeof(struct batch));
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
	take(b->w->z, &b->w->st, ev, d);
}

static void flush_batch(void *arg, void *ctx)
{
	struct pd_stacks_walk *sw = arg;
	struct batch *b = ctx;

	if (b->any && !sw->any) {
		sw->any = true;
		sw->first = b->first;
	}
	b->any = false;
}

static void join_batch(void *arg, void *ctx)
{
	(void)arg;
	free(ctx);
}

static void *fork_worker(void *arg)
{
	struct pd_stacks_walk *sw = arg;
	struct worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	pd_stacks_init(&w->st);
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
 * counts them all) */
static void unfork_worker(void *arg, void *wctx)
{
	struct pd_stacks_walk *sw = arg;
	struct worker *w = wctx;

	pd_stacks_merge(sw->st, &w->st);
	if (sw->any)
		sw->st->first_event = sw->first;
	pd_stacks_free(&w->st);
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
