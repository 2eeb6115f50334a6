// SPDX-License-Identifier: MIT
/*
 * The record stream (see reader.h): the sources of a recording, the
 * framing of the file's records, payloads, and the cursor the inline
 * pd_reader_take_fast frames from.  Decompression is in reader_z.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/io/reader_int.h"

/* The caller's read-ahead choice over the walk's flags (read_opts.h). */
static unsigned effective_flags(unsigned flags, const struct pd_read_opts *ro)
{
	if (ro->ahead == PD_READAHEAD_NEVER)
		flags &= ~(unsigned)PD_READ_FAST;
	else if (ro->ahead == PD_READAHEAD_ALWAYS && (flags & PD_READ_FAST))
		flags |= READ_AHEAD_ALWAYS;
	return flags;
}

static struct pd_reader *reader_new(unsigned flags,
				    const struct pd_read_opts *ro, int nsrc,
				    bool swap, struct pd_diags *diags)
{
	struct pd_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->src = calloc((size_t)nsrc, sizeof(*r->src));
	if (!r->src) {
		free(r);
		return NULL;
	}
	r->flags = effective_flags(flags, ro);
	r->nsrc = nsrc;
	r->swap = swap;
	r->diags = diags;
	for (int i = 0; i < nsrc; i++)
		r->src[i].index = i - 1;
	return r;
}

static void source_init(struct pd_reader *r, struct source *src,
			struct pd_input *in, uint64_t start, uint64_t end,
			struct pd_where where)
{
	enum pd_ahead ahead = r->flags & READ_AHEAD_ALWAYS ? PD_AHEAD_ALWAYS
			      : r->flags & PD_READ_FAST	   ? PD_AHEAD_BIG
							   : PD_AHEAD_NEVER;

	pd_stream_init(&src->st, in, start, end, ahead, r->diags, src->what,
		       where);
}

/*
 * data.N of a directory: its own file, from `start` (skipping `skip`
 * payload bytes first) to its end.  Opened when the walk reaches it.
 */
static void open_data_n(struct pd_reader *r, struct source *d)
{
	const char *name = d->lazy_name;
	char path[4096];

	unsigned kind;

	d->lazy_name = NULL;
	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	/* listed as a regular file (session_pipe.c); a FIFO must not hang */
	if (pd_input_open_regular(&d->in, path, &kind) < 0) {
		pd_diag_add(r->diags, PD_C_READ_ERROR, PD_AT_NAMED(name),
			    PD_ERR, PD_NO_OFFSET, d->what, "cannot open %s: %s",
			    path, kind ? pd_input_kind(kind) : strerror(errno));
		d->in.fd = -1;
		source_init(r, d, &d->in, 0, 0, PD_AT_NAMED(name));
		return;
	}
	d->own_input = true;
	d->in.count = r->count;
	source_init(r, d, &d->in, d->lazy_start, d->in.size, PD_AT_NAMED(name));
	d->st.skip = d->lazy_skip;
}

/* data.N, to be opened when the walk gets there. */
static void data_n_later(struct source *d, const char *name, uint64_t start,
			 uint64_t skip)
{
	snprintf(d->what, sizeof(d->what), "%s", name);
	d->lazy_name = name;
	d->lazy_start = start;
	d->lazy_skip = skip;
}

/* The main stream, from start (0: where it begins). */
static void open_main(struct pd_reader *r, const struct pd_reader_src *s,
		      uint64_t start)
{
	struct source *m = &r->src[0];

	snprintf(m->what, sizeof(m->what), "%s", s->what);
	source_init(r, m, s->in, start ? start : s->start, s->end, s->where);
}

static struct pd_reader *reader_of(const struct pd_reader_src *s,
				   unsigned flags, int nsrc)
{
	struct pd_reader *r = reader_new(flags, s->ro, nsrc, s->swap, s->diags);

	if (!r)
		return NULL;
	r->legacy_google = s->legacy_google;
	r->dir = s->dir;
	r->count = s->in->count;
	return r;
}

struct pd_reader *pd_reader_open(const struct pd_reader_src *s, unsigned flags)
{
	int n = 1;

	if (flags & PD_READ_DATA_N)
		n += (int)s->ndir;

	struct pd_reader *r = reader_of(s, flags, n);

	if (!r)
		return NULL;
	if (!s->readable)
		r->nsrc = 0; /* nothing can be located */
	else
		open_main(r, s, 0);
	for (int i = 1; i < r->nsrc; i++)
		data_n_later(&r->src[i], s->dir_names[i - 1], 0, 0);
	return r;
}

