// SPDX-License-Identifier: MIT
/*
 * The parallel mode of the walk (walk.h, pd_par_visitor): batches of
 * records, in file order or as the time-order queue lets them out,
 * decoded on worker threads, written in order; with state, each worker
 * its replica, kept up to date from a log of the records that change it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/session/order.h"
#include "lib/session/session.h"
#include "lib/base/util.h"
#include "lib/session/walk_int.h"
#include "lib/tracepoint/tracepoint.h"

#define BATCH_BYTES_DEFAULT (64 * 1024)
/* batches out per job: with 2, the one worker of --jobs 2 waited 15% of
 * its time for the reading thread while it ran a batch itself; with 4,
 * a few per cent (profile, 200 MB) */
#define BATCHES_PER_JOB 4
/* a batch's run of record bytes holds at most this and one record */
#define RUN_MAX (1u << 20)
/* the log's length from which the caller's replica catches up */
#define LOG_CATCH_UP 1024

enum { B_FREE, B_READY, B_BUSY, B_DONE };

struct batch {
	struct pd_event *ev;
	uint32_t nev, cap;
	size_t nbytes;
	/* the records' bytes, copied: one run of them (run, of runcap
	 * bytes), past it the arena */
	uint8_t *run;
	size_t runlen, runcap;
	struct arena bytes;
	struct arena scratch; /* a decoded record's arrays */
	struct pd_diags pre;  /* the reader's, before its first record */
	struct pd_session ws; /* the session, its diags the batch's own */
	void *ctx;	      /* the visitor's (fork) */
	int st;
	/* with state: its records that change it, in the log */
	uint64_t log_start, log_end;
	/* time order: the queue's records out before it was submitted, its
	 * own among them, given back to the queue once it is written */
	uint64_t order_out;
};

/* A worker thread and its replica of the visitor's state. */
struct wk {
	struct par *p;
	void *wctx;	      /* the visitor's (worker) */
	uint64_t applied;     /* the log's records applied to it */
	struct pd_session ds; /* another batch's record: diags dropped */
	struct arena scratch; /* such a record's arrays */
};

struct par {
	struct walk *w;
	const struct pd_par_visitor *pv;
	struct pd_diags *rd; /* the reader's, until a batch takes them */
	struct batch *b;
	size_t nb;
	/* counters, never wrapped: slot i % nb */
	size_t fill;	   /* the batch being filled: cur */
	size_t take;	   /* the next a worker takes */
	size_t out;	   /* the next written */
	struct batch *cur; /* b[fill % nb] (the caller's thread's) */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	bool quit;
	pthread_t *th;
	unsigned nth;
	size_t batch_bytes;
	pd_step_fn step; /* the walk's update step, after a barrier */
	void *step_arg;
	/* with state (pv->state): the workers' replicas, and the log of the
	 * records that change them, [log_base, log_base + nlog) of all
	 * those the walk handed out; what every worker applied is freed */
	bool with_state;
	bool raw; /* a visitor of events: record's d is NULL */
	struct wk *wk;
	struct pd_event *log;
	uint32_t nlog, caplog;
	uint64_t log_base;
	struct pd_walk_loop *l;
	/* a stream's (pd_input before_read), while the walk is parallel */
	void (*before_read)(void *arg, bool wait);
	void *read_arg;
};

bool pd_walk_par_ok(const struct walk *w)
{
	const struct pd_walk_opts *o = w->o;
	const struct pd_filter *f = o->filter;
	size_t bb = o->batch_bytes ? o->batch_bytes : BATCH_BYTES_DEFAULT;

	if (o->jobs < 2 || !w->v->par || w->v->loop)
		return false;
	/* state kept on the workers, or none */
	if (w->v->state && !w->v->par->state)
		return false;
	/* a visitor of events is shown no filter */
	if (!w->v->record && f)
		return false;
	if (o->flags & (PD_WALK_PAYLOADS | PD_WALK_PREFIX | PD_WALK_LIGHT) ||
	    w->src.ndir)
		return false;
	/* a pipe stream's build-ids may come amid its records, and each
	 * replica would read them at another point than one thread does */
	if (w->s->mode == PD_MODE_PIPE && w->v->par->state)
		return false;
	if (f && (f->skip || f->limit != UINT64_MAX))
		return false;
	/* a small data section: one thread does it */
	return w->src.end - w->src.start > 2 * (uint64_t)bb;
}

