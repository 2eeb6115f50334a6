// SPDX-License-Identifier: MIT
/*
 * `perfdump profile`'s walk (see profile.h): the records in time order
 * from the one queue (order.c), the maps they set up (buildid_maps.c),
 * and each sample counted against its thread and its address.
 */
#include "lib/analysis/profile.h"

#include <stdlib.h>
#include <string.h>

#include "lib/analysis/buildid_maps.h"
#include "lib/session/event.h"
#include "lib/session/evlist.h"
#include "lib/analysis/profile_int.h"
#include "lib/analysis/unwind.h"
#include "lib/session/record.h"
#include "lib/session/sample.h"
#include "lib/session/session.h"
#include "lib/session/walk.h"

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

/*
 * Open addressing over the entries themselves (one cache miss a sample);
 * an empty slot has no samples.  At most PD_PROF_MAX_ADDRS entries, 3/4
 * of the slots; then into rows, and start again.
 */
static uint32_t addr_hash(uint64_t rel, uint32_t dso, uint32_t event)
{
	uint64_t h =
		(rel ^ ((uint64_t)dso << 32 | event)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

static struct prof_addr *addr_slot(struct prof_addr *v, uint32_t cap,
				   uint64_t rel, uint32_t dso, uint32_t event)
{
	uint32_t k = addr_hash(rel, dso, event) & (cap - 1);

	while (v[k].samples &&
	       (v[k].rel != rel || v[k].dso != dso || v[k].event != event))
		k = (k + 1) & (cap - 1);
	return &v[k];
}

static bool addrs_grow(struct prof_addrs *a)
{
	uint32_t ncap = a->cap ? a->cap * 2 : 4096;
	struct prof_addr *nv = calloc(ncap, sizeof(*nv));

	if (!nv)
		return false;
	for (uint32_t i = 0; i < a->cap; i++)
		if (a->v[i].samples)
			*addr_slot(nv, ncap, a->v[i].rel, a->v[i].dso,
				   a->v[i].event) = a->v[i];
	free(a->v);
	a->v = nv;
	a->cap = ncap;
	return true;
}

void prof_addrs_compact(struct prof_addrs *a)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < a->cap; i++)
		if (a->v[i].samples)
			a->v[n++] = a->v[i];
	a->n = n;
}

/* Count samples at (event, dso, rel). */
static void count_addr(struct prof_ctx *c, uint32_t event, uint32_t dso,
		       uint64_t rel, uint64_t samples, uint64_t period)
{
	struct prof_addrs *a = &c->addrs;
	struct prof_addr *e;

	if (a->cap) {
		e = addr_slot(a->v, a->cap, rel, dso, event);
		if (e->samples) {
			e->samples += samples;
			e->period += period;
			return;
		}
	}
	if (a->n >= c->max_addrs) {
		/* full: into rows now, and start again */
		c->p->addr_folds++;
		if (!prof_fold(c, false)) {
			c->oom = true;
			return;
		}
		a->n = 0;
		memset(a->v, 0, (size_t)a->cap * sizeof(*a->v));
	}
	if ((uint64_t)(a->n + 1) * 4 > (uint64_t)a->cap * 3 && !addrs_grow(a)) {
		c->oom = true;
		return;
	}
	*addr_slot(a->v, a->cap, rel, dso, event) =
		(struct prof_addr){rel, dso, event, samples, period};
	a->n++;
}

void prof_addrs_merge(struct prof_ctx *c, const struct prof_addrs *from)
{
	for (uint32_t i = 0; i < from->cap && !c->oom; i++) {
		const struct prof_addr *e = &from->v[i];

		if (e->samples)
			count_addr(c, e->event, e->dso, e->rel, e->samples,
				   e->period);
	}
}

/* ---- the records ----------------------------------------------------- */

/* A sample's fields that profile counts by. */
struct fields {
	bool has_tid, has_ip, has_time;
	uint32_t pid, tid;
	uint64_t ip, time, period;
	const uint64_t *chain; /* with children: the callchain */
	uint32_t nchain;
	uint32_t npcs; /* and the user stack unwound (c->pcs) */
};

/* With children, the callchain where pd_sample_positions puts it, into
 * c->chain; false: elsewhere (after READ), cut short or longer than
 * c->chain (decoded whole then). */
static bool read_chain(struct prof_ctx *c, const struct pd_evsel *evsel,
		       const struct pd_event *ev, struct fields *f)
{
	const struct pd_sample_pos *pos = &c->pos[evsel->idx];
	uint32_t words = ev->size / 8u, at = (uint32_t)pos->callchain + 1;
	uint64_t nr;

	if (!c->p->children)
		return true;
	/* a stack to unwind: its registers and bytes are further on */
	if (evsel->attr.sample_type & PD_SAMPLE_STACK_USER)
		return false;
	if (!(evsel->attr.sample_type & PD_SAMPLE_CALLCHAIN))
		return true;
	if (pos->callchain < 0 || at > words)
		return false;
	nr = pd_get64(ev->p + 8 * (at - 1), c->s->swap);
	if (nr > words - at || nr > PROF_CHAIN_READ)
		return false;
	for (uint32_t i = 0; i < nr; i++)
		c->chain[i] = pd_get64(ev->p + 8 * (at + i), c->s->swap);
	f->chain = c->chain;
	f->nchain = (uint32_t)nr;
	return true;
}

