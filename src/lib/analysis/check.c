// SPDX-License-Identifier: MIT
/*
 * perfdump check (see check.h).
 *
 * Most anomalies are found by the readers themselves and land in
 * s->diags (session.c section checks, session_feat.c and the feature
 * decoders, stream.c and reader.c framing and zstd problems, record.c and
 * sample.c field checks, evlist.c attr checks).  check runs all of them
 * and turns each diagnostic into a finding: the stable code (codes.h) and
 * the structure it concerns were given where the diagnostic was raised,
 * never read from its text.  What no reader can see alone is checked here:
 *
 *   - time order across FINISHED_ROUND: perf queues records and, at each
 *     FINISHED_ROUND, flushes those up to the largest time seen before the
 *     previous round (tools/perf/util/ordered-events.c, session.c
 *     process_finished_round; the rule is pd_flush_clock in order.h).  A
 *     record whose time is below the time of the last record flushed
 *     ("last_flush") arrives too late and is processed out of order
 *     ("Warning: N out of order events recorded"): a warning, counted
 *     in the summary, since perf reads the file.  Records with time 0,
 *     ~0 or none are not queued by perf and are not checked.  Each stream
 *     (data section, pipe, data.N) is checked on its own, as perf orders
 *     each one;
 *   - non-sample records whose sample_id names an id of no attr;
 *   - kernel records (types 1..63) whose size is not a multiple of 8
 *     (the kernel writes u64-aligned records);
 *   - record types nobody defines (a newer perf: a warning);
 *   - feature bits nobody defines (a warning; shown as hex by features);
 *   - bytes of a file-mode recording that belong to no structure: gaps
 *     between the header, sections, ids arrays, data, feature table and
 *     feature sections, and bytes after the last of them.  perf never
 *     reads them, so these are warnings; all-zero ones are padding.
 */
#include "lib/analysis/check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/account.h"
#include "lib/session/event.h"
#include "lib/session/evlist.h"
#include "lib/format/features.h"
#include "lib/session/order.h"
#include "lib/session/record.h"
#include "lib/session/sample.h"
#include "lib/session/session.h"
#include "lib/tracepoint/tracepoint.h"
#include "lib/session/walk.h"

/* A diagnostic check added itself: its values, by diag index. */
struct pd_check_note {
	size_t idx;
	struct pd_check_value values[PD_CHECK_MAX_VALUES];
	unsigned nvalues;
};

/* ----------------------------------------------------------- structure */

/* "header", "attrs[1]", "feature HOSTNAME", "record SAMPLE", "data", ... */
static void structure_name(const struct pd_where *w, char *out, size_t len)
{
	const char *name;

	switch (w->kind) {
	case PD_IN_FILE: snprintf(out, len, "file"); break;
	case PD_IN_HEADER: snprintf(out, len, "header"); break;
	case PD_IN_ATTRS: snprintf(out, len, "attrs"); break;
	case PD_IN_ATTR: snprintf(out, len, "attrs[%u]", w->id); break;
	case PD_IN_FEAT_TABLE: snprintf(out, len, "feature table"); break;
	case PD_IN_FEATURE:
		if ((name = pd_feat_name(w->id)))
			snprintf(out, len, "feature %s", name);
		else
			snprintf(out, len, "feature %u", w->id);
		break;
	case PD_IN_RECORD:
		if ((name = pd_record_type_name(w->id)))
			snprintf(out, len, "record %s", name);
		else
			snprintf(out, len, "record %u", w->id);
		break;
	case PD_IN_LEGACY_RECORD:
		snprintf(out, len, "record legacy feature %u", w->id);
		break;
	case PD_IN_FRAMING: snprintf(out, len, "record"); break;
	case PD_IN_DATA: snprintf(out, len, "data"); break;
	case PD_IN_PIPE: snprintf(out, len, "pipe"); break;
	case PD_IN_NAMED:
		snprintf(out, len, "%s", w->name ? w->name : "file");
		break;
	}
}

/* --------------------------------------------------- check's own diags */

struct walk {
	struct pd_session *s;
	struct pd_check *c;
	struct arena scratch;
	/* time order, for the current stream */
	int stream;
	struct pd_flush_clock clock;
	uint64_t nrecords;
	struct pd_data_ends ends; /* where each stream's whole records end */
	bool backward;		  /* an event written backwards (--overwrite) */
	bool oom;
};

