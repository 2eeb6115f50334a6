// SPDX-License-Identifier: MIT
/*
 * profile's processes and threads (see profile.h): a thread per (pid,
 * tid), a new one when a FORK names ids that lived before (perf's
 * machine__process_fork_event replaces the dead thread); its COMMs, FORK
 * and EXIT with their times, its MMAP records and its samples.  Names
 * follow stats' rule (stats_threads.c: pd_stats_task_view and
 * pd_stats_task_apply, perf's thread__fork).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/profile_int.h"
#include "lib/format/perf_abi.h"
#include "lib/io/reader.h"
#include "lib/analysis/stats.h"

static uint32_t key_hash(uint32_t pid, uint32_t tid)
{
	uint64_t k = ((uint64_t)pid << 32 | tid) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(k >> 32);
}

/* The latest thread of (pid, tid), or NULL. */
static struct pd_prof_thread *find(struct pd_profile *p, uint32_t pid,
				   uint32_t tid)
{
	uint32_t pos = 0, i, best = PD_PROF_NONE;

	while ((i = pd_hindex_next(&p->thread_ix, key_hash(pid, tid), &pos)) !=
	       PD_HINDEX_NONE)
		if (p->threads[i].pid == pid && p->threads[i].tid == tid &&
		    (best == PD_PROF_NONE || i > best))
			best = i;
	return best == PD_PROF_NONE ? NULL : &p->threads[best];
}

/* A new thread (pid, tid); NULL when the table is full. */
static struct pd_prof_thread *add(struct prof_ctx *c, uint32_t pid,
				  uint32_t tid)
{
	struct pd_profile *p = c->p;
	struct pd_prof_thread *t;

	if (p->nthreads >= PD_PROF_MAX_THREADS)
		goto full;
	if (p->nthreads == p->threads_cap) {
		uint32_t ncap = p->threads_cap ? p->threads_cap * 2 : 256;
		struct pd_prof_thread *nt =
			realloc(p->threads, ncap * sizeof(*nt));
		uint64_t *ne;

		if (!nt)
			goto oom;
		p->threads = nt;
		ne = realloc(p->thread_ev,
			     (size_t)ncap * (p->nevents + 1) * 2 * sizeof(*ne));
		if (!ne)
			goto oom;
		p->thread_ev = ne;
		p->threads_cap = ncap;
	}
	if (pd_hindex_add(&p->thread_ix, key_hash(pid, tid), p->nthreads) < 0)
		goto oom;
	t = &p->threads[p->nthreads];
	*t = (struct pd_prof_thread){.pid = pid,
				     .tid = tid,
				     .comms = PD_PROF_NONE,
				     .last_comm = PD_PROF_NONE};
	memset(&p->thread_ev[(size_t)p->nthreads * p->nevents * 2], 0,
	       (size_t)p->nevents * 2 * sizeof(uint64_t));
	p->nthreads++;
	return t;
oom:
	c->oom = true;
	return NULL;
full:
	p->threads_not_kept++;
	prof_warn_full(c, &c->threads_warned, "threads",
		       "more threads than the thread table holds: the rest "
		       "are counted in the totals, not per thread "
		       "(threads_not_kept)");
	return NULL;
}

static struct pd_prof_thread *get(struct prof_ctx *c, uint32_t pid,
				  uint32_t tid)
{
	struct pd_prof_thread *t = find(c->p, pid, tid);

	return t ? t : add(c, pid, tid);
}

/* Name t by k as stats does (the latest in time wins). */
static void apply_name(struct pd_prof_thread *t, const struct pd_stats_task *k)
{
	struct pd_stats_thread n = {0};

	memcpy(n.comm, t->comm, sizeof(n.comm));
	n.has_comm_time = t->has_comm_time;
	n.comm_time = t->comm_time;
	pd_stats_task_apply(&n, k);
	memcpy(t->comm, n.comm, sizeof(t->comm));
	t->has_comm_time = n.has_comm_time;
	t->comm_time = n.comm_time;
}

