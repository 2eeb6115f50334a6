// SPDX-License-Identifier: MIT
/*
 * Tracepoint formats (see tracepoint.h): the tracing data fed to
 * libtraceevent as perf's trace_report() feeds it
 * (tools/perf/util/trace-event-read.c, torvalds/linux 00093b31): the
 * blob's byte order, long size and page size; header_page; the ftrace and
 * event formats; kallsyms, printk formats and saved cmdlines.
 * header_event is not parsed (perf skips it too).
 *
 * libtraceevent parses untrusted text in C, recursively: texts larger
 * than PD_TP_MAX_TEXT, holding control bytes, or whose print args nest
 * deeper than PD_TP_MAX_NEST or chain more than PD_TP_MAX_OPS operators,
 * are not given to it, nor a print fmt naming a field the text does not
 * declare.  Its own logging is silenced; what it rejects becomes a
 * diagnostic with a code.
 */
#include "tracepoint.h"

#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

#include "evsel.h"
#include "features.h"
#include "session.h"
#include "tp_int.h"

static bool host_big_endian(void)
{
	const uint16_t one = 1;
	uint8_t b;

	memcpy(&b, &one, 1);
	return b == 0;
}

/*
 * LeakSanitizer (make SANITIZE=1, the fuzz and mutation builds): libtraceevent
 * 1.7 loses a few bytes of tokens on its error path when a print fmt does
 * not parse (tep_parse_event); its leak, not perfdump's.  The stacks are
 * cut short (make mutate keeps 10 frames, all inside the library), so the
 * library is named, not the function: memory perfdump allocates itself is
 * still checked.  LSan calls this hook; other builds never do.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* ... and says nothing of the leaks it suppressed (stderr stays clean) */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

/* A NUL-terminated copy of n bytes (n bounded by the caller). */
static char *cstr(const char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	if (n)
		memcpy(s, p, n);
	s[n] = 0;
	return s;
}

static const char *arena_cstr(struct arena *a, const char *p, size_t n)
{
	char *s = arena_alloc(a, n + 1);

	if (s && n)
		memcpy(s, p, n);
	return s;
}

/* The element type of an array type: "char" of "__data_loc char[]". */
static bool char_elements(const char *type)
{
	const char *b = strchr(type, '[');
	size_t n = b ? (size_t)(b - type) : strlen(type);

	if (strncmp(type, "__data_loc ", 11) == 0 ||
	    strncmp(type, "__rel_loc ", 10) == 0) {
		size_t k = type[2] == 'd' ? 11 : 10;

		type += k;
		n -= k;
	}
	if (n >= 6 && strncmp(type, "const ", 6) == 0) {
		type += 6;
		n -= 6;
	}
	while (n && type[n - 1] == ' ')
		n--;
	return n == 4 && memcmp(type, "char", 4) == 0;
}

static bool int_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* libtraceevent's view of a field, as a plain model field. */
static void copy_field(struct arena *a, const struct tep_format_field *t,
		       bool common, struct pd_tp_field *f)
{
	unsigned long fl = t->flags;

	f->name = arena_cstr(a, t->name, strlen(t->name));
	f->type = arena_cstr(a, t->type, strlen(t->type));
	f->offset = (uint32_t)t->offset;
	f->size = (uint32_t)t->size;
	f->is_signed = fl & TEP_FIELD_IS_SIGNED;
	f->is_common = common;
	f->rel_loc = fl & TEP_FIELD_IS_RELATIVE;
	f->elem_size = t->elementsize;
	f->count = t->arraylen;
	if (fl & TEP_FIELD_IS_DYNAMIC) {
		f->kind = char_elements(t->type)   ? PD_TP_DLOC_STR
			  : int_size(f->elem_size) ? PD_TP_DLOC_ARRAY
						   : PD_TP_DLOC_STR;
		if (f->size != 4) /* a data_loc is a u32 */
			f->kind = PD_TP_BYTES;
	} else if (fl & TEP_FIELD_IS_ARRAY) {
		f->kind = char_elements(t->type) ? PD_TP_STR
			  : int_size(f->elem_size) && f->elem_size &&
					  f->size / f->elem_size == f->count
				  ? PD_TP_ARRAY
				  : PD_TP_BYTES;
	} else if (!int_size(f->size)) {
		f->kind = PD_TP_BYTES;
	} else if (fl & TEP_FIELD_IS_POINTER) {
		f->kind = PD_TP_PTR;
	} else {
		/* an unsigned type with "long" in it (TEP_FIELD_IS_LONG) is
		 * an address as often as not: perf shows it in hex
		 * (libtraceevent event-parse.c print_field_raw, its unsigned
		 * case; perf's util/data-convert-bt.c
		 * get_tracepoint_field_type, "unsigned long are mostly
		 * pointers").  Signed ones are numbers (print_field_raw's
		 * hex for a 4-byte signed long is not followed: a long
		 * would read differently in a 32- and a 64-bit recording). */
		f->kind = (fl & TEP_FIELD_IS_LONG) && !f->is_signed ? PD_TP_HEX
								    : PD_TP_INT;
	}
}