/* What the workers look up lazily, looked up before they run. */
static void warm(struct pd_session *s)
{
	for (uint32_t i = 0; i < s->evlist.n; i++)
		pd_tp_event_of(s, &s->evlist.v[i]);
}

/* ---- the workers ---------------------------------------------------- */

/* May ev change the state (walk.h: pd_par_visitor)? */
static bool changes_state(const struct par *p, const struct pd_event *ev)
{
	uint64_t m = p->pv->state_types;

	if (ev->type >= PD_REC_USER_START || ev->type == PD_REC_SAMPLE)
		return false;
	return !m || (m >> ev->type & 1);
}

/* The log's records before end (other batches', in order) to the
 * worker's replica, their diagnostics dropped (said by the batch that
 * holds them), ws the session they are read in; with p->mu held or the
 * threads joined (the log may move). */
static void catch_up(struct par *p, struct wk *k, const struct pd_session *ws,
		     uint64_t end)
{
	struct pd_decoded d;

	if (k->applied >= end)
		return;
	k->ds = *ws;
	k->ds.diags = (struct pd_diags){0};
	p->pv->bind(k->wctx, NULL, &k->ds);
	for (; k->applied < end; k->applied++) {
		const struct pd_event *ev = &p->log[k->applied - p->log_base];

		arena_reset(&k->scratch);
		pd_decode_event(&k->ds, ev, &k->scratch, p->w->o->tp_want, &d);
		p->pv->state(k->wctx, ev, &d);
	}
	pd_diags_free(&k->ds.diags);
}

static void run_batch(struct par *p, struct wk *k, struct batch *b)
{
	const struct walk *w = p->w;
	const struct pd_filter *f = w->o->filter;
	struct pd_decoded d;

	if (p->with_state)
		p->pv->bind(k->wctx, b->ctx, &b->ws);
	for (size_t i = 0; i < b->nev; i++) {
		const struct pd_event *ev = &b->ev[i];
		bool before = f && ev->offset < f->at;

		if (p->raw) {
			/* a visitor of events: the records as they are, but
			 * those that change its state decoded for it */
			if (p->with_state && changes_state(p, ev)) {
				arena_reset(&b->scratch);
				pd_decode_event(&b->ws, ev, &b->scratch,
						w->o->tp_want, &d);
				p->pv->state(k->wctx, ev, &d);
			}
			p->pv->record(b->ctx, ev, NULL);
			continue;
		}

		/* (with state, every record decoded: walk.c) */
		if (before && !p->with_state)
			continue;
		arena_reset(&b->scratch);
		pd_decode_event(&b->ws, ev, &b->scratch, w->o->tp_want, &d);
		if (p->with_state && changes_state(p, ev))
			p->pv->state(k->wctx, ev, &d);
		if (!before && (!f || pd_walk_passes(f, ev, &d)))
			p->pv->record(b->ctx, ev, &d);
	}
}

/* The next batch taken and run by k, with p->mu held (let go while it
 * runs); false: none is ready. */
static bool run_next(struct par *p, struct wk *k)
{
	struct batch *b;

	if (p->take == p->fill)
		return false;
	b = &p->b[p->take++ % p->nb];
	b->st = B_BUSY;
	if (p->with_state)
		catch_up(p, k, &b->ws, b->log_start);
	pthread_mutex_unlock(&p->mu);
	run_batch(p, k, b);
	pthread_mutex_lock(&p->mu);
	if (p->with_state)
		k->applied = b->log_end;
	b->st = B_DONE;
	return true;
}

static void *worker(void *arg)
{
	struct wk *k = arg;
	struct par *p = k->p;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->quit && p->take == p->fill)
			pthread_cond_wait(&p->work, &p->mu);
		if (!run_next(p, k))
			break;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* ---- the caller's thread -------------------------------------------- */

/* No threads after all (out of memory): each record on this thread,
 * after what the reader said framing it. */
struct serial {
	struct walk *w;
	struct pd_diags *rd;
};

