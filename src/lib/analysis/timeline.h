/* SPDX-License-Identifier: MIT */
/*
 * A timeline's threads and CPU run slices, for the Chrome trace export
 * (perfdump export --to chrome), fed by a walk in time order: the
 * threads the samples name, each with its latest name; and from the
 * samples of sched:sched_switch, the intervals a thread ran on a CPU, as
 * perf sched timehist measures its "run time" (tools/perf/builtin-sched.c
 * timehist_sched_change_event: a switch's time minus the time of the
 * previous switch on the same CPU, evsel__get_time / evsel__save_time;
 * the task is the sample's thread, the CPU's idle task when prev_pid is
 * 0, is_idle_sample).  perfdump's slice is one only when that previous
 * switch switched to this thread (its next_pid): in a recording of some
 * tasks (not -a), a switch to a task not recorded is missing and the
 * previous switch on the CPU is another task's, where timehist's run time
 * spans what other tasks ran.  The idle task's intervals are not slices.
 * Memory grows with the threads and CPUs, never with the samples; a CPU
 * number comes from the file, so CPUs are kept in a hash index, not an
 * array sized by the number.  No printing.
 */
#ifndef PD_TIMELINE_H
#define PD_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/hindex.h"

/* A thread: pid, tid (UINT32_MAX: perf's -1), its latest name (own copy,
 * "" when none). */
struct pd_tl_thread {
	uint32_t pid, tid;
	char *comm;
	bool named; /* comm given by a sample (else "") */
};

/* The last switch seen on a CPU. */
struct pd_tl_cpu {
	uint32_t cpu;
	uint64_t time;
	uint32_t next_tid; /* the task switched to */
};

/* An interval a thread ran on a CPU: [start, end) in the recording's
 * clock (ns). */
struct pd_tl_slice {
	uint32_t pid, tid, cpu;
	uint64_t start, end;
};

struct pd_timeline {
	struct pd_tl_thread *threads;
	uint32_t nthreads, capt;
	struct pd_tl_cpu *cpus;
	uint32_t ncpus, capc;
	bool oom;
	/* private */
	struct pd_hindex tx, cx;
};

void pd_timeline_init(struct pd_timeline *tl);
void pd_timeline_free(struct pd_timeline *tl);

/* A sample of thread pid/tid named comm (NULL: keeps the name it had).
 * Returns 0, or -1 when out of memory (tl->oom set). */
int pd_timeline_thread(struct pd_timeline *tl, uint32_t pid, uint32_t tid,
		       const char *comm);

/*
 * A sched_switch at time on cpu, from the sample's thread pid/tid (idle:
 * prev_pid was 0) to next_tid.  true when it ends a slice of the
 * thread's (*out), as above.  Out of memory: false, tl->oom set.
 */
bool pd_timeline_switch(struct pd_timeline *tl, uint32_t cpu, uint64_t time,
			uint32_t pid, uint32_t tid, bool idle,
			uint32_t next_tid, struct pd_tl_slice *out);

#endif
