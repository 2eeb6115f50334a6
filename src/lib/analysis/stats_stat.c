// SPDX-License-Identifier: MIT
/*
 * `perfdump stats` of `perf stat record` files (the walk's cold path): the
 * counter totals per event as `perf stat report` prints them.
 *
 * tools/perf/builtin-stat.c: process_stat_config_event takes the aggr
 * mode, interval and scale from STAT_CONFIG; perf_event__process_stat_event
 * (process_stat_event) keeps each STAT's val/ena/run per (cpu, thread) of
 * its evsel; process_stat_round_event runs perf_stat_process_counter
 * (tools/perf/util/stat.c) for every evsel at each STAT_ROUND: the values
 * are summed over CPUs and threads (process_counter_values, AGGR_GLOBAL),
 * made a change since the round before (evsel__compute_deltas, with the
 * previous raw counts) and scaled for multiplexing
 * (perf_counts_values__scale: val * ena / run when run < ena, 0 and
 * "not counted" when run is 0).  The printed count is that times the
 * event's EVENT_UPDATE scale, with its unit.
 *
 * perf stat record writes every (cpu, thread) of every evsel before each
 * round, so the sum of the STATs since the last round is perf's sum over
 * its counts table.
 */
#include "lib/session/evlist.h"
#include "lib/analysis/stats.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base/cursor.h"
#include "lib/format/perf_abi.h"
#include "lib/io/reader.h"
#include "lib/session/record.h"
#include "lib/session/session.h"

int pd_stats_stat_init(struct pd_stats_stat *c, uint32_t nevents)
{
	*c = (struct pd_stats_stat){.nevents = nevents, .scale_values = true};
	c->total = calloc(nevents + 1, sizeof(*c->total));
	c->ev = calloc(nevents + 1, sizeof(*c->ev));
	if (!c->total || !c->ev)
		return -1;
	for (uint32_t i = 0; i < nevents; i++)
		c->ev[i].scale = 1.0;
	return 0;
}

void pd_stats_stat_free(struct pd_stats_stat *c)
{
	for (uint32_t i = 0; i < c->nrounds; i++)
		free(c->rounds[i].c);
	free(c->rounds);
	free(c->total);
	free(c->ev);
	memset(c, 0, sizeof(*c));
}

/* The evsel index of an id, or -1. */
static int64_t evsel_of(const struct pd_session *s, uint64_t id)
{
	const struct pd_evsel *ev = pd_evlist_find(s, id);

	return ev ? (int64_t)ev->idx : -1;
}

/* EVENT_UPDATE UNIT and SCALE: u64 type, u64 id, then a string / double */
static void event_update(struct pd_stats_stat *c, const struct pd_session *s,
			 const struct pd_event *e)
{
	struct pd_rec_event_update h;
	struct pd_rec_raw pl;
	uint64_t bits;
	int64_t k;

	if (!pd_event_update_view(e, s->swap, &h, &pl))
		return;
	k = evsel_of(s, h.id);
	if (k < 0 || (uint64_t)k >= c->nevents)
		return;
	if (h.type == PD_EVENT_UPDATE_UNIT) {
		const char *u = (const char *)pl.p;
		size_t n = strnlen(u, pl.n);

		if (n >= sizeof(c->ev[k].unit))
			n = sizeof(c->ev[k].unit) - 1;
		memcpy(c->ev[k].unit, u, n);
		c->ev[k].unit[n] = 0;
	} else if (h.type == PD_EVENT_UPDATE_SCALE && pl.n >= sizeof(bits)) {
		bits = pd_get64(pl.p, s->swap);
		memcpy(&c->ev[k].scale, &bits, sizeof(double));
	}
}

/* STAT_CONFIG: u64 nr, then nr {u64 tag, u64 val} */
static void stat_config(struct pd_stats_stat *c, const struct pd_session *s,
			const struct pd_event *e)
{
	uint32_t esize = pd_rec_layout_end(&pd_stat_config_entry_layout);
	struct pd_rec_stat_config h;
	struct pd_stat_config_ent v;
	struct pd_rec_raw ents;
	uint64_t nr;

	if (!pd_stat_config_view(e, s->swap, &h, &ents))
		return;
	nr = h.nr < ents.n / esize ? h.nr : ents.n / esize;
	c->has_config = true;
	for (uint64_t i = 0; i < nr; i++) {
		pd_stat_config_entry_view(&ents, i, s->swap, &v);
		if (v.tag == PD_STAT_CONFIG_TERM_AGGR_MODE)
			c->aggr_mode = v.val;
		else if (v.tag == PD_STAT_CONFIG_TERM_INTERVAL)
			c->interval = v.val;
		else if (v.tag == PD_STAT_CONFIG_TERM_SCALE)
			c->scale_values = v.val != 0;
	}
}

