// SPDX-License-Identifier: MIT
/*
 * The session's tracepoint formats: each tracing data blob's formats
 * parsed once (tracepoint.c), kept by the session, and looked up by a
 * tracepoint evsel's ID, as perf's session keeps its tep handle
 * (tools/perf/util/trace-event.c: trace_event__init, and
 * evsel__tp_format's lookup by attr.config).
 */
#include <stdlib.h>

#include "lib/format/features.h"
#include "lib/session/session.h"
#include "lib/tracepoint/tracepoint.h"

const struct pd_tp *pd_tp_load(struct pd_session *s,
			       const struct feat_tracing_data *m)
{
	struct pd_tp *tp;

	if (!m || m->step < PD_TRACE_PARAMS)
		return NULL;
	for (tp = s->tps; tp; tp = tp->next)
		if (tp->offset == m->offset)
			return tp;
	tp = pd_tp_parse(&s->arena, &s->diags, m);
	if (!tp)
		return NULL;
	tp->resolver = s->tp_resolver;
	tp->next = s->tps;
	s->tps = tp;
	s->tp_gen++;
	if (s->evlist.loaded)
		pd_tp_name_evsels(s);
	return tp;
}

void pd_tp_set_resolver(struct pd_session *s, const struct pd_tp_resolver *r)
{
	s->tp_resolver = r;
	for (struct pd_tp *tp = s->tps; tp; tp = tp->next)
		tp->resolver = r;
}

void pd_tp_free_all(struct pd_session *s)
{
	pd_tp_free(s->tps);
	s->tps = NULL;
}

/* The format whose ID is id, in the blobs loaded (the newest first). */
static struct pd_tp_event *find_id(struct pd_session *s, uint64_t id,
				   struct pd_tp **in)
{
	for (struct pd_tp *tp = s->tps; tp; tp = tp->next)
		for (uint32_t i = 0; i < tp->nevents; i++)
			if (tp->events[i].id == id && tp->events[i].has_id &&
			    tp->events[i].full_name) {
				*in = tp;
				return &tp->events[i];
			}
	return NULL;
}

/* The session's TRACING_DATA features, loaded (file and pipe mode). */
static void load_features(struct pd_session *s)
{
	for (size_t i = 0; i < s->nfeat; i++) {
		if (s->feat[i].id != HEADER_TRACING_DATA)
			continue;
		pd_decode_feature(s, &s->feat[i]);
		for (const struct feat_tracing_data *m = s->feat[i].model; m;
		     m = m->next)
			pd_tp_load(s, m);
	}
}

void pd_tp_name_evsels(struct pd_session *s)
{
	struct pd_evlist *l = &s->evlist;

	for (uint32_t i = 0; i < l->n; i++) {
		struct pd_evsel *ev = &l->v[i];
		const struct pd_tp_event *t;

		if (ev->name_from || ev->attr.type != PD_TYPE_TRACEPOINT)
			continue;
		t = pd_tp_event_of(s, ev);
		if (t)
			pd_evsel_name(ev, "TRACING_DATA", "%s", t->full_name);
	}
}

const struct pd_tp_event *pd_tp_event_of(struct pd_session *s,
					 const struct pd_evsel *ev)
{
	struct pd_evsel *e = (struct pd_evsel *)ev;
	struct pd_tp *tp;

	if (!ev || ev->attr.type != PD_TYPE_TRACEPOINT)
		return NULL;
	if (!s->tp_features) {
		s->tp_features = true;
		load_features(s);
	}
	if (e->tp_gen != s->tp_gen) { /* another blob came: look again */
		e->tp_gen = s->tp_gen;
		e->tp = find_id(s, ev->attr.config, &tp);
	}
	return e->tp;
}
