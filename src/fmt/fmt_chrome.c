// SPDX-License-Identifier: MIT
/* The Chrome Trace Event Format (see fmt_chrome.h). */
#include "fmt/fmt_chrome.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/timeline.h"
#include "lib/base/arena.h"
#include "lib/base/hindex.h"
#include "lib/base/strbuf.h"
#include "lib/base/util.h"
#include "lib/format/perf_abi.h"
#include "fmt/emit.h"
#include "fmt/fmt_tracepoint.h"
#include "fmt/names.h"

/* A frame's string, made once per DSO and address in it */
struct chrome_frame {
	uint32_t dso;
	uint64_t rel;
	const char *s;
	size_t n;
};

/* What renders samples, one per thread (fmt_chrome_worker): where to,
 * and the memo of the frames' strings */
struct fmt_chrome_worker {
	struct emitter *e;
	const struct chrome_opts *o;
	struct strbuf b; /* a frame's string */
	/* the frames' strings made so far (memory: the distinct frames) */
	struct chrome_frame *frames;
	uint32_t nframes, capf;
	struct pd_hindex fx;
	struct arena a;
	bool oom;
	/* the last sched_switch format seen, its prev_pid and next_pid */
	const struct pd_tp_event *sw;
	uint32_t sw_prev, sw_next;
};

struct fmt_chrome {
	struct emitter *e;
	FILE *out;
	struct chrome_opts o;
	struct pd_timeline tl;
	struct fmt_chrome_worker w; /* the samples of one thread */
	uint64_t untimed;	    /* samples without time, left out */
	bool oom;
	/* the slice the record's sched_switch ended, due with its sample */
	struct pd_tl_slice slice;
	bool slice_due;
};

struct fmt_chrome *fmt_chrome_new(FILE *out, const struct chrome_opts *o)
{
	struct fmt_chrome *c = calloc(1, sizeof(*c));

	if (!c || !(c->e = emit_new(out, EMIT_JSON, false))) {
		free(c);
		return NULL;
	}
	c->o = *o;
	c->out = out;
	c->w.e = c->e;
	c->w.o = &c->o;
	emit_set_redact(c->e, o->red);
	pd_timeline_init(&c->tl);
	emit_obj_begin(c->e, NULL);
	emit_str(c->e, "displayTimeUnit", "ns");
	emit_arr_begin(c->e, "traceEvents");
	return c;
}

static void worker_fini(struct fmt_chrome_worker *w)
{
	free(w->frames);
	pd_hindex_free(&w->fx);
	arena_free(&w->a);
	free(w->b.p);
}

void fmt_chrome_free(struct fmt_chrome *c)
{
	if (!c)
		return;
	emit_free(c->e); /* not finished: the output is thrown away */
	pd_timeline_free(&c->tl);
	worker_fini(&c->w);
	free(c);
}

uint64_t fmt_chrome_untimed(const struct fmt_chrome *c)
{
	return c->untimed;
}

/* ---- the samples ------------------------------------------------------ */

/* pid and tid as the format's numbers (perf's -1 as -1) */
static void emit_ids(struct emitter *e, uint32_t pid, uint32_t tid)
{
	emit_s64(e, "pid", (int32_t)pid);
	emit_s64(e, "tid", (int32_t)tid);
}

/* Does frame i of f show the calls inlined at it (folded's rule)? */
static bool shows_inlined(const struct fmt_chrome_worker *w,
			  const struct pd_frames *f, uint32_t i)
{
	return f->v[i].ninl && (w->o->inlines == FOLDED_INL_ALL ||
				(w->o->inlines == FOLDED_INL_UNWOUND &&
				 i >= f->n - f->unwound));
}

/* "SYM+0xOFF (DSO)" as perf script prints a frame, the DSO's path as
 * --redact shows a path, into w->b; false: out of memory */