static void note_values(struct pd_check_note *n, unsigned nv,
			const struct pd_check_value *v)
{
	n->nvalues = nv < PD_CHECK_MAX_VALUES ? nv : PD_CHECK_MAX_VALUES;
	memcpy(n->values, v, n->nvalues * sizeof(*v));
}

/*
 * Add a diagnostic of check's own and remember its values.  The detail is
 * formatted by the caller (buf).
 */
static void own(struct walk *w, enum pd_code code, struct pd_where at,
		enum pd_sev sev, uint64_t off, const char *what,
		const char *detail, unsigned nv, const struct pd_check_value *v)
{
	struct pd_check *c = w->c;
	struct pd_diags *d = &w->s->diags;
	size_t before = d->n;

	pd_diag_add(d, code, at, sev, off, what, "%s", detail);
	if (d->n == before)
		return; /* a duplicate, or the list is full */
	if (c->nnotes == c->notes_cap) {
		size_t cap = c->notes_cap ? c->notes_cap * 2 : 16;
		struct pd_check_note *nv2 =
			realloc(c->notes, cap * sizeof(*nv2));

		if (!nv2) {
			w->oom = true;
			return;
		}
		c->notes = nv2;
		c->notes_cap = cap;
	}
	struct pd_check_note *n = &c->notes[c->nnotes++];

	memset(n, 0, sizeof(*n));
	n->idx = d->n - 1;
	note_values(n, nv, v);
}

static void record_what(const struct pd_event *ev, char *what, size_t wl)
{
	const char *tn = pd_record_type_name(ev->type);

	if (tn)
		snprintf(what, wl, "PERF_RECORD_%s", tn);
	else
		snprintf(what, wl, "record type %u", ev->type);
}

/* The two-round rule (see the top of this file). */
static void check_time(struct walk *w, const struct pd_event *ev, bool has_time,
		       uint64_t t)
{
	struct pd_flush_clock *c = &w->clock;
	uint64_t late;

	if (ev->stream != w->stream) { /* a new stream: ordered on its own */
		w->stream = ev->stream;
		*c = (struct pd_flush_clock){0};
	}
	if (ev->type == PD_REC_FINISHED_ROUND) {
		pd_flush_round(c, ev->offset);
		return;
	}
	if (!has_time || !pd_flush_queues(t) || !(late = pd_flush_time(c, t)))
		return;

	char what[64], detail[256];
	struct pd_check_value v[4] = {
		{"time", t, false},
		{"last_flush", c->last_flush, false},
		{"late_ns", late, false},
		{"finished_round_offset", c->flush_offset, true},
	};

	/* perf's nr_unordered_events: "N out of order events recorded" */
	w->c->out_of_order++;
	if (late > w->c->max_late_ns) {
		w->c->max_late_ns = late;
		w->c->max_late_offset = ev->offset;
	}
	record_what(ev, what, sizeof(what));
	snprintf(detail, sizeof(detail),
		 "time %llu is %llu ns before %llu, the last time perf flushed "
		 "at the FINISHED_ROUND at 0x%llx: perf processes it out of "
		 "order%s",
		 (unsigned long long)t, (unsigned long long)late,
		 (unsigned long long)c->last_flush,
		 (unsigned long long)c->flush_offset,
		 /* session.c: perf_session__warn_order */
		 w->backward ? " (an event is written backwards, perf record "
			       "--overwrite: perf expects this and does not "
			       "warn)"
			     : "");
	/* perf reads on: a warning */
	own(w, PD_C_TIME_BACKWARDS_ACROSS_ROUND, PD_AT_RECORD(ev->type),
	    PD_WARN, ev->offset, what, detail, 4, v);
}

/* Does the only attr list ids, and is id not one of them? */
static bool foreign_to_single(const struct pd_session *s, uint64_t id)
{
	const struct pd_evlist *l = &s->evlist;

	return l->n == 1 && l->nids && id && !pd_evlist_find(s, id);
}

