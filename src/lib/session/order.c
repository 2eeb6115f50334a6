// SPDX-License-Identifier: MIT
/* Records in time order (see order.h). */
#include "lib/session/order.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/base/util.h"
#include "lib/session/record.h"
#include "lib/session/session.h"
#include "lib/io/walk_loop.h"

struct qblock;

struct qev {
	uint64_t time;
	struct qev *next;   /* the queue: the next of its run */
	struct qblock *blk; /* the queue: the block it is in */
	bool timed;	    /* the merge: untimed records go first */
	struct pd_event ev;
	uint8_t bytes[];
};

/*
 * What malloc takes for n bytes (glibc: an 8-byte header, rounded up to
 * 16, 32 at least): the bounds count what is really held.
 */
static size_t alloc_cost(size_t n)
{
	size_t c = (n + 8 + 15) & ~(size_t)15;

	return c < 32 ? 32 : c;
}

static size_t qev_cost(const struct qev *q)
{
	return alloc_cost(sizeof(*q) + q->ev.size);
}

/*
 * The queue's copies of records, cut in turn from blocks of QBLOCK bytes
 * (a record costs a bump of a pointer, not a malloc and a free), a block
 * given back when the last record in it has gone out.  Records go out
 * in time order, mostly the order they came in, so the blocks empty in
 * turn; QSPARE emptied ones wait to be used again.  The blocks are
 * mapped, not malloc'd: one given back leaves no hole in malloc's heap
 * for the records' consumers to grow around (a visitor's tables grow
 * while the queue is full).  The queue's bound counts every block it
 * holds, spares and part-filled ones too.  A record (at most 64 KiB:
 * header.size) always fits a block.
 */
#define QBLOCK (256u << 10)
#define QSPARE 4

struct qblock {
	struct qblock *next; /* the spares */
	size_t used;	     /* bytes of data cut */
	size_t live;	     /* its records still queued */
	size_t pad;	     /* data 16-byte aligned, as malloc's */
	uint8_t data[];
};

struct qalloc {
	struct qblock *cur; /* where the next record is cut */
	struct qblock *spare;
	unsigned nspare;
	size_t nblocks; /* held: cur, spares and those with records */
};

static size_t qalloc_bytes(const struct qalloc *a)
{
	return a->nblocks * QBLOCK;
}

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
		a->nblocks++;
	}
	b->used = b->live = 0;
	return b;
}

static void qblock_put(struct qalloc *a, struct qblock *b)
{
	if (a->nspare < QSPARE) {
		b->next = a->spare;
		a->spare = b;
		a->nspare++;
		return;
	}
	munmap(b, QBLOCK);
	a->nblocks--;
}

/* n bytes for a record's copy: NULL when out of memory. */
static struct qev *qev_alloc(struct qalloc *a, size_t n)
{
	struct qblock *b = a->cur;
	struct qev *q;

	n = (n + 15) & ~(size_t)15;
	if (!b || QBLOCK - sizeof(*b) - b->used < n) {
		if (b && !b->live) {
			b->used = 0; /* empty: cut again from its start */
		} else {
			b = qblock_new(a);
			if (!b)
				return NULL;
			a->cur = b;
		}
	}
	q = (struct qev *)(b->data + b->used);
	b->used += n;
	b->live++;
	q->blk = b;
	return q;
}