static bool frame_str(struct fmt_chrome_worker *w,
		      const struct pd_stack_frame *fr)
{
	const char *dso = fr->dso ? fr->dso : "[unknown]";
	size_t n = strlen(dso);
	char off[24];

	w->b.len = 0;
	if (fr->sym) {
		strbuf_put(&w->b, fr->sym, strlen(fr->sym));
		snprintf(off, sizeof(off), "+0x%" PRIx64, fr->symoff);
		strbuf_put(&w->b, off, strlen(off));
	} else {
		strbuf_put(&w->b, "[unknown]", 9);
	}
	if (w->o->red && fr->dso)
		redact_str(w->o->red, PRIV_PATH, dso, n, &dso, &n);
	strbuf_put(&w->b, " (", 2);
	strbuf_put(&w->b, dso, n);
	strbuf_put(&w->b, ")", 1);
	return !w->b.oom;
}

/* A frame's string: made once for its DSO and address (the same DSO
 * file and address: the same symbol); NULL: out of memory */
static const struct chrome_frame *frame_of(struct fmt_chrome_worker *w,
					   const struct pd_stack_frame *fr)
{
	uint32_t dso = fr->dso ? fr->dso_index : UINT32_MAX;
	uint64_t rel = fr->dso ? fr->rel : 0;
	/* a multiply-xorshift mix (the index probes by the low bits) */
	uint64_t m = (rel ^ ((uint64_t)dso << 40)) * 0x9e3779b97f4a7c15ull;
	uint32_t h = (uint32_t)((m ^ (m >> 29)) >> 16), pos = 0, id;
	struct chrome_frame *cf;

	while ((id = pd_hindex_next(&w->fx, h, &pos)) != PD_HINDEX_NONE)
		if (w->frames[id].dso == dso && w->frames[id].rel == rel)
			return &w->frames[id];
	if (!frame_str(w, fr) || !pd_grow((void **)&w->frames, w->nframes,
					  &w->capf, sizeof(*w->frames)))
		return NULL;
	cf = &w->frames[w->nframes];
	*cf = (struct chrome_frame){dso, rel, NULL, w->b.len};
	if (!(cf->s = arena_memdup(&w->a, w->b.p, w->b.len + 1)) ||
	    pd_hindex_add(&w->fx, h, w->nframes) < 0)
		return NULL;
	w->nframes++;
	return cf;
}

static void emit_frame(struct fmt_chrome_worker *w,
		       const struct pd_stack_frame *fr)
{
	const struct chrome_frame *cf = frame_of(w, fr);

	if (cf)
		emit_bytes_str(w->e, NULL, cf->s, cf->n);
	else
		w->oom = true;
}

/* "stack": the frames outermost first, each followed by the calls
 * inlined at it, outermost first; context markers left out */
static void emit_stack(struct fmt_chrome_worker *w, const struct pd_frames *f)
{
	emit_arr_begin(w->e, "stack");
	for (uint32_t i = f->n; i-- > 0;) {
		const struct pd_stack_frame *fr = &f->v[i];

		if (fr->marker)
			continue;
		emit_frame(w, fr);
		for (uint32_t k = shows_inlined(w, f, i) ? fr->ninl : 0;
		     k-- > 0;) {
			w->b.len = 0;
			const char *s = fr->inl[k].sym ? fr->inl[k].sym : "??";

			strbuf_put(&w->b, s, strlen(s));
			strbuf_put(&w->b, " (inlined)", 10);
			if (!w->b.oom)
				emit_str(w->e, NULL, w->b.p);
		}
	}
	emit_arr_end(w->e);
}

/* The name of a sample: its leaf frame's (the innermost call inlined
 * there, when shown), [DSO base name] without a symbol, [unknown]. */
static void emit_leaf(struct fmt_chrome_worker *w, const struct pd_frames *f)
{
	for (uint32_t i = 0; i < f->n; i++) {
		const struct pd_stack_frame *fr = &f->v[i];
		const char *base;

		if (fr->marker)
			continue;
		if (shows_inlined(w, f, i) && fr->inl[0].sym) {
			emit_str(w->e, "name", fr->inl[0].sym);
		} else if (fr->sym) {
			emit_str(w->e, "name", fr->sym);
		} else if (fr->dso) {
			base = strrchr(fr->dso, '/');
			emit_strf(w->e, "name", "[%s]",
				  base ? base + 1 : fr->dso);
		} else {
			break;
		}
		return;
	}
	emit_str(w->e, "name", "[unknown]");
}