/*
 * The fields, read where the attr puts them (sample.c
 * pd_sample_positions); a sample too short for them is decoded whole
 * (pd_parse_sample says what is wrong).
 */
static void read_fields(struct prof_ctx *c, const struct pd_evsel *evsel,
			const struct pd_event *ev, struct fields *f)
{
	const struct pd_sample_pos *pos = &c->pos[evsel->idx];
	bool sw = c->s->swap;
	struct pd_sample smp;

	/* evsel.c evsel__parse_sample: without PERIOD, the attr's */
	f->period = evsel->attr.sample_period;
	if ((uint32_t)pos->slots <= ev->size / 8u &&
	    read_chain(c, evsel, ev, f)) {
		f->has_ip = pos->ip > 0;
		f->has_tid = pos->tid > 0;
		f->has_time = pos->time > 0;
		if (f->has_ip)
			f->ip = pd_get64(ev->p + 8 * pos->ip, sw);
		if (f->has_tid) {
			f->pid = pd_get32(ev->p + 8 * pos->tid, sw);
			f->tid = pd_get32(ev->p + 8 * pos->tid + 4, sw);
		}
		if (f->has_time)
			f->time = pd_get64(ev->p + 8 * pos->time, sw);
		if (pos->period > 0)
			f->period = pd_get64(ev->p + 8 * pos->period, sw);
		return;
	}
	arena_reset(&c->scratch);
	pd_parse_sample(c->s, evsel, ev, &c->scratch, &smp);
	f->has_ip = smp.decoded_type & PD_SAMPLE_IP;
	f->has_tid = smp.decoded_type & PD_SAMPLE_TID;
	f->has_time = smp.decoded_type & PD_SAMPLE_TIME;
	f->ip = smp.ip;
	f->pid = smp.common.pid;
	f->tid = smp.common.tid;
	f->time = smp.common.time;
	if (smp.decoded_type & PD_SAMPLE_PERIOD)
		f->period = smp.period;
	if (smp.decoded_type & PD_SAMPLE_CALLCHAIN) {
		f->chain = smp.callchain;
		f->nchain = smp.ncallchain;
	}
	if (c->p->children && f->has_tid)
		f->npcs = prof_unwind(c, &smp, ev->offset);
}

void prof_sample(struct prof_ctx *c, const struct pd_event *ev)
{
	struct pd_profile *p = c->p;
	const struct pd_evsel *evsel;
	struct pd_prof_event *pe;
	struct pd_bid_hit hit;
	struct prof_leaf leaf;
	struct fields f = {0};
	unsigned mode = ev->misc & PD_MISC_CPUMODE_MASK;
	uint64_t rid;

	evsel = p->nevents == 1 ? &c->s->evlist.v[0]
				: pd_record_evsel(c->s, ev->type, ev->p,
						  ev->size, &rid);
	if (!evsel || evsel->idx >= p->nevents) {
		p->samples_no_attr++;
		return;
	}
	read_fields(c, evsel, ev, &f);
	pe = &p->events[evsel->idx];
	pe->samples++;
	pe->period += f.period;
	p->samples++;
	p->period += f.period;
	if (c->threads && f.has_tid)
		prof_thread_sample(c, f.pid, f.tid, evsel->idx, f.period,
				   f.has_time, f.time);
	if (!c->funcs)
		return;
	if (!f.has_ip) {
		pe->no_ip++;
		return;
	}
	if (mode == PD_MISC_GUEST_KERNEL || mode == PD_MISC_GUEST_USER) {
		pe->guest++; /* perf report filters them (perf_guest off) */
		return;
	}
	leaf = (struct prof_leaf){.event = evsel->idx,
				  .pid = f.pid,
				  .has_tid = f.has_tid,
				  .mode = mode,
				  .ip = f.ip,
				  .dso = PD_PROF_NONE,
				  .rel = f.ip,
				  .period = f.period};
	if (f.has_tid && mode == PD_MISC_KERNEL)
		prof_kernel_ready(c, p->by != PD_PROF_BY_DSO);
	if (f.has_tid && pd_bid_maps_sample(c->maps, mode, f.pid, f.ip, &hit)) {
		leaf.dso = hit.dso_index;
		leaf.rel = hit.rel;
	} else {
		pe->unmapped++;
	}
	count_addr(c, evsel->idx, leaf.dso, leaf.rel, 1, f.period);
	if (p->children && !c->oom)
		prof_children(c, &leaf, f.chain, f.nchain, c->pcs, f.npcs);
}