static void add_comm(struct prof_ctx *c, struct pd_prof_thread *t,
		     const struct pd_stats_task *k, bool exec)
{
	struct pd_profile *p = c->p;
	struct pd_prof_comm *m;
	uint32_t i = p->ncomms;

	if (p->ncomms >= PD_PROF_MAX_COMMS) {
		p->comms_not_kept++;
		prof_warn_full(c, &c->comms_warned, "COMMs",
			       "more COMM records than the table holds: the "
			       "rest name their threads but are not listed "
			       "(comms_not_kept)");
		return;
	}
	if (p->ncomms == p->comms_cap) {
		uint32_t ncap = p->comms_cap ? p->comms_cap * 2 : 256;
		struct pd_prof_comm *nv = realloc(p->comms, ncap * sizeof(*nv));

		if (!nv) {
			c->oom = true;
			return;
		}
		p->comms = nv;
		p->comms_cap = ncap;
	}
	m = &p->comms[i];
	memcpy(m->comm, k->comm, sizeof(m->comm));
	m->time = k->time;
	m->has_time = k->has_time;
	m->exec = exec;
	m->next = PD_PROF_NONE;
	if (t->last_comm == PD_PROF_NONE)
		t->comms = i;
	else
		p->comms[t->last_comm].next = i;
	t->last_comm = i;
	t->ncomms++;
	p->ncomms++;
}

/* FORK: a new thread (a new one if its ids lived before) named after its
 * parent */
static void on_fork(struct prof_ctx *c, struct pd_stats_task *k)
{
	struct pd_prof_thread *parent, *t;
	char comm[16] = "";

	parent = find(c->p, k->ppid, k->ptid);
	if (parent)
		memcpy(comm, parent->comm, sizeof(comm));
	t = find(c->p, k->pid, k->tid);
	if (t && (t->has_fork || t->has_exit || t->samples || t->ncomms))
		t = NULL; /* those ids lived before: a new thread */
	if (!t && !(t = add(c, k->pid, k->tid)))
		return;
	t->has_fork = true;
	t->ppid = k->ppid;
	t->ptid = k->ptid;
	t->fork_time = k->time;
	if (comm[0]) {
		memcpy(k->comm, comm, sizeof(k->comm));
		apply_name(t, k);
	}
}

void prof_thread_task(struct prof_ctx *c, const struct pd_event *ev)
{
	struct pd_prof_thread *t;
	struct pd_stats_task k;

	if (!pd_stats_task_view(c->s, ev, &k))
		return;
	if (k.fork) {
		on_fork(c, &k);
		return;
	}
	if (!(t = get(c, k.pid, k.tid)))
		return;
	if (k.exit) {
		t->has_exit = true;
		t->exit_time = k.time;
		return;
	}
	add_comm(c, t, &k, ev->misc & PD_MISC_COMM_EXEC);
	apply_name(t, &k);
}

void prof_thread_mmap(struct prof_ctx *c, uint32_t pid, uint32_t tid)
{
	struct pd_prof_thread *t = get(c, pid, tid);

	if (t)
		t->mmaps++;
}

void prof_thread_sample(struct prof_ctx *c, uint32_t pid, uint32_t tid,
			uint32_t event, uint64_t period, bool has_time,
			uint64_t time)
{
	struct pd_profile *p = c->p;
	struct pd_prof_thread *t = get(c, pid, tid);
	uint64_t *ev;

	if (!t)
		return;
	t->samples++;
	t->period += period;
	ev = &p->thread_ev[((size_t)(t - p->threads) * p->nevents + event) * 2];
	ev[0]++;
	ev[1] += period;
	if (!has_time)
		return;
	if (!t->has_time || time < t->first_time)
		t->first_time = time;
	if (!t->has_time || time > t->last_time)
		t->last_time = time;
	t->has_time = true;
}

