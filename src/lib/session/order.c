// SPDX-License-Identifier: MIT
/* Records in time order (see order.h). */
#include "lib/session/order.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/base/arena.h"
#include "lib/base/util.h"
#include "lib/session/order_int.h"
#include "lib/session/record.h"
#include "lib/session/session.h"

/*
 * The queue's copies of records, cut in turn from blocks of QBLOCK bytes
 * (a record costs a bump of a pointer, not a malloc and a free), a block
 * given back when the last record in it has gone out.  Records go out
 * in time order, mostly the order they came in, so the blocks empty in
 * turn; QSPARE emptied ones wait to be used again.  The blocks are
 * mapped, not malloc'd: one given back leaves no hole in malloc's heap
 * for the records' consumers to grow around (a visitor's tables grow
 * while the queue is full).  A record (at most 64 KiB: header.size)
 * always fits a block.  Under AddressSanitizer (PD_ASAN) each copy is
 * malloc'd, its place in a block counted all the same.
 *
 * The queue's bound counts the blocks that hold queued records: the same
 * in a serial and a parallel walk, whose batches keep records that went
 * out (pd_order_take) in their blocks a while, in at most QKEPT blocks
 * (past them, a batch copies the record); with the spares, at most
 * QKEPT + QSPARE blocks (5 MiB) more than the bound.
 */
#define QBLOCK (256u << 10)
#define QSPARE 4
#define QKEPT  16

struct qblock {
	struct qblock *next; /* the spares */
	size_t used;	     /* bytes of data cut */
	uint32_t queued;     /* its records in the queue */
	uint32_t kept;	     /* its records out, kept (pd_order_take) */
	size_t pad;	     /* data 16-byte aligned, as malloc's */
	uint8_t data[];
};

struct qalloc {
	struct qblock *cur; /* where the next record is cut */
	struct qblock *spare;
	unsigned nspare;
	size_t nqueued; /* blocks with records queued: the bound's */
	size_t nkept;	/* blocks with records kept */
};

static struct qblock *qblock_new(struct qalloc *a)
{
	struct qblock *b = a->spare;

	if (b) {
		a->spare = b->next;
		a->nspare--;
	} else {
		b = mmap(NULL, QBLOCK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b == MAP_FAILED)
			return NULL;
	}
	b->used = 0;
	b->queued = b->kept = 0;
	return b;
}

/* n bytes for a record's copy: NULL when out of memory. */
static struct qev *qev_alloc(struct qalloc *a, size_t n)
{
	struct qblock *b = a->cur;
	size_t cut = (n + 15) & ~(size_t)15;
	struct qev *q;

	if (!b || QBLOCK - sizeof(*b) - b->used < cut) {
		if (b && !b->queued && !b->kept) {
			b->used = 0; /* empty: cut again from its start */
		} else {
			b = qblock_new(a);
			if (!b)
				return NULL;
			a->cur = b;
		}
	}
	q = PD_ASAN ? malloc(n) : (struct qev *)(b->data + b->used);
	if (!q)
		return NULL;
	b->used += cut;
	if (!b->queued++)
		a->nqueued++;
	q->blk = b;
	return q;
}

/* A record's copy no longer used: its block given back with its last. */
static void qev_free(struct qalloc *a, struct qev *q)
{
	struct qblock *b = q->blk;

	if (PD_ASAN)
		free(q);
	if (b->queued || b->kept || b == a->cur)
		return;
	if (a->nspare < QSPARE) {
		b->next = a->spare;
		a->spare = b;
		a->nspare++;
	} else {
		munmap(b, QBLOCK);
	}
}

/* A record out of the queue: kept, or freed. */
static void qev_out(struct qalloc *a, struct qev *q, bool keep)
{
	struct qblock *b = q->blk;

	if (!--b->queued)
		a->nqueued--;
	if (!keep)
		qev_free(a, q);
	else if (!b->kept++)
		a->nkept++;
}

/* A record kept given back. */
static void qev_back(struct qalloc *a, struct qev *q)
{
	struct qblock *b = q->blk;

	if (!--b->kept)
		a->nkept--;
	qev_free(a, q);
}

/* Every block given back (the queue is empty). */
static void qalloc_free(struct qalloc *a)
{
	if (a->cur)
		munmap(a->cur, QBLOCK);
	while (a->spare) {
		struct qblock *b = a->spare;

		a->spare = b->next;
		munmap(b, QBLOCK);
	}
	*a = (struct qalloc){0};
}

