// SPDX-License-Identifier: MIT
/* The perf.data writer (see copy.h): the records, and the order of it all. */
#include "lib/write/copy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base/util.h"
#include "lib/session/evlist.h"
#include "lib/session/walk.h"
#include "lib/tracepoint/tracepoint.h"
#include "lib/write/copy_int.h"

/*
 * A pipe stream's metadata records, written as the file's attrs section
 * and feature sections instead (tools/perf/builtin-inject.c writes a pipe
 * to a file so: perf_event__repipe_attr and its kin drop them).
 */
static bool pipe_metadata(const struct copy *c, const struct pd_event *ev)
{
	if (c->s->mode != PD_MODE_PIPE)
		return false;
	switch (ev->type) {
	case PD_REC_HEADER_ATTR:
	case PD_REC_HEADER_EVENT_TYPE:
	case PD_REC_HEADER_TRACING_DATA:
	case PD_REC_HEADER_BUILD_ID:
	case PD_REC_HEADER_FEATURE: return true;
	default: return ev->legacy_feature != 0;
	}
}

/* Can the payload that follows the record (AUXTRACE's data) be copied? */
static bool payload_there(const struct copy *c, const struct pd_event *ev)
{
	return !ev->payload || ev->payload_bytes ||
	       (c->s->in.seekable && ev->stream < 0 && !ev->compressed);
}

/*
 * A kernel record whose id names no attr: perf cannot parse it
 * (evlist__event2evsel finds none, perf_session__deliver_event stops).
 */
static bool unknown_id(const struct copy *c, const struct pd_event *ev,
		       const struct pd_decoded *d)
{
	return ev->type < PD_REC_USER_START && !d->evsel && c->s->evlist.n;
}

/*
 * A record of this type without a payload: the kernel's records go into
 * --compress's batches; perf's own between them, as perf record writes
 * them.
 */
static void write_bytes(struct copy *c, uint32_t type, const uint8_t *p,
			size_t len)
{
	if (type < PD_REC_USER_START) {
		copy_data(c, p, len);
		return;
	}
	copy_z_flush(c);
	pd_out_write(&c->out, p, len);
}

/* ev, its bytes p[0..len) (ev's own, or rewritten by --redact) */
static void write_record(struct copy *c, const struct pd_event *ev,
			 const uint8_t *p, size_t len)
{
	if (!ev->payload) {
		write_bytes(c, ev->type, p, len);
		return;
	}
	/* a payload's record stands apart from the batches */
	copy_z_flush(c);
	pd_out_write(&c->out, p, len);
	if (ev->payload_bytes)
		pd_out_write(&c->out, ev->payload_bytes, ev->payload);
	else
		copy_input_range(c, ev->payload_offset, ev->payload);
	if (ev->type == PD_REC_AUXTRACE)
		c->aux_data = true;
}

/*
 * A record perfdump finds an error in (its decoding said one) is not
 * written: perf would stop at it, or read it wrong.  Nor is one whose
 * payload cannot be copied, or a kernel record whose id names no attr.
 */
static bool damaged(const struct copy *c, const struct pd_event *ev,
		    const struct pd_decoded *d)
{
	return d->errors || !payload_there(c, ev) || unknown_id(c, ev, d);
}

/* Samples written from first to last: r's first and last time. */
static void add_span(struct pd_copy_result *r, uint64_t first, uint64_t last)
{
	if (!r->has_time || first < r->first_time)
		r->first_time = first;
	if (!r->has_time || last > r->last_time)
		r->last_time = last;
	r->has_time = true;
}

/* A record written: the counts, and the samples' first and last time. */
static void count_written(struct pd_copy_result *r, const struct pd_event *ev,
			  const struct pd_decoded *d)
{
	r->records_written++;
	if (ev->type != PD_REC_SAMPLE)
		return;
	r->samples_written++;
	if (d->id.has_time)
		add_span(r, d->id.time, d->id.time);
}

/* Is ev written?  Counted in r (read, damaged) either way. */
static bool takes(const struct copy *c, struct pd_copy_result *r,
		  const struct pd_event *ev, const struct pd_decoded *d)
{
	r->records_read++;
	if (damaged(c, ev, d)) {
		r->records_damaged++;
		return false;
	}
	return !pipe_metadata(c, ev) && copy_keep_record(c, ev, d);
}

/* ---- --jobs: the kernel's records checked on worker threads ------------ */

