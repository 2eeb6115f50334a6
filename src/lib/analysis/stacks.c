// SPDX-License-Identifier: MIT
/* The samples as distinct stacks (see stacks.h). */
#include "lib/analysis/stacks.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base/util.h"
#include "lib/format/perf_abi.h"

void pd_stacks_init(struct pd_stacks *st)
{
	memset(st, 0, offsetof(struct pd_stacks, seq));
	st->first_event = PD_STK_NONE;
}

void pd_stacks_free(struct pd_stacks *st)
{
	free(st->frames);
	free(st->threads);
	free(st->stacks);
	free(st->counts);
	pd_hindex_free(&st->fx);
	pd_hindex_free(&st->tx);
	pd_hindex_free(&st->sx);
	arena_free(&st->a);
	pd_stacks_init(st);
}

void pd_stacks_reset(struct pd_stacks *st)
{
	st->nframes = st->nthreads = st->nstacks = st->ncounts = 0;
	st->samples = 0;
	st->first_event = PD_STK_NONE;
	st->has_time = st->oom = false;
	pd_hindex_clear(&st->fx);
	pd_hindex_clear(&st->tx);
	pd_hindex_clear(&st->sx);
	arena_reset(&st->a);
}

/* A word into a running hash (a multiply-xorshift mix: the index probes
 * by the low bits). */
static uint64_t mix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static uint32_t fold(uint64_t h)
{
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h >> 32);
}

/* A string of the model: its own copy (NULL stays NULL). */
static const char *own(struct pd_stacks *st, const char *s, bool *ok)
{
	const char *c;

	if (!s)
		return NULL;
	c = arena_memdup(&st->a, s, strlen(s) + 1);
	if (!c)
		*ok = false;
	return c;
}

/* A new frame's copy of f: its strings and inlined calls the model's. */
static bool copy_frame(struct pd_stacks *st, const struct pd_stack_frame *f,
		       bool kernel, bool unwound, struct pd_stk_frame *o)
{
	bool ok = true;

	*o = (struct pd_stk_frame){
		.ip = f->ip,
		.rel = f->rel,
		.symoff = f->symoff,
		.dso_index = f->dso ? f->dso_index : PD_STK_NONE,
		.map_start = f->map_start,
		.map_end = f->map_end,
		.pgoff = f->pgoff,
		.kernel = kernel,
		.unverified = f->unverified,
		.unwound = unwound,
		.line = f->line,
	};
	o->sym = own(st, f->sym, &ok);
	/* (a C name: the same) */
	o->raw_sym = f->raw_sym && f->sym && strcmp(f->raw_sym, f->sym)
			     ? own(st, f->raw_sym, &ok)
			     : o->sym;
	o->dso = own(st, f->dso, &ok);
	o->file = own(st, f->file, &ok);
	if (f->ninl) {
		struct pd_inline_frame *v =
			arena_calloc(&st->a, f->ninl, sizeof(*v));

		if (!v)
			return false;
		for (uint32_t i = 0; i < f->ninl; i++)
			v[i] = (struct pd_inline_frame){
				.sym = own(st, f->inl[i].sym, &ok),
				.file = own(st, f->inl[i].file, &ok),
				.line = f->inl[i].line};
		o->inl = v;
		o->ninl = f->ninl;
	}
	return ok;
}

/* The index of frame f (added when new), or PD_STK_NONE: out of memory.
 * A frame is one address of one DSO: its symbol and lines follow. */
static uint32_t frame_id(struct pd_stacks *st, const struct pd_stack_frame *f,
			 bool kernel, bool unwound)
{
	uint32_t dso = f->dso ? f->dso_index : PD_STK_NONE;
	uint64_t addr = f->dso ? f->rel : f->ip;
	uint32_t h = fold(mix(mix(dso, addr), kernel * 2 + unwound)), pos = 0,
		 id;

	while ((id = pd_hindex_next(&st->fx, h, &pos)) != PD_HINDEX_NONE) {
		const struct pd_stk_frame *g = &st->frames[id];

		if (g->dso_index == dso && g->kernel == kernel &&
		    g->unwound == unwound && (g->dso ? g->rel : g->ip) == addr)
			return id;
	}
	if (!pd_grow((void **)&st->frames, st->nframes, &st->capf,
		     sizeof(*st->frames)) ||
	    !copy_frame(st, f, kernel, unwound, &st->frames[st->nframes]) ||
	    pd_hindex_add(&st->fx, h, st->nframes) < 0)
		return PD_STK_NONE;
	return st->nframes++;
}

