// SPDX-License-Identifier: MIT
/* One record, decoded as perf processes it (see event.h). */
#include "event.h"

#include "session.h"

void pd_decode_event(struct pd_session *s, const struct pd_event *ev,
		     struct arena *scratch, struct pd_decoded *d)
{
	d->evsel = NULL;
	d->rid = 0;
	d->trailer_short = false;
	d->id = (struct pd_sample_id){0};
	if (ev->type == PD_REC_SAMPLE) {
		d->evsel =
			pd_record_evsel(s, ev->type, ev->p, ev->size, &d->rid);
		pd_parse_sample(s, d->evsel, ev, scratch, &d->smp);
		d->id = d->smp.common;
		return;
	}
	if (ev->type < 64) {
		d->evsel =
			pd_record_evsel(s, ev->type, ev->p, ev->size, &d->rid);
		if (d->evsel &&
		    !pd_parse_sample_id(s, d->evsel, ev->p, ev->size,
					ev->offset, &d->id)) {
			const char *name = pd_record_type_name(ev->type);

			d->trailer_short = true;
			pd_diag_add(&s->diags, PD_C_RECORD_TOO_SMALL,
				    PD_AT_RECORD(ev->type), PD_ERR, ev->offset,
				    name ? name : "record",
				    "record of %u bytes is too small for its "
				    "%u-byte sample_id trailer",
				    ev->size,
				    pd_sample_id_size(&d->evsel->attr));
		}
	}
	pd_parse_record(s, ev, d->id.trailer_size, scratch, &d->rec);
	if (ev->type == PD_REC_EVENT_UPDATE)
		pd_evlist_apply_update(s, ev->p, ev->size);
}

bool pd_event_time(struct pd_session *s, const struct pd_event *ev, uint64_t *t)
{
	const struct pd_evsel *evsel;
	struct pd_sample_id id;
	uint64_t rid;

	if (ev->type >= 64 || ev->type == 0)
		return false;
	evsel = pd_record_evsel(s, ev->type, ev->p, ev->size, &rid);
	if (!evsel)
		return false;
	if (ev->type == PD_REC_SAMPLE)
		return pd_sample_time(s, evsel, ev, t);
	if (!pd_parse_sample_id(s, evsel, ev->p, ev->size, ev->offset, &id) ||
	    !id.has_time)
		return false;
	*t = id.time;
	return true;
}
