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
 *     process_finished_round).  A record whose time is
 *     below the last flushed time ("last_flush") arrives too late and is
 *     processed out of order ("Warning: Timestamp below last timeslice
 *     flush").  Records with time 0 or none are not queued by perf and
 *     are not checked.  Each stream (data section, pipe, data.N) is
 *     checked on its own, as perf orders each one;
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
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "features.h"
#include "order.h"
#include "reader.h"
#include "record.h"
#include "sample.h"
#include "session.h"

#define REC_SAMPLE	   9
#define REC_FINISHED_ROUND 68
#define REC_EVENT_UPDATE   78
#define REC_FINISHED_INIT  82

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
	uint64_t stream_end[1]; /* the main stream: end of the last record */
	uint64_t dir_end;	/* the current data.N file: the same */
	uint64_t dir_covered;	/* the data.N files: bytes of whole records */
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
	if (ev->type == REC_FINISHED_ROUND) {
		pd_flush_round(c, ev->offset);
		return;
	}
	if (ev->type == REC_FINISHED_INIT) { /* everything is flushed */
		pd_flush_init(c, ev->offset);
		return;
	}
	if (!has_time || !(late = pd_flush_time(c, t)))
		return;

	char what[64], detail[256];
	struct pd_check_value v[3] = {
		{"time", t, false},
		{"last_flush", c->last_flush, false},
		{"finished_round_offset", c->flush_offset, true},
	};

	record_what(ev, what, sizeof(what));
	snprintf(detail, sizeof(detail),
		 "time %llu is %llu ns before %llu, the last time perf flushed "
		 "at the FINISHED_ROUND at 0x%llx: perf processes it out of "
		 "order",
		 (unsigned long long)t, (unsigned long long)late,
		 (unsigned long long)c->last_flush,
		 (unsigned long long)c->flush_offset);
	own(w, PD_C_TIME_BACKWARDS_ACROSS_ROUND, PD_AT_RECORD(ev->type), PD_ERR,
	    ev->offset, what, detail, 3, v);
}

/* Does the only attr list ids, and is id not one of them? */
static bool foreign_to_single(const struct pd_session *s, uint64_t id)
{
	const struct pd_evlist *l = &s->evlist;

	return l->n == 1 && l->nids && id && !pd_evlist_find(s, id);
}

static void check_event(struct walk *w, const struct pd_event *ev)
{
	struct pd_session *s = w->s;
	const struct pd_evsel *evsel = NULL;
	struct pd_decoded d;
	struct pd_where at = PD_AT_RECORD(ev->type);
	char what[64], detail[256];
	uint64_t rid = 0, t = 0;
	bool has_time = false;

	w->nrecords++;
	if (!ev->compressed && ev->stream < 0) {
		uint64_t end = ev->offset + ev->size + ev->payload;

		if (end > w->stream_end[0])
			w->stream_end[0] = end;
	} else if (!ev->compressed) {
		uint64_t end = ev->offset + ev->size + ev->payload;

		if (ev->stream != w->stream) {
			w->dir_covered += w->dir_end;
			w->dir_end = 0;
		}
		if (end > w->dir_end)
			w->dir_end = end;
	}
	record_what(ev, what, sizeof(what));
	arena_reset(&w->scratch);

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
	if (ev->type >= 1 && ev->type < 64 && ev->size % 8) {
		struct pd_check_value v[1] = {{"size", ev->size, false}};

		snprintf(detail, sizeof(detail),
			 "size %u is not a multiple of 8: the kernel writes "
			 "u64-aligned records",
			 ev->size);
		own(w, PD_C_RECORD_MISALIGNED, at, PD_ERR, ev->offset, what,
		    detail, 1, v);
	}

	/* the lib reports a record too small for its trailer itself */
	pd_decode_event(s, ev, &w->scratch, &d);
	evsel = d.evsel;
	rid = d.rid;
	if (ev->type == REC_SAMPLE) {
		const struct pd_sample *smp = &d.smp;

		if (evsel && !smp->damaged) {
			has_time = smp->common.has_time;
			t = smp->common.time;
			rid = smp->common.has_id ? smp->common.id : rid;
		}
		if (evsel && smp->common.has_id &&
		    foreign_to_single(s, smp->common.id)) {
			struct pd_check_value v[1] = {
				{"id", smp->common.id, true}};

			snprintf(detail, sizeof(detail),
				 "id 0x%llx is not among the ids of the only "
				 "attr; perf takes the sample as that attr's",
				 (unsigned long long)smp->common.id);
			own(w, PD_C_UNKNOWN_SAMPLE_ID, at, PD_WARN, ev->offset,
			    what, detail, 1, v);
		}
	} else if (ev->type < 64 && ev->type != 0) {
		if (!evsel && rid && s->evlist.n) {
			struct pd_check_value v[1] = {{"id", rid, true}};

			snprintf(detail, sizeof(detail),
				 "sample_id id 0x%llx belongs to no attr: perf "
				 "cannot parse the record's sample_id",
				 (unsigned long long)rid);
			own(w, PD_C_UNKNOWN_SAMPLE_ID, at, PD_ERR, ev->offset,
			    what, detail, 1, v);
		}
		has_time = d.id.has_time;
		t = d.id.time;
		if (evsel && d.id.has_id && foreign_to_single(s, d.id.id)) {
			struct pd_check_value v[1] = {{"id", d.id.id, true}};

			snprintf(detail, sizeof(detail),
				 "sample_id id 0x%llx is not among the ids of "
				 "the only attr; perf takes the record as that "
				 "attr's",
				 (unsigned long long)d.id.id);
			own(w, PD_C_UNKNOWN_SAMPLE_ID, at, PD_WARN, ev->offset,
			    what, detail, 1, v);
		}
	}
	check_time(w, ev, has_time, t);
}

