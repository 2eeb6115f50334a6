// SPDX-License-Identifier: MIT
/*
 * Which records a filtered copy keeps: the samples that pass the filter
 * (filter.h, the records command's), and what perf needs to make sense
 * of them.  perf builds its threads and maps from the side-band records
 * (tools/perf/util/machine.c: machine__process_mmap2_event,
 * machine__process_comm_event, machine__process_fork_event, ...): those
 * of the process kept and of the kernel (pid -1, 0, and the records that
 * name no process: KSYMBOL, BPF_EVENT, TEXT_POKE, CGROUP) are kept
 * whatever their time or CPU, since a map made before --time's start is
 * still the map of a sample in it.  perf's own records (FINISHED_ROUND,
 * FINISHED_INIT, ID_INDEX, THREAD_MAP, CPU_MAP, TIME_CONV, EVENT_UPDATE,
 * ...) are kept; the kernel's other records (LOST, THROTTLE, SWITCH, ...)
 * pass the filter as `records` passes them.
 */
#include <stdint.h>

#include "lib/session/walk.h"
#include "lib/write/copy_int.h"

/* perf's synthesized kernel records, and the idle task (swapper) */
static bool kernel_pid(uint32_t pid)
{
	return pid == UINT32_MAX || pid == 0;
}

/* --tid: the process of the thread, from the first record that names it. */
static bool find_pid(void *arg, const struct pd_event *ev,
		     const struct pd_decoded *d)
{
	struct copy *c = arg;
	uint32_t pid, tid;

	if (ev->type == PD_REC_SAMPLE) {
		if (!d->id.has_tid)
			return true;
		pid = d->id.pid;
		tid = d->id.tid;
	} else if (!pd_record_pid_tid(&d->rec, &pid, &tid)) {
		return true;
	}
	if (tid != c->keep.tid)
		return true;
	c->keep.pid = pid;
	return false;
}

void copy_quietly(struct copy *c, void (*fn)(struct copy *c))
{
	struct pd_diags_mark m = pd_diags_mark(&c->s->diags);
	pd_diag_hook hook = c->s->diags.hook;

	c->s->diags.hook = NULL;
	fn(c);
	c->s->diags.hook = hook;
	pd_diags_rewind(&c->s->diags, m);
}

/* --tid: a walk that stops at the thread's first record */
static void walk_to_tid(struct copy *c)
{
	struct pd_walk_opts wo = {.flags = 0};
	struct pd_visitor v = {.record = find_pid};

	pd_walk(c->s, &wo, &v, c);
}

void copy_keep_init(struct copy *c)
{
	const struct pd_filter *f = c->o->filter;
	struct copy_keep *k = &c->keep;

	*k = (struct copy_keep){.f = f, .pid = UINT32_MAX, .tid = UINT32_MAX};
	if (!f || (!f->has_pid && !f->has_tid))
		return;
	k->by_task = true;
	if (f->has_pid) {
		k->pid = f->pid;
		return;
	}
	k->tid = f->tid;
	copy_quietly(c, walk_to_tid);
}

static bool side_band(uint32_t type)
{
	switch (type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
	case PD_REC_COMM:
	case PD_REC_FORK:
	case PD_REC_EXIT:
	case PD_REC_NAMESPACES:
	case PD_REC_KSYMBOL:
	case PD_REC_BPF_EVENT:
	case PD_REC_TEXT_POKE:
	case PD_REC_CGROUP: return true;
	default: return false;
	}
}

/* A side-band record of the process kept or of the kernel? */
static bool task_kept(const struct copy_keep *k, const struct pd_decoded *d)
{
	uint32_t pid, tid;

	if (!k->by_task)
		return true;
	if (d->rec.type == PD_REC_FORK &&
	    (d->rec.u.task.ppid == k->pid || d->rec.u.task.pid == k->pid))
		return true;
	/* KSYMBOL, BPF_EVENT, TEXT_POKE, CGROUP: the whole system's */
	if (!pd_record_pid_tid(&d->rec, &pid, &tid))
		return true;
	return kernel_pid(pid) || pid == k->pid;
}

bool copy_keep_record(const struct copy *c, const struct pd_event *ev,
		      const struct pd_decoded *d)
{
	const struct copy_keep *k = &c->keep;
	struct pd_sample_id filt;

	if (!k->f)
		return true;
	/* --event: no record of an evsel not written (copy_event.c) */
	if (!copy_event_kept(c, ev, d))
		return false;
	if (ev->type >= PD_REC_USER_START)
		return true;
	if (side_band(ev->type))
		return task_kept(k, d);
	/* a record's own pid/tid (READ, ITRACE_START) comes first, as the
	 * walk's filter takes it */
	filt = d->id;
	if (ev->type != PD_REC_SAMPLE &&
	    pd_record_pid_tid(&d->rec, &filt.pid, &filt.tid))
		filt.has_tid = true;
	return pd_filter_passes(k->f, &filt, d->evsel, ev->type);
}
