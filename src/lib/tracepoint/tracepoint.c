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
#include "lib/tracepoint/tracepoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/format/feat_meta.h"
#include "lib/tracepoint/tracepoint_int.h"

static const char *arena_cstr(struct arena *a, const char *p, size_t n)
{
	char *s = arena_alloc(a, n + 1);

	if (s && n)
		memcpy(s, p, n);
	return s;
}

/* Where the formats go, and their problems. */
struct tp_in {
	struct arena *a;
	struct pd_diags *d;
};

static void tp_diag(struct tp_in *in, enum pd_code code, enum pd_sev sev,
		    uint64_t off, const struct pd_tp_event *ev, const char *why)
{
	pd_diag_add(in->d, code, PD_AT_FEATURE(HEADER_TRACING_DATA), sev, off,
		    "HEADER_TRACING_DATA", "format of %s:%s (ID %llu): %s",
		    ev->system, ev->name, (unsigned long long)ev->id, why);
}

/* The print fmt of a format whose fields parsed, compiled (ev->prog). */
static void parse_print(struct tp_in *in, struct pd_tp *tp,
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
	else if (!(why = pd_tp_parse_print(in->a, ev, fm->text + pf, n - pf,
					   args)))
		why = pd_tp_compile(in->a, ev, tp->long_size, args);
	free(args);
	ev->print_ok = !why;
	if (!why)
		return;
	snprintf(msg, sizeof(msg),
		 "its print fmt cannot be printed (%s): the fields are "
		 "decoded, the print output is perf's raw form then "
		 "(\"[FAILED TO PARSE] NAME=VALUE ...\")",
		 why);
	tp_diag(in, PD_C_TRACEPOINT_PRINT_FAILED, PD_WARN, fm->offset, ev, msg);
}

/* One format text into the model. */
static void parse_format(struct tp_in *in, struct pd_tp *tp,
			 const struct pd_trace_format *fm,
			 struct pd_tp_event *ev)
{
	const char *why;

	ev->id = fm->id;
	ev->owner = tp;
	ev->offset = fm->offset;
	ev->system = arena_cstr(in->a, fm->system.s, fm->system.len);
	ev->name = arena_cstr(in->a, fm->name.s, fm->name.len);
	ev->full_name = arena_alloc(in->a, fm->system.len + fm->name.len + 2);
	if (!ev->system || !ev->name || !ev->full_name)
		return;
	sprintf((char *)ev->full_name, "%s:%s", ev->system, ev->name);
	ev->print_fmt = pd_tp_print_fmt_line(in->a, fm->text, (size_t)fm->size);
	ev->has_id = fm->has_id;
	if (!fm->has_id || !fm->name.len)
		return; /* feat_tracing.c said so */
	why = pd_tp_parse_fields(in->a, fm->text, (size_t)fm->size,
				 !strcmp(ev->system, "ftrace"), tp->long_size,
				 ev);
	if (why) {
		ev->nfields = ev->ncommon = 0;
		tp_diag(in, PD_C_TRACEPOINT_FORMAT_REJECTED, PD_ERR, fm->offset,
			ev, why);
		return;
	}
	ev->parsed = true;
	parse_print(in, tp, fm, ev);
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

struct pd_tp *pd_tp_parse(struct arena *a, struct pd_diags *d,
			  const struct feat_tracing_data *m)
{
	struct tp_in in = {a, d};
	struct pd_tp *tp;

	if (!m || m->step < PD_TRACE_PARAMS)
		return NULL;
	tp = arena_calloc(a, 1, sizeof(*tp));
	if (!tp)
		return NULL;
	tp->offset = m->offset;
	tp->big_endian = m->endian != 0;
	tp->long_size = m->long_size == 4 ? 4 : 8;
	if (m->step >= PD_TRACE_KALLSYMS)
		parse_kallsyms(a, tp, m->kallsyms_text, m->kallsyms_size);
	tp->events = arena_calloc(a, m->nevents ? m->nevents : 1,
				  sizeof(*tp->events));
	if (tp->events)
		for (size_t i = 0; i < m->nevents; i++)
			parse_format(&in, tp, &m->events[i],
				     &tp->events[tp->nevents++]);
	return tp;
}

void pd_tp_free(struct pd_tp *tp)
{
	/* all in the session's arena: prints keep no buffer of their own
	 * (samples may be decoded on several threads) */
	(void)tp;
}