static void qev_free(struct qalloc *a, struct qev *q)
{
	struct qblock *b = q->blk;

	if (--b->live == 0 && b != a->cur)
		qblock_put(a, b);
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

/* A copy of ev: the queue's (a), or malloc'd (a NULL: the merge's). */
static struct qev *copy_event(struct qalloc *a, const struct pd_event *ev,
			      uint64_t t)
{
	size_t n = sizeof(struct qev) + ev->size;
	struct qev *q = a ? qev_alloc(a, n) : malloc(n);

	if (!q)
		return NULL;
	if (!a)
		q->blk = NULL;
	q->time = t;
	q->next = NULL;
	q->timed = true;
	q->ev = *ev;
	memcpy(q->bytes, ev->p, ev->size);
	q->ev.p = q->bytes;
	q->ev.payload_bytes = NULL; /* payloads are not kept in time order */
	return q;
}

/* ---- a binary min-heap of pointers (the merge's streams) ------------ */

typedef bool (*less_fn)(const void *a, const void *b);

struct heap {
	void **v;
	size_t n, cap;
	less_fn less;
};

static void sift_down(struct heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		void *t;

		if (l < h->n && h->less(h->v[l], h->v[m]))
			m = l;
		if (l + 1 < h->n && h->less(h->v[l + 1], h->v[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = t;
		i = m;
	}
}

static int heap_push(struct heap *h, void *x)
{
	size_t i;

	if (h->n == h->cap) {
		size_t ncap = h->cap ? h->cap * 2 : 1024;
		void **nv = realloc(h->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		h->v = nv;
		h->cap = ncap;
	}
	for (i = h->n++; i && h->less(x, h->v[(i - 1) / 2]); i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = x;
	return 0;
}

static void *heap_pop(struct heap *h)
{
	void *top = h->v[0];

	h->v[0] = h->v[--h->n];
	sift_down(h, 0);
	return top;
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
};

static size_t queue_bytes(const struct queue *q)
{
	return qalloc_bytes(&q->mem) + alloc_cost(q->cap * sizeof(*q->runs));
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
		deliver(arg, &e->ev);
		qev_free(&q->mem, e);
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
			qev_free(&q->mem, e);
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

int pd_order_end(struct pd_order *o)
{
	int rc;

	if (!o)
		return -1;
	flush(&o->q, UINT64_MAX, false, o->deliver, o->arg);
	qalloc_free(&o->q.mem);
	free(o->q.runs);
	rc = o->oom ? -1 : 0;
	free(o);
	return rc;
}

/* ---- a directory's streams, merged ---------------------------------- */

/*
 * Each stream's next records, a batch read with a reader that is closed
 * after it (it is opened again where it stopped): one data.N file open at
 * a time, and what the batches hold bounded by PD_ORDER_MERGE_BUFFER
 * over all streams (one record each at least).  A reader stopped inside
 * a compressed record's bytes cannot be opened again there: it stays
 * open until its stream leaves them.
 */
struct strm {
	int index; /* -1 the data section, N data.N */
	struct pd_walk_loop l;
	bool open;	/* l is open */
	struct qev **v; /* the batch: v[head..n) */
	size_t head, n, cap;
	uint64_t resume, skip; /* where a new reader starts */
	bool done;
};

struct merge {
	struct pd_session *s;
	const struct pd_reader_src *src;
	pd_event_time_fn time_of;
	struct strm *cur; /* the stream being refilled */
	size_t bytes;	  /* its batch's */
	bool in_z;	  /* its last record came out of a container */
	struct strm *st;
	size_t nst;
	size_t batch; /* bytes a batch may take */
	bool oom;
};

static bool strm_less(const void *a, const void *b)
{
	const struct strm *x = a, *y = b;
	const struct qev *p = x->v[x->head], *q = y->v[y->head];

	if (p->timed != q->timed)
		return !p->timed; /* untimed records go first */
	if (p->timed && p->time != q->time)
		return p->time < q->time;
	return x->index < y->index;
}

static void batch_add(struct merge *m, struct strm *st,
		      const struct pd_event *ev, size_t *bytes)
{
	uint64_t t = 0;
	bool timed = m->time_of(m->s, ev, &t);
	struct qev *q;

	if (st->n == st->cap) {
		size_t ncap = st->cap ? st->cap * 2 : 8;
		struct qev **nv = realloc(st->v, ncap * sizeof(*nv));

		if (!nv) {
			m->oom = true;
			return;
		}
		st->v = nv;
		st->cap = ncap;
	}
	q = copy_event(NULL, ev, t);
	if (!q) {
		m->oom = true;
		return;
	}
	q->timed = timed;
	st->v[st->n++] = q;
	*bytes += qev_cost(q);
}

/* One record into the batch; false when the batch is full. */
static bool batch_visit(void *arg, const struct pd_event *ev)
{
	struct merge *m = arg;
	struct strm *st = m->cur;

	batch_add(m, st, ev, &m->bytes);
	m->in_z = ev->compressed;
	if (!m->in_z) {
		st->resume = ev->offset + ev->size;
		st->skip = ev->payload;
	}
	return !m->oom && m->bytes < m->batch;
}

/* The stream's next batch (none: the stream is done). */
static void refill(struct merge *m, struct strm *st)
{
	st->head = st->n = 0;
	if (st->done)
		return;
	if (!st->open &&
	    pd_walk_loop_open_stream(&st->l, m->src, PD_READ_SMALL_WINDOW,
				     st->index, st->resume, st->skip) < 0) {
		m->oom = true;
		return;
	}
	st->open = true;
	m->cur = st;
	m->bytes = 0;
	m->in_z = false;
	if (pd_walk_loop_run(&st->l, batch_visit, m) != 1)
		st->done = true;
	if (st->done || !m->in_z) {
		pd_walk_loop_close(&st->l);
		st->open = false;
	}
}

int pd_order_merge(struct pd_session *s, const struct pd_reader_src *src,
		   pd_event_time_fn time_of, pd_deliver_fn deliver, void *arg)
{
	struct merge m = {
		.s = s, .src = src, .time_of = time_of, .nst = src->ndir + 1};
	struct heap h = {.less = strm_less};
	int rc = 0;

	m.st = calloc(m.nst, sizeof(*m.st));
	if (!m.st)
		return -1;
	m.batch = PD_ORDER_MERGE_BUFFER / m.nst;
	for (size_t i = 0; i < m.nst; i++) {
		m.st[i].index = (int)i - 1;
		refill(&m, &m.st[i]);
		if (m.st[i].n && heap_push(&h, &m.st[i]) < 0)
			m.oom = true;
	}
	while (h.n && !m.oom) {
		struct strm *st = h.v[0];
		struct qev *q = st->v[st->head++];

		deliver(arg, &q->ev);
		free(q);
		if (st->head == st->n)
			refill(&m, st);
		if (st->head < st->n)
			sift_down(&h, 0);
		else
			heap_pop(&h);
	}
	if (m.oom)
		rc = -1;
	for (size_t i = 0; i < m.nst; i++) {
		for (size_t k = m.st[i].head; k < m.st[i].n; k++)
			free(m.st[i].v[k]);
		free(m.st[i].v);
		if (m.st[i].open)
			pd_walk_loop_close(&m.st[i].l);
	}
	free(m.st);
	free(h.v);
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
