// SPDX-License-Identifier: MIT
/*
 * `perfdump profile`'s walk (see profile.h): the records in time order
 * from the one queue (order.c), the maps they set up (buildid_maps.c),
 * and each sample counted against its thread and its address.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#include "buildid_maps.h"
#include "event.h"
#include "evlist.h"
#include "order.h"
#include "profile_int.h"
#include "record.h"
#include "sample.h"
#include "session.h"

void prof_warn_full(struct prof_ctx *c, bool *warned, const char *what,
		    const char *detail)
{
	if (*warned)
		return;
	*warned = true;
	pd_diag_add(&c->s->diags, PD_C_TABLE_FULL, PD_AT_NAMED("profile"),
		    PD_WARN, PD_NO_OFFSET, what, "%s", detail);
}

/* ---- the address table ----------------------------------------------- */

static uint32_t addr_hash(uint64_t rel, uint32_t dso, uint32_t event)
{
	uint64_t h =
		(rel ^ ((uint64_t)dso << 32 | event)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* Room for PD_PROF_MAX_ADDRS entries, allocated as the table fills. */
static bool addrs_grow(struct prof_addrs *a)
{
	uint32_t ncap = a->cap ? a->cap * 2 : 4096;
	uint32_t *ns = calloc(ncap, sizeof(*ns));
	struct prof_addr *nv = realloc(a->v, (size_t)(ncap / 2) * sizeof(*nv));

	if (!ns || !nv) {
		free(ns);
		if (nv)
			a->v = nv;
		return false;
	}
	a->v = nv;
	for (uint32_t i = 0; i < a->n; i++) {
		const struct prof_addr *e = &a->v[i];
		uint32_t k = addr_hash(e->rel, e->dso, e->event) & (ncap - 1);

		while (ns[k])
			k = (k + 1) & (ncap - 1);
		ns[k] = i + 1;
	}
	free(a->slot);
	a->slot = ns;
	a->cap = ncap;
	return true;
}

/* Count a sample at (event, dso, rel). */
static void count_addr(struct prof_ctx *c, uint32_t event, uint32_t dso,
		       uint64_t rel, uint64_t period)
{
	struct prof_addrs *a = &c->addrs;
	uint32_t h = addr_hash(rel, dso, event), k, i;
	struct prof_addr *e;

	for (k = h & (a->cap - 1); a->cap && (i = a->slot[k]);
	     k = (k + 1) & (a->cap - 1)) {
		e = &a->v[i - 1];
		if (e->rel == rel && e->dso == dso && e->event == event) {
			e->samples++;
			e->period += period;
			return;
		}
	}
	if (a->n >= PD_PROF_MAX_ADDRS) {
		/* full: into rows now, and start again */
		c->p->addr_folds++;
		if (!prof_fold(c, false)) {
			c->oom = true;
			return;
		}
		a->n = 0;
		memset(a->slot, 0, (size_t)a->cap * sizeof(*a->slot));
	}
	if (a->n >= a->cap / 2 && !addrs_grow(a)) {
		c->oom = true;
		return;
	}
	for (k = h & (a->cap - 1); a->slot[k]; k = (k + 1) & (a->cap - 1))
		;
	a->v[a->n] = (struct prof_addr){rel, dso, event, 1, period};
	a->slot[k] = ++a->n;
}

/* ---- the records ----------------------------------------------------- */

static void on_sample(struct prof_ctx *c, const struct pd_event *ev)
{
	struct pd_profile *p = c->p;
	const struct pd_evsel *evsel;
	struct pd_sample smp;
	struct pd_prof_event *pe;
	struct pd_bid_hit hit;
	unsigned mode = ev->misc & PD_MISC_CPUMODE_MASK;
	uint64_t rid, period;

	evsel = pd_record_evsel(c->s, ev->type, ev->p, ev->size, &rid);
	if (!evsel || evsel->idx >= p->nevents) {
		p->samples_no_attr++;
		return;
	}
	pd_parse_sample(c->s, evsel, ev, &c->scratch, &smp);
	/* evsel.c evsel__parse_sample: without PERIOD, the attr's */
	period = smp.decoded_type & PD_SAMPLE_PERIOD
			 ? smp.period
			 : evsel->attr.sample_period;
	pe = &p->events[evsel->idx];
	pe->samples++;
	pe->period += period;
	p->samples++;
	p->period += period;
	if (c->threads && (smp.decoded_type & PD_SAMPLE_TID))
		prof_thread_sample(
			c, smp.common.pid, smp.common.tid, evsel->idx, period,
			smp.decoded_type & PD_SAMPLE_TIME, smp.common.time);
	if (!c->funcs)
		return;
	if (!(smp.decoded_type & PD_SAMPLE_IP)) {
		pe->no_ip++;
		return;
	}
	if (mode == PD_MISC_GUEST_KERNEL || mode == PD_MISC_GUEST_USER) {
		pe->guest++; /* perf report filters them (perf_guest off) */
		return;
	}
	if ((smp.decoded_type & PD_SAMPLE_TID) &&
	    pd_bid_maps_sample(c->maps, mode, smp.common.pid, smp.ip, &hit)) {
		count_addr(c, evsel->idx, hit.dso_index, hit.rel, period);
		return;
	}
	pe->unmapped++;
	count_addr(c, evsel->idx, PD_PROF_NONE, smp.ip, period);
}

/* MMAP, MMAP2, FORK: the maps; and the threads' counts */
static void on_map_record(struct prof_ctx *c, const struct pd_event *ev)
{
	struct pd_decoded d;

	pd_decode_event(c->s, ev, &c->scratch, &d);
	if (d.rec.too_small)
		return;
	if (c->funcs && !pd_bid_maps_record(c->maps, ev, &d.rec)) {
		c->p->maps_not_kept++;
		prof_warn_full(c, &c->maps_warned, "maps",
			       "more maps, processes or DSOs than the map "
			       "table holds: later MMAP, MMAP2 and FORK "
			       "records are left out (maps_not_kept)");
	}
	if (!c->threads)
		return;
	if (ev->type == PD_REC_FORK)
		prof_thread_task(c, ev);
	else if ((ev->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL)
		c->p->kernel_mmaps++;
	else
		prof_thread_mmap(c, d.rec.u.mmap.pid, d.rec.u.mmap.tid);
}

static void deliver(void *arg, const struct pd_event *ev)
{
	struct prof_ctx *c = arg;

	if (ev->legacy_feature || c->oom)
		return;
	arena_reset(&c->scratch);
	switch (ev->type) {
	case PD_REC_SAMPLE: on_sample(c, ev); break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
	case PD_REC_FORK: on_map_record(c, ev); break;
	case PD_REC_COMM:
	case PD_REC_EXIT:
		if (c->threads)
			prof_thread_task(c, ev);
		break;
	case PD_REC_EVENT_UPDATE:
		pd_evlist_apply_update(c->s, ev->p, ev->size);
		break;
	default: break;
	}
}

int pd_profile_collect(struct pd_profile *p, struct pd_session *s,
		       enum pd_prof_by by, const struct pd_prof_where *w)
{
	struct prof_ctx c = {.p = p, .s = s, .where = w};
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->by = by;
	c.funcs = by == PD_PROF_BY_FUNCTION || by == PD_PROF_BY_DSO;
	c.threads = !c.funcs;
	p->nevents = s->evlist.n;
	p->events = calloc(p->nevents + 1, sizeof(*p->events));
	if (!p->events)
		return -1;
	if (c.funcs) {
		c.maps = pd_bid_maps_new(PD_BID_MAPS_JIT_NAMES);
		if (!c.maps || pd_bid_list_build(&c.bids, s, false, false) < 0)
			c.oom = true;
	}
	p->walk = &c;
	if (!c.oom)
		rc = pd_read_in_time_order(s, s->mode == PD_MODE_DIR,
					   pd_event_time, deliver, &c);
	if (c.funcs && !c.oom && !prof_fold(&c, true))
		c.oom = true;
	if (c.threads)
		prof_threads_finish(&c);
	p->walk = NULL;
	if (c.oom || rc < 0) {
		rc = -1;
		pd_diag_add(&s->diags, PD_C_MALFORMED, PD_AT_NAMED("profile"),
			    PD_ERR, PD_NO_OFFSET, "profile", "out of memory");
	}
	prof_dsos_free(&c);
	free(c.addrs.v);
	free(c.addrs.slot);
	pd_bid_maps_free(c.maps);
	if (c.funcs)
		pd_bid_list_free(&c.bids);
	arena_free(&c.scratch);
	return rc;
}

void pd_profile_free(struct pd_profile *p)
{
	free(p->events);
	free(p->dsos);
	free(p->rows);
	pd_hindex_free(&p->row_ix);
	free(p->threads);
	free(p->thread_ev);
	pd_hindex_free(&p->thread_ix);
	free(p->comms);
	arena_free(&p->arena);
	memset(p, 0, sizeof(*p));
}