static void copy_fields(struct arena *a, struct tep_event *te,
			struct pd_tp_event *ev)
{
	uint32_t n = 0, nc = 0;
	struct tep_format_field *t;

	for (t = te->format.common_fields; t; t = t->next)
		nc++;
	n = nc;
	for (t = te->format.fields; t; t = t->next)
		n++;
	ev->fields = arena_calloc(a, n ? n : 1, sizeof(*ev->fields));
	if (!ev->fields)
		return;
	n = 0;
	for (t = te->format.common_fields; t; t = t->next)
		copy_field(a, t, true, &ev->fields[n++]);
	for (t = te->format.fields; t; t = t->next)
		copy_field(a, t, false, &ev->fields[n++]);
	ev->nfields = n;
	ev->ncommon = nc;
}

static void tp_diag(struct pd_session *s, enum pd_code code, enum pd_sev sev,
		    uint64_t off, const struct pd_tp_event *ev, const char *why)
{
	pd_diag_add(&s->diags, code, PD_AT_FEATURE(HEADER_TRACING_DATA), sev,
		    off, "HEADER_TRACING_DATA", "format of %s:%s (ID %llu): %s",
		    ev->system, ev->name, (unsigned long long)ev->id, why);
}

/*
 * How much of the format text libtraceevent may parse: all of it, or the
 * text before its print fmt when that names a field the format does not
 * declare (then only the fields are decoded, and that is said).
 */
static size_t parse_len(struct pd_session *s, const struct pd_tp_event *ev,
			const struct pd_trace_format *fm)
{
	size_t n = (size_t)fm->size, pf = pd_tp_print_fmt_at(fm->text, n), k;
	const char *name = NULL;
	char why[160];

	k = pd_tp_unknown_rec_field(fm->text, n, pf, &name);
	if (k)
		snprintf(why, sizeof(why),
			 "its print fmt reads REC->%.*s, which no field line "
			 "declares: the fields are decoded, the print output "
			 "is not",
			 (int)(k < 64 ? k : 64), name);
	else if (pd_tp_stray_arrow(fm->text, n, pf))
		snprintf(why, sizeof(why),
			 "its print fmt has a -> that does not follow REC, "
			 "which libtraceevent cannot parse safely: the fields "
			 "are decoded, the print output is not");
	else if (pd_tp_divides_by_constant(fm->text, n, pf))
		snprintf(why, sizeof(why),
			 "its print fmt divides by a constant zero, or by a "
			 "parenthesized expression libtraceevent may fold to "
			 "one: the fields are decoded, the print output is "
			 "not");
	else
		return n;
	tp_diag(s, PD_C_TRACEPOINT_PRINT_FAILED, PD_WARN, fm->offset, ev, why);
	return pf;
}

/*
 * What parse_format does with a format: all of it, only libtraceevent's
 * parse (the probe's child, tp_probe.c), or nothing but a diagnostic (a
 * format that killed the probe's child).
 */
enum pf_mode { PF_FULL, PF_PROBE, PF_SKIP };