static bool hand_serial(void *arg, const struct pd_event *ev)
{
	struct serial *z = arg;

	pd_diags_replay(&z->w->s->diags, z->rd);
	return pd_walk_hand(z->w, ev);
}

/* The oldest batch out, when done (wait: until it is), written. */
static bool flush_one(struct par *p, bool wait)
{
	struct batch *b = &p->b[p->out % p->nb];
	struct pd_session *s = p->w->s;

	if (p->out == p->fill)
		return false;
	pthread_mutex_lock(&p->mu);
	while (wait && b->st != B_DONE)
		pthread_cond_wait(&p->done, &p->mu);
	bool ready = b->st == B_DONE;

	pthread_mutex_unlock(&p->mu);
	if (!ready)
		return false;
	pd_diags_replay(&s->diags, &b->pre);
	pd_diags_replay_keep(&s->diags, &b->ws.diags, p->pv->keep, p->w->arg);
	pd_diags_free(&b->ws.diags);
	p->pv->flush(p->w->arg, b->ctx);
	if (p->w->ord)
		pd_order_release(p->w->ord, b->order_out);
	b->nev = 0;
	b->nbytes = 0;
	b->runlen = 0;
	arena_reset(&b->bytes);
	b->st = B_FREE;
	p->out++;
	return true;
}

/* Rather than wait for a worker, the caller's thread runs the next batch
 * itself, with its own replica (wk[0]); false: none is ready. */
static bool help(struct par *p)
{
	bool ran;

	pthread_mutex_lock(&p->mu);
	ran = run_next(p, &p->wk[0]);
	pthread_mutex_unlock(&p->mu);
	return ran;
}

/* A batch written (one is out), the caller helping while it waits. */
static void make_room(struct par *p)
{
	if (!help(p))
		flush_one(p, true);
	while (flush_one(p, false))
		;
}

/* The batch being filled goes to the workers (if it holds anything). */
static void submit(struct par *p)
{
	struct batch *b = p->cur;
	uint64_t log_end = p->log_base + p->nlog;

	if (!b->nev && !b->pre.n && !b->pre.nerr && !b->pre.nwarn)
		return;
	b->ws = *p->w->s;
	b->ws.diags = (struct pd_diags){0};
	b->log_end = log_end;
	if (p->w->ord)
		b->order_out = pd_order_out(p->w->ord);
	pthread_mutex_lock(&p->mu);
	b->st = B_READY;
	p->fill++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
	while (flush_one(p, false))
		;
	while (p->fill - p->out >= p->nb)
		make_room(p);
	/* the next batch's records change the state from here */
	p->cur = &p->b[p->fill % p->nb];
	p->cur->log_start = log_end;
}

/* Every batch written, and what the reader said since. */
static void drain(struct par *p)
{
	submit(p);
	while (p->out != p->fill)
		make_room(p);
	pd_diags_replay(&p->w->s->diags, p->rd);
}

/* Before a read from a stream (standard input, a FIFO) that would wait
 * for its writer: every batch written first, so that records show as
 * they arrive (cli.c before_read), then the caller's own. */
static void par_before_read(void *arg, bool wait)
{
	struct par *p = arg;

	if (wait)
		drain(p);
	if (p->before_read)
		p->before_read(p->read_arg, wait);
}

/* The update step changes the model: the workers done first; but a
 * kernel record of a stream read as it arrives, which the step only
 * counts (session_pipe.c pd_session_pipe_event), goes by it at once. */
static void par_step(void *arg, struct pd_walk_loop *l, struct pd_event *ev)
{
	struct par *p = arg;

	if (ev->type < PD_REC_USER_START && !ev->legacy_feature) {
		p->step(p->step_arg, l, ev);
		return;
	}
	drain(p);
	p->step(p->step_arg, l, ev);
	warm(p->w->s);
}

/* A copy of ev's bytes in b: cut from its run of bytes (a bump of an
 * offset, not an allocation; under AddressSanitizer each copy its own,
 * for its redzones), or when that is full from the arena; NULL when out
 * of memory. */
