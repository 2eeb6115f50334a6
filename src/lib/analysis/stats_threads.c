// SPDX-License-Identifier: MIT
/*
 * `perfdump stats`, the walk's cold path: thread names from COMM and FORK,
 * the counts of rare records (LOST, LOST_SAMPLES, AUX) read through the
 * record views, round and backward-step bookkeeping, and the queries over
 * a finished walk's thread table (per process, top threads).
 */
#include "lib/analysis/stats.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base/cursor.h"
#include "lib/session/evlist.h"
#include "lib/session/event.h"
#include "lib/session/order.h"
#include "lib/session/record.h"
#include "lib/session/session.h"

/*
 * Thread names as perf gives them (tools/perf/util/machine.c:
 * machine__process_comm_event, machine__process_fork_event; thread.c
 * thread__fork): a forked thread takes its parent's name, a COMM sets the
 * thread's own; perf processes records in time order, so across the
 * data.N files of a directory the name latest in time wins, not the last
 * one read.  The time is the sample_id trailer's, as perf's sample->time
 * (FORK and EXIT carry one of their own, a little earlier: used without a
 * trailer); without times (no sample_id_all), file order decides.
 */
bool pd_stats_task_view(const struct pd_session *s, const struct pd_event *ev,
			struct pd_stats_task *k)
{
	const struct pd_evsel *evsel;
	struct pd_sample_id sid;
	struct pd_rec_task t;
	struct pd_rec_comm c;
	uint64_t id;

	*k = (struct pd_stats_task){.fork = ev->type == PD_REC_FORK,
				    .exit = ev->type == PD_REC_EXIT};
	evsel = pd_record_evsel(s, ev->type, ev->p, ev->size, &id);
	if (!evsel ||
	    !pd_parse_sample_id(s, evsel, ev->p, ev->size, ev->offset, &sid))
		sid = (struct pd_sample_id){0};
	if (k->fork || k->exit) {
		if (!pd_task_view(ev, s->swap, &t))
			return false;
		k->pid = t.pid;
		k->ppid = t.ppid;
		k->tid = t.tid;
		k->ptid = t.ptid;
		k->time = t.time;
		k->has_time = true;
	} else {
		if (!pd_comm_view(ev, s->swap, sid.trailer_size, &c))
			return false;
		k->pid = c.pid;
		k->tid = c.tid;
		size_t n = c.comm.len < sizeof(k->comm) - 1
				   ? c.comm.len
				   : sizeof(k->comm) - 1;
		memcpy(k->comm, c.comm.s, n);
		k->comm[n] = 0;
	}
	if (sid.has_time) {
		k->time = sid.time;
		k->has_time = true;
	}
	return true;
}

void pd_stats_task_apply(struct pd_stats_thread *t,
			 const struct pd_stats_task *k)
{
	if (k->has_time && t->has_comm_time && k->time < t->comm_time)
		return;
	t->has_pid = true;
	memcpy(t->comm, k->comm, sizeof(t->comm));
	t->has_comm_time = k->has_time;
	t->comm_time = k->time;
}

/* LOST, LOST_SAMPLES and AUX: rare, read through the record views */
void pd_stats_count_quality(struct pd_stats *st, const struct pd_event *ev,
			    bool sw)
{
	struct pd_rec_lost lost;
	struct pd_rec_lost_samples ls = {0};
	struct pd_rec_aux aux = {0};

	switch (ev->type) {
	case PD_REC_LOST:
		st->lost_records++;
		if (pd_lost_view(ev, sw, &lost))
			st->lost += lost.lost;
		break;
	case PD_REC_LOST_SAMPLES:
		pd_lost_samples_view(ev, sw, &ls);
		st->lost_samples_records++;
		st->lost_samples += ls.lost;
		if (ev->misc & PD_MISC_LOST_SAMPLES_BPF) {
			st->lost_samples_bpf_records++;
			st->lost_samples_bpf += ls.lost;
		}
		break;
	case PD_REC_AUX:
		pd_aux_view(ev, sw, &aux);
		st->aux_records++;
		st->aux_truncated += !!(aux.flags & PD_AUX_FLAG_TRUNCATED);
		st->aux_overwrite += !!(aux.flags & PD_AUX_FLAG_OVERWRITE);
		st->aux_partial += !!(aux.flags & PD_AUX_FLAG_PARTIAL);
		st->aux_collision += !!(aux.flags & PD_AUX_FLAG_COLLISION);
		break;
	default: break;
	}
}

