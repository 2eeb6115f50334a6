// SPDX-License-Identifier: MIT
/*
 * Pipe mode (tools/perf/util/header.c: perf_header__write_pipe; the
 * metadata records of tools/perf/util/session.c:
 * perf_session__process_user_event): walk every record of the stream and
 * keep the metadata ones; and the data.N files of a directory recording
 * (tools/perf/util/data.c: perf_data__open_dir).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/session/evlist.h"
#include "lib/format/features.h"
#include "lib/session/record.h"
#include "lib/session/session_int.h"
#include "lib/io/walk_loop.h"

/* Keep a copy of a whole record (bounded by the u16 size). */
static void keep_record(struct pd_session *s, struct pd_part **v, size_t *n,
			const struct pd_event *r)
{
	const uint8_t *b = arena_memdup(&s->arena, r->p, r->size);

	if (!b)
		return;
	if (*n % 16 == 0) {
		struct pd_part *nv =
			arena_calloc(&s->arena, *n + 16, sizeof(*nv));

		if (!nv)
			return;
		if (*n)
			memcpy(nv, *v, *n * sizeof(*nv));
		*v = nv;
	}
	(*v)[(*n)++] = (struct pd_part){.offset = r->offset,
					.size = r->size,
					.bytes = b,
					.loaded = r->size,
					.rec_offset = r->offset};
}

/* PERF_RECORD_HEADER_FEATURE, decoded by pd_header_feature_view */
static void pipe_feature(struct pd_session *s, const struct pd_event *r)
{
	struct pd_pipe_info *pi = &s->pipe;
	struct pd_feature_rec_view fv;

	if (!pd_header_feature_view(r->p, r->size, r->offset, s->swap, &fv)) {
		sess_err(s, PD_C_RECORD_UNDECODABLE,
			 PD_AT_RECORD(PD_REC_HEADER_FEATURE), r->offset,
			 "PERF_RECORD_HEADER_FEATURE",
			 "record of %u bytes has no room for its u64 feat_id",
			 r->size);
		return;
	}
	uint64_t id = fv.feat_id;

	if (fv.end_marker) {
		if (pi->has_end_marker)
			sess_warn(s, PD_C_DUPLICATE_FEATURE,
				  PD_AT_RECORD(PD_REC_HEADER_FEATURE),
				  r->offset, "PERF_RECORD_HEADER_FEATURE",
				  "second end-of-features marker (feat_id "
				  "%llu)",
				  (unsigned long long)id);
		pi->has_end_marker = true;
		pi->end_marker_off = r->offset;
		pi->end_marker_id = id;
		return;
	}
	pi->nfeature_records++;
	if (id >= PD_FEAT_BITS) {
		sess_err(s, PD_C_FEATURE_ID_INVALID,
			 PD_AT_RECORD(PD_REC_HEADER_FEATURE), r->offset + 8,
			 "PERF_RECORD_HEADER_FEATURE",
			 "feat_id %llu is beyond the 256 feature bits",
			 (unsigned long long)id);
		return;
	}
	if (pd_find_feature(s, (unsigned)id))
		sess_warn(s, PD_C_DUPLICATE_FEATURE,
			  PD_AT_RECORD(PD_REC_HEADER_FEATURE), r->offset,
			  "PERF_RECORD_HEADER_FEATURE",
			  "feature %llu appears again; this copy is shown too",
			  (unsigned long long)id);
	struct pd_feature *f =
		sess_add_feature(s, (unsigned)id, PD_FSRC_RECORD);
	const uint8_t *b = arena_memdup(&s->arena, fv.data, fv.size);

	if (f && b)
		sess_add_part(s, f, fv.data_off, fv.size, b, fv.size,
			      r->offset);
}

