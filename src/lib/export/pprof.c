// SPDX-License-Identifier: MIT
/*
 * pprof's profile from symbolized stacks (see pprof.h): tables of
 * strings, mappings, functions, locations, threads and samples, each
 * interned by a hash index, turned into profile.proto's messages at the
 * end, packed by protobuf-c and gzipped by zlib.
 */
#include "lib/export/pprof.h"

#include <stdlib.h>
#include <string.h>

#include "lib/analysis/profile.h"
#include "lib/analysis/stacks.h"
#include "lib/analysis/symbolize.h"
#include "lib/base/hex.h"
#include "lib/export/pprof_int.h"
#include "lib/format/attr.h"
#include "lib/format/feat_sys.h"
#include "lib/format/perf_abi.h"
#include "lib/session/session.h"

/* A new zeroed element at the end of x, NULL when out of memory. */
static void *push(struct pd_pprof *b, struct vec *x, size_t elem)
{
	if (x->n == x->cap) {
		uint32_t ncap = x->cap ? 2 * x->cap : 64;
		void *nv;

		if (x->n >= MAX_ENTRIES ||
		    !(nv = reallocarray(x->v, ncap, elem))) {
			b->oom = true;
			return NULL;
		}
		x->v = nv;
		x->cap = ncap;
	}
	return memset((char *)x->v + (size_t)x->n++ * elem, 0, elem);
}

/* A string's index in the string table (0: "", and out of memory). */
int64_t pprof_str(struct pd_pprof *b, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	uint32_t h = pd_fnv1a(s, len, PD_FNV_SEED), pos = 0, id;
	char *copy;
	const char **slot;

	if (!len)
		return 0;
	while ((id = pd_hindex_next(&b->str_ix, h, &pos)) != PD_HINDEX_NONE)
		if (!strcmp(*AT(b->str, const char *, id), s))
			return id;
	if (!(copy = arena_memdup(&b->strs, s, len + 1)) ||
	    !(slot = push(b, &b->str, sizeof(*slot)))) {
		b->oom = true;
		return 0;
	}
	*slot = copy;
	if (pd_hindex_add(&b->str_ix, h, b->str.n - 1) < 0) {
		b->str.n--;
		b->oom = true;
		return 0;
	}
	return b->str.n - 1;
}

struct pd_pprof *pd_pprof_new(uint32_t nevents, bool lines)
{
	struct pd_pprof *b = calloc(1, sizeof(*b));
	const char **empty;

	if (!b)
		return NULL;
	b->nevents = nevents;
	b->want_lines = lines;
	b->ev = calloc(nevents ? nevents : 1, sizeof(*b->ev));
	/* string_table[0] is "" */
	if (!b->ev || !(empty = push(b, &b->str, sizeof(*empty)))) {
		pd_pprof_free(b);
		return NULL;
	}
	*empty = "";
	return b;
}

void pd_pprof_free(struct pd_pprof *b)
{
	struct vec *v[] = {&b->str,	&b->maps,	 &b->funcs,
			   &b->lines,	&b->locs,	 &b->threads,
			   &b->samples, &b->sample_locs, &b->vals};
	struct pd_hindex *x[] = {&b->str_ix, &b->map_ix,    &b->func_ix,
				 &b->loc_ix, &b->thread_ix, &b->sample_ix};

	if (!b)
		return;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		free(v[i]->v);
	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		pd_hindex_free(x[i]);
	arena_free(&b->strs);
	free(b->ev);
	free(b);
}

void pd_pprof_event(struct pd_pprof *b, uint32_t i, const char *name,
		    const struct pd_attr *attr)
{
	/* the clocks count nanoseconds (kernel/events/core.c
	 * cpu_clock_event_update, task_clock_event_update) */
	bool ns = attr->type == PD_TYPE_SOFTWARE &&
		  (attr->config == PD_SW_CPU_CLOCK ||
		   attr->config == PD_SW_TASK_CLOCK);

	if (i >= b->nevents)
		return;
	b->ev[i].name = pprof_str(b, name && *name ? name : "events");
	b->ev[i].unit = pprof_str(b, ns ? "nanoseconds" : "events");
	/* a fixed period; with a frequency, the clocks' mean period */
	if (!(attr->flags & PD_ATTR_FREQ))
		b->ev[i].period = attr->sample_period;
	else if (ns && attr->sample_period)
		b->ev[i].period = 1000000000u / attr->sample_period;
}

