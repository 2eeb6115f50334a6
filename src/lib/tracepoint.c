// SPDX-License-Identifier: MIT
/*
 * Tracepoint formats (see tracepoint.h): each format text of a tracing
 * data blob parsed once, by perfdump itself, as perf's trace_report()
 * (tools/perf/util/trace-event-read.c, torvalds/linux 00093b31) has
 * libtraceevent parse it: in the blob's byte order and long size; the
 * field lines (tp_format.c), then the print fmt (tp_parse.c, compiled by
 * tp_fast.c); and kallsyms, for %ps.  header_page and header_event are
 * not needed (perf skips header_event too); printk formats and saved
 * cmdlines print nothing perfdump prints.  A format whose field lines do
 * not parse is rejected (an error with a code); one whose print fmt does
 * not parse keeps its fields and prints in perf's raw form (tp_raw.c), a
 * warning with a code says why.
 */
#include "tracepoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evsel.h"
#include "features.h"
#include "session.h"
#include "tracepoint_int.h"

static const char *arena_cstr(struct arena *a, const char *p, size_t n)
{
	char *s = arena_alloc(a, n + 1);

	if (s && n)
		memcpy(s, p, n);
	return s;
}

static void tp_diag(struct pd_session *s, enum pd_code code, enum pd_sev sev,
		    uint64_t off, const struct pd_tp_event *ev, const char *why)
{
	pd_diag_add(&s->diags, code, PD_AT_FEATURE(HEADER_TRACING_DATA), sev,
		    off, "HEADER_TRACING_DATA", "format of %s:%s (ID %llu): %s",
		    ev->system, ev->name, (unsigned long long)ev->id, why);
}

/* The print fmt of a format whose fields parsed, compiled (ev->prog). */
static void parse_print(struct pd_session *s, struct pd_tp *tp,
			const struct pd_trace_format *fm,
			struct pd_tp_event *ev)
{
	size_t n = (size_t)fm->size, pf = pd_tp_print_fmt_at(fm->text, n);
	struct pd_tp_args *args = malloc(sizeof(*args));
	const char *why = NULL;
	char msg[256];

	if (pf == n)
		why = "it has no print fmt";
	else if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "bprint"))
		why = "a bprint format: its args are laid out by a format "
		      "string from the data, which perfdump does not read";
	else if (!args)
		why = "no memory";
	else if (!(why = pd_tp_parse_print(&s->arena, ev, fm->text + pf, n - pf,
					   args)))
		why = pd_tp_compile(&s->arena, ev, tp->long_size, args);
	free(args);
	ev->print_ok = !why;
	if (!why)
		return;
	snprintf(msg, sizeof(msg),
		 "its print fmt cannot be printed (%s): the fields are "
		 "decoded, the print output is perf's raw form then "
		 "(\"[FAILED TO PARSE] NAME=VALUE ...\")",
		 why);
	tp_diag(s, PD_C_TRACEPOINT_PRINT_FAILED, PD_WARN, fm->offset, ev, msg);
}

/* One format text into the model. */
static void parse_format(struct pd_session *s, struct pd_tp *tp,
			 const struct pd_trace_format *fm,
			 struct pd_tp_event *ev)
{
	const char *why;

