// SPDX-License-Identifier: MIT
/* export's formats: folded, pprof and chrome (see export_formats.h). */
#include "export_formats.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/analysis/symbolize.h"
#include "lib/export/pprof.h"
#include "lib/format/perf_abi.h"
#include "lib/session/session.h"
#include "lib/session/walk.h"
#include "fmt/fmt_chrome.h"
#include "fmt/names.h"

/*
 * The event folded counts: the first sample's, in time order, as
 * stackcollapse-perf.pl counts the first event it meets (merging cycles
 * and instructions would mislead); the others are said.
 */
static bool folded_event(struct export_ctx *x, uint32_t *event)
{
	const struct pd_evlist *l = &x->r->s->evlist;
	uint32_t others = 0, max = 0;
	const char *name = "";
	bool *has;

	if (x->st.first_event == PD_STK_NONE)
		return false;
	*event = x->st.first_event;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->v[i].idx >= max)
			max = l->v[i].idx + 1;
	/* the events with samples: one pass over the counts */
	if ((has = calloc(max ? max : 1, sizeof(*has)))) {
		for (uint32_t c = 0; c < x->st.ncounts; c++)
			if (x->st.counts[c].event < max)
				has[x->st.counts[c].event] = true;
		for (uint32_t i = 0; i < l->n; i++)
			if (l->v[i].idx == *event)
				name = l->v[i].name;
			else if (has[l->v[i].idx])
				others++, has[l->v[i].idx] = false;
		free(has);
	}
	if (others && !x->r->o->quiet) {
		/* the name is the recording's: escaped as the text output */
		fprintf(stderr,
			"perfdump: export: %u more event%s samples; folded "
			"counts the first sample's, ",
			others, others > 1 ? "s have" : " has");
		print_escaped(stderr, x->r->o, name);
		fputs(", alone (--event NAME chooses one)\n", stderr);
	}
	return true;
}

static int folded_finish(struct export_ctx *x, FILE *out)
{
	x->folded.event = 0;
	if (!folded_event(x, &x->folded.event)) /* no samples: no lines */
		return 0;
	x->folded.inlines = x->inlines;
	return fmt_folded(out, &x->st, &x->folded);
}

/* pprof (lib/export/pprof.h): the stacks model as pprof's profile, every
 * event's samples and period, gzipped */
static int pprof_finish(struct export_ctx *x, FILE *out)
{
	const struct pd_session *s = x->r->s;
	struct pd_pprof *b = pd_pprof_new(s->evlist.n, true);
	uint8_t *buf = NULL;
	size_t len = 0;
	char label[32];
	int rc = -1;

	if (!b)
		return -1;
	for (uint32_t i = 0; i < s->evlist.n; i++)
		pd_pprof_event(
			b, s->evlist.v[i].idx,
			pd_evsel_label(&s->evlist.v[i], label, sizeof(label)),
			&s->evlist.v[i].attr);
	if (x->st.has_time) /* the profile's duration */
		pd_pprof_span(b, s, x->st.first_time, x->st.last_time);
	/* a write error: the commit says it */
	if (pd_pprof_add_stacks(b, &x->st, x->z, export_wants_lines(x, s)) &&
	    pd_pprof_encode(b, &buf, &len)) {
		fwrite(buf, 1, len, out);
		rc = 0;
	}
	free(buf);
	pd_pprof_free(b);
	return rc;
}

/* chrome (fmt_chrome.h): the samples as they come, the sched_switch
 * slices, the threads' names at the end */
static int chrome_init(struct export_ctx *x)
{
	struct chrome_opts o = {.file = x->r->o->file,
				.red = x->r->o->red,
				.inlines = x->inlines};

	return (x->chrome = fmt_chrome_new(x->out.f, &o)) ? 0 : -1;
}

static void chrome_sample(struct export_ctx *x, const struct pd_event *ev,
			  const struct pd_decoded *d, const struct pd_frames *f)
{
	fmt_chrome_sample(x->chrome, ev, d, f);
}

/* --jobs: chrome's samples rendered on workers (fmt_chrome.h), each
 * worker with a replica of the symbolizer (symbolize.h) */
struct chrome_rep {
	struct pd_symbolizer *z;
	struct fmt_chrome_worker *w;
};