/* Is the sample's format sched:sched_switch, with prev_pid and next_pid
 * (their indices in *prev and *next)? */
static bool sched_switch(struct fmt_chrome_worker *w,
			 const struct pd_tp_sample *t, uint32_t *prev,
			 uint32_t *next)
{
	const struct pd_tp_event *ev = t->ev;

	if (!ev || !t->v || !ev->full_name ||
	    strcmp(ev->full_name, "sched:sched_switch"))
		return false;
	if (ev != w->sw) {
		w->sw = ev;
		w->sw_prev = w->sw_next = UINT32_MAX;
		for (uint32_t i = 0; i < ev->nfields; i++)
			if (!strcmp(ev->fields[i].name, "prev_pid"))
				w->sw_prev = i;
			else if (!strcmp(ev->fields[i].name, "next_pid"))
				w->sw_next = i;
	}
	*prev = w->sw_prev;
	*next = w->sw_next;
	return *prev != UINT32_MAX && *next != UINT32_MAX && t->v[*prev].ok &&
	       t->v[*next].ok;
}

/* A sched_switch of a sample: on which CPU, when, from which thread to
 * which */
struct chrome_switch {
	uint32_t cpu, pid, tid, next_tid;
	uint64_t time;
	bool idle;
};

/* Is the record a sched_switch sample a timeline takes (*sw: its)? */
static bool switch_of(struct fmt_chrome_worker *w, const struct pd_event *ev,
		      const struct pd_decoded *d, struct chrome_switch *sw)
{
	const struct pd_sample_id *id = &d->smp.common;
	uint32_t prev, next;

	if (ev->type != PD_REC_SAMPLE || d->smp.no_attr || !d->evsel ||
	    d->evsel->attr.type != PD_TYPE_TRACEPOINT || !id->has_cpu ||
	    !id->has_tid || !id->has_time ||
	    !sched_switch(w, &d->smp.tp, &prev, &next))
		return false;
	*sw = (struct chrome_switch){.cpu = id->cpu,
				     .pid = id->pid,
				     .tid = id->tid,
				     .next_tid = (uint32_t)d->smp.tp.v[next].u,
				     .time = id->time,
				     .idle = d->smp.tp.v[prev].u == 0};
	return true;
}

/* The switch into tl: does it end a run slice (*sl)? */
static bool apply_switch(struct pd_timeline *tl, const struct chrome_switch *sw,
			 struct pd_tl_slice *sl)
{
	return pd_timeline_switch(tl, sw->cpu, sw->time, sw->pid, sw->tid,
				  sw->idle, sw->next_tid, sl);
}

void fmt_chrome_state(struct fmt_chrome *c, const struct pd_event *ev,
		      const struct pd_decoded *d)
{
	struct chrome_switch sw;

	c->slice_due = false;
	if (switch_of(&c->w, ev, d, &sw))
		c->slice_due = apply_switch(&c->tl, &sw, &c->slice);
}

/* A run slice its sched_switch ended, named comm */
static void emit_slice(struct emitter *e, const struct pd_tl_slice *sl,
		       const char *comm)
{
	emit_obj_begin(e, NULL);
	emit_str(e, "ph", "X");
	emit_fixed(e, "ts", sl->start, 3);
	emit_fixed(e, "dur", sl->end - sl->start, 3);
	emit_ids(e, sl->pid, sl->tid);
	emit_private_opt(e, "name", PRIV_COMM, comm ? comm : "");
	emit_str(e, "cat", "sched");
	emit_obj_begin(e, "args");
	emit_u64(e, "cpu", sl->cpu);
	emit_obj_end(e);
	emit_obj_end(e);
}

