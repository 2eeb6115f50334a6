// SPDX-License-Identifier: MIT
/*
 * profile by function, DSO or line on several threads (see profile.h):
 * the parallel walk of walk.h with state, for a visitor of events.  Each
 * worker keeps a replica of the profile's walk (prof_ctx: its maps,
 * DSOs and their symbols, its address table, its rows of inclusive
 * counts), kept up to date by every map record in time order; the
 * caller's own is the first worker's.  At the end every replica's
 * counts go into it: its address table's into the caller's (folded
 * once, at the end, as one thread folds it), its rows' (the inclusive
 * counts, and what a full table folded) into the rows of the same key.
 * A replica's DSOs are numbered as the caller's (the same map records in
 * the same order), and each DSO a replica read is read by the caller
 * too, quietly: what reading it said, its replica said where one thread
 * would have.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/profile_dso.h"
#include "lib/base/util.h"
#include "lib/format/perf_abi.h"
#include "lib/session/event.h"
#include "lib/session/session.h"
#include "lib/session/walk.h"

/* ---- what replicas say once ------------------------------------------- */

void prof_said_read(struct prof_said *w, struct pd_session *s)
{
	struct pd_diags keep = s->diags;

	if (w->read)
		return;
	w->read = true;
	s->diags = (struct pd_diags){0};
	for (size_t i = 0; i < s->nfeat; i++)
		if (s->feat[i].id == HEADER_BUILD_ID)
			pd_decode_feature(s, &s->feat[i]);
	w->bids = s->diags;
	s->diags = keep;
}

/* Is g one a replica gives once (a table full, the first unwinding
 * stopped, a DSO without symbols, what reading the build-ids said)? */
static bool said_once(const struct prof_said *w, const struct pd_diag *g)
{
	switch (g->code) {
	case PD_C_DSO_NOT_SYMBOLIZED:
	case PD_C_TABLE_FULL:
	case PD_C_STACK_UNWIND_STOPPED: return true;
	default: break;
	}
	for (size_t i = 0; i < w->bids.n; i++) {
		const struct pd_diag *b = &w->bids.v[i];

		if (b->code == g->code && b->offset == g->offset &&
		    !strcmp(b->detail, g->detail))
			return true;
	}
	return false;
}

bool prof_said_keep(struct prof_said *w, const struct pd_diag *g)
{
	char *key;
	int n;

	if (!said_once(w, g))
		return true;
	/* the first unwinding stopped, whichever replica's first it was */
	if (g->code == PD_C_STACK_UNWIND_STOPPED)
		n = asprintf(&key, "%d", (int)g->code);
	else
		n = asprintf(&key, "%d\n%s\n%s\n%s", (int)g->code,
			     g->where.name ? g->where.name : "",
			     g->what ? g->what : "", g->detail);
	if (n < 0)
		return true;
	for (uint32_t i = 0; i < w->n; i++)
		if (!strcmp(w->keys[i], key)) {
			free(key);
			return false;
		}
	if (!pd_grow((void **)&w->keys, w->n, &w->cap, sizeof(*w->keys))) {
		free(key);
		return true;
	}
	w->keys[w->n++] = key;
	return true;
}

void prof_said_free(struct prof_said *w)
{
	pd_diags_free(&w->bids);
	for (uint32_t i = 0; i < w->n; i++)
		free(w->keys[i]);
	free(w->keys);
	memset(w, 0, sizeof(*w));
}

/* ---- the replicas ----------------------------------------------------- */

/* The walk's: the caller's prof_ctx (the first worker's replica) */
struct prof_par {
	struct prof_ctx *main;
	struct pd_session *s;
	bool main_taken;
	struct prof_said *said;
};

/* Another worker's replica, with its profile */
struct replica {
	struct prof_ctx c;
	struct pd_profile p;
};

static void *fork_worker(void *arg)
{
	struct prof_par *pp = arg;
	struct prof_ctx *m = pp->main;
	struct replica *r;

	/* before any thread reads the feature */
	prof_said_read(pp->said, pp->s);
	m->bids_said = &pp->said->bids;
	if (!pp->main_taken) {
		pp->main_taken = true;
		return m;
	}
	if (!(r = calloc(1, sizeof(*r))))
		return NULL;
	if (!prof_ctx_init(&r->c, &r->p, pp->s, m->where, m->p->by,
			   m->p->children)) {
		prof_ctx_free(&r->c);
		pd_profile_free(&r->p);
		free(r);
		return NULL;
	}
	r->c.bids_said = &pp->said->bids;
	return &r->c;
}

/* A batch's: the replica running it */
static void *fork_batch(void *arg)
{
	(void)arg;
	return calloc(1, sizeof(struct prof_ctx *));
}

static void bind_worker(void *wctx, void *ctx, struct pd_session *ws)
{
	struct prof_ctx *c = wctx;

	c->s = ws;
	if (ctx)
		*(struct prof_ctx **)ctx = c;
}

