/* SPDX-License-Identifier: MIT */
/* The formatter for the summary (`perfdump FILE`). */
#ifndef PD_FMT_SUMMARY_H
#define PD_FMT_SUMMARY_H

#include "lib/session/session.h"
#include "lib/analysis/stats.h"
#include "fmt/emit.h"

/*
 * The "summary" object, readelf -h for a recording: how it is stored,
 * what recorded it and where (perf version, host, command line), its
 * events with their samples, the records and samples, the time span, what
 * was lost, and whether it is sound.  st: the counts (pd_stats_collect).
 */
void emit_summary(struct emitter *e, const struct pd_session *s,
		  const struct pd_stats *st);

#endif