struct pd_reader *pd_reader_open_stream(const struct pd_reader_src *s,
					unsigned flags, int stream,
					uint64_t start, uint64_t skip)
{
	struct pd_reader *r = reader_of(s, flags, 1);
	struct source *src;

	if (!r)
		return NULL;
	src = &r->src[0];
	src->index = stream;
	if (stream < 0 && s->readable) {
		open_main(r, s, start);
		src->st.skip = skip;
		if (flags & PD_READ_SMALL_WINDOW)
			src->st.winsize = PD_STREAM_WINDOW_MIN;
	} else if (stream >= 0 && (size_t)stream < s->ndir) {
		data_n_later(src, s->dir_names[stream], start, skip);
	} else {
		r->nsrc = 0;
	}
	return r;
}

void pd_reader_keep_record(struct pd_reader *r, struct pd_event *ev)
{
	if (!ev->payload || ev->payload_bytes)
		return; /* nothing will overwrite it */
	memcpy(r->rec_copy, ev->p, ev->size);
	ev->p = r->rec_copy;
}

void pd_reader_set_legacy_google(struct pd_reader *r, bool legacy)
{
	r->legacy_google = legacy;
}

static void source_free(struct source *src)
{
	pd_stream_free(&src->st);
	pd_z_free(&src->z);
}

void pd_reader_close(struct pd_reader *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nsrc; i++) {
		struct source *src = &r->src[i];

		source_free(src);
		if (src->own_input && src->in.fd >= 0)
			pd_input_close(&src->in);
	}
	free(r->src);
	free(r->payload);
	free(r);
}

uint64_t pd_reader_data_end(const struct pd_reader *r, int stream)
{
	for (int i = 0; i < r->nsrc; i++) {
		if (r->src[i].index != stream)
			continue;
		/* records handed out in place since the last call into reader.c */
		if (i == r->cur && r->aim == AIM_FILE && r->c.p != r->c_start)
			return r->c.at;
		return r->src[i].data_end;
	}
	return 0;
}

void pd_reader_stats(const struct pd_reader *r, struct pd_reader_stats *st)
{
	*st = r->stats;
	st->data_end = pd_reader_data_end(r, -1);
}

/* ------------------------------------------------------------- cursor */

/* Take what pd_reader_take_fast handed out in place off the source. */
static void cursor_sync(struct pd_reader *r)
{
	struct source *src = &r->src[r->cur];
	size_t n = (size_t)(r->c.p - r->c_start);

	if (r->aim == AIM_FILE) {
		pd_stream_consume(&src->st, n);
		if (n)
			src->data_end = src->st.pos;
	} else if (r->aim == AIM_Z) {
		pd_z_consume(&src->z, n);
	}
	r->aim = AIM_NONE;
	r->c.p = r->c.lim = r->c_start = NULL;
}

/* The cursor on the file's bytes after the record just handed out. */
static void cursor_file(struct pd_reader *r, struct source *src)
{
	struct pd_stream *st = &src->st;

	if (st->skip || !st->buf)
		return;
	r->c = (struct pd_reader_cursor){
		.p = st->buf + st->head,
		.lim = st->buf + st->tail,
		.at = st->pos,
		.stream = src->index,
		.swap = r->swap,
	};
	r->c_start = r->c.p;
	r->aim = AIM_FILE;
}

/*
 * The cursor on the decompressed bytes after the record just handed out,
 * up to where the next container's bytes begin (a record that starts
 * there has that container's offset).
 */
static void cursor_z(struct pd_reader *r, struct source *src)
{
	struct zstate *z = &src->z;
	uint64_t bound, left = z->tail - z->head;
	uint64_t container = pd_z_container(z, z->inner_head, &bound);

	if (z->skip || z->broken)
		return;
	if (bound - z->inner_head < left)
		left = bound - z->inner_head;
	r->c = (struct pd_reader_cursor){
		.p = z->buf + z->head,
		.lim = z->buf + z->head + left,
		.at = z->inner_head,
		.container = container,
		.stream = src->index,
		.compressed = true,
		.swap = r->swap,
	};
	r->c_start = r->c.p;
	r->aim = AIM_Z;
}

/* ------------------------------------------------------------ framing */

/* The next record of a source's file bytes: 1, 0 at a clean end, -1
 * damaged or an I/O error (diagnostic added). */
static int file_next(struct pd_reader *r, struct source *src,
		     struct pd_rec *rec)
{
	struct pd_stream *st = &src->st;
	struct pd_frame f = {0};
	size_t avail;
	int k;