/* Flag a record type no one defines and a kernel record not u64-aligned. */
static void check_type_size(struct walk *w, const struct pd_event *ev,
			    const char *what)
{
	struct pd_where at = PD_AT_RECORD(ev->type);
	char detail[256];

	if (!pd_record_type_name(ev->type) && !ev->legacy_feature) {
		struct pd_check_value v[2] = {{"type", ev->type, false},
					      {"size", ev->size, false}};

		snprintf(detail, sizeof(detail),
			 "record type %u is not one perf or simpleperf defines "
			 "(a newer perf?); its %u bytes are skipped",
			 ev->type, ev->size);
		own(w, PD_C_UNKNOWN_RECORD_TYPE, at, PD_WARN, ev->offset, what,
		    detail, 2, v);
	}
	if (ev->type != 0 && ev->type < PD_REC_USER_START && ev->size % 8) {
		struct pd_check_value v[1] = {{"size", ev->size, false}};

		snprintf(detail, sizeof(detail),
			 "size %u is not a multiple of 8: the kernel writes "
			 "u64-aligned records",
			 ev->size);
		own(w, PD_C_RECORD_MISALIGNED, at, PD_ERR, ev->offset, what,
		    detail, 1, v);
	}
}

/* A sample's time, and a warning if its id is foreign to the only attr. */
static void check_sample_id(struct walk *w, const struct pd_event *ev,
			    const struct pd_decoded *d, const char *what,
			    bool *has_time, uint64_t *t)
{
	const struct pd_sample *smp = &d->smp;
	char detail[256];

	if (d->evsel && !smp->damaged) {
		*has_time = smp->common.has_time;
		*t = smp->common.time;
	}
	if (d->evsel) { /* too short, or too long with no unknown bits */
		bool unknown = smp->unknown_type ||
			       (smp->sample_type & PD_SAMPLE_READ &&
				d->evsel->attr.read_format &
					~(uint64_t)(PD_FORMAT_MAX - 1));

		pd_check_tally_sample(w->c, w->s,
				      (uint32_t)(d->evsel - w->s->evlist.v), ev,
				      smp->damaged || (smp->left && !unknown));
	}
	if (d->evsel && smp->common.has_id &&
	    foreign_to_single(w->s, smp->common.id)) {
		struct pd_check_value v[1] = {{"id", smp->common.id, true}};

		snprintf(detail, sizeof(detail),
			 "id 0x%llx is not among the ids of the only "
			 "attr; perf takes the sample as that attr's",
			 (unsigned long long)smp->common.id);
		own(w, PD_C_UNKNOWN_SAMPLE_ID, PD_AT_RECORD(ev->type), PD_WARN,
		    ev->offset, what, detail, 1, v);
	}
}

/* A kernel record's sample_id: its time; an id of no attr or a foreign one. */
static void check_record_id(struct walk *w, const struct pd_event *ev,
			    const struct pd_decoded *d, const char *what,
			    bool *has_time, uint64_t *t)
{
	struct pd_session *s = w->s;
	struct pd_where at = PD_AT_RECORD(ev->type);
	char detail[256];

	if (!d->evsel && d->rid && s->evlist.n) {
		struct pd_check_value v[1] = {{"id", d->rid, true}};

		snprintf(detail, sizeof(detail),
			 "sample_id id 0x%llx belongs to no attr: perf "
			 "cannot parse the record's sample_id",
			 (unsigned long long)d->rid);
		own(w, PD_C_UNKNOWN_SAMPLE_ID, at, PD_ERR, ev->offset, what,
		    detail, 1, v);
	}
	*has_time = d->id.has_time;
	*t = d->id.time;
	if (d->evsel && d->id.has_id && foreign_to_single(s, d->id.id)) {
		struct pd_check_value v[1] = {{"id", d->id.id, true}};

		snprintf(detail, sizeof(detail),
			 "sample_id id 0x%llx is not among the ids of "
			 "the only attr; perf takes the record as that "
			 "attr's",
			 (unsigned long long)d->id.id);
		own(w, PD_C_UNKNOWN_SAMPLE_ID, at, PD_WARN, ev->offset, what,
		    detail, 1, v);
	}
}

/* Check one record: extent, type and size, ids, then the round rule. */
static void check_event(struct walk *w, const struct pd_event *ev)
{
	struct pd_decoded d;
	char what[64];
	uint64_t t = 0;
	bool has_time = false;

	w->nrecords++;
	record_what(ev, what, sizeof(what));
	arena_reset(&w->scratch);
	check_type_size(w, ev, what);

	/* the lib reports a record too small for its trailer itself */
	/* tracepoint fields outside RAW; no print output */
	pd_decode_event(w->s, ev, &w->scratch, PD_TP_FIELDS, &d);
	if (ev->type == PD_REC_SAMPLE)
		check_sample_id(w, ev, &d, what, &has_time, &t);
	else if (ev->type < PD_REC_USER_START && ev->type != 0)
		check_record_id(w, ev, &d, what, &has_time, &t);
	check_time(w, ev, has_time, t);
}

