/* SPDX-License-Identifier: MIT */
/* The formatter for stats' counts. */
#ifndef PD_FMT_STATS_H
#define PD_FMT_STATS_H

#include "lib/session/session.h"
#include "lib/analysis/stats.h"
#include "fmt/emit.h"

/* What stats shows: the counts and the lists derived from them. */
struct stats_view {
	const struct pd_stats *st;
	/* processes with samples, most first (pd_stats_pids) */
	const struct pd_stats_pid *pids;
	uint32_t npids;
	/* threads with samples, most first (pd_stats_top_threads) */
	const struct pd_stats_thread *threads;
	uint32_t nthreads;
	uint64_t top; /* processes and threads listed (0: all) */
	/* every byte of the file; NULL when it could not be made */
	const struct pd_byte_account *bytes;
};

/*
 * mode, records, samples, quality, time, ordering, compression and bytes;
 * s gives the event names and the SAMPLE_TIME, CLOCK_DATA and COMPRESSED
 * features.
 */
/* The counters of a `perf stat record` file; nothing for other files. */
void emit_stats_counters(struct emitter *e, const struct pd_session *s,
			 const struct pd_stats *st);

void emit_stats(struct emitter *e, const struct pd_session *s,
		const struct stats_view *v);

#endif