/* PERF_RECORD_HEADER_TRACING_DATA: the tracing data is its payload. */
static void pipe_tracing(struct pd_session *s, struct pd_walk_loop *rd,
			 const struct pd_event *r)
{
	uint8_t *tmp = NULL;
	size_t cap = 0;
	uint64_t got;
	uint64_t poff = r->offset + r->size;
	const uint8_t *b;

	/* the u32 size is untrusted: load at most 64 MiB */
	if (r->payload > PD_FEAT_MAX_LOAD) {
		sess_err(s, PD_C_SECTION_TOO_LARGE,
			 PD_AT_RECORD(PD_REC_HEADER_TRACING_DATA), poff,
			 "PERF_RECORD_HEADER_TRACING_DATA",
			 "tracing data of %llu bytes is larger than the %llu "
			 "MiB perfdump loads; not decoded",
			 (unsigned long long)r->payload,
			 (unsigned long long)(PD_FEAT_MAX_LOAD >> 20));
		return;
	}
	if (r->payload_bytes) { /* a record reader read it already */
		got = r->payload;
		b = arena_memdup(&s->arena, r->payload_bytes, (size_t)got);
	} else {
		pd_walk_read_payload(rd, &tmp, &cap, &got);
		b = tmp ? arena_memdup(&s->arena, tmp, (size_t)got) : NULL;
		free(tmp);
	}
	struct pd_feature *f = sess_add_feature(s, HEADER_TRACING_DATA,
						PD_FSRC_TRACING_RECORD);
	if (f)
		sess_add_part(s, f, poff, r->payload, b, got, r->offset);
}

/*
 * Pre-upstream Google perf (2012-13) sent the header features as record
 * types 66 + feature id, before HEADER_ATTR.  They collide with ID_INDEX
 * (69), AUXTRACE_INFO (70), ...  The first record of such a stream is the
 * HOSTNAME one: a header string filling the record exactly.
 */
static bool legacy_google_start(const struct pd_session *s,
				const struct pd_event *r)
{
	return r->type == PD_REC_LEGACY_FEATURE_BASE + HEADER_HOSTNAME &&
	       r->size >= 12 &&
	       pd_get32(r->p + 8, s->swap) == (uint32_t)r->size - 12u;
}

/* PERF_RECORD_HEADER_BUILD_ID: one entry (its layout includes the header) */
static void pipe_buildid(struct pd_session *s, const struct pd_event *r)
{
	struct pd_pipe_info *pi = &s->pipe;
	struct pd_feature *f;
	const uint8_t *b;

	if (pi->buildids == SIZE_MAX) {
		if (!sess_add_feature(s, HEADER_BUILD_ID,
				      PD_FSRC_BUILDID_RECORDS))
			return;
		pi->buildids = s->nfeat - 1;
	}
	f = &s->feat[pi->buildids];
	b = arena_memdup(&s->arena, r->p, r->size);
	if (b)
		sess_add_part(s, f, r->offset, r->size, b, r->size, r->offset);
}

/* One record of the stream: kept if it is metadata. */
static void pipe_record(struct pd_session *s, struct pd_walk_loop *rd,
			const struct pd_event *r)
{
	struct pd_pipe_info *pi = &s->pipe;
	unsigned legacy =
		pd_legacy_feature(pi->legacy_google, pi->seen_attr, r->type);

	if (legacy) {
		struct pd_feature *f =
			sess_add_feature(s, legacy, PD_FSRC_LEGACY_RECORD);
		const uint8_t *b =
			arena_memdup(&s->arena, r->p + 8, r->size - 8u);
		if (f && b)
			sess_add_part(s, f, r->offset + 8, r->size - 8u, b,
				      r->size - 8u, r->offset);
		return;
	}
	switch (r->type) {
	case PD_REC_HEADER_ATTR:
		pi->seen_attr = true;
		pi->nattrs++;
		keep_record(s, &s->pipe_attrs, &s->npipe_attrs, r);
		break;
	case PD_REC_EVENT_UPDATE:
		keep_record(s, &s->pipe_updates, &s->npipe_updates, r);
		break;
	case PD_REC_HEADER_FEATURE: pipe_feature(s, r); break;
	case PD_REC_HEADER_TRACING_DATA: pipe_tracing(s, rd, r); break;
	case PD_REC_HEADER_BUILD_ID: pipe_buildid(s, r); break;
	default: break;
	}
}

/* One record of the walk: counted, and kept if it is metadata. */
static void walk_record(struct pd_session *s, struct pd_walk_loop *rd,
			const struct pd_event *r)
{
	struct pd_pipe_info *pi = &s->pipe;

	pi->nrecords++;
	if (r->type < PD_REC_USER_START && !pi->first_event_off)
		pi->first_event_off = r->offset;
	if (pi->nrecords == 1 && legacy_google_start(s, r)) {
		pi->legacy_google = true;
		pd_walk_set_legacy_google(rd, true);
	}
	pipe_record(s, rd, r);
}

