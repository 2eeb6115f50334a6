// SPDX-License-Identifier: MIT
/*
 * `perfdump stats`: samples per event as perf counts them when samples
 * carry PERF_SAMPLE_READ (the walk's cold path).
 *
 * perf delivers such a sample once per value it reads, to the event the
 * value's id belongs to, with the value's change since the last sample
 * of that id as its period, and not at all when that change is zero
 * (tools/perf/util/session.c: evlist__deliver_sample, deliver_sample_group,
 * deliver_sample_value as of perf 6.1, where the last value is kept per
 * id, struct perf_sample_id's period).  A value whose id belongs to no
 * attr is perf's nr_unknown_id.
 */
#include "lib/session/evlist.h"
#include "lib/analysis/stats.h"

#include <stdlib.h>

#include "lib/base/cursor.h"
#include "lib/format/perf_abi.h"
#include "lib/io/reader.h"
#include "lib/session/session.h"

int pd_stats_read_init(struct pd_stats_read *r, const struct pd_session *s)
{
	*r = (struct pd_stats_read){0};
	r->last = calloc(s->evlist.nids + 1, sizeof(*r->last));
	r->samples = calloc(s->evlist.n + 1, sizeof(*r->samples));
	r->period = calloc(s->evlist.n + 1, sizeof(*r->period));
	return r->last && r->samples && r->period ? 0 : -1;
}

void pd_stats_read_free(struct pd_stats_read *r)
{
	free(r->last);
	free(r->samples);
	free(r->period);
	*r = (struct pd_stats_read){0};
}

/* One value read: deliver_sample_value. */
static void count_value(struct pd_stats *st, const struct pd_evlist *l,
			struct pd_stats_read *r, uint64_t value, uint64_t id)
{
	int64_t k = pd_evlist_id_slot(l, id);
	uint64_t delta;
	uint32_t idx;

	if (k < 0) {
		st->read_unknown_id++;
		return;
	}
	delta = value - r->last[k];
	r->last[k] = value;
	if (!delta)
		return;
	idx = l->ids[k].idx;
	r->samples[idx]++;
	r->period[idx] += delta;
}

void pd_stats_count_read(struct pd_stats *st, const struct pd_session *s,
			 struct pd_stats_read *r, const struct pd_event *ev,
			 uint32_t slot, uint64_t fmt)
{
	/* struct read_format: the group's {nr, enabled, running} then nr
	 * {value, id, lost}; one value: {value, enabled, running, id, lost} */
	bool group = fmt & PD_FORMAT_GROUP;
	uint32_t words = ev->size / 8, times, at_id, per;
	uint64_t nr = 1;
	const uint8_t *p;

	times = !!(fmt & PD_FORMAT_TOTAL_TIME_ENABLED) +
		!!(fmt & PD_FORMAT_TOTAL_TIME_RUNNING);
	at_id = group ? 1 : 1 + times;
	per = at_id + !!(fmt & PD_FORMAT_ID) + !!(fmt & PD_FORMAT_LOST);
	if (group) {
		if (slot >= words) {
			st->read_short++;
			return;
		}
		nr = pd_get64(ev->p + 8 * slot, s->swap);
		slot += 1 + times;
	}
	if (slot > words || nr > (words - slot) / per) {
		st->read_short++;
		return;
	}
	p = ev->p + 8 * slot;
	for (uint64_t i = 0; i < nr; i++, p += 8 * per) {
		uint64_t id = 0;

		if (fmt & PD_FORMAT_ID)
			id = pd_get64(p + 8 * at_id, s->swap);
		count_value(st, &s->evlist, r, pd_get64(p, s->swap), id);
	}
}