/*
 * A batch's share of the copy (walk.h pd_par_visitor): the records a
 * worker found whole and kept, in order (their bytes the batch's until
 * it is flushed), and its counts; written and added up on the caller's
 * thread, batch after batch, so the copy is the one thread's byte for
 * byte.  perf's own records (type 64 and up) go by copy_record, on the
 * caller's thread, in their place.
 */
struct kept {
	const uint8_t *p;
	uint32_t size, type;
};

struct copy_batch {
	const struct copy *c;
	struct kept *v;
	uint32_t n, cap;
	bool oom;
	struct pd_copy_result r; /* the counts and times only */
};

static void *batch_fork(void *arg)
{
	struct copy_batch *b = calloc(1, sizeof(*b));

	if (b)
		b->c = arg;
	return b;
}

static void batch_record(void *ctx, const struct pd_event *ev,
			 const struct pd_decoded *d)
{
	struct copy_batch *b = ctx;

	if (!takes(b->c, &b->r, ev, d))
		return;
	if (!pd_grow((void **)&b->v, b->n, &b->cap, sizeof(*b->v))) {
		b->oom = true;
		return;
	}
	b->v[b->n++] = (struct kept){ev->p, ev->size, ev->type};
	count_written(&b->r, ev, d);
}

static void batch_flush(void *arg, void *ctx)
{
	struct copy *c = arg;
	struct copy_batch *b = ctx;
	struct pd_copy_result *r = c->r;

	if (b->oom)
		c->out.err = ENOMEM;
	/* one record at a time: --compress's batches hold whole records
	 * (and FINISHED_ROUND, which batches carry, stands apart) */
	for (uint32_t i = 0; i < b->n && !b->oom; i++)
		write_bytes(c, b->v[i].type, b->v[i].p, b->v[i].size);
	r->records_read += b->r.records_read;
	r->records_damaged += b->r.records_damaged;
	r->records_written += b->r.records_written;
	r->samples_written += b->r.samples_written;
	if (b->r.has_time)
		add_span(r, b->r.first_time, b->r.last_time);
	b->n = 0;
	b->oom = false;
	b->r = (struct pd_copy_result){0};
}

static void batch_join(void *arg, void *ctx)
{
	struct copy_batch *b = ctx;

	(void)arg;
	free(b->v);
	free(b);
}

static bool copy_record(void *arg, const struct pd_event *ev,
			const struct pd_decoded *d)
{
	struct copy *c = arg;
	struct pd_copy_result *r = c->r;
	const uint8_t *p = ev->p;
	size_t size = ev->size;

	if (!takes(c, r, ev, d))
		return !c->out.err;
	if (ev->type == PD_REC_ID_INDEX && c->ev.kept) {
		/* --event: the entries of the evsels written */
		size_t len;
		int rc = copy_event_id_index(c, ev, d, c->rec, &len);

		if (rc < 0)
			return true;
		p = rc > 0 ? c->rec : p;
		size = rc > 0 ? len : size;
	} else if (c->o->redact) { /* its strings rewritten */
		size_t len;
		int rc = copy_redact_record(c, ev, d, c->rec, &len);

		if (rc < 0) {
			r->records_unredactable++;
			return true;
		}
		p = rc > 0 ? c->rec : p;
		size = rc > 0 ? len : size;
	}
	write_record(c, ev, p, size);
	count_written(r, ev, d);
	return !c->out.err;
}

static int write_error(struct copy *c)
{
	c->r->err = c->out.err ? c->out.err : EIO;
	snprintf(c->r->why, sizeof(c->r->why), "%s", strerror(c->r->err));
	return -1;
}