static bool visit(void *arg, const struct pd_event *ev)
{
	check_event(arg, ev);
	return true;
}

static void end(void *arg, struct pd_walk_end *e)
{
	struct walk *w = arg;

	w->ends = e->ends;
	w->oom |= !e->ends_ok;
	/* the containers are records of the file too */
	w->c->records_checked = w->nrecords + e->rs.compressed_records;
}

static void walk_records(struct walk *w)
{
	static const struct pd_visitor v = {.event = visit, .end = end};
	struct pd_session *s = w->s;
	struct pd_walk_opts o = {
		.flags = s->mode == PD_MODE_DIR ? PD_WALK_DATA_N : 0};

	w->stream = -1;
	for (uint32_t i = 0; i < s->evlist.n; i++)
		w->backward |=
			!!(s->evlist.v[i].attr.flags & PD_ATTR_WRITE_BACKWARD);
	if (pd_walk(s, &o, &v, w) < 0)
		w->oom = true;
}

static void check_unknown_features(struct walk *w)
{
	struct pd_session *s = w->s;

	for (size_t i = 0; i < s->nfeat; i++) {
		const struct pd_feature *f = &s->feat[i];
		char detail[200];
		uint64_t off;

		if (pd_feat_ops(f->id))
			continue;
		struct pd_check_value v[2] = {
			{"bit", f->id, false},
			{"size", f->nparts ? f->parts[0].size : 0, false}};

		snprintf(detail, sizeof(detail),
			 "feature bit %u is not one perf or simpleperf "
			 "defines; its %llu bytes are not decoded",
			 f->id, (unsigned long long)v[1].v);
		off = f->src == PD_FSRC_SECTION ? f->table_entry_off
		      : f->nparts		? f->parts[0].rec_offset
						: PD_NO_OFFSET;
		own(w, PD_C_UNKNOWN_FEATURE, PD_AT_FEATURE(f->id), PD_WARN, off,
		    "feature section table", detail, 2, v);
	}
}

/* ------------------------------------------------------------ coverage */

static void report_gap(struct walk *w, const struct pd_region *g)
{
	uint64_t start = g->offset, end = g->offset + g->size;
	enum pd_code code = g->trailing ? (g->zero ? PD_C_TRAILING_PADDING
						   : PD_C_TRAILING_BYTES)
					: (g->zero ? PD_C_UNREFERENCED_PADDING
						   : PD_C_UNREFERENCED_BYTES);
	char detail[256];
	struct pd_check_value v[3] = {
		{"start", start, true},
		{"end", end, true},
		{"size", g->size, false},
	};

	snprintf(detail, sizeof(detail),
		 "%llu %sbytes 0x%llx-0x%llx belong to no section, record or "
		 "table%s",
		 (unsigned long long)g->size, g->zero ? "zero " : "",
		 (unsigned long long)start, (unsigned long long)end,
		 g->trailing ? " (after the last one)" : "");
	if (!g->zero && g->first_nonzero != start)
		snprintf(detail + strlen(detail),
			 sizeof(detail) - strlen(detail),
			 "; the first non-zero byte is at 0x%llx",
			 (unsigned long long)g->first_nonzero);
	/* no reader looks at them: nothing is lost, so a warning */
	own(w, code, PD_AT_FILE, PD_WARN, start, "file", detail, 3, v);
}