struct chrome_batch {
	struct fmt_chrome_batch *b;
	struct chrome_rep *r; /* the worker running it */
};

static void *chrome_fork(void *arg)
{
	struct export_ctx *x = arg;
	struct chrome_batch *cb = calloc(1, sizeof(*cb));

	if (cb && !(cb->b = fmt_chrome_batch_new(x->chrome))) {
		free(cb);
		return NULL;
	}
	return cb;
}

static void chrome_batch_record(void *ctx, const struct pd_event *ev,
				const struct pd_decoded *d)
{
	struct chrome_batch *cb = ctx;
	struct pd_frames f;

	if (pd_symbolizer_sample_frames(cb->r->z, ev, d, &f))
		fmt_chrome_batch_sample(cb->b, cb->r->w, ev, d, &f);
}

static void chrome_flush(void *arg, void *ctx)
{
	struct export_ctx *x = arg;

	fmt_chrome_batch_flush(x->chrome, ((struct chrome_batch *)ctx)->b);
}

static void chrome_join(void *arg, void *ctx)
{
	struct chrome_batch *cb = ctx;

	(void)arg;
	fmt_chrome_batch_free(cb->b);
	free(cb);
}

static void chrome_unfork(void *arg, void *wctx)
{
	struct export_ctx *x = arg;
	struct chrome_rep *r = wctx;

	pd_symbolizer_free(r->z);
	fmt_chrome_worker_free(x->chrome, r->w);
	free(r);
}

static void *chrome_worker(void *arg)
{
	struct export_ctx *x = arg;
	struct chrome_rep *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->z = pd_symbolizer_fork(x->z);
	r->w = fmt_chrome_worker_new(x->chrome);
	if (!r->z || !r->w) {
		chrome_unfork(x, r);
		return NULL;
	}
	return r;
}

static void chrome_bind(void *wctx, void *ctx, struct pd_session *ws)
{
	struct chrome_rep *r = wctx;

	pd_symbolizer_bind(r->z, ws);
	if (ctx)
		((struct chrome_batch *)ctx)->r = r;
}

static void chrome_state(void *wctx, const struct pd_event *ev,
			 const struct pd_decoded *d)
{
	pd_symbolizer_record(((struct chrome_rep *)wctx)->z, ev, d);
}

static bool chrome_keep(void *arg, const struct pd_diag *g)
{
	struct export_ctx *x = arg;

	return pd_symbolizer_keep(x->z, g);
}

const struct pd_par_visitor export_chrome_par = {
	.fork = chrome_fork,
	.record = chrome_batch_record,
	.flush = chrome_flush,
	.join = chrome_join,
	.worker = chrome_worker,
	.bind = chrome_bind,
	.state = chrome_state,
	.unfork = chrome_unfork,
	.keep = chrome_keep,
	.state_types = PD_SYMBOLIZER_STATE_TYPES,
};

static int chrome_finish(struct export_ctx *x, FILE *out)
{
	uint64_t untimed = fmt_chrome_untimed(x->chrome);

	(void)out;
	if (untimed && !x->r->o->quiet)
		fprintf(stderr,
			"perfdump: export: %" PRIu64 " sample%s without a time "
			"(no PERF_SAMPLE_TIME) left out\n",
			untimed, untimed > 1 ? "s" : "");
	return fmt_chrome_finish(x->chrome);
}

const struct export_format export_formats[EXPORT_NFORMATS] = {
	{"folded", EXPORT_FOLDED, false, NULL, NULL, folded_finish, 0},
	{"pprof", EXPORT_PPROF, true, NULL, NULL, pprof_finish, 0},
	{"chrome", EXPORT_CHROME, false, chrome_init, chrome_sample,
	 chrome_finish, PD_TP_FIELDS | PD_TP_PRINT},
};

bool export_wants_lines(const struct export_ctx *x, const struct pd_session *s)
{
	if (x->inlines != FOLDED_INL_UNWOUND)
		return x->inlines == FOLDED_INL_ALL;
	for (uint32_t i = 0; i < s->evlist.n; i++)
		if (s->evlist.v[i].attr.sample_type & PD_SAMPLE_STACK_USER)
			return true;
	/* a stream read as it arrives may bring its attrs later */
	return s->pipe.live;
}
