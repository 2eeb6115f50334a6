/* SPDX-License-Identifier: MIT */
/*
 * Which records a walk hands to its visitor (walk.h): the filters of
 * `records` (type, event, pid, tid, cpu, time span, skip, limit, at),
 * perf's --time grammar, and an event name matched as perf record -e
 * names events.
 */
#ifndef PD_FILTER_H
#define PD_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_evsel;
struct pd_sample_id;

#define PD_FILTER_MAX_TYPES 64

struct pd_filter {
	uint32_t types[PD_FILTER_MAX_TYPES]; /* none: every type */
	unsigned ntypes;
	const char *event; /* pd_event_matches; NULL: every event */
	bool has_pid, has_tid, has_cpu, has_time;
	uint32_t pid, tid, cpu;	 /* UINT32_MAX: perf's -1 */
	uint64_t t_start, t_end; /* ns, both included */
	uint64_t skip;		 /* leave out the first skip that pass */
	uint64_t limit;		 /* then hand out at most limit */
	uint64_t at;		 /* the records at or after this file offset */
};

/* Every record: no filter, no limit. */
#define PD_FILTER_ALL ((struct pd_filter){.limit = UINT64_MAX})

/* Does f hand out every sample (it may leave out other types)?  What
 * export --to chrome's timeline needs to be made on several threads
 * (export_formats.h). */
bool pd_filter_keeps_every_sample(const struct pd_filter *f);

/*
 * --time as perf takes it (tools/perf/util/time-utils.c
 * perf_time__parse_str): START,END in seconds as perf prints them, either
 * side may be empty.  Returns 0, or -1 with why in err.
 */
int pd_filter_parse_time(struct pd_filter *f, const char *arg, char *err,
			 size_t errlen);

/*
 * Does the event named `want` (as typed) name ev?  Its full name, or
 * "attrN"; or its name without what want leaves out: the system, the
 * modifiers ("cpu-clock" names "cpu-clock:ppp", "sched_switch" names
 * "sched:sched_switch").
 */
bool pd_event_matches(const struct pd_evsel *ev, const char *want);

/*
 * Does a record of this type, event (NULL: none) and pid/tid/cpu/time
 * (the sample's, or the record's own pid/tid) pass?  skip, limit and at
 * are the walk's (walk.c).
 */
bool pd_filter_passes(const struct pd_filter *f, const struct pd_sample_id *id,
		      const struct pd_evsel *ev, uint32_t type);

#endif