/* A sample (with time) as an instant event, into w->e */
static void emit_instant(struct fmt_chrome_worker *w,
			 const struct pd_decoded *d, const struct pd_frames *f)
{
	const struct pd_sample *smp = &d->smp;
	const struct pd_sample_id *id = &smp->common;
	bool tp = d->evsel->attr.type == PD_TYPE_TRACEPOINT && smp->tp.ev;
	struct emitter *e = w->e;
	char label[32];

	emit_obj_begin(e, NULL);
	emit_str(e, "ph", "i");
	emit_fixed(e, "ts", id->time, 3);
	emit_ids(e, id->has_tid ? id->pid : UINT32_MAX,
		 id->has_tid ? id->tid : UINT32_MAX);
	emit_str(e, "s", "t");
	if (tp)
		emit_str(e, "name", smp->tp.ev->full_name);
	else
		emit_leaf(w, f);
	emit_str(e, "cat", pd_evsel_label(d->evsel, label, sizeof(label)));
	emit_obj_begin(e, "args");
	if (id->has_cpu)
		emit_u64(e, "cpu", id->cpu);
	emit_u64(e, "period",
		 smp->decoded_type & PD_SAMPLE_PERIOD
			 ? smp->period
			 : d->evsel->attr.sample_period);
	if (tp)
		emit_tp_sample(e, &smp->tp);
	emit_stack(w, f);
	emit_obj_end(e);
	emit_obj_end(e);
}

/* The sample's thread, named as it was then, into tl */
static bool name_thread(struct pd_timeline *tl, const struct pd_decoded *d,
			const struct pd_frames *f)
{
	const struct pd_sample_id *id = &d->smp.common;

	return pd_timeline_thread(tl, id->has_tid ? id->pid : UINT32_MAX,
				  id->has_tid ? id->tid : UINT32_MAX,
				  f->comm) == 0;
}

void fmt_chrome_sample(struct fmt_chrome *c, const struct pd_event *ev,
		       const struct pd_decoded *d, const struct pd_frames *f)
{
	(void)ev;
	if (!d->smp.common.has_time) {
		c->untimed++;
		return;
	}
	if (!name_thread(&c->tl, d, f))
		c->oom = true;
	emit_instant(&c->w, d, f);
	if (c->slice_due)
		emit_slice(c->e, &c->slice, f->comm);
	c->slice_due = false;
}

/* ---- on several threads ----------------------------------------------- */

/* A sched_switch a batch met, and where its sample's event ends in the
 * batch's output */
struct chrome_mark {
	struct chrome_switch sw;
	size_t pos;
	const char *comm; /* the sample's thread's name (NULL: none) */
};

struct fmt_chrome_batch {
	struct emitter *e;     /* a fork of the writer's */
	struct pd_timeline tl; /* the threads its samples named */
	struct chrome_mark *marks;
	uint32_t nmarks, capm;
	struct arena a; /* the marks' names */
	uint64_t untimed;
	bool oom;
};

struct fmt_chrome_worker *fmt_chrome_worker_new(const struct fmt_chrome *c)
{
	struct fmt_chrome_worker *w = calloc(1, sizeof(*w));

	if (w)
		w->o = &c->o;
	return w;
}

void fmt_chrome_worker_free(struct fmt_chrome *c, struct fmt_chrome_worker *w)
{
	if (!w)
		return;
	c->oom |= w->oom;
	worker_fini(w);
	free(w);
}

struct fmt_chrome_batch *fmt_chrome_batch_new(const struct fmt_chrome *c)
{
	struct fmt_chrome_batch *b = calloc(1, sizeof(*b));

	if (b && !(b->e = emit_fork(c->e))) {
		free(b);
		return NULL;
	}
	if (b)
		pd_timeline_init(&b->tl);
	return b;
}

void fmt_chrome_batch_free(struct fmt_chrome_batch *b)
{
	if (!b)
		return;
	emit_fork_free(b->e);
	pd_timeline_free(&b->tl);
	free(b->marks);
	arena_free(&b->a);
	free(b);
}

void fmt_chrome_batch_sample(struct fmt_chrome_batch *b,
			     struct fmt_chrome_worker *w,
			     const struct pd_event *ev,
			     const struct pd_decoded *d,
			     const struct pd_frames *f)
{
	struct chrome_switch sw;
	struct chrome_mark *m;

	if (!d->smp.common.has_time) {
		b->untimed++;
		return;
	}
	if (!name_thread(&b->tl, d, f))
		b->oom = true;
	w->e = b->e;
	emit_instant(w, d, f);
	if (!switch_of(w, ev, d, &sw))
		return;
	if (!pd_grow((void **)&b->marks, b->nmarks, &b->capm,
		     sizeof(*b->marks))) {
		b->oom = true;
		return;
	}
	m = &b->marks[b->nmarks++];
	*m = (struct chrome_mark){sw, emit_fork_pos(b->e), NULL};
	if (f->comm &&
	    !(m->comm = arena_memdup(&b->a, f->comm, strlen(f->comm) + 1)))
		b->oom = true;
}

