// SPDX-License-Identifier: MIT
/* One walk over a recording's records (see walk.h). */
#include "lib/session/walk.h"

#include <stdlib.h>

#include "lib/session/evlist.h"
#include "lib/session/order.h"
#include "lib/session/session.h"
#include "lib/session/walk_int.h"

/* ---- where the records are ------------------------------------------ */

static int walk_src(struct walk *w)
{
	struct pd_session *s = w->s;
	struct pd_reader_src *src = &w->src;

	*src = (struct pd_reader_src){
		.in = &s->in,
		.swap = s->swap,
		.legacy_google = s->pipe.legacy_google,
		.dir = s->path,
		.diags = &s->diags,
		.ro = &s->opts,
	};
	if (s->mode == PD_MODE_PIPE) {
		src->readable = true;
		src->what = "pipe stream";
		src->where = PD_AT_PIPE;
		src->start = PD_PIPE_HEADER_SIZE;
		src->end = UINT64_MAX;
		/* a live stream read to its end at open: only the records
		 * kept from its start are left */
		if (s->pipe.live && s->pipe.drained && !s->in.seekable)
			src->end = s->in.keep_start + s->in.keep_len;
	} else {
		src->readable = s->header_ok;
		src->what = "data section";
		src->where = PD_AT_DATA;
		src->start = s->hdr.data.offset;
		/* data.size 0: perf record did not finish (killed); the
		 * records run from data.offset to the end of the file */
		src->end = s->hdr.data.size
				   ? s->hdr.data.offset + s->hdr.data.size
				   : s->in.size;
	}
	if (s->mode != PD_MODE_DIR || !s->ndir ||
	    !(w->o->flags & PD_WALK_DATA_N))
		return 0;
	w->dir_names = calloc(s->ndir, sizeof(*w->dir_names));
	if (!w->dir_names)
		return -1;
	for (size_t i = 0; i < s->ndir; i++)
		w->dir_names[i] = s->dir[i].name;
	src->dir_names = w->dir_names;
	src->ndir = s->ndir;
	return 0;
}

static unsigned read_flags(const struct pd_walk_opts *o)
{
	unsigned f = 0;

	if (!(o->flags & PD_WALK_PREFIX))
		f |= PD_READ_FAST;
	if (o->flags & PD_WALK_DATA_N)
		f |= PD_READ_DATA_N;
	if (o->flags & PD_WALK_PAYLOADS)
		f |= PD_READ_PAYLOADS;
	if (o->flags & PD_WALK_LIGHT)
		f |= PD_READ_INLINE_Z;
	return f;
}

/* ---- the update step ------------------------------------------------ */

/*
 * The model learns what the records say about it: a stream read as it
 * arrives hands its metadata records to the session (session_pipe.c),
 * EVENT_UPDATE names its event.
 */
static void update_step(void *arg, struct pd_walk_loop *l, struct pd_event *ev)
{
	struct pd_session *s = arg;

	if (s->pipe.live && !s->pipe.drained) {
		/* the session may read the payload: keep the record */
		pd_walk_keep_record(l, ev);
		pd_session_pipe_event(s, l, ev);
	}
	if (ev->type == PD_REC_EVENT_UPDATE)
		pd_evlist_apply_update(s, ev->p, ev->size);
}

void pd_walk_set_step(struct walk *w, struct pd_walk_loop *l)
{
	struct pd_session *s = w->s;

	if (w->o->flags & PD_WALK_PREFIX)
		return;
	l->step = update_step;
	l->step_arg = s;
	/* a live stream: every record goes by the session's walk; else
	 * only metadata (EVENT_UPDATE and the types after it) */
	l->step_from =
		s->pipe.live && !s->pipe.drained ? 0 : PD_REC_EVENT_UPDATE;
}

/* ---- handing records out -------------------------------------------- */

bool pd_walk_passes(const struct pd_filter *f, const struct pd_event *ev,
		    const struct pd_decoded *d)
{
	/* a record's own pid/tid (COMM, MMAP, FORK...) comes first */
	struct pd_sample_id filt = d->id;

	if (ev->type != PD_REC_SAMPLE &&
	    pd_record_pid_tid(&d->rec, &filt.pid, &filt.tid))
		filt.has_tid = true;
	return pd_filter_passes(f, &filt, d->evsel, ev->type);
}

/* A decoded record, if it passes the filter. */
bool pd_walk_hand_decoded(struct walk *w, const struct pd_event *ev)
{
	const struct pd_filter *f = w->o->filter;
	struct pd_decoded d;

	/* before --at, only the tracing data simpleperf writes into the
	 * data section is read (the formats of the samples after it), and
	 * what a visitor's state needs */
	if (f && ev->offset < f->at && ev->type != PD_REC_HEADER_TRACING_DATA &&
	    !w->v->state)
		return true;
	arena_reset(&w->scratch);
	pd_decode_event(w->s, ev, &w->scratch, w->o->tp_want, &d);
	if (w->v->state)
		w->v->state(w->arg, ev, &d);
	if (!f)
		return w->v->record(w->arg, ev, &d);
	if (ev->offset < f->at)
		return true;

	if (!pd_walk_passes(f, ev, &d))
		return true;
	if (w->matched++ < f->skip)
		return true;
	if (w->shown >= f->limit)
		return false;
	w->shown++;
	return w->v->record(w->arg, ev, &d);
}