	if (st->skip && !pd_stream_skip(st))
		return -1;
	avail = pd_stream_fill(st, 8);
	if (st->ioerr)
		return -1;
	if (avail == 0)
		return 0;
	k = pd_frame(st->buf + st->head, st->buf + st->tail, r->swap, &f);
	if (k == PD_FRAME_MORE && avail >= 8) {
		avail = pd_stream_fill(st, f.size);
		if (st->ioerr)
			return -1;
		k = pd_frame(st->buf + st->head, st->buf + st->tail, r->swap,
			     &f);
	}
	if (k == PD_FRAME_WHOLE) {
		*rec = (struct pd_rec){
			.off = st->pos,
			.type = f.type,
			.misc = f.misc,
			.size = f.size,
			.p = st->buf + st->head,
			.job = -1,
		};
		rec->payload = pd_record_payload(f.type, rec->p, f.size,
						 r->swap, r->legacy_google);
		pd_stream_consume(st, f.size);
		st->skip = rec->payload;
		return 1;
	}
	if (avail < 8)
		pd_diag_add(r->diags, PD_C_TRAILING_BYTES, st->where, PD_ERR,
			    st->pos, st->what,
			    "%zu trailing bytes after the last record, too few "
			    "for a record header",
			    avail);
	else if (k == PD_FRAME_BAD)
		pd_diag_add(r->diags, PD_C_RECORD_TOO_SMALL, PD_AT_FRAMING,
			    PD_ERR, st->pos, st->what,
			    "record header: size %u is smaller than the 8-byte "
			    "header (type %u, misc 0x%x); cannot find the next "
			    "record",
			    f.size, f.type, f.misc);
	else
		pd_diag_add(r->diags, PD_C_RECORD_PAST_END, PD_AT_FRAMING,
			    PD_ERR, st->pos, st->what,
			    "record of type %u and size %u extends past the "
			    "end (only %zu bytes left)",
			    f.type, f.size, avail);
	return -1;
}

/* A source ended (cleanly or not): -1 when it cannot be read. */
static int source_end(struct pd_reader *r, struct source *src, bool clean)
{
	pd_z_end(r, src);
	if (src->index < 0) {
		r->stats.stop_offset = src->st.pos;
		r->stats.stopped_clean = clean;
	}
	if (src->st.ioerr)
		return -1;
	source_free(src);
	if (src->own_input && src->in.fd >= 0)
		pd_input_close(&src->in); /* one descriptor at a time */
	src->own_input = false;
	r->cur++;
	return 0;
}

/* A record of the file as an event, its payload read if asked. */
static void file_event(struct pd_reader *r, struct source *src,
		       const struct pd_rec *rec, struct pd_event *ev)
{
	if (rec->type == PD_REC_HEADER_ATTR)
		src->seen_attr = true;
	*ev = (struct pd_event){
		.offset = rec->off,
		.stream = src->index,
		.type = rec->type,
		.misc = rec->misc,
		.size = rec->size,
		.p = rec->p,
		.payload = rec->payload,
		.payload_offset = rec->off + rec->size,
		.legacy_feature = pd_legacy_feature(r->legacy_google,
						    src->seen_attr, rec->type),
	};
	if (rec->payload && (r->flags & PD_READ_PAYLOADS) &&
	    rec->payload <= PD_READ_PAYLOAD_MAX) {
		uint64_t got;

		/*
		 * The record's bytes are copied first: reading the payload
		 * moves the stream's window.
		 */
		pd_reader_keep_record(r, ev);
		if (pd_stream_read_payload(&src->st, &r->payload,
					   &r->payload_cap, &got) == 0)
			ev->payload_bytes = r->payload;
	}
}

int pd_reader_next_slow(struct pd_reader *r, struct pd_event *ev)
{
	struct pd_rec rec;

	cursor_sync(r);
	while (r->cur < r->nsrc) {
		struct source *src = &r->src[r->cur];
		int rc;

		if (src->lazy_name) {
			open_data_n(r, src);
			if (r->flags & PD_READ_SMALL_WINDOW)
				src->st.winsize = PD_STREAM_WINDOW_MIN;
		}
		if (pd_z_deliver(r, src, ev)) {
			cursor_z(r, src);
			return 1;
		}
		/* records framed ahead first (reader_zahead.c) */
		rc = pd_zahead_pop(src, &rec) ? 1 : file_next(r, src, &rec);
		if (rc <= 0) {
			if (source_end(r, src, rc == 0) < 0)
				return -1;
			continue;
		}
		src->data_end = rec.off + rec.size + rec.payload;
		if (is_container(rec.type)) {
			int k = rec.type == PD_REC_COMPRESSED2;

			r->stats.containers[k]++;
			r->stats.container_bytes[k] += rec.size;
			if (!(r->flags & PD_READ_NO_DECOMPRESS)) {
				pd_z_decompress(r, src, &rec);
				continue;
			}
		}
		file_event(r, src, &rec, ev);
		if (!pd_zahead_pending(src))
			cursor_file(r, src);
		return 1;
	}
	return 0;
}

int pd_reader_read_payload(struct pd_reader *r, uint8_t **buf, size_t *cap,
			   uint64_t *got)
{
	*got = 0;
	if (r->cur >= r->nsrc)
		return -1;
	return pd_stream_read_payload(&r->src[r->cur].st, buf, cap, got);
}