void pd_pprof_span(struct pd_pprof *b, const struct pd_session *s,
		   uint64_t first, uint64_t last)
{
	const struct pd_feature *f = pd_find_feature(s, HEADER_CLOCK_DATA);
	uint64_t ns;

	b->duration = last > first ? last - first : 0;
	if (f && f->decoded && feat_clock_wall(f->model, first, &ns))
		b->time_nanos = ns;
}

bool pd_pprof_oom(const struct pd_pprof *b)
{
	return b->oom;
}

/* The mapping of a frame's map (index + 1), made at its first use. */
static uint32_t map_id(struct pd_pprof *b, const struct pd_stack_frame *f,
		       const struct pd_prof_dso *dso)
{
	uint64_t key[4] = {f->dso_index, f->map_start, f->map_end, f->pgoff};
	uint32_t h = pd_fnv1a(key, sizeof(key), PD_FNV_SEED), pos = 0, id;
	char bid[2 * sizeof(dso->build_id) + 1];
	struct pmap *m;

	while ((id = pd_hindex_next(&b->map_ix, h, &pos)) != PD_HINDEX_NONE) {
		m = AT(b->maps, struct pmap, id);
		if (m->dso == f->dso_index && m->start == f->map_start &&
		    m->end == f->map_end && m->pgoff == f->pgoff)
			return id + 1;
	}
	if (!(m = push(b, &b->maps, sizeof(*m))))
		return 0;
	*m = (struct pmap){.dso = f->dso_index,
			   .start = f->map_start,
			   .end = f->map_end,
			   .pgoff = f->pgoff,
			   .file = pprof_str(b, f->dso)};
	if (dso && dso->build_id_size) {
		pd_hex_bytes(bid, dso->build_id,
			     dso->build_id_size < sizeof(dso->build_id)
				     ? dso->build_id_size
				     : sizeof(dso->build_id));
		m->build_id = pprof_str(b, bid);
	}
	m->funcs = dso && dso->src != PD_SYMS_NONE;
	m->kernel = dso && dso->kernel;
	if (pd_hindex_add(&b->map_ix, h, b->maps.n - 1) < 0) {
		b->maps.n--;
		b->oom = true;
		return 0;
	}
	return b->maps.n;
}

/* The function of a name and file (index + 1). */
static uint32_t func_id(struct pd_pprof *b, const char *name, const char *sys,
			const char *file)
{
	struct pfunc k = {pprof_str(b, name), pprof_str(b, sys ? sys : name),
			  pprof_str(b, file)};
	uint32_t h = pd_fnv1a(&k, sizeof(k), PD_FNV_SEED), pos = 0, id;
	struct pfunc *fn;

	while ((id = pd_hindex_next(&b->func_ix, h, &pos)) != PD_HINDEX_NONE) {
		fn = AT(b->funcs, struct pfunc, id);
		if (!memcmp(fn, &k, sizeof(k)))
			return id + 1;
	}
	if (!(fn = push(b, &b->funcs, sizeof(*fn))))
		return 0;
	*fn = k;
	if (pd_hindex_add(&b->func_ix, h, b->funcs.n - 1) < 0) {
		b->funcs.n--;
		b->oom = true;
		return 0;
	}
	return b->funcs.n;
}

static bool add_line(struct pd_pprof *b, const char *name, const char *sys,
		     const char *file, int line)
{
	uint32_t fn = func_id(b, name, sys, file);
	struct pline *l;

	if (!fn || !(l = push(b, &b->lines, sizeof(*l))))
		return false;
	*l = (struct pline){fn, line > 0 ? line : 0};
	return true;
}

/* A new location's lines: the inlined calls innermost first, then the
 * symbol holding the address (none without a symbol); and what they
 * say of its mapping. */
static void loc_lines(struct pd_pprof *b, struct ploc *l,
		      const struct pd_stack_frame *f)
{
	struct pmap *m = l->map ? AT(b->maps, struct pmap, l->map - 1) : NULL;

	l->line0 = b->lines.n;
	if (!f->sym)
		return;
	for (uint32_t i = 0; i < f->ninl; i++) {
		const struct pd_inline_frame *in = &f->inl[i];

		if (!add_line(b, in->sym, in->raw_sym, in->file, in->line))
			return;
		l->nlines++;
	}
	if (!add_line(b, f->sym, f->raw_sym, f->file, f->line))
		return;
	l->nlines++;
	if (m) {
		m->files |= f->file != NULL;
		m->lines |= f->line > 0;
		m->inl |= f->ninl > 0;
	}
}