/* One format text through libtraceevent, into the model. */
static void parse_format(struct pd_session *s, struct pd_tp *tp,
			 const struct pd_trace_format *fm,
			 struct pd_tp_event *ev, enum pf_mode mode)
{
	struct tep_handle *tep = tp->tep;
	const char *why = pd_tp_text_refused(fm->text, (size_t)fm->size);
	struct tep_event *te = NULL;
	char *text, *sys;
	char err[128];
	size_t len;
	int rc;

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
	if (mode == PF_SKIP)
		why = "libtraceevent crashed or hung parsing it (in a child "
		      "process that parses every format first, for at most 5 "
		      "s each): not parsed";
	if (why) {
		tp_diag(s, PD_C_TRACEPOINT_FORMAT_REJECTED, PD_ERR, fm->offset,
			ev, why);
		return;
	}
	text = cstr(fm->text, (size_t)fm->size);
	sys = cstr(ev->system, strlen(ev->system));
	len = parse_len(s, ev, fm);
	rc = text && sys ? (int)tep_parse_event(tep, text, len, sys)
			 : TEP_ERRNO__MEM_ALLOC_FAILED;
	free(text);
	free(sys);
	if (mode == PF_PROBE)
		return;
	if (rc == 0 || rc == TEP_ERRNO__READ_PRINT_FAILED)
		te = tep_find_event(tep, (int)fm->id);
	if (te && (uint64_t)(unsigned)te->id == fm->id &&
	    (uint32_t)(te->format.nr_common + te->format.nr_fields) ==
		    pd_tp_count_field_lines(fm->text, (size_t)fm->size)) {
		ev->parsed = true;
		ev->impl = te;
		copy_fields(&s->arena, te, ev);
		ev->print_ok = !(te->flags & TEP_EVENT_FL_FAILED) &&
			       te->print_fmt.format;
		if (ev->print_ok && (te->flags & TEP_EVENT_FL_ISBPRINT)) {
			/* ftrace:bprint: libtraceevent reads the payload as a
			 * format string found in the data says, unbounded */
			ev->print_ok = false;
			tp_diag(s, PD_C_TRACEPOINT_PRINT_FAILED, PD_WARN,
				fm->offset, ev,
				"a bprint format: its args are laid out by a "
				"format string from the data, which perfdump "
				"does not bound; the fields are decoded, the "
				"print output is not");
		} else if (ev->print_ok) {
			pd_tp_print_prepare(ev);
			/* else libtraceevent's print path prints: a
			 * testing aid, tp_fast.c must print the same */
			if (!s->opts.tp_print_libtraceevent)
				pd_tp_fast_prepare(&s->arena, ev);
		} else if (len == fm->size) /* else parse_len said why */
			tp_diag(s, PD_C_TRACEPOINT_PRINT_FAILED, PD_WARN,
				fm->offset, ev,
				"libtraceevent cannot parse its print fmt: "
				"the fields are decoded, the print output is "
				"not");
	} else {
		if (rc)
			tep_strerror(tep, (enum tep_errno)rc, err, sizeof(err));
		else
			snprintf(err, sizeof(err), "its fields do not parse");
		tp_diag(s, PD_C_TRACEPOINT_FORMAT_REJECTED, PD_ERR, fm->offset,
			ev, err);
	}
}

/* A text libtraceevent reads as a C string: bounded, NUL-terminated. */
static char *blob_text(const char *p, uint64_t n)
{
	if (!p || !n || n > PD_TP_MAX_BLOB)
		return NULL;
	return cstr(p, (size_t)n);
}

/*
 * The printk formats, "ADDR : \"text\"" lines, as perf's
 * parse_ftrace_printk() reads them (trace-event-parse.c): the address in
 * hex before the ':', the text after it and one more character.
 * libtraceevent's tep_register_print_string() reads two bytes before a
 * text shorter than 3 after its opening quote (found by the fuzzer), and
 * tep_parse_printk_formats() hands it every line: such texts are left out.
 */
