// SPDX-License-Identifier: MIT
/*
 * --event in the file written: the attrs of the events kept, and what
 * names events by id or by index rewritten to match them.
 *
 * Which evsels are written is decided before anything is: those --event
 * names (filter.h pd_event_matches), and with them
 *  - every evsel that asks the kernel for side-band records (the attr's
 *    mmap, mmap2, comm, task, namespaces, ksymbol, bpf_event, cgroup,
 *    text_poke bits: perf record's tracking event, tools/perf/util/evsel.c
 *    evsel__config), since copy_keep.c keeps the side-band records
 *    whatever their event and each carries the sample_id of the evsel
 *    that asked for it;
 *  - the whole group of a kept member whose samples read the group
 *    (PERF_SAMPLE_READ with PERF_FORMAT_GROUP: each sample holds every
 *    member's id, tools/perf/util/session.c deliver_sample_group);
 *  - the first evsel, when the first written would read an id-less
 *    record's sample_id trailer otherwise: perf parses a record without
 *    an id (perf's synthesized records carry id 0) with the first evsel's
 *    attr (tools/perf/util/evlist.c evlist__event2evsel).
 * And no record is written that carries the id of an evsel left out: a
 * kernel record chosen by such an id, EVENT_UPDATE and STAT records of
 * one (perf would fail to parse it, or count it as an unknown id), and
 * ID_INDEX entries of its ids.  The features that describe the events,
 * EVENT_DESC and GROUP_DESC, are written again for the evsels kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base/strbuf.h"
#include "lib/format/feat_meta.h"
#include "lib/format/features.h"
#include "lib/session/evlist.h"
#include "lib/write/copy_int.h"

static bool same_trailer(const struct pd_attr *a, const struct pd_attr *b)
{
	return ((a->flags ^ b->flags) & PD_ATTR_SAMPLE_ID_ALL) == 0 &&
	       ((a->sample_type ^ b->sample_type) & PD_SAMPLE_ID_ALL_FIELDS) ==
		       0;
}

static bool reads_group(const struct pd_attr *a)
{
	return (a->sample_type & PD_SAMPLE_READ) &&
	       (a->read_format & PD_FORMAT_GROUP);
}

/*
 * The groups of GROUP_DESC as perf takes them (header.c
 * process_group_desc: each group's leader after the last member of the
 * one before, its members after it in the evlist), or NULL: no such
 * feature, or one perf would call invalid.  So every walk over the groups'
 * members is one over the evlist at most.
 */
static const struct feat_group_desc *groups(const struct copy *c)
{
	const struct pd_session *s = c->s;
	const struct feat_group_desc *m = NULL;
	uint64_t end = 0;

	for (size_t i = 0; i < s->nfeat && !m; i++)
		if (s->feat[i].id == HEADER_GROUP_DESC && s->feat[i].decoded &&
		    !s->feat[i].bad)
			m = s->feat[i].model;
	if (!m || m->nr_read != m->nr)
		return NULL;
	for (uint32_t i = 0; i < m->nr; i++) {
		const struct pd_group_desc *g = &m->v[i];

		if (g->leader_idx < end || !g->nr_members ||
		    (uint64_t)g->leader_idx + g->nr_members > s->evlist.n)
			return NULL;
		end = (uint64_t)g->leader_idx + g->nr_members;
	}
	return m;
}

/*
 * Keep the members of the groups whose samples are kept and read the
 * group.  Without GROUP_DESC (or with one that cannot be read) the groups
 * are not known: every evsel that reads its group is kept then.
 */
static void keep_read_groups(struct copy *c, const bool *named, bool *kept)
{
	const struct pd_evlist *l = &c->s->evlist;
	const struct feat_group_desc *m = groups(c);
	bool any = false;

	for (uint32_t i = 0; i < l->n; i++)
		any |= named[i] && reads_group(&l->v[i].attr);
	if (!any)
		return;
	if (!m) {
		for (uint32_t i = 0; i < l->n; i++)
			kept[i] |= reads_group(&l->v[i].attr);
		return;
	}
	for (uint32_t i = 0; i < m->nr; i++) {
		const struct pd_group_desc *g = &m->v[i];
		bool want = false;

		for (uint32_t j = 0; j < g->nr_members; j++) {
			uint32_t k = g->leader_idx + j;

			want |= named[k] && reads_group(&l->v[k].attr);
		}
		for (uint32_t j = 0; want && j < g->nr_members; j++)
			kept[g->leader_idx + j] = true;
	}
}