const char *prof_thread_comm(struct prof_ctx *c, uint32_t pid, uint32_t tid)
{
	const struct pd_prof_thread *t = find(c->p, pid, tid);

	if (t && t->comm[0])
		return t->comm;
	return tid == 0 ? "swapper" : "";
}

/* perf's idle thread is swapper (machine.c: machine__idle_thread) */
void prof_threads_finish(struct prof_ctx *c)
{
	struct pd_profile *p = c->p;

	for (uint32_t i = 0; i < p->nthreads; i++)
		if (p->threads[i].tid == 0 && !p->threads[i].comm[0])
			memcpy(p->threads[i].comm, "swapper",
			       sizeof("swapper"));
}

/* ---- queries --------------------------------------------------------- */

static int cmp_proc(const void *a, const void *b)
{
	const struct pd_prof_process *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int cmp_pid(const void *a, const void *b, void *arg)
{
	const struct pd_prof_thread *t = arg;
	const struct pd_prof_thread *x = &t[*(const uint32_t *)a],
				    *y = &t[*(const uint32_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	       (*(const uint32_t *)a < *(const uint32_t *)b);
}

static void add_thread(const struct pd_profile *p, struct pd_prof_process *pr,
		       uint32_t i)
{
	const struct pd_prof_thread *t = &p->threads[i];

	pr->threads++;
	pr->mmaps += t->mmaps;
	pr->samples += t->samples;
	pr->period += t->period;
	if (t->tid == t->pid || !pr->main)
		pr->main = t; /* the latest of the main thread's ids */
	for (uint32_t e = 0; e < 2 * p->nevents; e++)
		pr->ev[e] += p->thread_ev[(size_t)i * p->nevents * 2 + e];
	if (!t->has_time)
		return;
	if (!pr->has_time || t->first_time < pr->first_time)
		pr->first_time = t->first_time;
	if (!pr->has_time || t->last_time > pr->last_time)
		pr->last_time = t->last_time;
	pr->has_time = true;
}

struct pd_prof_process *pd_profile_processes(const struct pd_profile *p,
					     uint32_t *n)
{
	struct pd_prof_process *v;
	uint32_t *ix, k = 0;
	uint64_t *ev;

	*n = 0;
	if (!p->nthreads)
		return NULL;
	ix = malloc(p->nthreads * sizeof(*ix));
	/* one block: the processes, then their event counts */
	v = calloc(1, p->nthreads * (sizeof(*v) +
				     2 * (size_t)p->nevents * sizeof(*ev)));
	if (!ix || !v) {
		free(ix);
		free(v);
		return NULL;
	}
	ev = (uint64_t *)(void *)(v + p->nthreads);
	for (uint32_t i = 0; i < p->nthreads; i++)
		ix[i] = i;
	qsort_r(ix, p->nthreads, sizeof(*ix), cmp_pid, p->threads);
	for (uint32_t i = 0; i < p->nthreads; i++) {
		uint32_t pid = p->threads[ix[i]].pid;

		if (!k || v[k - 1].pid != pid) {
			v[k].pid = pid;
			v[k].ev = ev + (size_t)k * 2 * p->nevents;
			k++;
		}
		add_thread(p, &v[k - 1], ix[i]);
	}
	free(ix);
	qsort(v, k, sizeof(*v), cmp_proc);
	*n = k;
	return v;
}

void pd_profile_processes_free(struct pd_prof_process *v)
{
	free(v);
}

static int cmp_thread(const void *a, const void *b, void *arg)
{
	const struct pd_prof_thread *t = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct pd_prof_thread *x = &t[i], *y = &t[j];

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (i > j) - (i < j);
}

uint32_t *pd_profile_thread_order(const struct pd_profile *p)
{
	uint32_t *ix = malloc((p->nthreads + 1) * sizeof(*ix));

	if (!ix)
		return NULL;
	for (uint32_t i = 0; i < p->nthreads; i++)
		ix[i] = i;
	if (p->nthreads)
		qsort_r(ix, p->nthreads, sizeof(*ix), cmp_thread,
			(void *)p->threads);
	return ix;
}