bool pd_walk_hand(struct walk *w, const struct pd_event *ev)
{
	if (w->v->record)
		return pd_walk_hand_decoded(w, ev);
	return w->v->event(w->arg, ev);
}

static bool hand_out(void *arg, const struct pd_event *ev)
{
	struct walk *w = arg;

	if (w->par)
		return pd_walk_par_take(w->par, ev);
	if (w->rd)
		pd_diags_replay(&w->s->diags, w->rd);
	return pd_walk_hand(w, ev);
}

/* Time order: what the queue lets out; nothing after a stop. */
static void deliver(void *arg, const struct pd_event *ev)
{
	struct walk *w = arg;

	if (!w->stopped && !hand_out(w, ev))
		w->stopped = true;
}

/* The merge of a directory's streams: the update step as they go out. */
static void deliver_merged(void *arg, const struct pd_event *ev)
{
	struct walk *w = arg;

	if (ev->type == PD_REC_EVENT_UPDATE)
		pd_evlist_apply_update(w->s, ev->p, ev->size);
	deliver(arg, ev);
}

static bool push_ordered(void *arg, const struct pd_event *ev)
{
	return pd_order_push(arg, ev);
}

/* ---- the walk ------------------------------------------------------- */

static int walk_ordered(struct walk *w)
{
	struct pd_walk_loop l;
	struct pd_order *ord;
	bool par = !w->src.ndir && pd_walk_par_ok(w);
	struct pd_diags rd = {0};
	int rc;

	if (w->src.ndir)
		return pd_order_merge(w->s, &w->src, pd_event_time,
				      deliver_merged, w);
	ord = pd_order_new(w->s, pd_event_time, deliver, w);
	if (par) {
		/* what the reader and the queue say waits for the batches
		 * before it (walk_par.c) */
		w->src.diags = &rd;
		w->rd = &rd;
		if (ord)
			pd_order_diags(ord, &rd);
	}
	if (!ord || pd_walk_loop_open(&l, &w->src, PD_READ_FAST) < 0) {
		w->src.diags = &w->s->diags;
		w->rd = NULL;
		pd_order_end(ord);
		return -1;
	}
	pd_walk_set_step(w, &l);
	if (par)
		w->par = pd_walk_par_begin(w, &l, &rd);
	if (w->par) {
		/* the batches take the queue's copies, not copies of them */
		w->ord = ord;
		pd_order_keep(ord);
	}
	pd_walk_loop_run(&l, push_ordered, ord);
	pd_walk_loop_close(&l);
	pd_order_finish(ord);
	if (w->par)
		pd_walk_par_end(w->par);
	w->par = NULL;
	w->ord = NULL;
	rc = pd_order_end(ord);
	pd_diags_replay(&w->s->diags, &rd);
	pd_diags_free(&rd);
	w->rd = NULL;
	w->src.diags = &w->s->diags;
	return rc;
}

static void walk_end(struct walk *w, struct pd_walk_loop *l)
{
	struct pd_walk_end e = {.ends_ok = true};
	struct pd_data_ends *de = &e.ends;

	if (!w->v->end)
		return;
	pd_walk_loop_stats(l, &e.rs);
	de->main = pd_walk_loop_data_end(l, -1);
	if (w->src.ndir) {
		de->dir = calloc(w->src.ndir, sizeof(*de->dir));
		e.ends_ok = de->dir != NULL;
		de->ndir = de->dir ? w->src.ndir : 0;
		for (size_t i = 0; i < de->ndir; i++)
			de->dir[i] = pd_walk_loop_data_end(l, (int)i);
	}
	w->v->end(w->arg, &e);
}

static int walk_file_order(struct walk *w)
{
	struct pd_walk_loop l;
	bool par = pd_walk_par_ok(w);
	struct pd_diags rd = {0};

	if (par)
		w->src.diags = &rd;
	if (pd_walk_loop_open(&l, &w->src, read_flags(w->o)) < 0) {
		w->src.diags = &w->s->diags;
		return -1;
	}
	pd_walk_set_step(w, &l);
	if (par)
		pd_walk_par(w, &l, &rd);
	else if (w->v->loop)
		w->v->loop(w->arg, &l);
	else
		pd_walk_loop_run(&l, hand_out, w);
	walk_end(w, &l);
	pd_walk_loop_close(&l);
	pd_diags_replay(&w->s->diags, &rd);
	pd_diags_free(&rd);
	w->src.diags = &w->s->diags;
	return 0;
}

int pd_walk(struct pd_session *s, const struct pd_walk_opts *o,
	    const struct pd_visitor *v, void *arg)
{
	struct walk w = {.s = s, .o = o, .v = v, .arg = arg};
	int rc = -1;

	if (walk_src(&w) == 0)
		rc = o->flags & PD_WALK_TIME_ORDER ? walk_ordered(&w)
						   : walk_file_order(&w);
	free(w.dir_names);
	arena_free(&w.scratch);
	return w.oom ? -1 : rc;
}