/* The names of the evsels sel[] picks, "a, b, c" into buf (cut "...") */
static void name_list(const struct pd_evlist *l, const bool *sel, char *buf,
		      size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < l->n; i++) {
		char idx[32];
		const char *n = l->v[i].name;
		int w;

		if (!sel[i])
			continue;
		if (!n[0]) {
			snprintf(idx, sizeof(idx), "attr%u", i);
			n = idx;
		}
		w = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", n);
		if (w < 0 || (size_t)w >= len - at) {
			snprintf(buf + len - 4, 4, "...");
			return;
		}
		at += (size_t)w;
	}
}

/* What --event left out, and what it kept without naming it (sel: l->n
 * bools of scratch). */
static void notes(struct copy *c, const bool *named, const bool *kept,
		  bool *sel)
{
	const struct pd_evlist *l = &c->s->evlist;
	char list[128];
	bool also = false;

	for (uint32_t i = 0; i < l->n; i++) {
		sel[i] = !kept[i];
		also |= sel[i];
	}
	name_list(l, sel, list, sizeof(list));
	if (also)
		copy_note(c, "events left out (--event %s): %s",
			  c->o->filter->event, list);
	also = false;
	for (uint32_t i = 0; i < l->n; i++) {
		sel[i] = kept[i] && !named[i];
		also |= sel[i];
	}
	if (!also)
		return;
	name_list(l, sel, list, sizeof(list));
	copy_note(c,
		  "events written without their samples: %s (the side-band "
		  "records kept are theirs, or a sample kept reads them)",
		  list);
}

/* named, then kept (see the file's comment): how many are named */
static uint32_t pick(struct copy *c, bool *named, bool *kept)
{
	const struct pd_evlist *l = &c->s->evlist;
	uint32_t nnamed = 0;

	for (uint32_t i = 0; i < l->n; i++) {
		const struct pd_evsel *ev = &l->v[i];

		named[i] = pd_event_matches(ev, c->o->filter->event);
		nnamed += named[i];
		kept[i] = named[i] || (ev->attr.flags & PD_ATTR_SIDE_BAND);
	}
	if (nnamed)
		keep_read_groups(c, named, kept);
	return nnamed;
}

/* Is g written as a group (group_desc), of *k members? */
static bool group_written(const struct copy *c, const struct pd_group_desc *g,
			  uint32_t *k)
{
	*k = 0;
	if (!c->ev.named[g->leader_idx])
		return false;
	for (uint32_t j = 0; j < g->nr_members; j++)
		*k += c->ev.kept[g->leader_idx + j];
	return *k >= 2;
}

static void place(struct copy_evsels *e, uint32_t i)
{
	if (e->kept[i] && e->idx[i] == UINT32_MAX) {
		e->idx[i] = e->n;
		e->order[e->n++] = i;
	}
}

/*
 * The evlist written: the evsels named first, each with the members of
 * the group it leads (a group stays in one piece, its leader first), then
 * the others kept.  perf report --group shows every event under the
 * first when the recording has no group (builtin-report.c), and skips an
 * event without samples: the first written has samples.  But when the
 * first evsel's sample_id trailer differs from it, the first evsel is
 * written first (id-less records are read with its attr).
 */
static void order(struct copy *c)
{
	const struct pd_evlist *l = &c->s->evlist;
	struct copy_evsels *e = &c->ev;
	const struct feat_group_desc *m = groups(c);
	uint32_t first = 0, k, g = 0;

	for (uint32_t i = 0; i < l->n; i++)
		e->idx[i] = UINT32_MAX;
	while (!e->named[first])
		first++;
	if (!same_trailer(&l->v[first].attr, &l->v[0].attr)) {
		e->kept[0] = true;
		place(e, 0);
	}
	for (uint32_t i = 0; i < l->n; i++) {
		if (!e->named[i])
			continue;
		place(e, i);
		/* the groups, in evlist order: the next that may lead at i */
		while (m && g < m->nr && m->v[g].leader_idx < i)
			g++;
		if (!m || g == m->nr || m->v[g].leader_idx != i ||
		    !group_written(c, &m->v[g], &k))
			continue;
		for (uint32_t j = 1; j < m->v[g].nr_members; j++)
			place(e, i + j);
	}
	for (uint32_t i = 0; i < l->n; i++)
		place(e, i);
}

