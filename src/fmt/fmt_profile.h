/* SPDX-License-Identifier: MIT */
/*
 * The formatter for `perfdump profile` (lib/analysis/profile.h): the events' totals,
 * then one table by --by (functions, dsos, processes or threads; a table
 * for --csv), the DSOs and how each was symbolized, and a summary.
 */
#ifndef PD_FMT_PROFILE_H
#define PD_FMT_PROFILE_H

#include "lib/analysis/profile.h"
#include "lib/session/session.h"
#include "fmt/emit.h"

struct profile_view {
	const struct pd_profile *p;
	const struct pd_session *s; /* the event names */
	uint64_t top;		    /* rows per event (processes, threads)
				     * shown; 0: all */
};

void emit_profile(struct emitter *e, const struct profile_view *v);

/* --by's values, indexed by enum pd_prof_by: "function", "dso", ... */
#define PROFILE_NBY 5
extern const char *const profile_by_names[PROFILE_NBY];

/* fmt_profile_tasks.c: the process and thread tables */
void emit_profile_processes(struct emitter *e, const struct profile_view *v);
void emit_profile_threads(struct emitter *e, const struct profile_view *v);
/* An event's name ("attrN" when the file names it nowhere). */
void profile_event_name(const struct profile_view *v, uint32_t i, char *buf,
			size_t len);

#endif
