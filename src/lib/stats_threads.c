// SPDX-License-Identifier: MIT
/*
 * `perfdump stats`: the counts of rare records (LOST, LOST_SAMPLES, AUX),
 * read through the record views, and the queries over a finished walk's
 * thread table (per process, top threads).
 */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

#include "record.h"

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
	for (uint32_t i = 0; i < st->nthreads; i++)
		if (st->threads[i].samples)
			tv[k++] = st->threads[i];
	qsort(tv, k, sizeof(*tv), cmp_thread_samples);
	*n = k;
	return tv;
}