static uint32_t thread_id(struct pd_stacks *st, uint32_t pid, uint32_t tid,
			  const char *comm)
{
	size_t len = strlen(comm);
	uint64_t hh = mix(pid, tid);
	uint32_t h, pos = 0, id;
	bool ok = true;

	for (size_t i = 0; i < len; i++)
		hh = mix(hh, (uint8_t)comm[i]);
	h = fold(hh);
	while ((id = pd_hindex_next(&st->tx, h, &pos)) != PD_HINDEX_NONE) {
		const struct pd_stk_thread *t = &st->threads[id];

		if (t->pid == pid && t->tid == tid && !strcmp(t->comm, comm))
			return id;
	}
	if (!pd_grow((void **)&st->threads, st->nthreads, &st->capt,
		     sizeof(*st->threads)))
		return PD_STK_NONE;
	st->threads[st->nthreads] =
		(struct pd_stk_thread){pid, tid, own(st, comm, &ok)};
	if (!ok || pd_hindex_add(&st->tx, h, st->nthreads) < 0)
		return PD_STK_NONE;
	return st->nthreads++;
}

/* Is a context marker's cpumode the kernel's?  (perf_abi.h) */
static bool marker_kernel(uint64_t m)
{
	return m == PD_CONTEXT_KERNEL || m == PD_CONTEXT_GUEST_KERNEL;
}

static bool mode_kernel(unsigned cpumode)
{
	return cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL;
}

/* The sample's frames as frame indices into st->seq; their number, or
 * PD_STK_NONE when out of memory. */
static uint32_t frame_seq(struct pd_stacks *st, unsigned cpumode,
			  const struct pd_frames *f)
{
	bool kernel = mode_kernel(cpumode), unwound;
	uint32_t n = 0;

	for (uint32_t i = 0; f && i < f->n && n < PD_FRAMES_MAX; i++) {
		const struct pd_stack_frame *fr = &f->v[i];

		if (fr->marker) {
			kernel = marker_kernel(fr->ip);
			continue;
		}
		/* the user stack unwound after the callchain */
		unwound = i >= f->n - f->unwound;
		if (unwound)
			kernel = false;
		if ((st->seq[n] = frame_id(st, fr, kernel, unwound)) ==
		    PD_STK_NONE)
			return PD_STK_NONE;
		n++;
	}
	return n;
}

/* The stack of this thread and frame sequence (added when new). */
static uint32_t stack_id(struct pd_stacks *st, uint32_t thread, uint32_t n)
{
	uint64_t hh = mix(thread, n);
	uint32_t h, pos = 0, id;
	uint32_t *fr;

	for (uint32_t i = 0; i < n; i++)
		hh = mix(hh, st->seq[i]);
	h = fold(hh);
	while ((id = pd_hindex_next(&st->sx, h, &pos)) != PD_HINDEX_NONE) {
		const struct pd_stk_stack *s = &st->stacks[id];

		/* (a stack without frames has no array to compare) */
		if (s->thread == thread && s->nframes == n &&
		    (!n || !memcmp(s->frames, st->seq, n * sizeof(*st->seq))))
			return id;
	}
	fr = n ? arena_memdup(&st->a, st->seq, n * sizeof(*st->seq)) : NULL;
	if ((n && !fr) || !pd_grow((void **)&st->stacks, st->nstacks, &st->caps,
				   sizeof(*st->stacks)))
		return PD_STK_NONE;
	st->stacks[st->nstacks] = (struct pd_stk_stack){.thread = thread,
							.nframes = n,
							.frames = fr,
							.count = PD_STK_NONE};
	if (pd_hindex_add(&st->sx, h, st->nstacks) < 0)
		return PD_STK_NONE;
	return st->nstacks++;
}

/* The stack's count of event (added when new); a stack has few events:
 * a list. */