/* The input's pipe stream from `from` to its end, read as it is framed. */
static void pipe_src(struct pd_session *s, struct pd_reader_src *src,
		     uint64_t from, struct pd_diags *diags)
{
	*src = (struct pd_reader_src){.in = &s->in,
				      .start = from,
				      .end = UINT64_MAX,
				      .readable = true,
				      .what = "pipe stream",
				      .where = PD_AT_PIPE,
				      .swap = s->swap,
				      .legacy_google = s->pipe.legacy_google,
				      .diags = diags,
				      .ro = &s->opts};
}

struct pipe_walk {
	struct pd_session *s;
	struct pd_walk_loop l;
	bool stopped; /* at the first event */
};

static bool to_end_visit(void *arg, const struct pd_event *r)
{
	struct pipe_walk *pw = arg;

	walk_record(pw->s, &pw->l, r);
	return true;
}

/*
 * Walk the stream from `from` to its end (containers are left as they
 * are: metadata is never inside them); the reader's own findings go to
 * the session.
 */
static void walk_to_end(struct pd_session *s, uint64_t from)
{
	struct pd_reader_stats rs;
	struct pd_reader_src src;
	struct pd_pipe_info *pi = &s->pipe;
	struct pipe_walk pw = {.s = s};
	int rc;

	pipe_src(s, &src, from, &s->diags);
	if (pd_walk_loop_open(&pw.l, &src,
			      PD_READ_NO_DECOMPRESS | PD_READ_FAST) < 0)
		return;
	rc = pd_walk_loop_run(&pw.l, to_end_visit, &pw);
	pd_walk_loop_stats(&pw.l, &rs);
	pi->bytes = rs.stop_offset;
	pi->complete = rc == 0 && rs.stopped_clean;
	pi->walked = rs.stop_offset;
	pd_walk_loop_close(&pw.l);
}

/*
 * Metadata perf writes before the first event (tools/perf/builtin-
 * record.c record__synthesize: attrs, features, tracing data, id index,
 * time conversion, maps): the live walk at open reads these.
 */
static bool before_events(const struct pd_session *s, const struct pd_event *r)
{
	if (pd_legacy_feature(s->pipe.legacy_google, s->pipe.seen_attr,
			      r->type))
		return true;
	switch (r->type) {
	case PD_REC_HEADER_ATTR:
	case PD_REC_HEADER_EVENT_TYPE:
	case PD_REC_HEADER_TRACING_DATA:
	case PD_REC_HEADER_BUILD_ID:
	case PD_REC_ID_INDEX:
	case PD_REC_AUXTRACE_INFO:
	case PD_REC_THREAD_MAP:
	case PD_REC_CPU_MAP:
	case PD_REC_STAT_CONFIG:
	case PD_REC_EVENT_UPDATE:
	case PD_REC_TIME_CONV:
	case PD_REC_HEADER_FEATURE: return true;
	}
	/* a type no perf writes is no event either: the metadata after it
	 * is read as from a file (perf itself stops at it) */
	return pd_rec_ops(r->type) == NULL;
}

/*
 * A live stream: walk its metadata records up to the first event, as
 * perf does before it processes events (tools/perf/util/session.c
 * __perf_session__process_pipe_events reads one stream once).  The bytes
 * read are kept, for the record readers to read again; framing findings
 * are theirs (the readers meet the same bytes), so not added here.
 */
/* The live walk at open: metadata, up to the first event. */
static bool live_visit(void *arg, const struct pd_event *r)
{
	struct pipe_walk *pw = arg;
	struct pd_session *s = pw->s;
	struct pd_pipe_info *pi = &s->pipe;

	if (pi->nrecords > 0 && !before_events(s, r)) {
		pi->walked = r->offset;
		pw->stopped = true;
		return false;
	}
	walk_record(s, &pw->l, r);
	if (!before_events(s, r)) { /* the first record: an event */
		pi->walked = r->offset + r->size + r->payload;
		pw->stopped = true;
		return false;
	}
	return true;
}

