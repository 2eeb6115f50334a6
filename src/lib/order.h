/* SPDX-License-Identifier: MIT */
/*
 * Records in time order, the way perf processes them
 * (tools/perf/util/ordered-events.c, session.c): records with a time are
 * queued and flushed at each FINISHED_ROUND up to the largest time of the
 * round before it (the two-round rule, FORMAT.md §7.2); records without a
 * time go out as they come; the directory's data.N streams, each already
 * in time order, are merged.  Memory is bounded: past PD_ORDER_MAX_QUEUED
 * bytes the older half of the queue is flushed (perf's OE_FLUSH__HALF).
 */
#ifndef PD_ORDER_H
#define PD_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "reader.h"

struct pd_session;

#define PD_ORDER_MAX_QUEUED (64u << 20)

/* The time of a record, if it has one. */
typedef bool (*pd_event_time_fn)(struct pd_session *s,
				 const struct pd_event *ev, uint64_t *t);
typedef void (*pd_deliver_fn)(void *arg, const struct pd_event *ev);

/*
 * Read every record of the session (all streams when `all_streams`) and
 * hand them to deliver() in time order.  Returns 0, or -1 when out of
 * memory.
 */
int pd_read_in_time_order(struct pd_session *s, bool all_streams,
			  pd_event_time_fn time_of, pd_deliver_fn deliver,
			  void *arg);

/*
 * perf's flush rule without the queue (ordered-events.c): at each
 * FINISHED_ROUND perf flushes up to the largest time seen when the round
 * before ended; FINISHED_INIT flushes everything.  A time below what was
 * already flushed arrives too late: perf processes it out of order.
 * Zero it to start a stream.
 */
struct pd_flush_clock {
	uint64_t max_time;     /* largest time seen */
	uint64_t next_flush;   /* what the next FINISHED_ROUND flushes up to */
	uint64_t last_flush;   /* times below it arrive too late */
	uint64_t flush_offset; /* the FINISHED_ROUND/INIT that set last_flush */
};

void pd_flush_round(struct pd_flush_clock *c, uint64_t offset);
void pd_flush_init(struct pd_flush_clock *c, uint64_t offset);
/*
 * A record's time: how many ns too late it is (0: in time).  Times 0 and
 * ~0 are never queued by perf, so never late.
 */
uint64_t pd_flush_time(struct pd_flush_clock *c, uint64_t t);

#endif
