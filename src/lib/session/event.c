// SPDX-License-Identifier: MIT
/* One record, decoded as perf processes it (see event.h). */
#include "lib/session/event.h"

#include "lib/session/evlist.h"
#include "lib/session/session.h"

/*
 * A tracepoint sample's format, and its fields when the command asks for
 * them (records, check); a RAW payload cut short has none.
 */
static void decode_tracepoint(struct pd_session *s, struct pd_decoded *d,
			      struct arena *scratch, unsigned tp_want)
{
	const struct pd_sample_bytes *raw = &d->smp.raw;

	/* a RAW size of 0 has no bytes: every field is outside it */
	if (tp_want && (raw->p || !raw->size))
		pd_tp_decode(&s->diags, d->evsel, pd_tp_event_of(s, d->evsel),
			     raw->p, (uint32_t)raw->size, raw->offset, tp_want,
			     scratch, &d->smp.tp);
	else
		d->smp.tp.ev = pd_tp_event_of(s, d->evsel);
}

static void decode(struct pd_session *s, const struct pd_event *ev,
		   struct arena *scratch, unsigned tp_want,
		   struct pd_decoded *d)
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
		if (d->evsel && d->evsel->attr.type == PD_TYPE_TRACEPOINT &&
		    (d->smp.decoded_type & PD_SAMPLE_RAW))
			decode_tracepoint(s, d, scratch, tp_want);
		return;
	}
	if (ev->type < PD_REC_USER_START) { /* kernel records: a trailer */
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
}

void pd_decode_event(struct pd_session *s, const struct pd_event *ev,
		     struct arena *scratch, unsigned tp_want,
		     struct pd_decoded *d)
{
	size_t nerr = s->diags.nerr;

	decode(s, ev, scratch, tp_want, d);
	d->errors = s->diags.nerr != nerr;
}

bool pd_event_time(struct pd_session *s, const struct pd_event *ev, uint64_t *t)
{
	const struct pd_evsel *evsel;
	struct pd_sample_id id;
	uint64_t rid;

	/* only kernel records (below the user types) carry a time */
	if (ev->type >= PD_REC_USER_START || ev->type == 0)
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
