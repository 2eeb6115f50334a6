// SPDX-License-Identifier: MIT
/*
 * The formatter for profile's processes and threads (--by process,
 * --by thread; see fmt_profile.h): readperf's processes.csv, and perf's
 * view of each task (FORK, COMM, EXIT with their times).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/names.h"
#include "fmt/fmt_features.h"
#include "fmt/fmt_profile.h"
#include "lib/base/util.h"

void profile_event_name(const struct profile_view *v, uint32_t i, char *buf,
			size_t len)
{
	const struct pd_evsel *ev = &v->s->evlist.v[i];

	char label[32];

	snprintf(buf, len, "%s", pd_evsel_label(ev, label, sizeof(label)));
}

/* A time: KEY in ns and KEY_s as perf prints it; null without one.  Text
 * shows only KEY_s, and nothing for a null. */
static void emit_time(struct emitter *e, const char *key, bool has, uint64_t t)
{
	char buf[48], k[48];

	snprintf(k, sizeof(k), "%s_s", key);
	emit_text_hide(e, true);
	if (has)
		emit_u64(e, key, t);
	else
		emit_null(e, key);
	emit_text_hide(e, !has);
	if (has) {
		format_perf_time(buf, sizeof(buf), t);
		emit_str(e, k, buf);
	} else {
		emit_null(e, k);
	}
	emit_text_hide(e, false);
}

static void emit_comm(struct emitter *e, const char *key, const char *comm)
{
	size_t n = strnlen(comm, 16);

	if (n)
		emit_private(e, key, PRIV_COMM, comm, n);
	else
		emit_null(e, key);
}

/* A thread's COMMs, in time order */
static void emit_comms(struct emitter *e, const struct pd_profile *p,
		       const struct pd_prof_thread *t)
{
	emit_arr_begin(e, "comms");
	for (uint32_t i = t->comms; i != PD_PROF_NONE; i = p->comms[i].next) {
		const struct pd_prof_comm *c = &p->comms[i];

		emit_row_begin(e, NULL);
		emit_comm(e, "comm", c->comm);
		emit_time(e, "time", c->has_time, c->time);
		emit_bool(e, "exec", c->exec);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* samples and period per event (text: with several events only) */
static void emit_per_event(struct emitter *e, const struct profile_view *v,
			   const uint64_t *ev)
{
	char name[256];

	emit_text_hide(e, v->p->nevents < 2);
	emit_arr_begin(e, "events");
	for (uint32_t i = 0; i < v->p->nevents; i++) {
		profile_event_name(v, i, name, sizeof(name));
		emit_row_begin(e, NULL);
		emit_str(e, "event", name);
		emit_u64(e, "samples", ev[2 * i]);
		emit_u64(e, "period", ev[2 * i + 1]);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, false);
}

/* FORK and EXIT of a thread */
static void emit_life(struct emitter *e, const struct pd_prof_thread *t,
		      bool with_ptid)
{
	emit_text_hide(e, !t || !t->has_fork);
	if (t && t->has_fork)
		emit_s64(e, "ppid", (int32_t)t->ppid);
	else
		emit_null(e, "ppid");
	emit_text_hide(e, !with_ptid || !t || !t->has_fork);
	if (with_ptid) {
		if (t && t->has_fork)
			emit_s64(e, "ptid", (int32_t)t->ptid);
		else
			emit_null(e, "ptid");
	}
	emit_text_hide(e, false);
	emit_time(e, "fork_time", t && t->has_fork, t ? t->fork_time : 0);
	emit_time(e, "exit_time", t && t->has_exit, t ? t->exit_time : 0);
}

static void emit_counts(struct emitter *e, uint64_t mmaps, uint64_t samples,
			uint64_t period, uint64_t all, bool has_time,
			uint64_t first, uint64_t last)
{
	emit_u64(e, "mmaps", mmaps);
	emit_u64(e, "samples", samples);
	emit_percent(e, "percent", samples, all, 2);
	emit_u64(e, "period", period);
	emit_time(e, "first_time", has_time, first);
	emit_time(e, "last_time", has_time, last);
}

static const char *const process_cols[] = {
	"pid",	       "comm",	       "ppid",	      "fork_time",
	"fork_time_s", "exit_time",    "exit_time_s", "threads",
	"mmaps",       "samples",      "percent",     "period",
	"first_time",  "first_time_s", "last_time",   "last_time_s",
};

void emit_profile_processes(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;
	uint32_t n;
	struct pd_prof_process *pr = pd_profile_processes(p, &n);

	emit_table_begin(e, "processes", process_cols, PD_NELEMS(process_cols));
	for (uint32_t i = 0; i < n && (!v->top || i < v->top); i++) {
		const struct pd_prof_process *r = &pr[i];
		const struct pd_prof_thread *t = r->main;

		emit_row_begin_t(e, NULL, "pid %d", (int32_t)r->pid);
		emit_text_hide(e, true);
		emit_s64(e, "pid", (int32_t)r->pid);
		emit_text_hide(e, false);
		emit_comm(e, "comm", t->comm);
		emit_life(e, t, false);
		emit_u64(e, "threads", r->threads);
		emit_counts(e, r->mmaps, r->samples, r->period, p->samples,
			    r->has_time, r->first_time, r->last_time);
		emit_per_event(e, v, r->ev);
		emit_comms(e, p, t);
		emit_obj_end(e);
	}
	emit_table_end(e);
	pd_profile_processes_free(pr);
}

static const char *const thread_cols[] = {
	"tid",	     "pid",	    "comm",	 "ppid",	"ptid",
	"fork_time", "fork_time_s", "exit_time", "exit_time_s", "mmaps",
	"samples",   "percent",	    "period",	 "first_time",	"first_time_s",
	"last_time", "last_time_s",
};

void emit_profile_threads(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;
	uint32_t *ix = pd_profile_thread_order(p);

	emit_table_begin(e, "threads", thread_cols, PD_NELEMS(thread_cols));
	for (uint32_t k = 0; ix && k < p->nthreads && (!v->top || k < v->top);
	     k++) {
		const struct pd_prof_thread *t = &p->threads[ix[k]];

		emit_row_begin_t(e, NULL, "tid %d", (int32_t)t->tid);
		emit_text_hide(e, true);
		emit_s64(e, "tid", (int32_t)t->tid);
		emit_text_hide(e, false);
		emit_s64(e, "pid", (int32_t)t->pid);
		emit_comm(e, "comm", t->comm);
		emit_life(e, t, true);
		emit_counts(e, t->mmaps, t->samples, t->period, p->samples,
			    t->has_time, t->first_time, t->last_time);
		emit_per_event(e, v, pd_prof_thread_ev(p, ix[k], 0));
		emit_comms(e, p, t);
		emit_obj_end(e);
	}
	emit_table_end(e);
	free(ix);
}