/* A copy of ev, queued at time t: NULL when out of memory. */
static struct qev *copy_event(struct qalloc *a, const struct pd_event *ev,
			      uint64_t t)
{
	struct qev *q = qev_alloc(a, sizeof(*q) + ev->size);

	if (q)
		qev_fill(q, ev, t);
	return q;
}

/* ---- one stream through the round queue ----------------------------- */

/*
 * The queued records in runs: a run is records pushed one after another
 * whose times do not fall, linked in push order (qev.next).  perf record
 * writes each CPU's ring buffer in turn, each in time order, so a round
 * holds a few runs (218 runs for the 233,432 timed records of a 20 MB
 * recording): a heap of the runs, keyed by their first record, costs a
 * record a comparison or two, not a walk down a heap of every record.
 * Records of equal time go out in push order, as perf's list does
 * (tools/perf/util/ordered-events.c: queue_event): within a run they are
 * in it, and each run's records were all pushed before the next run's
 * (seq): the order of every record by (time, push order).
 */
struct run {
	uint64_t time; /* of its first record: the key, in the heap's slot */
	uint64_t seq;  /* the run's number: ties in time, in push order */
	struct qev *head;
};

static bool run_less(const struct run *a, const struct run *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static void runs_down(struct run *v, size_t n, size_t i)
{
	struct run x = v[i];

	for (;;) {
		size_t m = 2 * i + 1;

		if (m >= n)
			break;
		if (m + 1 < n && run_less(&v[m + 1], &v[m]))
			m++;
		if (!run_less(&v[m], &x))
			break;
		v[i] = v[m];
		i = m;
	}
	v[i] = x;
}

static void runs_up(struct run *v, size_t i)
{
	struct run x = v[i];

	for (; i && run_less(&x, &v[(i - 1) / 2]); i = (i - 1) / 2)
		v[i] = v[(i - 1) / 2];
	v[i] = x;
}

struct queue {
	struct run *runs; /* a min-heap */
	uint32_t nruns, cap;
	struct qev *tail;  /* the last pushed, while its run is queued */
	size_t n;	   /* records queued */
	struct qalloc mem; /* the records' copies */
	uint64_t seq;
	uint64_t forced; /* flushes of the older half (the bound reached) */
	struct pd_flush_clock clock; /* when perf flushes what */
	/* pd_order_keep: the records taken as they went out, kept until
	 * given back, in that order (qev.next): [nback, nout) of them */
	bool keep;
	struct qev *out; /* the record being delivered */
	bool taken;	 /* it is kept */
	struct qev *kept, *kept_tail;
	uint64_t nout, nback;
};

static size_t queue_bytes(const struct queue *q)
{
	return q->mem.nqueued * QBLOCK + alloc_cost(q->cap * sizeof(*q->runs));
}

/* The oldest record out of the queue (q->n must not be 0). */
static struct qev *pop(struct queue *q)
{
	struct run *top = &q->runs[0];
	struct qev *e = top->head;

	if (e->next) {
		top->head = e->next;
		top->time = e->next->time;
	} else {
		/* its run is done */
		if (e == q->tail)
			q->tail = NULL;
		*top = q->runs[--q->nruns];
	}
	runs_down(q->runs, q->nruns, 0);
	q->n--;
	return e;
}

/* Deliver the queued records of time <= limit, or the older half. */
static void flush(struct queue *q, uint64_t limit, bool half,
		  pd_deliver_fn deliver, void *arg)
{
	size_t out = q->n / 2;

	while (q->n) {
		struct qev *e;

		if (half ? out-- == 0 : q->runs[0].time > limit)
			break;
		e = pop(q);
		q->out = e;
		q->taken = false;
		deliver(arg, &e->ev);
		q->out = NULL;
		qev_out(&q->mem, e, q->taken);
		if (!q->taken)
			continue;
		/* counted once deliver() returned: a batch that went to the
		 * workers while it was out does not hold it (walk_par.c) */
		e->next = NULL;
		if (q->kept_tail)
			q->kept_tail->next = e;
		else
			q->kept = e;
		q->kept_tail = e;
		q->nout++;
	}
}

static int push(struct queue *q, const struct pd_event *ev, uint64_t t)
{
	struct qev *e = copy_event(&q->mem, ev, t);

	if (!e)
		return -1;
	if (q->tail && t >= q->tail->time) {
		q->tail->next = e; /* its run goes on */
	} else {
		if (!pd_grow((void **)&q->runs, q->nruns, &q->cap,
			     sizeof(*q->runs))) {
			qev_out(&q->mem, e, false);
			return -1;
		}
		q->runs[q->nruns] = (struct run){t, q->seq++, e};
		runs_up(q->runs, q->nruns++);
	}
	q->tail = e;
	q->n++;
	return 0;
}

/*
 * The bound reached: the older half goes out now, as perf's
 * ordered_events__queue does when alloc_event fails past max_alloc_size
 * (OE_FLUSH__HALF; perf's own limit is off unless report.queue-size is
 * set).  Said once per stream: what follows may come out of time order.
 */
static void queue_full(struct pd_diags *diags, struct queue *q,
		       const struct pd_event *ev, pd_deliver_fn deliver,
		       void *arg)
{
	if (!q->forced++)
		pd_diag_add(diags, PD_C_ORDER_QUEUE_FULL,
			    PD_AT_NAMED("--order time"), PD_WARN, ev->offset,
			    "time order",
			    "%zu records wait for a FINISHED_ROUND and take "
			    "the %u MiB the time-order queue may hold: the "
			    "older half goes out now, and records after it "
			    "may come out of time order",
			    q->n, PD_ORDER_MAX_QUEUED >> 20);
	flush(q, 0, true, deliver, arg);
}

struct pd_order {
	struct queue q;
	struct pd_session *s;
	struct pd_diags *diags; /* where the queue's own go */
	pd_event_time_fn time_of;
	pd_deliver_fn deliver;
	void *arg;
	bool oom;
};

struct pd_order *pd_order_new(struct pd_session *s, pd_event_time_fn time_of,
			      pd_deliver_fn deliver, void *arg)
{
	struct pd_order *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->s = s;
	o->diags = &s->diags;
	o->time_of = time_of;
	o->deliver = deliver;
	o->arg = arg;
	return o;
}

bool pd_order_push(struct pd_order *o, const struct pd_event *ev)
{
	struct queue *q = &o->q;
	uint64_t t;

	if (ev->type == PD_REC_FINISHED_ROUND) {
		uint64_t limit = pd_flush_round(&q->clock, ev->offset);

		/* perf shows the round, then what it flushes */
		o->deliver(o->arg, ev);
		if (limit)
			flush(q, limit, false, o->deliver, o->arg);
		return true;
	}
	/* no time, or 0 or ~0: not queued, as it comes (like perf) */
	if (!o->time_of(o->s, ev, &t) || !pd_flush_queues(t)) {
		o->deliver(o->arg, ev);
		return true;
	}
	pd_flush_time(&q->clock, t);
	if (push(q, ev, t) < 0) {
		o->oom = true;
		return false;
	}
	if (queue_bytes(q) > PD_ORDER_MAX_QUEUED)
		queue_full(o->diags, q, ev, o->deliver, o->arg);
	return true;
}

void pd_order_diags(struct pd_order *o, struct pd_diags *diags)
{
	o->diags = diags;
}

void pd_order_keep(struct pd_order *o)
{
	o->q.keep = true;
}

bool pd_order_take(struct pd_order *o, const struct pd_event *ev)
{
	struct queue *q = &o->q;
	struct qev *e = q->out;

	if (!q->keep || !e || ev != &e->ev)
		return false;
	/* too many blocks kept: a copy of it is made */
	if (!e->blk->kept && q->mem.nkept >= QKEPT)
		return false;
	q->taken = true;
	return true;
}

uint64_t pd_order_out(const struct pd_order *o)
{
	return o->q.nout;
}

void pd_order_release(struct pd_order *o, uint64_t upto)
{
	struct queue *q = &o->q;

	while (q->nback < upto && q->kept) {
		struct qev *e = q->kept;

		q->kept = e->next;
		if (!q->kept)
			q->kept_tail = NULL;
		qev_back(&q->mem, e);
		q->nback++;
	}
}

void pd_order_finish(struct pd_order *o)
{
	flush(&o->q, UINT64_MAX, false, o->deliver, o->arg);
}

int pd_order_end(struct pd_order *o)
{
	int rc;

	if (!o)
		return -1;
	pd_order_finish(o);
	pd_order_release(o, UINT64_MAX);
	qalloc_free(&o->q.mem);
	free(o->q.runs);
	rc = o->oom ? -1 : 0;
	free(o);
	return rc;
}

uint64_t pd_flush_round(struct pd_flush_clock *c, uint64_t offset)
{
	uint64_t limit = c->next_flush;

	if (!c->queued)
		return 0; /* ordered_events__flush: nr_events == 0 */
	if (limit && c->due) {
		c->last_flush = c->due;
		c->flush_offset = offset;
	}
	/* what stays is newer than limit; its newest is max_time */
	c->queued = !limit || c->max_time > limit;
	c->next_flush = c->max_time;
	c->due = c->queued ? c->max_time : 0;
	return limit;
}