int copy_evsels_init(struct copy *c)
{
	const struct pd_evlist *l = &c->s->evlist;
	struct copy_evsels *e = &c->ev;
	bool *named, *sel;
	uint32_t nnamed;

	if (!c->o->filter || !c->o->filter->event || !l->n)
		return 0;
	e->named = named = calloc(2 * (size_t)l->n, sizeof(*named));
	sel = named + l->n;
	e->kept = calloc(l->n, sizeof(*e->kept));
	e->idx = calloc(l->n, sizeof(*e->idx));
	e->order = calloc(l->n, sizeof(*e->order));
	if (!named || !e->kept || !e->idx || !e->order)
		return copy_refuse(c, "out of memory");
	nnamed = pick(c, named, e->kept);
	if (!nnamed) {
		/* a stream that names its events as it goes, later
		 * (EVENT_UPDATE): what the command let pass
		 * (filter_check_event) */
		copy_note(c,
			  "every attr written: --event %s names none of the "
			  "events yet",
			  c->o->filter->event);
		copy_evsels_free(c);
		return 0;
	}
	order(c);
	notes(c, named, e->kept, sel);
	/* every evsel named: the copy's head is as without --event */
	if (nnamed == l->n)
		copy_evsels_free(c);
	return 0;
}

void copy_evsels_free(struct copy *c)
{
	free(c->ev.kept);
	free(c->ev.idx);
	free(c->ev.named);
	free(c->ev.order);
	c->ev = (struct copy_evsels){0};
}

/* Is the evsel of id (none: true) written? */
static bool id_kept(const struct copy *c, uint64_t id)
{
	const struct pd_evsel *ev = pd_evlist_find(c->s, id);

	return !ev || copy_evsel_kept(c, ev->idx);
}

bool copy_event_kept(const struct copy *c, const struct pd_event *ev,
		     const struct pd_decoded *d)
{
	if (!c->ev.kept)
		return true;
	switch (ev->type) {
	case PD_REC_EVENT_UPDATE: return id_kept(c, d->rec.u.event_update.id);
	case PD_REC_STAT: return id_kept(c, d->rec.u.stat.id);
	default: break;
	}
	/* a kernel record chosen by its id (not id 0, nor the only or the
	 * first evsel without sample_id_all: the first written reads it) */
	return ev->type >= PD_REC_USER_START || !d->evsel || !d->rid ||
	       copy_evsel_kept(c, d->evsel->idx);
}

/*
 * ID_INDEX (tools/lib/perf/include/perf/event.h perf_record_id_index,
 * session.c perf_event__process_id_index): u64 nr; nr x {u64 id, idx,
 * cpu, tid}; with room for them, nr x {u64 machine_pid, vcpu} after.
 */
int copy_event_id_index(struct copy *c, const struct pd_event *ev,
			const struct pd_decoded *d, uint8_t *buf, size_t *len)
{
	const struct pd_rec_id_index *m = &d->rec.u.id_index;
	uint64_t n = 0;
	size_t at = 16;

	if (!c->ev.kept || ev->type != PD_REC_ID_INDEX || m->nread != m->nr)
		return 0;
	for (uint64_t i = 0; i < m->nr; i++) {
		const struct pd_id_index_ent *x = &m->v[i];

		if (!id_kept(c, x->id))
			continue;
		pd_put64(buf + at, x->id, c->swap);
		pd_put64(buf + at + 8, x->idx, c->swap);
		pd_put64(buf + at + 16, x->cpu, c->swap);
		pd_put64(buf + at + 24, x->tid, c->swap);
		at += 32;
		n++;
	}
	if (n == m->nr)
		return 0;
	if (!n)
		return -1;
	for (uint64_t i = 0; m->has_guest && i < m->nr; i++) {
		if (!id_kept(c, m->v[i].id))
			continue;
		pd_put64(buf + at, m->v[i].machine_pid, c->swap);
		pd_put64(buf + at + 8, m->v[i].vcpu, c->swap);
		at += 16;
	}
	memcpy(buf, ev->p, 6); /* type, misc */
	pd_put16(buf + 6, (uint16_t)at, c->swap);
	pd_put64(buf + 8, n, c->swap);
	*len = at;
	return 1;
}

/* ---- EVENT_DESC and GROUP_DESC ---------------------------------------- */

/*
 * EVENT_DESC (header.c write_event_desc / read_event_desc): u32 nre;
 * u32 attr_sz; nre x {attr (attr_sz bytes), u32 nr_ids, string name,
 * u64 ids[nr_ids]}.  Its events are the evlist's, in order; each attr is
 * written as the attrs section's (copy_attr_bytes, copy_attr_image).
 */