/* STAT: u64 id, u32 cpu, u32 thread, u64 val, ena, run */
static void stat(struct pd_stats_stat *c, const struct pd_session *s,
		 const struct pd_event *e)
{
	struct pd_rec_stat v;
	int64_t k;

	c->records++;
	if (!pd_stat_view(e, s->swap, &v)) {
		c->short_records++;
		return;
	}
	k = evsel_of(s, v.id);
	if (k < 0 || (uint64_t)k >= c->nevents) {
		c->unknown_id++;
		return;
	}
	c->ev[k].val += v.val;
	c->ev[k].ena += v.ena;
	c->ev[k].run += v.run;
	c->ev[k].pending = true;
}

/* perf_counts_values__scale, then the unit's scale */
static void scale(const struct pd_stats_stat *c, uint32_t k,
		  struct pd_stats_counter *o)
{
	o->scaled_val = o->val;
	o->scaled = 0;
	if (c->scale_values) {
		if (!o->run) {
			o->scaled = -1;
			o->scaled_val = 0;
		} else if (o->run < o->ena) {
			double v = (double)o->val * (double)o->ena /
				   (double)o->run;

			o->scaled = 1;
			/* values from the file: a product past 2^64
			 * saturates (a cast would be undefined) */
			o->scaled_val = v < 0x1p64 ? (uint64_t)v : UINT64_MAX;
		}
	}
	o->count = (double)o->scaled_val * c->ev[k].scale;
}

/* Keep a round's changes while under PD_STATS_MAX_STAT_CELLS counters. */
static bool keep_round(struct pd_stats_stat *c, uint64_t type, uint64_t time,
		       struct pd_stats_counter **out)
{
	struct pd_stats_stat_round *r;

	*out = NULL;
	if ((uint64_t)(c->nrounds + 1) * c->nevents > PD_STATS_MAX_STAT_CELLS) {
		c->rounds_not_kept++;
		return true;
	}
	if (c->nrounds == c->cap) {
		uint32_t ncap = c->cap ? c->cap * 2 : 16;

		r = realloc(c->rounds, ncap * sizeof(*r));
		if (!r)
			return false;
		c->rounds = r;
		c->cap = ncap;
	}
	r = &c->rounds[c->nrounds];
	r->c = calloc(c->nevents + 1, sizeof(*r->c));
	if (!r->c)
		return false;
	r->type = type;
	r->time = time;
	c->nrounds++;
	*out = r->c;
	return true;
}

/* STAT_ROUND: u64 type, u64 time; the totals, and each round's changes */
static bool stat_round(struct pd_stats_stat *c, const struct pd_session *s,
		       const struct pd_event *e)
{
	struct pd_rec_stat_round h = {0};
	uint64_t type, time;
	struct pd_stats_counter *rc;

	pd_stat_round_view(e, s->swap, &h);
	type = h.type;
	time = h.time;
	c->nround_records++;
	c->last_round_type = type;
	c->last_round_time = time;
	if (!keep_round(c, type, time, &rc))
		return false;
	for (uint32_t k = 0; k < c->nevents; k++) {
		struct pd_stats_counter *t = &c->total[k];
		struct pd_stats_stat_ev *v = &c->ev[k];

		if (v->pending) {
			struct pd_stats_counter d = {
				.val = v->val - t->val,
				.ena = v->ena - t->ena,
				.run = v->run - t->run,
				.counted = true,
			};

			t->val = v->val;
			t->ena = v->ena;
			t->run = v->run;
			t->counted = true;
			scale(c, k, t);
			scale(c, k, &d);
			if (rc)
				rc[k] = d;
		}
		v->val = v->ena = v->run = 0;
		v->pending = false;
	}
	return true;
}

bool pd_stats_count_stat(struct pd_stats_stat *c, const struct pd_session *s,
			 const struct pd_event *e)
{
	switch (e->type) {
	case PD_REC_EVENT_UPDATE: event_update(c, s, e); break;
	case PD_REC_STAT_CONFIG: stat_config(c, s, e); break;
	case PD_REC_STAT: stat(c, s, e); break;
	case PD_REC_STAT_ROUND: return stat_round(c, s, e);
	default: break;
	}
	return true;
}
