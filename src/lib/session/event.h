/* SPDX-License-Identifier: MIT */
/*
 * One record decoded the way perf processes it (session.c
 * perf_session__deliver_event): the attr that describes it
 * (evlist__event2evsel), then a sample decoded by that attr's sample_type,
 * or another record's body and its sample_id trailer.  What `records`
 * shows and `check` validates.
 */
#ifndef PD_EVENT_H
#define PD_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/session/record.h"
#include "lib/session/sample.h"

struct pd_decoded {
	const struct pd_evsel *evsel; /* NULL: none, or its id is unknown */
	uint64_t rid;		      /* the id that chose it (0: none) */
	bool trailer_short;	      /* too small for its sample_id trailer */
	bool errors; /* decoding it said an error (into the session's diags) */
	struct pd_sample_id id; /* a sample's fields, or the trailer */
	struct pd_sample smp;	/* type 9 */
	struct pd_record rec;	/* any other type */
};

/*
 * Decode ev into d (arrays in `scratch`; of a tracepoint sample, what
 * tp_want asks: PD_TP_FIELDS, PD_TP_PRINT).  Problems go to s->diags,
 * including a record too small for its trailer.  The event list is not
 * changed: EVENT_UPDATE is the walk's (walk.c).
 */
void pd_decode_event(struct pd_session *s, const struct pd_event *ev,
		     struct arena *scratch, unsigned tp_want,
		     struct pd_decoded *d);

/*
 * The time a record carries (a sample's TIME, another kernel record's
 * sample_id trailer), for time ordering: false when it has none.
 */
bool pd_event_time(struct pd_session *s, const struct pd_event *ev,
		   uint64_t *t);

#endif
