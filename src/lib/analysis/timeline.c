// SPDX-License-Identifier: MIT
/* A timeline's threads and CPU run slices (see timeline.h). */
#include "lib/analysis/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "lib/base/util.h"

void pd_timeline_init(struct pd_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
}

void pd_timeline_free(struct pd_timeline *tl)
{
	for (uint32_t i = 0; i < tl->nthreads; i++)
		free(tl->threads[i].comm);
	free(tl->threads);
	free(tl->cpus);
	pd_hindex_free(&tl->tx);
	pd_hindex_free(&tl->cx);
	pd_timeline_init(tl);
}

static uint32_t hash2(uint32_t a, uint32_t b)
{
	uint32_t k[2] = {a, b};

	return pd_fnv1a(k, sizeof(k), PD_FNV_SEED);
}

/* The thread pid/tid (added, named "", when new); PD_HINDEX_NONE: out of
 * memory. */
static uint32_t thread_id(struct pd_timeline *tl, uint32_t pid, uint32_t tid)
{
	uint32_t h = hash2(pid, tid), pos = 0, id;
	char *comm;

	while ((id = pd_hindex_next(&tl->tx, h, &pos)) != PD_HINDEX_NONE)
		if (tl->threads[id].pid == pid && tl->threads[id].tid == tid)
			return id;
	if (!pd_grow((void **)&tl->threads, tl->nthreads, &tl->capt,
		     sizeof(*tl->threads)) ||
	    !(comm = strdup("")))
		return PD_HINDEX_NONE;
	if (pd_hindex_add(&tl->tx, h, tl->nthreads) < 0) {
		free(comm);
		return PD_HINDEX_NONE;
	}
	tl->threads[tl->nthreads] =
		(struct pd_tl_thread){pid, tid, comm, false};
	return tl->nthreads++;
}

int pd_timeline_thread(struct pd_timeline *tl, uint32_t pid, uint32_t tid,
		       const char *comm)
{
	uint32_t id = thread_id(tl, pid, tid);
	struct pd_tl_thread *t;
	char *c;

	if (id == PD_HINDEX_NONE) {
		tl->oom = true;
		return -1;
	}
	t = &tl->threads[id];
	if (!comm)
		return 0;
	t->named = true;
	if (!strcmp(t->comm, comm))
		return 0;
	if (!(c = strdup(comm))) {
		tl->oom = true;
		return -1;
	}
	free(t->comm);
	t->comm = c;
	return 0;
}

/* The CPU's last switch (added, time 0 and no task, when new); NULL: out
 * of memory. */
static struct pd_tl_cpu *cpu_of(struct pd_timeline *tl, uint32_t cpu,
				bool *seen)
{
	uint32_t h = hash2(cpu, 0), pos = 0, id;

	while ((id = pd_hindex_next(&tl->cx, h, &pos)) != PD_HINDEX_NONE)
		if (tl->cpus[id].cpu == cpu) {
			*seen = true;
			return &tl->cpus[id];
		}
	*seen = false;
	if (!pd_grow((void **)&tl->cpus, tl->ncpus, &tl->capc,
		     sizeof(*tl->cpus)) ||
	    pd_hindex_add(&tl->cx, h, tl->ncpus) < 0)
		return NULL;
	tl->cpus[tl->ncpus] = (struct pd_tl_cpu){.cpu = cpu};
	return &tl->cpus[tl->ncpus++];
}

bool pd_timeline_switch(struct pd_timeline *tl, uint32_t cpu, uint64_t time,
			uint32_t pid, uint32_t tid, bool idle,
			uint32_t next_tid, struct pd_tl_slice *out)
{
	bool seen, slice;
	struct pd_tl_cpu *c = cpu_of(tl, cpu, &seen);

	if (!c) {
		tl->oom = true;
		return false;
	}
	/* timehist: run time = time - tprev, tprev the CPU's last switch
	 * (none yet: 0); the switch in must be that one */
	slice = seen && !idle && c->next_tid == tid && time >= c->time;
	if (slice)
		*out = (struct pd_tl_slice){.pid = pid,
					    .tid = tid,
					    .cpu = cpu,
					    .start = c->time,
					    .end = time};
	c->time = time;
	c->next_tid = next_tid;
	return slice;
}