static const void *copy_bytes(struct batch *b, const struct pd_event *ev)
{
	size_t n = ev->size ? ev->size : 1;
	size_t at = (b->runlen + 7) & ~(size_t)7;

	if (at <= b->runcap && b->runcap - at >= n) {
		memcpy(b->run + at, ev->p, ev->size);
		b->runlen = at + n;
		return b->run + at;
	}
	return arena_memdup(&b->bytes, ev->p, n);
}

static bool add(struct par *p, struct batch *b, const struct pd_event *ev)
{
	if (!pd_grow((void **)&b->ev, b->nev, &b->cap, sizeof(*b->ev)))
		return false;
	struct pd_event *e = &b->ev[b->nev];

	*e = *ev;
	/* the time-order queue's copy stays there until b is written */
	if (!p->w->ord || !pd_order_take(p->w->ord, ev))
		e->p = copy_bytes(b, ev);
	if (!e->p)
		return false;
	b->nev++;
	b->nbytes += ev->size;
	return true;
}

/* The log's records every replica applied, freed (with p->mu held).  The
 * caller's, which runs a batch only when the workers fall behind, first
 * applies those before the next batch to run, so that the log stays
 * short whoever runs. */
static void log_trim(struct par *p)
{
	uint64_t min = p->log_base + p->nlog;
	uint32_t k;

	if (p->nlog >= LOG_CATCH_UP)
		catch_up(p, &p->wk[0], p->w->s,
			 p->take < p->fill ? p->b[p->take % p->nb].log_start
					   : p->cur->log_start);
	for (unsigned i = 0; i <= p->nth; i++)
		if (p->wk[i].applied < min)
			min = p->wk[i].applied;
	k = (uint32_t)(min - p->log_base);
	if (!k)
		return;
	for (uint32_t i = 0; i < k; i++)
		free((void *)p->log[i].p);
	memmove(p->log, p->log + k, (p->nlog - k) * sizeof(*p->log));
	p->nlog -= k;
	p->log_base = min;
}

/* A record that changes the state, into the log; false: out of memory */
static bool log_add(struct par *p, const struct pd_event *ev)
{
	void *bytes = malloc(ev->size ? ev->size : 1);
	bool ok = false;

	if (!bytes)
		return false;
	memcpy(bytes, ev->p, ev->size);
	pthread_mutex_lock(&p->mu);
	log_trim(p);
	if (pd_grow((void **)&p->log, p->nlog, &p->caplog, sizeof(*p->log))) {
		p->log[p->nlog] = *ev;
		p->log[p->nlog++].p = bytes;
		ok = true;
	}
	pthread_mutex_unlock(&p->mu);
	if (!ok)
		free(bytes);
	return ok;
}

/* Out of memory with state: no record may be left out of the replicas:
 * the walk ends (pd_walk says so). */
static bool par_oom(struct par *p)
{
	p->w->oom = true;
	p->w->stopped = true;
	return false;
}

bool pd_walk_par_take(struct par *p, const struct pd_event *ev)
{
	struct walk *w = p->w;
	struct batch *b;

	if (w->stopped)
		return false;
	if (p->rd->nerr | p->rd->nwarn) {
		/* the reader spoke framing this record (each diagnostic
		 * counted, kept or not): its diagnostics go before the
		 * record's own, with a batch of their own */
		submit(p);
		pd_diags_replay(&p->cur->pre, p->rd);
	}
	if (ev->type >= PD_REC_USER_START &&
	    ev->type != PD_REC_FINISHED_ROUND) {
		drain(p);
		return pd_walk_hand(w, ev);
	}
	b = p->cur;
	if (!add(p, b, ev)) {
		if (p->with_state)
			return par_oom(p);
		/* out of memory: this record on this thread */
		drain(p);
		return pd_walk_hand(w, ev);
	}
	if (p->with_state && changes_state(p, ev) && !log_add(p, ev))
		return par_oom(p);
	if (b->nbytes >= p->batch_bytes)
		submit(p);
	return true;
}

static bool par_take(void *arg, const struct pd_event *ev)
{
	return pd_walk_par_take(arg, ev);
}