static void worker_state(void *wctx, const struct pd_event *ev,
			 const struct pd_decoded *d)
{
	struct prof_ctx *c = wctx;

	if (!ev->legacy_feature && !c->oom)
		prof_map_record(c, ev, &d->rec);
}

static void batch_record(void *ctx, const struct pd_event *ev,
			 const struct pd_decoded *d)
{
	struct prof_ctx *c = *(struct prof_ctx **)ctx;

	(void)d;
	if (ev->type == PD_REC_SAMPLE && !ev->legacy_feature && !c->oom)
		prof_sample(c, ev);
}

static void flush_batch(void *arg, void *ctx)
{
	(void)arg;
	(void)ctx;
}

static void join_batch(void *arg, void *ctx)
{
	(void)arg;
	free(ctx);
}

/* The DSOs r read, read by m (what it says dropped: r said it) */
static void merge_dsos(struct prof_ctx *m, const struct prof_ctx *r)
{
	struct pd_profile *mp = m->p;
	const struct pd_profile *rp = r->p;
	struct pd_session *s = m->s, quiet = *s;

	if (!rp->ndsos)
		return;
	quiet.diags = (struct pd_diags){0};
	m->s = &quiet;
	if (prof_dsos_sync(m) && mp->ndsos >= rp->ndsos) {
		for (uint32_t i = 0; i < rp->ndsos; i++) {
			const struct dso_state *rs = rp->dsos[i].state;

			/* with symbols if r read them (an unwinder's, by
			 * DSO too) */
			if (rs->loaded && prof_dso_load(m, i, rs->syms_ok))
				prof_dso_release(m, i, false);
			/* what r's full tables folded */
			mp->dsos[i].samples += rp->dsos[i].samples;
			mp->dsos[i].period += rp->dsos[i].period;
		}
	} else {
		m->oom = true;
	}
	pd_diags_free(&quiet.diags);
	m->s = s;
}

/* A replica's counts into the caller's (m) */
static void merge(struct prof_ctx *m, struct prof_ctx *r)
{
	struct pd_profile *mp = m->p;
	const struct pd_profile *rp = r->p;

	m->oom |= r->oom;
	for (uint32_t e = 0; e < mp->nevents; e++) {
		mp->events[e].samples += rp->events[e].samples;
		mp->events[e].period += rp->events[e].period;
		mp->events[e].unmapped += rp->events[e].unmapped;
		mp->events[e].guest += rp->events[e].guest;
		mp->events[e].no_ip += rp->events[e].no_ip;
	}
	mp->samples += rp->samples;
	mp->period += rp->period;
	mp->samples_no_attr += rp->samples_no_attr;
	mp->rows_not_kept += rp->rows_not_kept;
	mp->addr_folds += rp->addr_folds;
	mp->unverified_samples += rp->unverified_samples;
	/* maps_not_kept: every replica read every map record, as m did */
	merge_dsos(m, r);
	for (uint32_t i = 0; i < rp->nrows && !m->oom; i++)
		prof_row_merge(m, &rp->rows[i]);
	if (!m->oom)
		prof_addrs_merge(m, &r->addrs);
}

static void unfork_worker(void *arg, void *wctx)
{
	struct prof_par *pp = arg;
	struct replica *r = wctx;

	pp->main->s = pp->s;
	if (wctx == pp->main)
		return;
	merge(pp->main, &r->c);
	prof_ctx_free(&r->c);
	pd_profile_free(&r->p);
	free(r);
}

static bool keep_diag(void *arg, const struct pd_diag *g)
{
	struct prof_par *pp = arg;

	return prof_said_keep(pp->said, g);
}

/* on the caller's thread: the user records, or every record when the
 * walk is serial after all */
static bool par_event(void *arg, const struct pd_event *ev)
{
	struct prof_par *pp = arg;

	return prof_visit(pp->main, ev);
}

static const struct pd_par_visitor par = {
	.fork = fork_batch,
	.record = batch_record,
	.flush = flush_batch,
	.join = join_batch,
	.worker = fork_worker,
	.bind = bind_worker,
	.state = worker_state,
	.unfork = unfork_worker,
	.keep = keep_diag,
	.state_types = 1ull << PD_REC_MMAP | 1ull << PD_REC_MMAP2 |
		       1ull << PD_REC_FORK | 1ull << PD_REC_KSYMBOL,
};

int prof_walk_par(struct prof_ctx *c, const struct pd_walk_opts *o,
		  struct prof_said *said)
{
	static const struct pd_visitor v = {.event = par_event, .par = &par};
	struct prof_par pp = {.main = c, .s = c->s, .said = said};
	int rc = pd_walk(c->s, o, &v, &pp);

	c->s = pp.s;
	return rc;
}
