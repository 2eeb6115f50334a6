// SPDX-License-Identifier: MIT
/*
 * The names of a recording's events (see evlist.h): as perf names an
 * evsel (tools/perf/util/header.c: perf_evsel__set_name from EVENT_DESC,
 * evlist__update for EVENT_UPDATE; evsel.c evsel__name from the attr).
 */
#include <stdio.h>
#include <string.h>

#include "lib/session/evlist_int.h"
#include "lib/format/evname.h"
#include "lib/format/features.h"
#include "lib/session/record.h"
#include "lib/session/session.h"
#include "lib/tracepoint/tracepoint.h"

static void set_name(struct pd_evsel *ev, const char *name, size_t len,
		     const char *from)
{
	if (len >= sizeof(ev->name))
		len = sizeof(ev->name) - 1;
	memcpy(ev->name, name, len);
	ev->name[len] = 0;
	ev->name_from = from;
}

void pd_evlist_set_name(struct pd_session *s, uint64_t id, const char *name,
			size_t len)
{
	struct pd_evsel *ev = (struct pd_evsel *)pd_evlist_find(s, id);

	if (ev)
		set_name(ev, name, len, "EVENT_UPDATE");
}

/* Names from EVENT_DESC: by a shared id, else by position. */
static void names_from_event_desc(struct pd_session *s)
{
	struct pd_feature *f =
		(struct pd_feature *)pd_find_feature(s, HEADER_EVENT_DESC);
	const struct feat_event_desc *m;
	struct pd_evlist *l = &s->evlist;

	if (!f)
		return;
	pd_decode_feature(s, f);
	m = f->model;
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nr_read; i++) {
		const struct pd_event_desc *d = &m->ev[i];
		struct pd_evsel *ev = NULL;

		for (uint32_t k = 0; k < d->ids_read && !ev; k++)
			ev = (struct pd_evsel *)pd_evlist_find(s, d->ids[k]);
		if (!ev && m->nr_read == l->n)
			ev = &l->v[i];
		if (ev && d->name.s && !ev->name_from)
			set_name(ev, d->name.s, d->name.len, "EVENT_DESC");
	}
}

void pd_evlist_apply_update(struct pd_session *s, const uint8_t *p, size_t size)
{
	const struct pd_event e = {
		.type = PD_REC_EVENT_UPDATE, .size = (uint16_t)size, .p = p};
	struct pd_rec_event_update h;
	struct pd_rec_raw name;

	if (size > UINT16_MAX ||
	    !pd_event_update_view(&e, s->swap, &h, &name) ||
	    h.type != PD_EVENT_UPDATE_NAME)
		return;
	const char *nul = memchr(name.p, 0, name.n);

	pd_evlist_set_name(s, h.id, (const char *)name.p,
			   nul ? (size_t)(nul - (const char *)name.p) : name.n);
}

/* Pipe mode: the EVENT_UPDATE records kept by the metadata walk. */
static void names_from_updates(struct pd_session *s)
{
	for (size_t i = 0; i < s->npipe_updates; i++)
		pd_evlist_apply_update(s, s->pipe_updates[i].bytes,
				       (size_t)s->pipe_updates[i].loaded);
}

/* A PMU type's name from PMU_MAPPINGS, decoded on first use. */
static const char *mapped_pmu(void *ctx, uint32_t type, char *buf, size_t len)
{
	struct pd_session *s = ctx;
	struct pd_feature *f =
		(struct pd_feature *)pd_find_feature(s, HEADER_PMU_MAPPINGS);

	if (f)
		pd_decode_feature(s, f);
	return pd_pmu_mapping_name(s, type, buf, len);
}

/* Events the file names nowhere: from their attr (evname.c). */
static void names_from_attrs(struct pd_session *s)
{
	char name[sizeof(s->evlist.v[0].name)];

	for (uint32_t i = 0; i < s->evlist.n; i++) {
		struct pd_evsel *ev = &s->evlist.v[i];

		if (!ev->name_from && pd_attr_event_name(&ev->attr, mapped_pmu,
							 s, name, sizeof(name)))
			pd_evsel_name(ev, "attr", "%s", name);
	}
}

void evlist_name_events(struct pd_session *s)
{
	names_from_updates(s);
	names_from_event_desc(s);
	pd_tp_name_evsels(s);
	/* last: an EVENT_UPDATE NAME met in the records still renames */
	names_from_attrs(s);
}
