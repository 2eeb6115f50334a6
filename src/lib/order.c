// SPDX-License-Identifier: MIT
/* Records in time order (see order.h). */
#include "order.h"

#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "session.h"

struct qev {
	uint64_t time, seq;
	struct pd_event ev;
	uint8_t bytes[];
};

struct queue {
	struct qev **v;
	size_t n, cap;
	size_t bytes; /* the memory the queued records take (qev_cost) */
	uint64_t seq;
	struct pd_flush_clock clock; /* when perf flushes what */
};

static struct qev *copy_event(const struct pd_event *ev, uint64_t t,
			      uint64_t seq)
{
	struct qev *q = malloc(sizeof(*q) + ev->size);

	if (!q)
		return NULL;
	q->time = t;
	q->seq = seq;
	q->ev = *ev;
	memcpy(q->bytes, ev->p, ev->size);
	q->ev.p = q->bytes;
	q->ev.payload_bytes = NULL; /* payloads are not kept in time order */
	return q;
}

/*
 * What a queued record costs: its copy, its slot and the allocator's
 * word (small records cost several times their size: 48-byte samples
 * counted alone let the queue grow to 220 MiB).
 */
static size_t qev_cost(const struct pd_event *ev)
{
	return sizeof(struct qev) + ev->size + sizeof(struct qev *) + 16;
}

static int cmp_qev(const void *a, const void *b)
{
	const struct qev *x = *(struct qev *const *)a;
	const struct qev *y = *(struct qev *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Deliver queued records with time <= limit (or the older half). */
static void flush(struct queue *q, uint64_t limit, bool half,
		  pd_deliver_fn deliver, void *arg)
{
	size_t k = 0, out;

	if (!q->n)
		return;
	qsort(q->v, q->n, sizeof(*q->v), cmp_qev);
	if (half)
		out = q->n / 2;
	else
		for (out = 0; out < q->n && q->v[out]->time <= limit; out++)
			;
	for (size_t i = 0; i < out; i++) {
		deliver(arg, &q->v[i]->ev);
		q->bytes -= qev_cost(&q->v[i]->ev);
		free(q->v[i]);
	}
	for (size_t i = out; i < q->n; i++)
		q->v[k++] = q->v[i];
	q->n = k;
}

static int push(struct queue *q, const struct pd_event *ev, uint64_t t)
{
	struct qev *e;

	if (q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 1024;
		struct qev **nv = realloc(q->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		q->v = nv;
		q->cap = ncap;
	}
	e = copy_event(ev, t, q->seq++);
	if (!e)
		return -1;
	q->v[q->n++] = e;
	q->bytes += qev_cost(ev);
	return 0;
}

/* One stream through the round queue. */
static int ordered_stream(struct pd_session *s, struct pd_reader *r,
			  pd_event_time_fn time_of, pd_deliver_fn deliver,
			  void *arg)
{
	struct queue q = {0};
	struct pd_event ev;
	int rc = 0;

	while (pd_reader_next(r, &ev) == 1) {
		uint64_t t;

		if (ev.type == PD_REC_FINISHED_ROUND) {
			uint64_t limit = pd_flush_round(&q.clock, ev.offset);

			/* perf shows the round, then what it flushes */
			deliver(arg, &ev);
			if (limit)
				flush(&q, limit, false, deliver, arg);
			continue;
		}
		/* no time, or 0 or ~0: not queued, as it comes (like perf) */
		if (!time_of(s, &ev, &t) || !pd_flush_queues(t)) {
			deliver(arg, &ev);
			continue;
		}
		pd_flush_time(&q.clock, t);
		if (push(&q, &ev, t) < 0) {
			rc = -1;
			break;
		}
		if (q.bytes > PD_ORDER_MAX_QUEUED)
			flush(&q, 0, true, deliver, arg);
	}
	flush(&q, UINT64_MAX, false, deliver, arg);
	free(q.v);
	return rc;
}

/* A stream's next record, copied, with its time. */
struct head {
	struct pd_reader *r;
	struct qev *q; /* NULL: the stream is done */
	bool timed;
};

static void advance(struct pd_session *s, struct head *h,
		    pd_event_time_fn time_of)
{
	struct pd_event ev;
	uint64_t t = 0;

	free(h->q);
	h->q = NULL;
	if (pd_reader_next(h->r, &ev) != 1)
		return;
	h->timed = time_of(s, &ev, &t);
	h->q = copy_event(&ev, t, 0);
}

/* The directory's streams, each in time order already, merged by time. */
static int merge_streams(struct pd_session *s, pd_event_time_fn time_of,
			 pd_deliver_fn deliver, void *arg)
{
	size_t n = s->ndir + 1;
	struct head *h = calloc(n, sizeof(*h));
	int rc = 0;

	if (!h)
		return -1;
	for (size_t i = 0; i < n; i++) {
		h[i].r = pd_reader_open_stream(s, 0, (int)i - 1);
		if (!h[i].r) {
			rc = -1;
			goto out;
		}
		advance(s, &h[i], time_of);
	}
	for (;;) {
		struct head *best = NULL;

		for (size_t i = 0; i < n; i++) {
			if (!h[i].q)
				continue;
			if (!h[i].timed) { /* untimed records go first */
				best = &h[i];
				break;
			}
			if (!best || h[i].q->time < best->q->time)
				best = &h[i];
		}
		if (!best)
			break;
		deliver(arg, &best->q->ev);
		advance(s, best, time_of);
	}
out:
	for (size_t i = 0; i < n; i++) {
		free(h[i].q);
		pd_reader_close(h[i].r);
	}
	free(h);
	return rc;
}

int pd_read_in_time_order(struct pd_session *s, bool all_streams,
			  pd_event_time_fn time_of, pd_deliver_fn deliver,
			  void *arg)
{
	struct pd_reader *r;
	int rc;

	if (all_streams && s->mode == PD_MODE_DIR && s->ndir)
		return merge_streams(s, time_of, deliver, arg);
	r = pd_reader_open(s, PD_READ_FAST);
	if (!r)
		return -1;
	rc = ordered_stream(s, r, time_of, deliver, arg);
	pd_reader_close(r);
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