/* The location of an address in a mapping (index + 1; 0: none yet), and
 * its hash. */
static uint32_t loc_find(const struct pd_pprof *b, uint32_t map, uint64_t ip,
			 uint32_t *hash)
{
	uint64_t key[2] = {map, ip};
	uint32_t pos = 0, id;

	*hash = pd_fnv1a(key, sizeof(key), PD_FNV_SEED);
	while ((id = pd_hindex_next(&b->loc_ix, *hash, &pos)) !=
	       PD_HINDEX_NONE) {
		const struct ploc *l = AT(b->locs, struct ploc, id);

		if (l->map == map && l->addr == ip)
			return id + 1;
	}
	return 0;
}

static uint32_t loc_make(struct pd_pprof *b, uint32_t map, uint32_t hash,
			 const struct pd_stack_frame *f)
{
	struct ploc *l = push(b, &b->locs, sizeof(*l));

	if (!l)
		return 0;
	l->map = map;
	l->addr = f->ip;
	loc_lines(b, l, f);
	if (pd_hindex_add(&b->loc_ix, hash, b->locs.n - 1) < 0) {
		b->locs.n--;
		b->oom = true;
		return 0;
	}
	return b->locs.n;
}

uint64_t pd_pprof_location(struct pd_pprof *b, const struct pd_stack_frame *f,
			   const struct pd_prof_dso *dso)
{
	uint32_t map = 0, h, id;

	if (f->marker || (f->dso && !(map = map_id(b, f, dso))))
		return 0;
	id = loc_find(b, map, f->ip, &h);
	return id ? id : loc_make(b, map, h, f);
}

/* The location of a frame of the stacks model (made at its first use;
 * loc: per model frame, its location id, 0: none yet).  Its lines: the
 * model's when it has them, else the symbolizer's for this address. */
static uint64_t stk_location(struct pd_pprof *b, const struct pd_stacks *st,
			     struct pd_symbolizer *z, bool lines, uint32_t fi,
			     uint64_t *loc)
{
	const struct pd_stk_frame *sf = &st->frames[fi];
	struct pd_stack_frame f;

	if (loc[fi])
		return loc[fi];
	f = (struct pd_stack_frame){.ip = sf->ip,
				    .rel = sf->rel,
				    .sym = sf->sym,
				    .raw_sym = sf->raw_sym,
				    .symoff = sf->symoff,
				    .dso = sf->dso,
				    .dso_index = sf->dso_index,
				    .map_start = sf->map_start,
				    .map_end = sf->map_end,
				    .pgoff = sf->pgoff,
				    .file = sf->file,
				    .line = sf->line,
				    .inl = sf->inl,
				    .ninl = sf->ninl};
	/* lines once per address, not per sample */
	if (b->want_lines && !lines)
		pd_symbolizer_frame_lines(z, &f);
	return loc[fi] = pd_pprof_location(
		       b, &f, f.dso ? pd_symbolizer_dso(z, f.dso_index) : NULL);
}

bool pd_pprof_add_stacks(struct pd_pprof *b, const struct pd_stacks *st,
			 struct pd_symbolizer *z, bool lines)
{
	uint64_t *loc = calloc(st->nframes ? st->nframes : 1, sizeof(*loc));
	uint64_t ids[PD_FRAMES_MAX];

	if (!loc) {
		b->oom = true;
		return false;
	}
	for (uint32_t i = 0; i < st->nstacks; i++) {
		const struct pd_stk_stack *sk = &st->stacks[i];
		const struct pd_stk_thread *th = &st->threads[sk->thread];
		struct pd_pprof_thread t = {
			.comm = th->comm && th->comm[0] ? th->comm : NULL,
			/* perf's -1: no TID */
			.has_tid =
				th->pid != UINT32_MAX || th->tid != UINT32_MAX,
			.pid = th->pid,
			.tid = th->tid};
		uint32_t n = sk->nframes < PD_FRAMES_MAX ? sk->nframes
							 : PD_FRAMES_MAX;

		for (uint32_t k = 0; k < n; k++)
			ids[k] = stk_location(b, st, z, lines, sk->frames[k],
					      loc);
		for (uint32_t c = sk->count; c != PD_STK_NONE;
		     c = st->counts[c].next)
			pd_pprof_sample(b, ids, n, &t, st->counts[c].event,
					st->counts[c].samples,
					st->counts[c].period);
	}
	free(loc);
	return !b->oom;
}