void sess_walk_pipe_live(struct pd_session *s)
{
	struct pd_diags quiet = {0};
	struct pd_reader_stats rs;
	struct pd_reader_src src;
	struct pd_pipe_info *pi = &s->pipe;
	struct pipe_walk pw = {.s = s};
	bool opened;
	int rc = -1;

	pi->live = true;
	pi->buildids = SIZE_MAX;
	pi->walked = PD_PIPE_HEADER_SIZE;
	pd_input_keep_start(&s->in);
	pipe_src(s, &src, PD_PIPE_HEADER_SIZE, &quiet);
	opened = pd_walk_loop_open(&pw.l, &src, PD_READ_NO_DECOMPRESS) == 0;
	if (opened)
		rc = pd_walk_loop_run(&pw.l, live_visit, &pw);
	if (opened && !pw.stopped) {
		/* the whole stream: what its reader said is kept for later */
		pd_walk_loop_stats(&pw.l, &rs);
		pi->walked = pi->bytes = rs.stop_offset;
		pi->complete = rc == 0 && rs.stopped_clean;
		pi->ended = true;
		pi->ended_diags = quiet;
	} else {
		pd_diags_free(&quiet);
	}
	pd_walk_loop_close(&pw.l);
	pd_input_keep_stop(&s->in);
	if (s->in.keep_full)
		sess_err(s, PD_C_SECTION_TOO_LARGE, PD_AT_PIPE,
			 s->in.keep_start + s->in.keep_len, "pipe stream",
			 "the metadata records before the first event take "
			 "more than the %zu MiB perfdump keeps of a stream; "
			 "the rest of the stream is not read",
			 PD_INPUT_KEEP_MAX >> 20);
}

void pd_session_read_all(struct pd_session *s)
{
	struct pd_pipe_info *pi = &s->pipe;

	if (!pi->live || pi->drained)
		return;
	pi->drained = true;
	if (!pi->ended) {
		walk_to_end(s, pi->walked);
		return;
	}
	/* the walk at open read it all: its reader's findings are due */
	for (size_t i = 0; i < pi->ended_diags.n; i++) {
		const struct pd_diag *d = &pi->ended_diags.v[i];

		pd_diag_add(&s->diags, d->code, d->where, d->sev, d->offset,
			    d->what, "%s", d->detail);
	}
}

void pd_session_pipe_event(struct pd_session *s, struct pd_walk_loop *rd,
			   const struct pd_event *ev)
{
	struct pd_pipe_info *pi = &s->pipe;

	if (!pi->live || pi->drained || ev->compressed || ev->stream >= 0 ||
	    ev->offset < pi->walked)
		return;
	size_t nfeat = s->nfeat;

	walk_record(s, rd, ev);
	pi->walked = ev->offset + ev->size + ev->payload;
	/* perf takes a feature as it comes (e.g. the tracing data) */
	if (s->nfeat != nfeat && pi->late_deps)
		pd_decode_feature_deps(s);
}

void sess_list_dir(struct pd_session *s, const char *dirpath)
{
	DIR *d = opendir(dirpath);
	struct dirent *de;
	uint64_t total = s->in.size;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[4096];
		struct pd_dir_file *v;

		if (strncmp(de->d_name, "data.", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		struct pd_input tmp;
		unsigned kind;

		if (pd_input_open_regular(&tmp, path, &kind) < 0) {
			/* a FIFO would hang every reader: skipped, said */
			if (kind)
				sess_err(s, PD_C_NOT_REGULAR_FILE,
					 PD_AT_NAMED(de->d_name), PD_NO_OFFSET,
					 de->d_name,
					 "%s is %s, not a regular file: its "
					 "records are not read",
					 path, pd_input_kind(kind));
			continue;
		}
		pd_input_close(&tmp);
		v = realloc(s->dir, (s->ndir + 1) * sizeof(*v));
		if (!v)
			break;
		s->dir = v;
		s->dir[s->ndir].name = strdup(de->d_name);
		s->dir[s->ndir].size = tmp.size;
		s->ndir++;
		total += tmp.size;
	}
	closedir(d);
	pd_input_count_start(s->in.count, total, NULL); /* all the files */
	/* data.0, data.1, ..., data.10: by number, then by name */
	for (size_t i = 1; i < s->ndir; i++) {
		for (size_t j = i; j > 0; j--) {
			struct pd_dir_file *a = &s->dir[j - 1], *b = &s->dir[j];
			unsigned long na = strtoul(a->name + 5, NULL, 10);
			unsigned long nb = strtoul(b->name + 5, NULL, 10);

			if (na < nb ||
			    (na == nb && strcmp(a->name, b->name) <= 0))
				break;
			struct pd_dir_file t = *a;

			*a = *b;
			*b = t;
		}
	}
}