/* File mode: the gaps of the byte account (account.h) as findings. */
static void check_coverage(struct walk *w)
{
	struct pd_session *s = w->s;
	const struct pd_header *h = &s->hdr;
	struct pd_byte_account ba;

	if (pd_byte_account(s, &w->ends, true, &ba) < 0) {
		w->oom = true;
		return;
	}
	w->c->file_size = ba.file_size;
	w->c->bytes_covered = ba.covered;
	/* a header that could not be read: its damage is the finding */
	if (s->mode != PD_MODE_PIPE && !s->header_ok) {
		pd_byte_account_free(&ba);
		return;
	}
	/*
	 * An attr that could not be read hides where its ids are: gaps are
	 * then not reported (the damage that hid them is).
	 */
	bool attrs_known =
		h->attr_size && s->evlist.n >= h->attrs.size / h->attr_size;

	for (uint64_t i = 0; i < ba.nall_gaps; i++) {
		const struct pd_region *g = &ba.gaps[i];

		/* the reader says where a stream ends, and what it lost */
		if (s->mode == PD_MODE_PIPE || g->file)
			continue;
		/*
		 * data.size 0 with a torn end: the bytes the reader could not
		 * use were reported by it; they are not "trailing" on top.
		 */
		if (g->trailing ? h->data.size || w->ends.main == 0
				: attrs_known)
			report_gap(w, g);
	}
	pd_byte_account_free(&ba);
}

/* ------------------------------------------------------------ findings */

static const struct pd_check_note *find_note(const struct pd_check *c,
					     size_t idx)
{
	/* notes are in diag order: binary search */
	size_t lo = 0, hi = c->nnotes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->notes[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nnotes && c->notes[lo].idx == idx ? &c->notes[lo] : NULL;
}

static void build_findings(struct pd_session *s, struct pd_check *c,
			   uint64_t nrecords)
{
	const struct pd_diags *d = &s->diags;
	size_t kept_err = 0;

	c->v = d->n ? calloc(d->n, sizeof(*c->v)) : NULL;
	if (d->n && !c->v)
		return;
	for (size_t i = 0; i < d->n; i++) {
		const struct pd_diag *g = &d->v[i];
		const struct pd_check_note *note = find_note(c, i);
		struct pd_finding *f = &c->v[c->n++];

		if (g->sev == PD_ERR)
			kept_err++;
		enum pd_code code = g->code;

		f->sev = g->sev;
		/* what perf refuses is an error here, whatever the parser said */
		if (pd_codes[code].flags & PD_CODE_RAISE)
			f->sev = pd_codes[code].sev;
		f->offset = g->offset;
		f->what = g->what ? g->what : "";
		f->message = g->detail ? g->detail : "";
		structure_name(&g->where, f->structure, sizeof(f->structure));
		if (note) {
			memcpy(f->values, note->values,
			       note->nvalues * sizeof(note->values[0]));
			f->nvalues = note->nvalues;
		} else if (code == PD_C_DATA_SIZE_ZERO) {
			f->values[0] = (struct pd_check_value){
				"data_offset", s->hdr.data.offset, true};
			f->values[1] = (struct pd_check_value){"records",
							       nrecords, false};
			f->nvalues = 2;
			if (nrecords)
				code = PD_C_DATA_SIZE_ZERO_WITH_RECORDS;
		}
		f->ecode = code;
		f->code = pd_codes[code].name;
		if (f->sev == PD_ERR)
			c->nerr++;
		else
			c->nwarn++;
		pd_diag_add(&c->diags, code, g->where, f->sev, f->offset,
			    f->what, "%s", f->message);
	}
	/* the ones not kept, with the parser's severity */
	c->dropped = d->dropped;
	c->nerr += d->nerr - kept_err;
	c->nwarn += d->nwarn - (d->n - kept_err);
	c->diags.nerr = c->nerr;
	c->diags.nwarn = c->nwarn;
	c->diags.dropped = c->dropped;
}

int pd_check_run(struct pd_session *s, struct pd_check *c)
{
	struct walk w = {.s = s, .c = c};

	memset(c, 0, sizeof(*c));
	pd_decode_features(s);
	pd_evlist_load(s);
	check_unknown_features(&w);
	if (s->header_ok || s->mode == PD_MODE_PIPE)
		walk_records(&w);
	if (s->pipe.live) /* features that came after the first event */
		pd_decode_features(s);
	check_coverage(&w);
	build_findings(s, c, w.nrecords);
	arena_free(&w.scratch);
	pd_data_ends_free(&w.ends);
	if (pd_check_explain(s, c) < 0)
		w.oom = true;
	return w.oom || (s->diags.n && !c->v) ? -1 : 0;
}

void pd_check_free(struct pd_check *c)
{
	free(c->v);
	free(c->notes);
	free(c->groups);
	free(c->tally);
	pd_diags_free(&c->diags);
	memset(c, 0, sizeof(*c));
}