static void walk_records(struct walk *w)
{
	struct pd_session *s = w->s;
	struct pd_reader *r;
	struct pd_reader_stats st;
	struct pd_event ev;

	r = pd_reader_open(
		s,
		PD_READ_FAST | (s->mode == PD_MODE_DIR ? PD_READ_DATA_N : 0));
	if (!r) {
		w->oom = true;
		return;
	}
	w->stream = -1;
	while (pd_reader_next(r, &ev) == 1)
		check_event(w, &ev);
	w->dir_covered += w->dir_end;
	pd_reader_stats(r, &st);
	/* the containers are records of the file too */
	w->c->records_checked = w->nrecords + st.compressed_records;
	pd_reader_close(r);
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

struct span {
	uint64_t start, end;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

static void span_add(struct spans *sp, uint64_t off, uint64_t size,
		     uint64_t fsize)
{
	uint64_t end;

	if (!size || off >= fsize)
		return;
	if (__builtin_add_overflow(off, size, &end) || end > fsize)
		end = fsize;
	if (sp->n == sp->cap) {
		size_t cap = sp->cap ? sp->cap * 2 : 64;
		struct span *v = realloc(sp->v, cap * sizeof(*v));

		if (!v)
			return;
		sp->v = v;
		sp->cap = cap;
	}
	sp->v[sp->n++] = (struct span){off, end};
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* Are the bytes [off, end) all zero?  (false on a read error) */
static bool all_zero(struct pd_session *s, uint64_t off, uint64_t end,
		     uint64_t *first_nonzero)
{
	uint8_t buf[65536];

	while (off < end) {
		size_t want = end - off < sizeof(buf) ? (size_t)(end - off)
						      : sizeof(buf);
		ssize_t got = pd_input_pread(&s->in, off, buf, want);

		if (got <= 0)
			return false;
		for (ssize_t i = 0; i < got; i++)
			if (buf[i]) {
				*first_nonzero = off + (uint64_t)i;
				return false;
			}
		off += (uint64_t)got;
	}
	return true;
}

static void report_gap(struct walk *w, uint64_t start, uint64_t end,
		       bool trailing)
{
	uint64_t nz = start;
	bool zero = all_zero(w->s, start, end, &nz);
	enum pd_code code =
		trailing ? (zero ? PD_C_TRAILING_PADDING : PD_C_TRAILING_BYTES)
			 : (zero ? PD_C_UNREFERENCED_PADDING
				 : PD_C_UNREFERENCED_BYTES);
	char detail[256];
	struct pd_check_value v[3] = {
		{"start", start, true},
		{"end", end, true},
		{"size", end - start, false},
	};

	snprintf(detail, sizeof(detail),
		 "%llu %sbytes 0x%llx-0x%llx belong to no section, record or "
		 "table%s",
		 (unsigned long long)(end - start), zero ? "zero " : "",
		 (unsigned long long)start, (unsigned long long)end,
		 trailing ? " (after the last one)" : "");
	if (!zero && nz != start)
		snprintf(detail + strlen(detail),
			 sizeof(detail) - strlen(detail),
			 "; the first non-zero byte is at 0x%llx",
			 (unsigned long long)nz);
	/* no reader looks at them: nothing is lost, so a warning */
	own(w, code, PD_AT_FILE, PD_WARN, start, "file", detail, 3, v);
}

/*
 * The feature table, and the zero entries perf leaves after it: perf
 * reserves one entry per bit set before writing the sections, and clears
 * the bit of a feature whose writer fails (header.c perf_header__adds_write)
 * without giving back its entry.  Whole entries of size 0 between the
 * table and the next structure are that slack, part of the table.
 */
static void add_feature_table(struct walk *w, struct spans *sp)
{
	const struct pd_header *h = &w->s->hdr;
	uint64_t fsize = w->s->in.size, start = h->feat_table_off, end,
		 next = fsize;
	unsigned n = 0;

	for (int i = 0; i < 4; i++)
		n += (unsigned)__builtin_popcountll(h->features[i]);
	end = start + 16ULL * n;
	if (start >= fsize || end < start)
		return;
	for (size_t i = 0; i < sp->n; i++)
		if (sp->v[i].start >= end && sp->v[i].start < next)
			next = sp->v[i].start;
	/* entries of size 0 (perf 3.x left the offset of the failed one) */
	while (end + 16 <= next && end + 16 <= fsize && n++ < PD_FEAT_BITS) {
		uint8_t e[16];
		uint64_t size;

		if (pd_input_pread(&w->s->in, end, e, 16) != 16)
			break;
		size = pd_get64(e + 8, w->s->swap);
		if (size)
			break;
		end += 16;
	}
	span_add(sp, start, end - start, fsize);
}

/* File mode: which bytes belong to a structure, and the gaps. */
static void check_coverage(struct walk *w)
{
	struct pd_session *s = w->s;
	const struct pd_header *h = &s->hdr;
	uint64_t fsize = s->in.size, pos = 0;
	struct spans sp = {0};

	w->c->file_size = fsize;
	if (s->mode == PD_MODE_PIPE) {
		/* the stream is all records: covered up to where it ends */
		w->c->bytes_covered = w->stream_end[0] > PD_PIPE_HEADER_SIZE
					      ? w->stream_end[0]
					      : PD_PIPE_HEADER_SIZE;
		if (w->c->bytes_covered > fsize)
			w->c->bytes_covered = fsize;
		return;
	}
	if (!s->header_ok) {
		w->c->bytes_covered = h->raw_len < fsize ? h->raw_len : fsize;
		return;
	}
	span_add(&sp, 0, h->size, fsize);
	span_add(&sp, h->attrs.offset, h->attrs.size, fsize);
	span_add(&sp, h->event_types.offset, h->event_types.size, fsize);
	for (uint32_t i = 0; i < s->evlist.n; i++)
		span_add(&sp, s->evlist.v[i].ids_offset,
			 8ULL * s->evlist.v[i].nids, fsize);
	/* data.size 0: the records run to where the reader stopped */
	if (h->data.size)
		span_add(&sp, h->data.offset, h->data.size, fsize);
	else if (w->stream_end[0] > h->data.offset)
		span_add(&sp, h->data.offset, w->stream_end[0] - h->data.offset,
			 fsize);
	for (size_t i = 0; i < s->nfeat; i++)
		for (size_t k = 0; k < s->feat[i].nparts; k++)
			span_add(&sp, s->feat[i].parts[k].offset,
				 s->feat[i].parts[k].size, fsize);
	if (h->has_bitmap && h->data.size)
		add_feature_table(w, &sp);
	if (sp.n)
		qsort(sp.v, sp.n, sizeof(*sp.v), cmp_span);
	/*
	 * An attr that could not be read hides where its ids are: gaps are
	 * then not reported (the damage that hid them is).
	 */
	bool attrs_known =
		h->attr_size && s->evlist.n >= h->attrs.size / h->attr_size;

	for (size_t i = 0; i < sp.n; i++) {
		if (sp.v[i].start > pos && attrs_known)
			report_gap(w, pos, sp.v[i].start, false);
		if (sp.v[i].end > pos) {
			w->c->bytes_covered +=
				sp.v[i].end -
				(sp.v[i].start > pos ? sp.v[i].start : pos);
			pos = sp.v[i].end;
		}
	}
	/*
	 * data.size 0 with a torn end: the bytes the reader could not use
	 * were reported by it; they are not "trailing" on top.
	 */
	if (pos < fsize && (h->data.size || w->stream_end[0] == 0))
		report_gap(w, pos, fsize, true);
	free(sp.v);
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
	check_coverage(&w);
	for (size_t i = 0; i < s->ndir; i++)
		c->file_size += s->dir[i].size;
	c->bytes_covered += w.dir_covered;
	build_findings(s, c, w.nrecords);
	arena_free(&w.scratch);
	return w.oom || (s->diags.n && !c->v) ? -1 : 0;
}

void pd_check_free(struct pd_check *c)
{
	free(c->v);
	free(c->notes);
	pd_diags_free(&c->diags);
	memset(c, 0, sizeof(*c));
}