static void par_free(struct par *p)
{
	for (size_t i = 0; p->b && i < p->nb; i++) {
		struct batch *b = &p->b[i];

		if (b->ctx)
			p->pv->join(p->w->arg, b->ctx);
		free(b->ev);
		free(b->run);
		arena_free(&b->bytes);
		arena_free(&b->scratch);
		pd_diags_free(&b->pre);
	}
	for (unsigned i = 0; p->wk && i < p->w->o->jobs; i++) {
		if (p->wk[i].wctx)
			p->pv->unfork(p->w->arg, p->wk[i].wctx);
		arena_free(&p->wk[i].scratch);
	}
	for (uint32_t i = 0; i < p->nlog; i++)
		free((void *)p->log[i].p);
	free(p->log);
	free(p->wk);
	free(p->b);
	free(p->th);
	free(p);
}

static bool par_init(struct par *p)
{
	unsigned jobs = p->w->o->jobs;

	p->nb = (size_t)jobs * BATCHES_PER_JOB;
	p->b = calloc(p->nb, sizeof(*p->b));
	p->cur = p->b;
	p->th = calloc(jobs, sizeof(*p->th));
	p->wk = calloc(jobs, sizeof(*p->wk));
	if (!p->b || !p->th || !p->wk)
		return false;
	for (size_t i = 0; i < p->nb; i++) {
		struct batch *b = &p->b[i];

		if (!(b->ctx = p->pv->fork(p->w->arg)))
			return false;
		/* a batch is sent once it holds batch_bytes: a record (its
		 * header's u16 size) past them still fits (none: the arena) */
		b->runcap =
			(p->batch_bytes < RUN_MAX ? p->batch_bytes : RUN_MAX) +
			UINT16_MAX + 8;
		if (PD_ASAN || !(b->run = malloc(b->runcap)))
			b->runcap = 0;
	}
	for (unsigned i = 0; p->with_state && i < jobs; i++)
		if (!(p->wk[i].wctx = p->pv->worker(p->w->arg)))
			return false;
	return true;
}

struct par *pd_walk_par_begin(struct walk *w, struct pd_walk_loop *l,
			      struct pd_diags *rd)
{
	struct par *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	*p = (struct par){.w = w, .pv = w->v->par, .rd = rd, .l = l};
	p->with_state = p->pv->state != NULL;
	p->raw = !w->v->record;
	p->batch_bytes =
		w->o->batch_bytes ? w->o->batch_bytes : BATCH_BYTES_DEFAULT;
	if (!par_init(p)) {
		par_free(p);
		return NULL;
	}
	warm(w->s);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	/* the caller's thread is the first worker (help) */
	p->wk[0].p = p;
	for (unsigned i = 1; i < w->o->jobs; i++) {
		struct wk *k = &p->wk[1 + p->nth];

		k->p = p;
		if (pthread_create(&p->th[p->nth], NULL, worker, k) == 0)
			p->nth++;
	}
	p->step = l->step;
	p->step_arg = l->step_arg;
	l->step = par_step;
	l->step_arg = p;
	p->before_read = w->s->in.before_read;
	p->read_arg = w->s->in.read_arg;
	w->s->in.before_read = par_before_read;
	w->s->in.read_arg = p;
	if (!p->nth) {
		pd_walk_par_end(p);
		return NULL;
	}
	return p;
}

void pd_walk_par_end(struct par *p)
{
	drain(p);
	p->l->step = p->step;
	p->l->step_arg = p->step_arg;
	p->w->s->in.before_read = p->before_read;
	p->w->s->in.read_arg = p->read_arg;
	pthread_mutex_lock(&p->mu);
	p->quit = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->nth; i++)
		pthread_join(p->th[i], NULL);
	/* every replica that ran up to date, for unfork */
	for (unsigned i = 0; p->with_state && i <= p->nth; i++)
		catch_up(p, &p->wk[i], p->w->s, p->log_base + p->nlog);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	par_free(p);
}

void pd_walk_par(struct walk *w, struct pd_walk_loop *l, struct pd_diags *rd)
{
	struct par *p = pd_walk_par_begin(w, l, rd);
	struct serial z = {w, rd};

	if (!p) {
		pd_walk_loop_run(l, hand_serial, &z);
		return;
	}
	pd_walk_loop_run(l, par_take, p);
	pd_walk_par_end(p);
}