void fmt_chrome_batch_flush(struct fmt_chrome *c, struct fmt_chrome_batch *b)
{
	struct pd_tl_slice sl;

	for (uint32_t i = 0; i < b->nmarks; i++) {
		const struct chrome_mark *m = &b->marks[i];

		if (!apply_switch(&c->tl, &m->sw, &sl))
			continue;
		emit_join_upto(c->e, b->e, m->pos);
		emit_slice(c->e, &sl, m->comm);
	}
	emit_join(c->e, b->e);
	for (uint32_t i = 0; i < b->tl.nthreads; i++) {
		const struct pd_tl_thread *t = &b->tl.threads[i];

		if (pd_timeline_thread(&c->tl, t->pid, t->tid,
				       t->named ? t->comm : NULL) < 0)
			c->oom = true;
	}
	c->untimed += b->untimed;
	c->oom |= b->oom || b->tl.oom;
	pd_timeline_free(&b->tl);
	b->nmarks = 0;
	arena_reset(&b->a);
	b->untimed = 0;
	b->oom = false;
}

/* ---- the metadata ----------------------------------------------------- */

static int by_ids(const void *a, const void *b)
{
	const struct pd_tl_thread *x = *(const struct pd_tl_thread *const *)a;
	const struct pd_tl_thread *y = *(const struct pd_tl_thread *const *)b;
	int32_t xp = (int32_t)x->pid, yp = (int32_t)y->pid;
	int32_t xt = (int32_t)x->tid, yt = (int32_t)y->tid;

	if (xp != yp)
		return xp < yp ? -1 : 1;
	return xt < yt ? -1 : xt > yt;
}

/* {"ph":"M","pid":P,"tid":T,"name":what,"args":{"name":name}} */
static void emit_meta(struct emitter *e, const char *what, uint32_t pid,
		      uint32_t tid, const char *name)
{
	emit_obj_begin(e, NULL);
	emit_str(e, "ph", "M");
	emit_ids(e, pid, tid);
	emit_str(e, "name", what);
	emit_obj_begin(e, "args");
	emit_private_opt(e, "name", PRIV_COMM, name);
	emit_obj_end(e);
	emit_obj_end(e);
}

/* process_name of each pid, thread_name of each thread */
static int emit_names(struct fmt_chrome *c)
{
	const struct pd_tl_thread **v;
	uint32_t n = c->tl.nthreads;

	if (!n)
		return 0;
	if (!(v = malloc(n * sizeof(*v))))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		v[i] = &c->tl.threads[i];
	qsort(v, n, sizeof(*v), by_ids);
	for (uint32_t i = 0, j; i < n; i = j) {
		const char *pname = v[i]->comm;

		for (j = i; j < n && v[j]->pid == v[i]->pid; j++)
			if (v[j]->tid == v[j]->pid)
				pname = v[j]->comm;
		if (*pname)
			emit_meta(c->e, "process_name", v[i]->pid, v[i]->pid,
				  pname);
		for (uint32_t k = i; k < j; k++)
			if (*v[k]->comm)
				emit_meta(c->e, "thread_name", v[k]->pid,
					  v[k]->tid, v[k]->comm);
	}
	free(v);
	return 0;
}

int fmt_chrome_finish(struct fmt_chrome *c)
{
	int rc = emit_names(c);

	emit_arr_end(c->e);
	emit_obj_begin(c->e, "otherData");
	emit_str(c->e, "exporter", "perfdump");
	emit_private_opt(c->e, "file", PRIV_PATH, c->o.file);
	emit_obj_end(c->e);
	emit_obj_end(c->e);
	if (!emit_free(c->e)) /* flushed */
		rc = -1;
	c->e = NULL;
	return rc < 0 || c->oom || c->w.oom || c->tl.oom ? -1 : 0;
}
