// SPDX-License-Identifier: MIT
/* A directory's streams merged in time order (see order.h). */
#include <stdlib.h>

#include "lib/io/walk_loop.h"
#include "lib/session/order.h"
#include "lib/session/order_int.h"

/* ---- a binary min-heap of the streams ------------------------------ */

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
	q = malloc(sizeof(*q) + ev->size);
	if (!q) {
		m->oom = true;
		return;
	}
	qev_fill(q, ev, t);
	q->timed = timed;
	st->v[st->n++] = q;
	*bytes += alloc_cost(sizeof(*q) + ev->size);
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