void prof_map_record(struct prof_ctx *c, const struct pd_event *ev,
		     const struct pd_record *rec)
{
	if (rec->too_small)
		return;
	/* the process's (or the kernel's) addresses resolved so far may be
	 * elsewhere now */
	if (ev->type == PD_REC_FORK)
		c->epochs[rec->u.task.pid % PROF_EPOCHS]++;
	else if (ev->type == PD_REC_KSYMBOL ||
		 (ev->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL)
		c->epochs[PROF_EPOCHS]++;
	else
		c->epochs[rec->u.mmap.pid % PROF_EPOCHS]++;
	if (c->funcs && !pd_bid_maps_record(c->maps, ev, rec)) {
		c->p->maps_not_kept++;
		prof_warn_full(c, &c->maps_warned, "maps",
			       "more maps, processes or DSOs than the map "
			       "table holds: later MMAP, MMAP2, KSYMBOL and "
			       "FORK records are left out (maps_not_kept)");
	}
	if (!c->threads || ev->type == PD_REC_KSYMBOL)
		return;
	if (ev->type == PD_REC_FORK)
		prof_thread_task(c, ev);
	else if ((ev->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL)
		c->p->kernel_mmaps++;
	else
		prof_thread_mmap(c, rec->u.mmap.pid, rec->u.mmap.tid);
}

static void on_map_record(struct prof_ctx *c, const struct pd_event *ev)
{
	struct pd_decoded d;

	arena_reset(&c->scratch);
	pd_decode_event(c->s, ev, &c->scratch, 0, &d);
	prof_map_record(c, ev, &d.rec);
}

bool prof_visit(void *arg, const struct pd_event *ev)
{
	struct prof_ctx *c = arg;

	if (ev->legacy_feature || c->oom)
		return true;
	switch (ev->type) {
	case PD_REC_SAMPLE: prof_sample(c, ev); break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
	case PD_REC_FORK:
	case PD_REC_KSYMBOL: on_map_record(c, ev); break;
	case PD_REC_COMM:
	case PD_REC_EXIT:
		if (c->threads)
			prof_thread_task(c, ev);
		break;
	default: break;
	}
	return true;
}

/* perf report --children: on when a sample has callchains
 * (builtin-report.c report__setup_sample_type leaves it off otherwise) */
static bool has_callchains(const struct pd_session *s)
{
	for (uint32_t i = 0; i < s->evlist.n; i++)
		if (s->evlist.v[i].attr.sample_type & PD_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

bool prof_ctx_init(struct prof_ctx *c, struct pd_profile *p,
		   struct pd_session *s, const struct pd_prof_where *w,
		   enum pd_prof_by by, bool children)
{
	*c = (struct prof_ctx){.p = p, .s = s, .where = w};
	memset(p, 0, sizeof(*p));
	p->by = by;
	/* a testing aid: a smaller address table, to fold it often */
	c->max_addrs = PD_PROF_MAX_ADDRS;
	if (s->opts.profile_addrs - 1 < PD_PROF_MAX_ADDRS)
		c->max_addrs = (uint32_t)s->opts.profile_addrs;
	c->funcs = by == PD_PROF_BY_FUNCTION || by == PD_PROF_BY_DSO ||
		   by == PD_PROF_BY_LINE;
	c->threads = !c->funcs;
	p->children = children && by != PD_PROF_BY_LINE && c->funcs &&
		      has_callchains(s);
	p->nevents = s->evlist.n;
	p->events = calloc(p->nevents + 1, sizeof(*p->events));
	c->pos = calloc(p->nevents + 1, sizeof(*c->pos));
	if (!p->events || !c->pos)
		return false;
	for (uint32_t i = 0; i < p->nevents; i++)
		pd_sample_positions(s->evlist.v[i].attr.sample_type,
				    &c->pos[i]);
	if (c->funcs && !(c->maps = pd_bid_maps_new(PD_BID_MAPS_JIT_NAMES)))
		return false;
	return true;
}

void prof_ctx_free(struct prof_ctx *c)
{
	pd_unwinder_free(c->uw);
	prof_dsos_free(c);
	free(c->row_hits);
	free(c->addrs.v);
	free(c->pos);
	pd_bid_maps_free(c->maps);
	pd_bid_list_free(&c->bids);
	arena_free(&c->scratch);
}

int pd_profile_collect(struct pd_profile *p, struct pd_session *s,
		       enum pd_prof_by by, bool children,
		       const struct pd_prof_where *w, unsigned jobs)
{
	static const struct pd_visitor v = {.event = prof_visit};
	struct pd_walk_opts o = {
		.flags = PD_WALK_TIME_ORDER |
			 (s->mode == PD_MODE_DIR ? PD_WALK_DATA_N : 0),
		.jobs = jobs > PD_PROF_JOBS_MAX ? PD_PROF_JOBS_MAX : jobs,
		.batch_bytes = s->opts.batch_bytes};
	struct prof_said said = {0};
	struct prof_ctx c;
	int rc = 0;

	if (!prof_ctx_init(&c, p, s, w, by, children))
		c.oom = true;
	p->walk = &c;
	/* by function, DSO or line on several threads (profile_par.c) */
	if (!c.oom && c.funcs && o.jobs > 1)
		rc = prof_walk_par(&c, &o, &said);
	else if (!c.oom)
		rc = pd_walk(s, &o, &v, &c);
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
	prof_ctx_free(&c);
	prof_said_free(&said);
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