/* A round is the records since the last one ended: totals by difference. */
void pd_stats_end_round(struct pd_stats *st)
{
	uint64_t n = st->total_records - st->round_start_records;

	if (n > st->largest_round_records) {
		st->largest_round_records = n;
		st->largest_round_bytes =
			st->total_bytes - st->round_start_bytes;
		st->largest_round_offset = st->round_offset;
	}
	st->round_start_records = st->total_records;
	st->round_start_bytes = st->total_bytes;
}

/* A sample earlier than the one before it in its stream. */
void pd_stats_count_backward(struct pd_stats *st, const struct pd_event *ev,
			     uint64_t t)
{
	st->backward_steps++;
	if (st->prev_time - t > st->max_backward_ns) {
		st->max_backward_ns = st->prev_time - t;
		st->max_backward_offset = ev->offset;
	}
}

static int cmp_pid(const void *a, const void *b)
{
	const struct pd_stats_thread *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int cmp_pid_samples(const void *a, const void *b)
{
	const struct pd_stats_pid *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

struct pd_stats_pid *pd_stats_pids(const struct pd_stats *st, uint32_t *n)
{
	struct pd_stats_thread *t = st->threads;
	struct pd_stats_pid *v;
	uint32_t k = 0;

	*n = 0;
	if (!st->nthreads)
		return NULL;
	/* the thread table is sorted by pid (then tid) in place */
	qsort(t, st->nthreads, sizeof(*t), cmp_pid);
	v = calloc(st->nthreads, sizeof(*v));
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < st->nthreads; i++) {
		/* perf's idle thread (machine.c: machine__idle_thread) */
		if (t[i].tid == 0 && !t[i].comm[0])
			memcpy(t[i].comm, "swapper", sizeof("swapper"));
		if (!t[i].has_pid)
			continue;
		if (!k || v[k - 1].pid != t[i].pid)
			v[k++] = (struct pd_stats_pid){.pid = t[i].pid};
		struct pd_stats_pid *p = &v[k - 1];

		p->samples += t[i].samples;
		p->threads += t[i].samples > 0;
		if (t[i].comm[0] && (!p->comm || t[i].tid == t[i].pid))
			p->comm = t[i].comm;
	}
	qsort(v, k, sizeof(*v), cmp_pid_samples);
	*n = k;
	return v;
}

void pd_stats_free(struct pd_stats *st)
{
	free(st->types);
	free(st->events);
	free(st->cpu_samples);
	free(st->threads);
	pd_stats_stat_free(&st->stat);
	pd_data_ends_free(&st->ends);
	memset(st, 0, sizeof(*st));
}

/* ------------------------------------------------------- top threads */

static int cmp_thread_samples(const void *a, const void *b)
{
	const struct pd_stats_thread *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

struct pd_stats_thread *pd_stats_top_threads(const struct pd_stats *st,
					     uint32_t *n)
{
	struct pd_stats_thread *tv;
	uint32_t k = 0;

	*n = 0;
	if (!st->nthreads)
		return NULL;
	tv = calloc(st->nthreads, sizeof(*tv));
	if (!tv)
		return NULL;
	for (uint32_t i = 0; i < st->nthreads; i++) {
		if (!st->threads[i].samples)
			continue;
		tv[k] = st->threads[i];
		if (tv[k].tid == 0 && !tv[k].comm[0])
			memcpy(tv[k].comm, "swapper", sizeof("swapper"));
		k++;
	}
	qsort(tv, k, sizeof(*tv), cmp_thread_samples);
	*n = k;
	return tv;
}

/*
 * A kernel record other than a sample queues in perf's ordered events by
 * its sample_id time too (session.c: perf_session__process_event), so it
 * moves the flush clock that decides which samples are late.
 */
void pd_stats_clock_other(struct pd_stats *st, struct pd_session *s,
			  const struct pd_event *ev)
{
	uint64_t t;

	if (pd_event_time(s, ev, &t) && pd_flush_queues(t))
		pd_flush_time(&st->clock, t);
}
