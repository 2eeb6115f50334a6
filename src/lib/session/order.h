/* SPDX-License-Identifier: MIT */
/*
 * Records in time order, the way perf processes them
 * (tools/perf/util/ordered-events.c, session.c): records with a time are
 * queued and flushed at each FINISHED_ROUND up to the largest time of the
 * round before it (pd_flush_clock below); records without a time, or
 * with time 0 or ~0, go out as they come; the directory's data.N streams,
 * each already in time order, are merged.  Memory is bounded: when what
 * the queue holds (the blocks its records are copied into and the heap
 * that orders their runs) passes PD_ORDER_MAX_QUEUED bytes, the older
 * half is delivered (like perf's OE_FLUSH__HALF, which perf only does
 * past its own memory limit, report.queue-size) and a warning says so
 * (order-queue-full); the merge reads each stream in batches that hold
 * PD_ORDER_MERGE_BUFFER bytes over all streams, with one data.N file open
 * at a time.
 */
#ifndef PD_ORDER_H
#define PD_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/io/reader.h"

struct pd_session;

#define PD_ORDER_MAX_QUEUED   (16u << 20)
#define PD_ORDER_MERGE_BUFFER (8u << 20)

/* The time of a record, if it has one. */
typedef bool (*pd_event_time_fn)(struct pd_session *s,
				 const struct pd_event *ev, uint64_t *t);
typedef void (*pd_deliver_fn)(void *arg, const struct pd_event *ev);

/*
 * One stream in time order: its records pushed as they are read, handed
 * to deliver() as perf's round queue lets them out.  pd_order_push
 * returns false when out of memory; pd_order_end delivers what is left
 * and frees the queue: 0, or -1 when memory ran out on the way (or o is
 * NULL).
 */
struct pd_order;
struct pd_order *pd_order_new(struct pd_session *s, pd_event_time_fn time_of,
			      pd_deliver_fn deliver, void *arg);
bool pd_order_push(struct pd_order *o, const struct pd_event *ev);
int pd_order_end(struct pd_order *o);
/* The queue's own diagnostics (its bound reached) to diags, not the
 * session's: a parallel walk says them in their order (walk_par.c). */
void pd_order_diags(struct pd_order *o, struct pd_diags *diags);
/*
 * A parallel walk keeps the queue's copies of the records it delivers,
 * instead of copying them again (pd_order_keep): in deliver(),
 * pd_order_take says whether ev is the queue's and stays where it is
 * (false: copy it) until given back.  They are given back in the order
 * they went out: pd_order_release the first upto of them (pd_order_out:
 * how many went out kept so far).  pd_order_finish delivers what is left
 * (the stream ended), pd_order_end gives every record back.
 */
void pd_order_keep(struct pd_order *o);
bool pd_order_take(struct pd_order *o, const struct pd_event *ev);
uint64_t pd_order_out(const struct pd_order *o);
void pd_order_release(struct pd_order *o, uint64_t upto);
void pd_order_finish(struct pd_order *o);

/*
 * A directory's streams (src: the main stream and src->ndir data.N
 * files), each in time order already, merged and handed to deliver().
 * Returns 0, or -1 when out of memory.
 */
int pd_order_merge(struct pd_session *s, const struct pd_reader_src *src,
		   pd_event_time_fn time_of, pd_deliver_fn deliver, void *arg);

/*
 * perf's flush rule (tools/perf/util/ordered-events.c), kept without the
 * records themselves so that stats and check can follow it at full speed;
 * the time-order queue below follows it too, so there is one rule:
 *
 *  - ordered_events__queue: a record whose time is 0 or ~0 (or that has
 *    none) is not queued; perf_session__process_event delivers it at once.
 *    A queued time below last_flush is "out of order" (perf counts it in
 *    nr_unordered_events) and is processed late.
 *  - queue_event: max_timestamp is the time of the newest record at the
 *    queue's tail; a record queued into an empty queue sets it, even lower.
 *  - FINISHED_ROUND (session.c process_finished_round,
 *    ordered_events__flush(OE_FLUSH__ROUND)): nothing when the queue is
 *    empty; else the records up to next_flush go out (none when it is 0),
 *    last_flush becomes the time of the last one flushed, and next_flush
 *    becomes max_timestamp.
 *  - FINISHED_INIT: perf report and perf script leave it to
 *    process_event_op2_stub (tools/perf/util/tool.c): no flush.
 *
 * Zero it to start a stream.
 */
struct pd_flush_clock {
	uint64_t max_time;     /* perf's max_timestamp */
	uint64_t next_flush;   /* what the next FINISHED_ROUND flushes up to */
	uint64_t last_flush;   /* the last time flushed: below it is too late */
	uint64_t flush_offset; /* the FINISHED_ROUND that set last_flush */
	uint64_t due;	       /* the largest queued time <= next_flush, or 0 */
	bool queued;	       /* records wait in the queue */
};

/* Does perf queue a record of time t? (0 and ~0 go out at once) */
static inline bool pd_flush_queues(uint64_t t)
{
	return t != 0 && t != UINT64_MAX;
}

/*
 * A FINISHED_ROUND at offset: returns the time up to which perf delivers
 * the queued records now (0: none).
 */
uint64_t pd_flush_round(struct pd_flush_clock *c, uint64_t offset);
/*
 * A record of time t queued (pd_flush_queues(t) must hold): how many ns
 * too late it is (0: in time).
 */
static inline uint64_t pd_flush_time(struct pd_flush_clock *c, uint64_t t)
{
	if (!c->queued || t >= c->max_time)
		c->max_time = t; /* queue_event: the new tail */
	c->queued = true;
	if (t <= c->next_flush && t > c->due)
		c->due = t;
	return t < c->last_flush ? c->last_flush - t : 0;
}

#endif
