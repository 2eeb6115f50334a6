// SPDX-License-Identifier: MIT
/*
 * The counters part of `perfdump stats` for `perf stat record` files:
 * each event's totals as `perf stat report` prints them, and with -I the
 * change in each interval (STAT_ROUND).
 */
#include <stdio.h>

#include "fmt/fmt_stats.h"
#include "fmt/names.h"

/*
 * perf's floor(v) == v (stat-display.c print_counter_value_std), without
 * libm and without casting what does not fit (a hostile EVENT_UPDATE
 * scale): past 2^52 every double is whole; NaN is not.
 */
static bool whole(double v)
{
	if (v != v)
		return false;
	if (v >= 0x1p52 || v <= -0x1p52)
		return true;
	return (double)(int64_t)v == v;
}

/* One event's counts: a row titled by the event's name. */
static void emit_counter(struct emitter *e, const struct pd_session *s,
			 const struct pd_stats_stat *c, uint32_t i,
			 const struct pd_stats_counter *k, bool named)
{
	char buf[32];
	const char *name = pd_evsel_label(&s->evlist.v[i], buf, sizeof(buf));

	emit_row_begin_t(e, NULL, "%s", name);
	/* a row of its own is titled by the name; inline rows show it */
	emit_text_hide(e, !named);
	emit_str(e, "event", name);
	emit_text_hide(e, true);
	emit_u64(e, "attr", i);
	emit_text_hide(e, false);
	/* perf prints the count with two decimals unless it is whole */
	emit_double(e, "count", k->count, whole(k->count) ? "%.0f" : "%.2f");
	emit_str(e, "unit", c->ev[i].unit);
	emit_double(e, "scale", c->ev[i].scale, "%g");
	emit_u64(e, "value", k->val);
	emit_u64(e, "enabled", k->ena);
	emit_u64(e, "running", k->run);
	emit_u64(e, "scaled_value", k->scaled_val);
	emit_s64(e, "scaled", k->scaled);
	emit_obj_end(e);
}

static void emit_rounds(struct emitter *e, const struct pd_session *s,
			const struct pd_stats_stat *c)
{
	emit_arr_begin(e, "intervals");
	for (uint32_t r = 0; r < c->nrounds && c->interval; r++) {
		const struct pd_stats_stat_round *rd = &c->rounds[r];

		emit_row_begin_t(e, NULL, "time %lu.%09lu",
				 (unsigned long)(rd->time / 1000000000u),
				 (unsigned long)(rd->time % 1000000000u));
		emit_text_hide(e, true);
		emit_u64(e, "time", rd->time);
		emit_text_hide(e, false);
		emit_u64(e, "round_type", rd->type);
		emit_arr_begin(e, "events");
		for (uint32_t i = 0; i < c->nevents; i++)
			if (rd->c[i].counted)
				emit_counter(e, s, c, i, &rd->c[i], true);
		emit_arr_end(e);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !c->rounds_not_kept);
	emit_u64(e, "intervals_not_kept", c->rounds_not_kept);
	emit_text_hide(e, false);
}

void emit_stats_counters(struct emitter *e, const struct pd_session *s,
			 const struct pd_stats *st)
{
	const struct pd_stats_stat *c = &st->stat;

	if (!c->records && !c->nround_records && !c->has_config)
		return;
	emit_obj_begin(e, "counters");
	emit_u64(e, "aggr_mode", c->aggr_mode);
	emit_u64(e, "interval_ms", c->interval);
	emit_bool(e, "scale", c->scale_values);
	emit_u64(e, "stat_records", c->records);
	emit_u64(e, "rounds", c->nround_records);
	emit_u64(e, "elapsed_ns", c->last_round_time);
	emit_text_hide(e, !c->unknown_id);
	emit_u64(e, "unknown_id", c->unknown_id);
	emit_text_hide(e, !c->short_records);
	emit_u64(e, "short_records", c->short_records);
	emit_text_hide(e, false);
	emit_arr_begin(e, "events");
	for (uint32_t i = 0; i < c->nevents; i++)
		if (c->total[i].counted)
			emit_counter(e, s, c, i, &c->total[i], false);
	emit_arr_end(e);
	emit_rounds(e, s, c);
	emit_obj_end(e);
}