static bool event_desc(struct copy *c, const struct feat_event_desc *m,
		       struct strbuf *f)
{
	const struct pd_evlist *l = &c->s->evlist;
	const uint8_t **raw = calloc(l->n, sizeof(*raw));
	size_t *len = calloc(l->n, sizeof(*len));
	uint8_t b[PD_ATTR_SIZE_KNOWN + 256];
	uint64_t asz;
	bool ok = false;

	if (!raw || !len || m->nr != l->n || m->nr_read != m->nr ||
	    copy_attr_bytes(c, raw, len, &asz, sizeof(b)) < 0)
		goto out;
	pd_put32(b, c->ev.n, c->swap);
	pd_put32(b + 4, (uint32_t)asz, c->swap);
	copy_fb_put(f, b, 8);
	for (uint32_t i = 0; i < m->nr; i++)
		if (!m->ev[i].complete)
			goto out;
	for (uint32_t k = 0; k < c->ev.n; k++) {
		uint32_t i = c->ev.order[k];
		const struct pd_event_desc *e = &m->ev[i];

		copy_attr_image(c, raw[i], len[i], asz, b);
		copy_fb_put(f, b, asz);
		pd_put32(b, e->nr_ids, c->swap);
		copy_fb_put(f, b, 4);
		copy_fb_string(c, f, e->name.s ? e->name.s : "", e->name.len);
		for (uint32_t j = 0; j < e->nr_ids; j++) {
			pd_put64(b, e->ids[j], c->swap);
			copy_fb_put(f, b, 8);
		}
	}
	ok = true;
out:
	free(raw);
	free(len);
	return ok;
}

/*
 * GROUP_DESC (header.c write_group_desc / process_group_desc): u32
 * nr_groups; nr_groups x {string name, u32 leader_idx, u32 nr_members}.
 * perf sets each group's members by position after its leader, and
 * writes only groups of two or more (a lone leader is no group), and
 * perf report --group shows a group's samples under its leader: a group
 * is written with its kept members, renumbered in the evlist written,
 * when another member is kept with its leader and the leader's samples
 * are (--event names it).  Returns the groups written, or -1 (groups
 * perf would not take: groups()).
 */
static int64_t group_desc(struct copy *c, struct strbuf *f)
{
	const struct feat_group_desc *m = groups(c);
	uint32_t n = 0;
	uint8_t b[8] = {0};

	if (!m)
		return -1;
	copy_fb_put(f, b, 4); /* nr_groups, once known */
	for (uint32_t i = 0; i < m->nr; i++) {
		const struct pd_group_desc *g = &m->v[i];
		uint32_t k;

		if (!group_written(c, g, &k))
			continue;
		copy_fb_string(c, f, g->name.s ? g->name.s : "", g->name.len);
		pd_put32(b, c->ev.idx[g->leader_idx], c->swap);
		pd_put32(b + 4, k, c->swap);
		copy_fb_put(f, b, 8);
		n++;
	}
	if (!f->oom)
		pd_put32((uint8_t *)f->p, n, c->swap);
	return n;
}

int copy_event_feature(struct copy *c, struct feat_out *w)
{
	const struct pd_feature *fe = w->f;
	struct strbuf f = {0};
	char name[48];
	bool ok;

	if (!c->ev.kept || !fe || !fe->model ||
	    (fe->id != HEADER_EVENT_DESC && fe->id != HEADER_GROUP_DESC))
		return 0;
	copy_feat_name(fe->id, name, sizeof(name));
	if (fe->id == HEADER_EVENT_DESC) {
		ok = event_desc(c, fe->model, &f);
	} else if (!((const struct feat_group_desc *)fe->model)->nr) {
		return 0; /* no group (perf stat record writes it so) */
	} else {
		int64_t n = group_desc(c, &f);

		ok = n >= 0;
		if (n == 0) {
			free(f.p);
			copy_note(c,
				  "%s left out: no group's leader has its "
				  "samples and another member written",
				  name);
			return -1;
		}
	}
	if (!ok || f.oom) {
		free(f.p);
		copy_note(c,
			  "%s left out: its events could not be matched to "
			  "the attrs",
			  name);
		return -1;
	}
	w->bytes = (uint8_t *)f.p;
	w->size = f.len;
	return 1;
}