/* The file up to the data section's end. */
static int write_body(struct copy *c)
{
	struct pd_session *s = c->s;
	struct pd_walk_opts wo = {
		/* a pipe's payloads are read from the stream as it goes */
		.flags = s->mode == PD_MODE_PIPE ? PD_WALK_PAYLOADS : 0,
		/* --redact: a tracepoint's string fields (copy_redact.c) */
		.tp_want = c->o->redact ? PD_TP_FIELDS : 0,
		/* the redactor keeps state (its tokens, in order): one thread */
		.jobs = c->o->redact ? 1 : c->o->jobs,
		.batch_bytes = c->o->batch_bytes,
	};
	static const struct pd_par_visitor par = {.fork = batch_fork,
						  .record = batch_record,
						  .flush = batch_flush,
						  .join = batch_join};
	struct pd_visitor v = {.record = copy_record, .par = &par};
	uint64_t attrs_off = 0, attr_size = 0;

	/* a --threads directory: its data.N files merged in time order,
	 * as perf report reads them (bounded: order.h) */
	if (s->mode == PD_MODE_DIR)
		wo.flags |= PD_WALK_DATA_N | PD_WALK_TIME_ORDER;
	if (c->o->pipe) {
		if (copy_write_pipe_head(c) < 0)
			return -1;
	} else {
		/* the header, written last */
		pd_out_zero(&c->out, PD_HEADER_SIZE);
		if (copy_write_attrs(c, &attrs_off, &attr_size) < 0)
			return -1;
	}
	c->r->data_offset = c->out.off;
	if (pd_walk(s, &wo, &v, c) < 0) {
		c->r->err = ENOMEM;
		snprintf(c->r->why, sizeof(c->r->why), "out of memory");
		return -1;
	}
	copy_z_flush(c);
	if (c->out.err)
		return write_error(c);
	if (c->o->pipe) {
		c->r->data_size = c->out.off - c->r->data_offset;
		c->r->file_size = c->out.off;
		return 0;
	}
	if (c->out.off == c->r->data_offset) {
		/* perf takes data.size 0 for a killed recording, and warns */
		uint8_t b[8];

		pd_put32(b, PD_REC_FINISHED_ROUND, c->swap);
		memset(b + 4, 0, 2);
		pd_put16(b + 6, 8, c->swap);
		pd_out_write(&c->out, b, 8);
		copy_note(c, "no record to write: one FINISHED_ROUND written, "
			     "so that the data section is not empty");
	}
	if (c->r->records_unredactable)
		copy_note(c,
			  "%llu records left out: a string of theirs could "
			  "not be found to be redacted (a misaligned "
			  "record, a string without its NUL)",
			  (unsigned long long)c->r->records_unredactable);
	c->r->data_size = c->out.off - c->r->data_offset;
	copy_write_features(c);
	copy_write_header(c, attrs_off, attr_size);
	c->r->file_size = c->out.off;
	return c->out.err ? write_error(c) : 0;
}

int pd_copy(struct pd_session *s, int fd, const struct pd_copy_opts *o,
	    struct pd_copy_result *r)
{
	struct copy c = {.s = s, .o = o, .r = r, .swap = s->swap};
	int rc;

	memset(r, 0, sizeof(*r));
	if (!s->header_ok || s->not_perf_data) {
		snprintf(r->why, sizeof(r->why),
			 "the file header could not be read");
		return -1;
	}
	if (o->compress && s->swap) {
		/* perf 6.1 stops at the first COMPRESSED record of a
		 * byte-swapped pipe ("Couldn't decompress data") */
		snprintf(r->why, sizeof(r->why),
			 "--compress: a byte-swapped recording's compressed "
			 "records are not read by perf (it fails to "
			 "decompress them); copy it without --compress");
		return -1;
	}
	if (o->filter && o->filter->has_tid && !o->filter->has_pid &&
	    s->pipe.live) {
		/* the thread's process is looked for by a walk of its own */
		snprintf(r->why, sizeof(r->why),
			 "--tid on a stream read as it arrives: give its "
			 "process with --pid as well");
		return -1;
	}
	pd_decode_features(s);
	pd_evlist_load(s);
	if (copy_evsels_init(&c) < 0) {
		copy_evsels_free(&c);
		return -1;
	}
	c.chunk = malloc(PD_COPY_CHUNK);
	if (o->redact || c.ev.kept)
		c.rec = malloc(1u << 16);
	if (!c.chunk || ((o->redact || c.ev.kept) && !c.rec) ||
	    pd_out_open(&c.out, fd) < 0 || copy_z_open(&c) < 0) {
		copy_evsels_free(&c);
		free(c.chunk);
		free(c.rec);
		copy_z_close(&c);
		pd_out_close(&c.out);
		r->err = ENOMEM;
		snprintf(r->why, sizeof(r->why), "out of memory");
		return -1;
	}
	copy_keep_init(&c);
	rc = copy_bid_init(&c);
	if (rc == 0)
		rc = write_body(&c);
	copy_bid_free(&c);
	if (pd_out_close(&c.out) < 0 && rc == 0)
		rc = write_error(&c);
	copy_z_close(&c);
	copy_evsels_free(&c);
	free(c.chunk);
	free(c.rec);
	return rc;
}
