// SPDX-License-Identifier: MIT
#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"

/* Large enough for any record (u16 size) many times over. */
#define STREAM_WINDOW (1u << 20)

uint64_t pd_record_payload(uint32_t type, const uint8_t *p, uint16_t size,
			   bool swap, bool legacy_google)
{
	if (type == PD_REC_HEADER_TRACING_DATA && size >= 12 && size <= 16)
		return pd_get32(p + 8, swap);
	if (type == PD_REC_AUXTRACE && size >= 16 && !legacy_google)
		return pd_get64(p + 8, swap);
	return 0;
}

void pd_stream_init(struct pd_stream *st, struct pd_input *in, uint64_t start,
		    uint64_t end, bool swap, struct pd_diags *diags,
		    const char *what, struct pd_where where)
{
	memset(st, 0, sizeof(*st));
	st->in = in;
	st->pos = start;
	st->end = end;
	st->swap = swap;
	st->diags = diags;
	st->what = what;
	st->where = where;
}

void pd_stream_free(struct pd_stream *st)
{
	free(st->buf);
	st->buf = NULL;
}

static uint64_t limit_left(const struct pd_stream *st, uint64_t at)
{
	return st->end == UINT64_MAX ? UINT64_MAX
	       : at >= st->end	     ? 0
				     : st->end - at;
}

/* Make at least `need` bytes available at buf[head], if the input has them. */
static size_t fill_slow(struct pd_stream *st, size_t need)
{
	if (!st->buf) {
		st->buf = malloc(STREAM_WINDOW);
		if (!st->buf) {
			st->ioerr = true;
			return 0;
		}
		st->cap = STREAM_WINDOW;
	}
	while (st->tail - st->head < need && !st->eof && !st->ioerr) {
		uint64_t at = st->pos + (st->tail - st->head);
		uint64_t left = limit_left(st, at);
		size_t room;
		ssize_t n;

		if (st->head > 0) {
			memmove(st->buf, st->buf + st->head,
				st->tail - st->head);
			st->tail -= st->head;
			st->head = 0;
		}
		room = st->cap - st->tail;
		if (room > left)
			room = (size_t)left;
		if (room == 0) {
			st->eof = true;
			break;
		}
		n = pd_input_pread(st->in, at, st->buf + st->tail, room);
		if (n < 0) {
			pd_diag_add(st->diags, PD_C_READ_ERROR, st->where,
				    PD_ERR, at, st->what, "read error: %s",
				    strerror(errno));
			st->ioerr = true;
			break;
		}
		if (n == 0)
			st->eof = true;
		st->tail += (size_t)n;
	}
	return st->tail - st->head;
}

static inline size_t fill(struct pd_stream *st, size_t need)
{
	size_t avail = st->tail - st->head;

	return avail >= need ? avail : fill_slow(st, need);
}

static void consume(struct pd_stream *st, size_t n)
{
	st->head += n;
	st->pos += n;
}

/* Skip payload bytes; returns false if the input ended first. */
static bool do_skip(struct pd_stream *st)
{
	while (st->skip) {
		size_t avail = st->tail - st->head;

		if (avail == 0) {
			if (st->in->seekable) {
				/* jump without reading */
				uint64_t left = limit_left(st, st->pos);
				uint64_t fsize = st->in->size;
				uint64_t room =
					fsize > st->pos ? fsize - st->pos : 0;

				if (room > left)
					room = left;
				if (room >= st->skip) {
					st->pos += st->skip;
					st->skip = 0;
					return true;
				}
				st->pos += room;
				st->skip -= room;
				st->eof = true;
				return false;
			}
			avail = fill(st, 1);
			if (avail == 0)
				return false;
		}
		size_t n = avail < st->skip ? avail : (size_t)st->skip;

		consume(st, n);
		st->skip -= n;
	}
	return true;
}

int pd_stream_next(struct pd_stream *st, struct pd_rec *r)
{
	size_t avail;

	if (st->skip) {
		uint64_t want = st->skip, at = st->pos;

		if (!do_skip(st)) {
			pd_diag_add(st->diags, PD_C_RECORD_PAST_END,
				    PD_AT_FRAMING, PD_ERR, at, st->what,
				    "record payload of %llu bytes is cut "
				    "short: the input ends after %llu of them",
				    (unsigned long long)want,
				    (unsigned long long)(want - st->skip));
			return -1;
		}
	}
	avail = fill(st, 8);
	if (st->ioerr)
		return -1;
	if (avail == 0)
		return 0;
	if (avail < 8) {
		pd_diag_add(st->diags, PD_C_TRAILING_BYTES, st->where, PD_ERR,
			    st->pos, st->what,
			    "%zu trailing bytes after the last record, too few "
			    "for a record header",
			    avail);
		return -1;
	}

	const uint8_t *h = st->buf + st->head;

	r->off = st->pos;
	r->type = pd_get32(h, st->swap);
	r->misc = pd_get16(h + 4, st->swap);
	r->size = pd_get16(h + 6, st->swap);
	r->payload = 0;
	if (r->size < 8) {
		pd_diag_add(st->diags, PD_C_RECORD_TOO_SMALL, PD_AT_FRAMING,
			    PD_ERR, r->off, st->what,
			    "record header: size %u is smaller than the 8-byte "
			    "header (type %u, misc 0x%x); cannot find the next "
			    "record",
			    r->size, r->type, r->misc);
		return -1;
	}
	avail = fill(st, r->size);
	if (st->ioerr)
		return -1;
	if (avail < r->size) {
		pd_diag_add(st->diags, PD_C_RECORD_PAST_END, PD_AT_FRAMING,
			    PD_ERR, r->off, st->what,
			    "record of type %u and size %u extends past the "
			    "end (only %zu bytes left)",
			    r->type, r->size, avail);
		return -1;
	}
	h = st->buf + st->head;
	r->p = h;
	r->payload = pd_record_payload(r->type, h, r->size, st->swap,
				       st->legacy_google);
	consume(st, r->size);
	st->skip = r->payload;
	return 1;
}

int pd_stream_read_payload(struct pd_stream *st, uint8_t **buf, size_t *cap,
			   uint64_t *got)
{
	uint64_t want = st->skip, have = 0;

	*got = 0;
	while (have < want) {
		size_t avail = fill(st, 1);

		if (avail == 0)
			break;
		if (avail > want - have)
			avail = (size_t)(want - have);
		if (have + avail > *cap) {
			/* grow with the bytes that really arrived */
			size_t ncap = *cap ? *cap * 2 : 65536;

			while (ncap < have + avail)
				ncap *= 2;
			uint8_t *nb = realloc(*buf, ncap);

			if (!nb) {
				st->ioerr = true;
				return -1;
			}
			*buf = nb;
			*cap = ncap;
		}
		memcpy(*buf + have, st->buf + st->head, avail);
		consume(st, avail);
		have += avail;
		st->skip -= avail;
	}
	*got = have;
	if (have < want) {
		pd_diag_add(st->diags, PD_C_RECORD_PAST_END, PD_AT_FRAMING,
			    PD_ERR, st->pos, st->what,
			    "record payload of %llu bytes is cut short: the "
			    "input ends after %llu of them",
			    (unsigned long long)want, (unsigned long long)have);
		st->skip = 0;
		return -1;
	}
	return 0;
}