static struct pd_stk_count *count_of(struct pd_stacks *st, uint32_t stack,
				     uint32_t event)
{
	uint32_t *link = &st->stacks[stack].count;

	while (*link != PD_STK_NONE) {
		if (st->counts[*link].event == event)
			return &st->counts[*link];
		link = &st->counts[*link].next;
	}
	if (!pd_grow((void **)&st->counts, st->ncounts, &st->capc,
		     sizeof(*st->counts)))
		return NULL;
	/* link may point into counts, which grow moved: look again */
	link = &st->stacks[stack].count;
	while (*link != PD_STK_NONE)
		link = &st->counts[*link].next;
	st->counts[st->ncounts] =
		(struct pd_stk_count){.event = event, .next = PD_STK_NONE};
	*link = st->ncounts;
	return &st->counts[st->ncounts++];
}

int pd_stacks_add(struct pd_stacks *st, uint32_t event, uint64_t period,
		  uint32_t pid, uint32_t tid, const char *comm,
		  unsigned cpumode, const struct pd_frames *f)
{
	uint32_t n, thread, stack;
	struct pd_stk_count *c;

	if ((n = frame_seq(st, cpumode, f)) == PD_STK_NONE ||
	    (thread = thread_id(st, pid, tid, comm ? comm : "")) ==
		    PD_STK_NONE ||
	    (stack = stack_id(st, thread, n)) == PD_STK_NONE ||
	    !(c = count_of(st, stack, event))) {
		st->oom = true;
		return -1;
	}
	c->samples++;
	c->period += period;
	if (!st->samples++)
		st->first_event = event;
	return 0;
}

/* A frame of another model as the symbolizer gave it (its strings are
 * copied again by frame_id when new). */
static struct pd_stack_frame as_given(const struct pd_stk_frame *g)
{
	return (struct pd_stack_frame){
		.ip = g->ip,
		.rel = g->rel,
		.sym = g->sym,
		.raw_sym = g->raw_sym,
		.symoff = g->symoff,
		.dso = g->dso,
		.dso_index = g->dso_index,
		.map_start = g->map_start,
		.map_end = g->map_end,
		.pgoff = g->pgoff,
		.unverified = g->unverified,
		.file = g->file,
		.line = g->line,
		.inl = g->inl,
		.ninl = g->ninl,
	};
}

int pd_stacks_merge(struct pd_stacks *st, const struct pd_stacks *from)
{
	uint32_t *fmap = calloc(from->nframes + 1, sizeof(*fmap));
	uint32_t *tmap = calloc(from->nthreads + 1, sizeof(*tmap));
	int rc = -1;

	if (!fmap || !tmap)
		goto out;
	for (uint32_t i = 0; i < from->nframes; i++) {
		const struct pd_stk_frame *g = &from->frames[i];
		struct pd_stack_frame f = as_given(g);

		if ((fmap[i] = frame_id(st, &f, g->kernel, g->unwound)) ==
		    PD_STK_NONE)
			goto out;
	}
	for (uint32_t i = 0; i < from->nthreads; i++) {
		const struct pd_stk_thread *t = &from->threads[i];

		if ((tmap[i] = thread_id(st, t->pid, t->tid, t->comm)) ==
		    PD_STK_NONE)
			goto out;
	}
	for (uint32_t i = 0; i < from->nstacks; i++) {
		const struct pd_stk_stack *s = &from->stacks[i];
		uint32_t id;

		for (uint32_t k = 0; k < s->nframes; k++)
			st->seq[k] = fmap[s->frames[k]];
		if ((id = stack_id(st, tmap[s->thread], s->nframes)) ==
		    PD_STK_NONE)
			goto out;
		for (uint32_t c = s->count; c != PD_STK_NONE;
		     c = from->counts[c].next) {
			struct pd_stk_count *to =
				count_of(st, id, from->counts[c].event);

			if (!to)
				goto out;
			to->samples += from->counts[c].samples;
			to->period += from->counts[c].period;
		}
	}
	st->samples += from->samples;
	if (from->has_time) {
		if (!st->has_time || from->first_time < st->first_time)
			st->first_time = from->first_time;
		if (!st->has_time || from->last_time > st->last_time)
			st->last_time = from->last_time;
		st->has_time = true;
	}
	rc = 0;
out:
	if (rc < 0 || from->oom)
		st->oom = true;
	free(fmap);
	free(tmap);
	return rc;
}
