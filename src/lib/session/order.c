// SPDX-License-Identifier: MIT
/* Records in time order (see order.h). */
#include "lib/session/order.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base/util.h"
#include "lib/session/record.h"
#include "lib/session/session.h"
#include "lib/io/walk_loop.h"

struct qev {
	uint64_t time, seq;
	bool timed; /* the merge: untimed records go first */
	struct pd_event ev;
	uint8_t bytes[];
};

/*
 * What malloc takes for n bytes (glibc: an 8-byte header, rounded up to
 * 16, 32 at least): the queue's bound counts what it really holds.
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
 * The copies of records, reused: a freed one waits in a list per size
 * class (16-byte steps, up to QCACHE_LARGE bytes) for the next record of
 * its size, so that queueing a record costs a list pop, not a malloc and
 * a free (glibc's were 75 M of export's 1,121 M instructions on a 20 MB
 * recording).  At most QCACHE_BYTES wait; larger copies are malloc'd.
 * NULL: malloc and free (the merge's copies).
 */
#define QCLASS	     16
#define QCACHE_LARGE 2048
#define QCACHE_BYTES (2u << 20)

struct qcache {
	void *free[QCACHE_LARGE / QCLASS + 1];
	size_t bytes;
	bool off; /* the queue reached its bound: malloc and free */
};

static size_t qclass(size_t n)
{
	return (n + QCLASS - 1) / QCLASS;
}

static struct qev *qev_alloc(struct qcache *c, size_t n)
{
	size_t k = qclass(n);
	void *p;

	if (!c || c->off || k > QCACHE_LARGE / QCLASS)
		return malloc(n);
	p = c->free[k];
	if (!p)
		return malloc(k * QCLASS);
	c->free[k] = *(void **)p;
	c->bytes -= k * QCLASS;
	return p;
}

static void qev_free(struct qcache *c, struct qev *q)
{
	size_t k = qclass(sizeof(*q) + q->ev.size);

	if (!c || c->off || k > QCACHE_LARGE / QCLASS ||
	    c->bytes + k * QCLASS > QCACHE_BYTES) {
		free(q);
		return;
	}
	*(void **)q = c->free[k];
	c->free[k] = q;
	c->bytes += k * QCLASS;
}

static void qcache_free(struct qcache *c)
{
	for (size_t k = 0; k < PD_NELEMS(c->free); k++)
		while (c->free[k]) {
			void *p = c->free[k];

			c->free[k] = *(void **)p;
			free(p);
		}
	c->bytes = 0;
}

static struct qev *copy_event(struct qcache *c, const struct pd_event *ev,
			      uint64_t t, uint64_t seq)
{
	struct qev *q = qev_alloc(c, sizeof(*q) + ev->size);

	if (!q)
		return NULL;
	q->time = t;
	q->seq = seq;
	q->timed = true;
	q->ev = *ev;
	memcpy(q->bytes, ev->p, ev->size);
	q->ev.p = q->bytes;
	q->ev.payload_bytes = NULL; /* payloads are not kept in time order */
	return q;
}

/* ---- a binary min-heap of pointers ---------------------------------- */

typedef bool (*less_fn)(const void *a, const void *b);

struct heap {
	void **v;
	size_t n, cap;
	less_fn less;
};

/*
 * The heap's steps with the order given: inlined where `less` is a
 * constant (the queue's qev_less: a comparison per level, not a call),
 * else through h->less (the merge's streams).
 */
static inline __attribute__((always_inline)) void
sift_down_by(struct heap *h, size_t i, less_fn less)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		void *t;

		if (l < h->n && less(h->v[l], h->v[m]))
			m = l;
		if (l + 1 < h->n && less(h->v[l + 1], h->v[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = t;
		i = m;
	}
}

static inline __attribute__((always_inline)) int push_by(struct heap *h,
							 void *x, less_fn less)
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
	for (i = h->n++; i && less(x, h->v[(i - 1) / 2]); i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = x;
	return 0;
}

static inline __attribute__((always_inline)) void *pop_by(struct heap *h,
							  less_fn less)
{
	void *top = h->v[0];

	h->v[0] = h->v[--h->n];
	sift_down_by(h, 0, less);
	return top;
}

static void sift_down(struct heap *h, size_t i)
{
	sift_down_by(h, i, h->less);
}

static int heap_push(struct heap *h, void *x)
{
	return push_by(h, x, h->less);
}

static void *heap_pop(struct heap *h)
{
	return pop_by(h, h->less);
}

/* ---- one stream through the round queue ----------------------------- */

static bool qev_less(const void *a, const void *b)
{
	const struct qev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time;
	return x->seq < y->seq;
}

struct queue {
	struct heap h;
	struct qcache cache; /* the copies freed, for the next */
	size_t held; /* bytes: the records' allocations and the heap's slots */
	uint64_t seq;
	uint64_t forced; /* flushes of the older half (the bound reached) */
	struct pd_flush_clock clock; /* when perf flushes what */
};

static size_t queue_bytes(const struct queue *q)
{
	return q->held + alloc_cost(q->h.cap * sizeof(void *));
}

/* Deliver the queued records of time <= limit, or the older half. */
static void flush(struct queue *q, uint64_t limit, bool half,
		  pd_deliver_fn deliver, void *arg)
{
	size_t out = q->h.n / 2;

	while (q->h.n) {
		struct qev *e = q->h.v[0];

		if (half ? out-- == 0 : e->time > limit)
			break;
		pop_by(&q->h, qev_less);
		deliver(arg, &e->ev);
		q->held -= qev_cost(e);
		qev_free(&q->cache, e);
	}
}

static int push(struct queue *q, const struct pd_event *ev, uint64_t t)
{
	struct qev *e = copy_event(&q->cache, ev, t, q->seq++);

	if (!e || push_by(&q->h, e, qev_less) < 0) {
		if (e)
			qev_free(&q->cache, e);
		return -1;
	}
	q->held += qev_cost(e);
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
	/* the bound holds the records: no copies kept for reuse */
	qcache_free(&q->cache);
	q->cache.off = true;
	if (!q->forced++)
		pd_diag_add(diags, PD_C_ORDER_QUEUE_FULL,
			    PD_AT_NAMED("--order time"), PD_WARN, ev->offset,
			    "time order",
			    "%zu records wait for a FINISHED_ROUND and take "
			    "the %u MiB the time-order queue may hold: the "
			    "older half goes out now, and records after it "
			    "may come out of time order",
			    q->h.n, PD_ORDER_MAX_QUEUED >> 20);
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
	o->q.h.less = qev_less;
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
	qcache_free(&o->q.cache);
	free(o->q.h.v);
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
	q = copy_event(NULL, ev, t, 0);
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
