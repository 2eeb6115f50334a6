// SPDX-License-Identifier: MIT
/* The bytes of a record source (see stream.h). */
#include "lib/io/stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/io/prefetch.h"

/*
 * Large enough for any record (u16 size) many times over; a smaller
 * source gets a window its size, but never less than a record can need.
 */
#define STREAM_WINDOW	  (1u << 20)
#define STREAM_WINDOW_MIN PD_STREAM_WINDOW_MIN
/*
 * Fast mode: read-ahead chunks, and room before each for a cut record.
 * A chunk is read on one CPU and walked on the other.  Timed in turns on
 * the 200 MB bench file, stats took 1.7-1.8x the time of cat with 1 MiB
 * chunks and 1.2-1.5x with 256 KiB ones, the best of 64 KiB to 1 MiB
 * (see prefetch.h for how many are in flight).
 */
#define FAST_CHUNK (1u << 18)
#define FAST_CARRY 65536u /* a record is at most 64 KiB - 1 */
/* Fast mode: a payload at least this long is seeked over, not read. */
#define FAST_JUMP (4u << 20)

void pd_stream_init(struct pd_stream *st, struct pd_input *in, uint64_t start,
		    uint64_t end, enum pd_ahead ahead, struct pd_diags *diags,
		    const char *what, struct pd_where where)
{
	uint64_t last = end != UINT64_MAX ? end
			: in->seekable	  ? in->size
					  : UINT64_MAX;
	uint64_t span = last > start ? last - start : 0;

	memset(st, 0, sizeof(*st));
	st->in = in;
	st->pos = start;
	st->end = end;
	/*
	 * The helper thread reads with pread: a file, not a stream.  On a
	 * small one, a thread and its chunks cost more than they save.
	 */
	st->fast = in->seekable &&
		   (ahead == PD_AHEAD_ALWAYS ||
		    (ahead == PD_AHEAD_BIG && span >= PD_AHEAD_MIN));
	st->winsize = span >= STREAM_WINDOW	  ? STREAM_WINDOW
		      : span <= STREAM_WINDOW_MIN ? STREAM_WINDOW_MIN
						  : (size_t)span;
	st->diags = diags;
	st->what = what;
	st->where = where;
}

static void drop_buffers(struct pd_stream *st)
{
	pd_prefetch_stop(st->pf);
	st->pf = NULL;
	st->buf = NULL;
	st->head = st->tail = 0;
}

void pd_stream_free(struct pd_stream *st)
{
	drop_buffers(st);
	free(st->win);
	free(st->stash);
	st->win = st->stash = NULL;
}

static uint64_t limit_left(const struct pd_stream *st, uint64_t at)
{
	return st->end == UINT64_MAX ? UINT64_MAX
	       : at >= st->end	     ? 0
				     : st->end - at;
}

static void read_error(struct pd_stream *st, uint64_t at)
{
	pd_diag_add(st->diags, PD_C_READ_ERROR, st->where, PD_ERR, at, st->what,
		    "read error: %s", strerror(errno));
	st->ioerr = true;
}

/* The window: pread into one buffer, what is left moved to its front. */
static size_t fill_window(struct pd_stream *st, size_t need)
{
	if (!st->win) {
		st->win = malloc(st->winsize);
		if (!st->win) {
			st->ioerr = true;
			return 0;
		}
	}
	st->buf = st->win;
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
		room = st->winsize - st->tail;
		if (room > left)
			room = (size_t)left;
		if (room == 0) {
			st->eof = true;
			break;
		}
		/*
		 * A stream gives what has arrived: records are handed out
		 * as they come, not once a window is full.
		 */
		n = pd_input_read_some(st->in, at, st->buf + st->tail, room);
		if (n < 0) {
			read_error(st, at);
			break;
		}
		if (n == 0)
			st->eof = true;
		st->tail += (size_t)n;
	}
	return st->tail - st->head;
}

/*
 * Fast mode: the helper thread's chunks, in place.  A record cut by the
 * end of a chunk is copied into the room before the next one (through
 * the stash: the chunk goes back to the thread).
 */
static size_t fill_chunks(struct pd_stream *st, size_t need)
{
	size_t avail = st->tail - st->head;

	while (avail < need && !st->eof && !st->ioerr) {
		uint8_t *chunk;
		ssize_t n;

		if (avail)
			memcpy(st->stash, st->buf + st->head, avail);
		n = pd_prefetch_next(st->pf, &chunk);
		st->buf = chunk - avail;
		if (avail)
			memcpy(st->buf, st->stash, avail);
		st->head = 0;
		st->tail = avail;
		if (n < 0) {
			read_error(st, st->pos + avail);
			break;
		}
		if (n == 0)
			st->eof = true;
		st->tail += (size_t)n;
		avail = st->tail;
	}
	return avail;
}

size_t pd_stream_fill_slow(struct pd_stream *st, size_t need)
{
	if (st->fast && !st->pf && !st->eof && !st->ioerr) {
		/* started at the first read, and again after a seek */
		if (!st->stash)
			st->stash = malloc(FAST_CARRY);
		if (st->stash)
			st->pf = pd_prefetch_start(st->in, st->pos, st->end,
						   FAST_CHUNK, FAST_CARRY);
		if (!st->pf)
			st->fast = false; /* out of memory: the window */
	}
	return st->pf ? fill_chunks(st, need) : fill_window(st, need);
}

/* Skip payload bytes; returns false if the input ended first. */
static bool do_skip(struct pd_stream *st)
{
	while (st->skip) {
		size_t avail = st->tail - st->head;

		if (avail == 0 && st->in->seekable &&
		    (!st->fast || st->skip >= FAST_JUMP)) {
			/* jump without reading */
			uint64_t left = limit_left(st, st->pos);
			uint64_t fsize = st->in->size;
			uint64_t room = fsize > st->pos ? fsize - st->pos : 0;

			drop_buffers(st); /* read ahead from the new place */
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
		if (avail == 0) {
			avail = pd_stream_fill(st, 1);
			if (avail == 0)
				return false;
		}
		size_t n = avail < st->skip ? avail : (size_t)st->skip;

		pd_stream_consume(st, n);
		st->skip -= n;
	}
	return true;
}

bool pd_stream_skip(struct pd_stream *st)
{
	uint64_t want = st->skip, at = st->pos;

	if (do_skip(st))
		return true;
	pd_diag_add(st->diags, PD_C_RECORD_PAST_END, PD_AT_FRAMING, PD_ERR, at,
		    st->what,
		    "record payload of %llu bytes is cut short: the input ends "
		    "after %llu of them",
		    (unsigned long long)want,
		    (unsigned long long)(want - st->skip));
	return false;
}

int pd_stream_read_payload(struct pd_stream *st, uint8_t **buf, size_t *cap,
			   uint64_t *got)
{
	uint64_t want = st->skip, have = 0;

	*got = 0;
	while (have < want) {
		size_t avail = pd_stream_fill(st, 1);

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
		pd_stream_consume(st, avail);
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
