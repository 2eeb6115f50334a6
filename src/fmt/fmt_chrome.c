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

struct fmt_chrome {
	struct emitter *e;
	FILE *out;
	struct chrome_opts o;
	struct pd_timeline tl;
	struct strbuf b; /* a frame's string */
	/* the frames' strings made so far (memory: the distinct frames) */
	struct chrome_frame *frames;
	uint32_t nframes, capf;
	struct pd_hindex fx;
	struct arena a;
	uint64_t untimed; /* samples without time, left out */
	bool oom;
	/* the last sched_switch format seen, its prev_pid and next_pid */
	const struct pd_tp_event *sw;
	uint32_t sw_prev, sw_next;
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
	emit_set_redact(c->e, o->red);
	pd_timeline_init(&c->tl);
	emit_obj_begin(c->e, NULL);
	emit_str(c->e, "displayTimeUnit", "ns");
	emit_arr_begin(c->e, "traceEvents");
	return c;
}

void fmt_chrome_free(struct fmt_chrome *c)
{
	if (!c)
		return;
	emit_free(c->e); /* not finished: the output is thrown away */
	pd_timeline_free(&c->tl);
	free(c->frames);
	pd_hindex_free(&c->fx);
	arena_free(&c->a);
	free(c->b.p);
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
static bool shows_inlined(const struct fmt_chrome *c, const struct pd_frames *f,
			  uint32_t i)
{
	return f->v[i].ninl &&
	       (c->o.inlines == FOLDED_INL_ALL ||
		(c->o.inlines == FOLDED_INL_UNWOUND && i >= f->n - f->unwound));
}

/* "SYM+0xOFF (DSO)" as perf script prints a frame, the DSO's path as
 * --redact shows a path, into c->b; false: out of memory */
static bool frame_str(struct fmt_chrome *c, const struct pd_stack_frame *fr)
{
	const char *dso = fr->dso ? fr->dso : "[unknown]";
	size_t n = strlen(dso);
	char off[24];

	c->b.len = 0;
	if (fr->sym) {
		strbuf_put(&c->b, fr->sym, strlen(fr->sym));
		snprintf(off, sizeof(off), "+0x%" PRIx64, fr->symoff);
		strbuf_put(&c->b, off, strlen(off));
	} else {
		strbuf_put(&c->b, "[unknown]", 9);
	}
	if (c->o.red && fr->dso)
		redact_str(c->o.red, PRIV_PATH, dso, n, &dso, &n);
	strbuf_put(&c->b, " (", 2);
	strbuf_put(&c->b, dso, n);
	strbuf_put(&c->b, ")", 1);
	return !c->b.oom;
}

/* A frame's string: made once for its DSO and address (the same DSO
 * file and address: the same symbol); NULL: out of memory */
static const struct chrome_frame *frame_of(struct fmt_chrome *c,
					   const struct pd_stack_frame *fr)
{
	uint32_t dso = fr->dso ? fr->dso_index : UINT32_MAX;
	uint64_t rel = fr->dso ? fr->rel : 0;
	/* a multiply-xorshift mix (the index probes by the low bits) */
	uint64_t m = (rel ^ ((uint64_t)dso << 40)) * 0x9e3779b97f4a7c15ull;
	uint32_t h = (uint32_t)((m ^ (m >> 29)) >> 16), pos = 0, id;
	struct chrome_frame *cf;

	while ((id = pd_hindex_next(&c->fx, h, &pos)) != PD_HINDEX_NONE)
		if (c->frames[id].dso == dso && c->frames[id].rel == rel)
			return &c->frames[id];
	if (!frame_str(c, fr) || !pd_grow((void **)&c->frames, c->nframes,
					  &c->capf, sizeof(*c->frames)))
		return NULL;
	cf = &c->frames[c->nframes];
	*cf = (struct chrome_frame){dso, rel, NULL, c->b.len};
	if (!(cf->s = arena_memdup(&c->a, c->b.p, c->b.len + 1)) ||
	    pd_hindex_add(&c->fx, h, c->nframes) < 0)
		return NULL;
	c->nframes++;
	return cf;
}

static void emit_frame(struct fmt_chrome *c, const struct pd_stack_frame *fr)
{
	const struct chrome_frame *cf = frame_of(c, fr);

	if (cf)
		emit_bytes_str(c->e, NULL, cf->s, cf->n);
	else
		c->oom = true;
}

/* "stack": the frames outermost first, each followed by the calls
 * inlined at it, outermost first; context markers left out */
static void emit_stack(struct fmt_chrome *c, const struct pd_frames *f)
{
	emit_arr_begin(c->e, "stack");
	for (uint32_t i = f->n; i-- > 0;) {
		const struct pd_stack_frame *fr = &f->v[i];

		if (fr->marker)
			continue;
		emit_frame(c, fr);
		for (uint32_t k = shows_inlined(c, f, i) ? fr->ninl : 0;
		     k-- > 0;) {
			c->b.len = 0;
			const char *s = fr->inl[k].sym ? fr->inl[k].sym : "??";

			strbuf_put(&c->b, s, strlen(s));
			strbuf_put(&c->b, " (inlined)", 10);
			if (!c->b.oom)
				emit_str(c->e, NULL, c->b.p);
		}
	}
	emit_arr_end(c->e);
}

/* The name of a sample: its leaf frame's (the innermost call inlined
 * there, when shown), [DSO base name] without a symbol, [unknown]. */
static void emit_leaf(struct fmt_chrome *c, const struct pd_frames *f)
{
	for (uint32_t i = 0; i < f->n; i++) {
		const struct pd_stack_frame *fr = &f->v[i];
		const char *base;

		if (fr->marker)
			continue;
		if (shows_inlined(c, f, i) && fr->inl[0].sym) {
			emit_str(c->e, "name", fr->inl[0].sym);
		} else if (fr->sym) {
			emit_str(c->e, "name", fr->sym);
		} else if (fr->dso) {
			base = strrchr(fr->dso, '/');
			emit_strf(c->e, "name", "[%s]",
				  base ? base + 1 : fr->dso);
		} else {
			break;
		}
		return;
	}
	emit_str(c->e, "name", "[unknown]");
}

/* Is the sample's format sched:sched_switch, with prev_pid and next_pid
 * (their indices in *prev and *next)? */
static bool sched_switch(struct fmt_chrome *c, const struct pd_tp_sample *t,
			 uint32_t *prev, uint32_t *next)
{
	const struct pd_tp_event *ev = t->ev;

	if (!ev || !t->v || !ev->full_name ||
	    strcmp(ev->full_name, "sched:sched_switch"))
		return false;
	if (ev != c->sw) {
		c->sw = ev;
		c->sw_prev = c->sw_next = UINT32_MAX;
		for (uint32_t i = 0; i < ev->nfields; i++)
			if (!strcmp(ev->fields[i].name, "prev_pid"))
				c->sw_prev = i;
			else if (!strcmp(ev->fields[i].name, "next_pid"))
				c->sw_next = i;
	}
	*prev = c->sw_prev;
	*next = c->sw_next;
	return *prev != UINT32_MAX && *next != UINT32_MAX && t->v[*prev].ok &&
	       t->v[*next].ok;
}

void fmt_chrome_state(struct fmt_chrome *c, const struct pd_event *ev,
		      const struct pd_decoded *d)
{
	const struct pd_sample_id *id = &d->smp.common;
	uint32_t prev, next;

	c->slice_due = false;
	if (ev->type != PD_REC_SAMPLE || d->smp.no_attr || !d->evsel ||
	    d->evsel->attr.type != PD_TYPE_TRACEPOINT || !id->has_cpu ||
	    !id->has_tid || !id->has_time ||
	    !sched_switch(c, &d->smp.tp, &prev, &next))
		return;
	c->slice_due =
		pd_timeline_switch(&c->tl, id->cpu, id->time, id->pid, id->tid,
				   d->smp.tp.v[prev].u == 0,
				   (uint32_t)d->smp.tp.v[next].u, &c->slice);
}

/* The slice the sample's sched_switch ended (fmt_chrome_state), if any */
static void emit_slice(struct fmt_chrome *c, const char *comm)
{
	const struct pd_tl_slice *sl = &c->slice;

	if (!c->slice_due)
		return;
	c->slice_due = false;
	emit_obj_begin(c->e, NULL);
	emit_str(c->e, "ph", "X");
	emit_fixed(c->e, "ts", sl->start, 3);
	emit_fixed(c->e, "dur", sl->end - sl->start, 3);
	emit_ids(c->e, sl->pid, sl->tid);
	emit_private_opt(c->e, "name", PRIV_COMM, comm ? comm : "");
	emit_str(c->e, "cat", "sched");
	emit_obj_begin(c->e, "args");
	emit_u64(c->e, "cpu", sl->cpu);
	emit_obj_end(c->e);
	emit_obj_end(c->e);
}

void fmt_chrome_sample(struct fmt_chrome *c, const struct pd_event *ev,
		       const struct pd_decoded *d, const struct pd_frames *f)
{
	const struct pd_sample *smp = &d->smp;
	const struct pd_sample_id *id = &smp->common;
	uint32_t pid = id->has_tid ? id->pid : UINT32_MAX;
	uint32_t tid = id->has_tid ? id->tid : UINT32_MAX;
	bool tp = d->evsel->attr.type == PD_TYPE_TRACEPOINT && smp->tp.ev;
	char label[32];

	(void)ev;
	if (!id->has_time) {
		c->untimed++;
		return;
	}
	if (pd_timeline_thread(&c->tl, pid, tid, f->comm) < 0)
		c->oom = true;
	emit_obj_begin(c->e, NULL);
	emit_str(c->e, "ph", "i");
	emit_fixed(c->e, "ts", id->time, 3);
	emit_ids(c->e, pid, tid);
	emit_str(c->e, "s", "t");
	if (tp)
		emit_str(c->e, "name", smp->tp.ev->full_name);
	else
		emit_leaf(c, f);
	emit_str(c->e, "cat", pd_evsel_label(d->evsel, label, sizeof(label)));
	emit_obj_begin(c->e, "args");
	if (id->has_cpu)
		emit_u64(c->e, "cpu", id->cpu);
	emit_u64(c->e, "period",
		 smp->decoded_type & PD_SAMPLE_PERIOD
			 ? smp->period
			 : d->evsel->attr.sample_period);
	if (tp)
		emit_tp_sample(c->e, &smp->tp);
	emit_stack(c, f);
	emit_obj_end(c->e);
	emit_obj_end(c->e);
	emit_slice(c, f->comm);
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
	return rc < 0 || c->oom || c->tl.oom ? -1 : 0;
}