/* The thread's index, made at its first sample. */
static bool thread_at(struct pd_pprof *b, const struct pd_pprof_thread *t,
		      uint32_t *out)
{
	struct pp_thread k = {.comm = pprof_str(b, t ? t->comm : NULL),
			      .has_tid = t && t->has_tid,
			      .pid = t && t->has_tid ? t->pid : 0,
			      .tid = t && t->has_tid ? t->tid : 0};
	uint32_t h = pd_fnv1a(&k.comm, sizeof(k.comm),
			      pd_fnv1a(&k.tid, sizeof(k.tid), PD_FNV_SEED));
	uint32_t pos = 0, id;
	struct pp_thread *th;

	while ((id = pd_hindex_next(&b->thread_ix, h, &pos)) !=
	       PD_HINDEX_NONE) {
		th = AT(b->threads, struct pp_thread, id);
		if (th->comm == k.comm && th->has_tid == k.has_tid &&
		    th->pid == k.pid && th->tid == k.tid) {
			*out = id;
			return true;
		}
	}
	if (!(th = push(b, &b->threads, sizeof(*th))))
		return false;
	*th = k;
	if (pd_hindex_add(&b->thread_ix, h, b->threads.n - 1) < 0) {
		b->threads.n--;
		b->oom = true;
		return false;
	}
	*out = b->threads.n - 1;
	return true;
}

/* The sample of a stack (its n nonzero ids) and thread, made at its
 * first use with zero values. */
static struct psample *sample_at(struct pd_pprof *b, const uint64_t *locs,
				 uint32_t n, uint32_t thread)
{
	uint32_t h = pd_fnv1a(&thread, sizeof(thread), PD_FNV_SEED), pos = 0;
	uint32_t id, k = 0;
	struct psample *sm;
	uint64_t *dst;

	for (uint32_t i = 0; i < n; i++)
		if (locs[i])
			h = pd_fnv1a(&locs[i], sizeof(locs[i]), h);
	while ((id = pd_hindex_next(&b->sample_ix, h, &pos)) !=
	       PD_HINDEX_NONE) {
		const uint64_t *have;

		sm = AT(b->samples, struct psample, id);
		if (sm->thread != thread)
			continue;
		/* (no location at all yet: no array) */
		have = sm->nloc ? AT(b->sample_locs, uint64_t, sm->loc0) : NULL;
		k = 0;
		for (uint32_t i = 0; i < n && k <= sm->nloc; i++)
			if (locs[i] && (k == sm->nloc || have[k++] != locs[i]))
				k = sm->nloc + 1;
		if (k == sm->nloc)
			return sm;
	}
	if (!(sm = push(b, &b->samples, sizeof(*sm))))
		return NULL;
	sm->thread = thread;
	sm->loc0 = b->sample_locs.n;
	sm->vals = b->vals.n;
	for (uint32_t i = 0; i < n; i++) {
		if (!locs[i])
			continue;
		if (!(dst = push(b, &b->sample_locs, sizeof(*dst))))
			goto undo;
		*dst = locs[i];
		sm->nloc++;
	}
	for (uint32_t i = 0; i < 2 * b->nevents; i++)
		if (!push(b, &b->vals, sizeof(int64_t)))
			goto undo;
	if (pd_hindex_add(&b->sample_ix, h, b->samples.n - 1) < 0)
		goto undo;
	return sm;
undo:
	b->sample_locs.n = sm->loc0;
	b->vals.n = sm->vals;
	b->samples.n--;
	b->oom = true;
	return NULL;
}

/* The format's values are int64: a sum past INT64_MAX stays there. */
static void add_capped(int64_t *v, uint64_t n)
{
	*v = n > (uint64_t)(INT64_MAX - *v) ? INT64_MAX : *v + (int64_t)n;
}

bool pd_pprof_sample(struct pd_pprof *b, const uint64_t *locs, uint32_t n,
		     const struct pd_pprof_thread *t, uint32_t event,
		     uint64_t samples, uint64_t period)
{
	struct psample *sm;
	uint32_t thread;
	int64_t *v;

	if (event >= b->nevents || !thread_at(b, t, &thread) ||
	    !(sm = sample_at(b, locs, n, thread)))
		return false;
	v = AT(b->vals, int64_t, sm->vals + 2 * event);
	add_capped(&v[0], samples);
	add_capped(&v[1], period);
	return true;
}