static void parse_printk(struct tep_handle *tep, char *t)
{
	char *save = NULL;

	for (char *line = strtok_r(t, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *fmt;

		if (!colon || !colon[1])
			continue;
		*colon = 0;
		fmt = colon + 2;
		if (strlen(fmt + (fmt[0] == '"')) < 3)
			continue;
		tep_register_print_string(tep, fmt, strtoull(line, NULL, 16));
	}
}

/* header_page, kallsyms, printk formats, saved cmdlines */
static void parse_extras(struct pd_tp *tp, const struct feat_tracing_data *m)
{
	struct tep_handle *tep = tp->tep;
	char *t;

	if (m->step >= PD_TRACE_HEADER_PAGE &&
	    m->header_page_size <= PD_TP_MAX_TEXT &&
	    (t = blob_text(m->header_page_text, m->header_page_size))) {
		tep_parse_header_page(tep, t,
				      (unsigned long)m->header_page_size,
				      tp->long_size);
		free(t);
	}
	if (m->step >= PD_TRACE_KALLSYMS &&
	    (t = blob_text(m->kallsyms_text, m->kallsyms_size))) {
		tep_parse_kallsyms(tep, t);
		free(t);
	}
	if (m->step >= PD_TRACE_PRINTK &&
	    (t = blob_text(m->printk_text, m->printk_size))) {
		parse_printk(tep, t);
		free(t);
	}
	if (m->step >= PD_TRACE_DONE && m->has_saved_cmdlines &&
	    (t = blob_text(m->saved_cmdlines_text, m->saved_cmdlines_size))) {
		tep_parse_saved_cmdlines(tep, t);
		free(t);
	}
}

static struct pd_tp *tp_new(struct pd_session *s,
			    const struct feat_tracing_data *m, bool extras)
{
	struct pd_tp *tp = arena_calloc(&s->arena, 1, sizeof(*tp));
	struct tep_handle *tep;

	if (!tp)
		return NULL;
	tep_set_loglevel(TEP_LOG_NONE);
	tep = tep_alloc();
	if (!tep)
		return NULL;
	tp->tep = tep;
	tp->offset = m->offset;
	tp->big_endian = m->endian != 0;
	tp->long_size = m->long_size == 4 ? 4 : 8;
	tep_set_flag(tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(tep, tp->big_endian ? TEP_BIG_ENDIAN
						   : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN
						       : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, tp->long_size);
	tep_set_page_size(tep, (int)(m->page_size && m->page_size < (1u << 30)
					     ? m->page_size
					     : 4096));
	if (extras)
		parse_extras(tp, m);
	return tp;
}

void pd_tp_probe_child(struct pd_session *s, const struct feat_tracing_data *m,
		       const uint8_t *run, size_t n, bool extras_bad,
		       void (*step)(int32_t i, void *arg), void *arg)
{
	struct pd_tp_event ev;
	struct pd_tp *tp;

	step(-1, arg);
	tp = tp_new(s, m, !extras_bad);
	for (size_t i = 0; tp && i < n && i < m->nevents; i++) {
		if (!run[i])
			continue;
		step((int32_t)i, arg);
		memset(&ev, 0, sizeof(ev));
		parse_format(s, tp, &m->events[i], &ev, PF_PROBE);
	}
	if (tp)
		tep_free(tp->tep);
}

const struct pd_tp *pd_tp_load(struct pd_session *s,
			       const struct feat_tracing_data *m)
{
	struct pd_tp *tp;
	uint8_t *skip;

	if (!m || m->step < PD_TRACE_PARAMS)
		return NULL;
	for (tp = s->tps; tp; tp = tp->next)
		if (tp->offset == m->offset)
			return tp;
	skip = pd_tp_probe(m);
	tp = tp_new(s, m, !(skip && skip[m->nevents]));
	if (!tp) {
		free(skip);
		return NULL;
	}
	if (skip && skip[m->nevents])
		pd_diag_add(
			&s->diags, PD_C_TRACEPOINT_FORMAT_REJECTED,
			PD_AT_FEATURE(HEADER_TRACING_DATA), PD_ERR, m->offset,
			"HEADER_TRACING_DATA",
			"libtraceevent crashed or hung parsing the header "
			"page, kallsyms, printk formats or saved cmdlines "
			"(in a child process that parses them first, for at "
			"most 5 s): they are not parsed");
	tp->events = arena_calloc(&s->arena, m->nevents ? m->nevents : 1,
				  sizeof(*tp->events));
	if (tp->events)
		for (size_t i = 0; i < m->nevents; i++)
			parse_format(s, tp, &m->events[i],
				     &tp->events[tp->nevents++],
				     skip && skip[i] ? PF_SKIP : PF_FULL);
	free(skip);
	tp->next = s->tps;
	s->tps = tp;
	s->tp_gen++;
	if (s->evlist.loaded)
		pd_tp_name_evsels(s);
	return tp;
}

void pd_tp_free_all(struct pd_session *s)
{
	for (struct pd_tp *tp = s->tps; tp; tp = tp->next) {
		if (tp->seq) {
			trace_seq_destroy(tp->seq);
			free(tp->seq);
		}
		for (uint32_t i = 0; i < tp->nevents; i++)
			free(tp->events[i].bounded);
		free(tp->buf);
		free(tp->out);
		tep_free(tp->tep);
	}
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
