/* SPDX-License-Identifier: MIT */
/* The time order's insides, shared by order.c and order_merge.c. */
#ifndef PD_ORDER_INT_H
#define PD_ORDER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lib/io/reader.h"

struct qblock;

/* A record's copy, queued or waiting in a stream's batch. */
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
static inline size_t alloc_cost(size_t n)
{
	size_t c = (n + 8 + 15) & ~(size_t)15;

	return c < 32 ? 32 : c;
}

/* q, sizeof(*q) + ev->size bytes, made a copy of ev at time t. */
static inline void qev_fill(struct qev *q, const struct pd_event *ev,
			    uint64_t t)
{
	q->time = t;
	q->next = NULL;
	q->timed = true;
	q->ev = *ev;
	memcpy(q->bytes, ev->p, ev->size);
	q->ev.p = q->bytes;
	q->ev.payload_bytes = NULL; /* payloads are not kept in time order */
}

#endif
