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

#include "features.h"
#include "reader.h"
#include "record.h"
#include "session_int.h"

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
static void pipe_tracing(struct pd_session *s, struct pd_reader *rd,
			 const struct pd_event *r)
{
	uint8_t *tmp = NULL;
	size_t cap = 0;
	uint64_t got;
	uint64_t poff = r->offset + r->size;

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
	pd_reader_read_payload(rd, &tmp, &cap, &got);
	const uint8_t *b =
		tmp ? arena_memdup(&s->arena, tmp, (size_t)got) : NULL;
	free(tmp);
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

/* The walk's state across records. */
struct pipe_walk {
	struct pd_reader *rd;
	bool seen_attr;
	/*
	 * The feature HEADER_BUILD_ID records add to: an index, as s->feat
	 * moves when features are added.
	 */
	size_t buildids;
};

/* PERF_RECORD_HEADER_BUILD_ID: one entry (its layout includes the header) */
static void pipe_buildid(struct pd_session *s, struct pipe_walk *w,
			 const struct pd_event *r)
{
	struct pd_feature *f;
	const uint8_t *b;

	if (w->buildids == SIZE_MAX) {
		if (!sess_add_feature(s, HEADER_BUILD_ID,
				      PD_FSRC_BUILDID_RECORDS))
			return;
		w->buildids = s->nfeat - 1;
	}
	f = &s->feat[w->buildids];
	b = arena_memdup(&s->arena, r->p, r->size);
	if (b)
		sess_add_part(s, f, r->offset, r->size, b, r->size, r->offset);
}

/* One record of the stream: kept if it is metadata. */
static void pipe_record(struct pd_session *s, struct pipe_walk *w,
			const struct pd_event *r)
{
	struct pd_pipe_info *pi = &s->pipe;
	unsigned legacy =
		pd_legacy_feature(pi->legacy_google, w->seen_attr, r->type);

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
		w->seen_attr = true;
		pi->nattrs++;
		keep_record(s, &s->pipe_attrs, &s->npipe_attrs, r);
		break;
	case PD_REC_EVENT_UPDATE:
		keep_record(s, &s->pipe_updates, &s->npipe_updates, r);
		break;
	case PD_REC_HEADER_FEATURE: pipe_feature(s, r); break;
	case PD_REC_HEADER_TRACING_DATA: pipe_tracing(s, w->rd, r); break;
	case PD_REC_HEADER_BUILD_ID: pipe_buildid(s, w, r); break;
	default: break;
	}
}

void sess_walk_pipe(struct pd_session *s)
{
	struct pipe_walk w = {.buildids = SIZE_MAX};
	struct pd_reader_stats rs;
	struct pd_event r;
	struct pd_pipe_info *pi = &s->pipe;
	int rc;

	/* containers are left as they are: metadata is never inside them */
	w.rd = pd_reader_open_input(&s->in, PD_PIPE_HEADER_SIZE, UINT64_MAX,
				    s->swap, &s->diags, "pipe stream",
				    PD_AT_PIPE,
				    PD_READ_NO_DECOMPRESS | PD_READ_FAST);
	if (!w.rd)
		return;
	while ((rc = pd_reader_next(w.rd, &r)) == 1) {
		pi->nrecords++;
		if (r.type < PD_REC_USER_START && !pi->first_event_off)
			pi->first_event_off = r.offset;
		if (pi->nrecords == 1 && legacy_google_start(s, &r)) {
			pi->legacy_google = true;
			pd_reader_set_legacy_google(w.rd, true);
		}
		pipe_record(s, &w, &r);
	}
	pd_reader_stats(w.rd, &rs);
	pi->bytes = rs.stop_offset;
	pi->complete = rc == 0 && rs.stopped_clean;
	pd_reader_close(w.rd);
}

void sess_list_dir(struct pd_session *s, const char *dirpath)
{
	DIR *d = opendir(dirpath);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat;
		char path[4096];
		struct pd_dir_file *v;

		if (strncmp(de->d_name, "data.", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		struct pd_input tmp;

		if (pd_input_open(&tmp, path) < 0 || !tmp.seekable) {
			if (tmp.fd >= 0)
				pd_input_close(&tmp);
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
	}
	closedir(d);
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