	ev->id = fm->id;
	ev->owner = tp;
	ev->offset = fm->offset;
	ev->system = arena_cstr(&s->arena, fm->system.s, fm->system.len);
	ev->name = arena_cstr(&s->arena, fm->name.s, fm->name.len);
	ev->full_name =
		arena_alloc(&s->arena, fm->system.len + fm->name.len + 2);
	if (!ev->system || !ev->name || !ev->full_name)
		return;
	sprintf((char *)ev->full_name, "%s:%s", ev->system, ev->name);
	ev->print_fmt =
		pd_tp_print_fmt_line(&s->arena, fm->text, (size_t)fm->size);
	ev->has_id = fm->has_id;
	if (!fm->has_id || !fm->name.len)
		return; /* feat_tracing.c said so */
	why = pd_tp_parse_fields(&s->arena, fm->text, (size_t)fm->size,
				 !strcmp(ev->system, "ftrace"), tp->long_size,
				 ev);
	if (why) {
		ev->nfields = ev->ncommon = 0;
		tp_diag(s, PD_C_TRACEPOINT_FORMAT_REJECTED, PD_ERR, fm->offset,
			ev, why);
		return;
	}
	ev->parsed = true;
	parse_print(s, tp, fm, ev);
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct pd_tp_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * kallsyms, "ADDR TYPE NAME[\t[MODULE]]" lines, as tep_parse_kallsyms()
 * reads them (ARM's mapping symbols $x, $d left out), sorted by address
 * for %ps (tp_fast_print.c find_func).
 */
static void parse_kallsyms(struct arena *a, struct pd_tp *tp, const char *t,
			   uint64_t n)
{
	uint32_t cap = 0, k = 0;

	if (!t || !n || n > PD_TP_MAX_BLOB)
		return;
	for (uint64_t i = 0; i < n; i++)
		cap += t[i] == '\n';
	tp->ksyms = arena_calloc(a, cap + 1, sizeof(*tp->ksyms));
	for (const char *p = t, *e = t + n; tp->ksyms && p < e && k <= cap;) {
		const char *l = memchr(p, '\n', (size_t)(e - p)), *q = p;
		const char *end = l ? l : e, *name;
		uint64_t addr = 0;

		for (; q < end && strchr("0123456789abcdefABCDEF", *q) && *q;
		     q++)
			addr = addr << 4 |
			       (uint64_t)(*q <= '9'   ? *q - '0'
					  : *q <= 'F' ? *q - 'A' + 10
						      : *q - 'a' + 10);
		if (q > p && q + 3 < end && q[0] == ' ' && q[2] == ' ' &&
		    q[3] != '$') {
			name = q + 3;
			for (q = name; q < end && *q != '\t' && *q != ' ' &&
				       *q != '\r' && *q;
			     q++)
				;
			tp->ksyms[k].addr = addr;
			tp->ksyms[k].name =
				arena_cstr(a, name, (size_t)(q - name));
			k += tp->ksyms[k].name != NULL;
		}
		p = end + 1;
	}
	tp->nksyms = k;
	if (k)
		qsort(tp->ksyms, k, sizeof(*tp->ksyms), ksym_cmp);
}

const struct pd_tp *pd_tp_load(struct pd_session *s,
			       const struct feat_tracing_data *m)
{
	struct pd_tp *tp;

	if (!m || m->step < PD_TRACE_PARAMS)
		return NULL;
	for (tp = s->tps; tp; tp = tp->next)
		if (tp->offset == m->offset)
			return tp;
	tp = arena_calloc(&s->arena, 1, sizeof(*tp));
	if (!tp)
		return NULL;
	tp->offset = m->offset;
	tp->big_endian = m->endian != 0;
	tp->long_size = m->long_size == 4 ? 4 : 8;
	if (m->step >= PD_TRACE_KALLSYMS)
		parse_kallsyms(&s->arena, tp, m->kallsyms_text,
			       m->kallsyms_size);
	tp->events = arena_calloc(&s->arena, m->nevents ? m->nevents : 1,
				  sizeof(*tp->events));
	if (tp->events)
		for (size_t i = 0; i < m->nevents; i++)
			parse_format(s, tp, &m->events[i],
				     &tp->events[tp->nevents++]);
	tp->next = s->tps;
	s->tps = tp;
	s->tp_gen++;
	if (s->evlist.loaded)
		pd_tp_name_evsels(s);
	return tp;
}

void pd_tp_free_all(struct pd_session *s)
{
	for (struct pd_tp *tp = s->tps; tp; tp = tp->next)
		free(tp->out);
	s->tps = NULL;
}

/* The format whose ID is id, in the blobs loaded (the newest first). */
static struct pd_tp_event *find_id(struct pd_session *s, uint64_t id,
				   struct pd_tp **in)
{
	for (struct pd_tp *tp = s->tps; tp; tp = tp->next)
		for (uint32_t i = 0; i < tp->nevents; i++)
			if (tp->events[i].id == id && tp->events[i].has_id &&
			    tp->events[i].full_name) {
				*in = tp;
				return &tp->events[i];
			}
	return NULL;
}

/* The session's TRACING_DATA features, loaded (file and pipe mode). */
static void load_features(struct pd_session *s)
{
	for (size_t i = 0; i < s->nfeat; i++) {
		if (s->feat[i].id != HEADER_TRACING_DATA)
			continue;
		pd_decode_feature(s, &s->feat[i]);
		for (const struct feat_tracing_data *m = s->feat[i].model; m;
		     m = m->next)
			pd_tp_load(s, m);
	}
}

void pd_tp_name_evsels(struct pd_session *s)
{
	struct pd_evlist *l = &s->evlist;

	for (uint32_t i = 0; i < l->n; i++) {
		struct pd_evsel *ev = &l->v[i];
		const struct pd_tp_event *t;

		if (ev->name_from || ev->attr.type != PD_TYPE_TRACEPOINT)
			continue;
		t = pd_tp_event_of(s, ev);
		if (t)
			pd_evsel_name(ev, "TRACING_DATA", "%s", t->full_name);
	}
}

const struct pd_tp_event *pd_tp_event_of(struct pd_session *s,
					 const struct pd_evsel *ev)
{
	struct pd_evsel *e = (struct pd_evsel *)ev;
	struct pd_tp *tp;

	if (!ev || ev->attr.type != PD_TYPE_TRACEPOINT)
		return NULL;
	if (!s->tp_features) {
		s->tp_features = true;
		load_features(s);
	}
	if (e->tp_gen != s->tp_gen) { /* another blob came: look again */
		e->tp_gen = s->tp_gen;
		e->tp = find_id(s, ev->attr.config, &tp);
	}
	return e->tp;
}
