// SPDX-License-Identifier: MIT
/* The perf.data writer (see copy.h): the records, and the order of it all. */
#include "lib/write/copy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ev, its bytes p[0..len) (ev's own, or rewritten by --redact) */
static void write_record(struct copy *c, const struct pd_event *ev,
			 const uint8_t *p, size_t len)
{
	/* the kernel's records go into --compress's batches; perf's own
	 * and a payload's record between them, as perf record writes them */
	if (ev->type < PD_REC_USER_START && !ev->payload) {
		copy_data(c, p, len);
		return;
	}
	copy_z_flush(c);
	pd_out_write(&c->out, p, len);
	if (!ev->payload)
		return;
	if (ev->payload_bytes)
		pd_out_write(&c->out, ev->payload_bytes, ev->payload);
	else
		copy_input_range(c, ev->payload_offset, ev->payload);
	if (ev->type == PD_REC_AUXTRACE)
		c->aux_data = true;
}

static bool copy_record(void *arg, const struct pd_event *ev,
			const struct pd_decoded *d)
{
	struct copy *c = arg;
	struct pd_copy_result *r = c->r;
	const uint8_t *p = ev->p;
	size_t size = ev->size;

	r->records_read++;
	/* a record perfdump finds an error in is not written: perf would
	 * stop at it, or read it wrong */
	if (c->s->diags.nerr != c->nerr_seen || !payload_there(c, ev) ||
	    unknown_id(c, ev, d)) {
		c->nerr_seen = c->s->diags.nerr;
		r->records_damaged++;
		return !c->out.err;
	}
	if (pipe_metadata(c, ev) || !copy_keep_record(c, ev, d))
		return true;
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
	r->records_written++;
	if (ev->type == PD_REC_SAMPLE) {
		r->samples_written++;
		if (d->id.has_time) {
			if (!r->has_time || d->id.time < r->first_time)
				r->first_time = d->id.time;
			if (!r->has_time || d->id.time > r->last_time)
				r->last_time = d->id.time;
			r->has_time = true;
		}
	}
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
	};
	struct pd_visitor v = {.record = copy_record};
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
	c->nerr_seen = s->diags.nerr;
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
	rc = write_body(&c);
	if (pd_out_close(&c.out) < 0 && rc == 0)
		rc = write_error(&c);
	copy_z_close(&c);
	copy_evsels_free(&c);
	free(c.chunk);
	free(c.rec);
	return rc;
}
