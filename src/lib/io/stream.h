/* SPDX-License-Identifier: MIT */
/*
 * The bytes of one record source (a data section, a data.N file, a pipe
 * stream) for the reader (reader.c), never the whole file at once: a 1 MiB
 * window over pread, or, in the reader's fast mode, read-ahead chunks that
 * a helper thread fills (prefetch.c).  Either way the reader sees
 * buf[head..tail), the bytes from file offset pos on, and asks for more
 * when a record does not fit.  No framing here: the reader frames.
 */
#ifndef PD_STREAM_H
#define PD_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/diag.h"
#include "lib/io/input.h"

struct pd_prefetch;

struct pd_stream {
	struct pd_input *in;
	uint64_t pos; /* file offset of buf[head] */
	uint64_t end; /* UINT64_MAX: until end of input */
	uint8_t *buf;
	size_t head, tail;
	bool eof;      /* input exhausted (tail is all there is) */
	bool ioerr;    /* a read failed (diagnostic added) or out of memory */
	uint64_t skip; /* payload still to skip */
	bool fast;     /* read ahead on a helper thread */
	struct pd_prefetch *pf;
	uint8_t *win;	/* the window (not fast) */
	size_t winsize; /* its size */
	uint8_t *stash; /* fast: a record cut by the end of a chunk */
	struct pd_diags *diags;
	const char *what;      /* "data section", "pipe stream", "data.3" */
	struct pd_where where; /* the same, for the diagnostics */
};

/* The smallest window (any record fits); winsize may be set to it after
 * pd_stream_init, before the first read. */
#define PD_STREAM_WINDOW_MIN 65536u

/* Read ahead on a helper thread: never, on 4 MiB or more, always. */
enum pd_ahead { PD_AHEAD_NEVER, PD_AHEAD_BIG, PD_AHEAD_ALWAYS };
#define PD_AHEAD_MIN (4u << 20)

void pd_stream_init(struct pd_stream *st, struct pd_input *in, uint64_t start,
		    uint64_t end, enum pd_ahead ahead, struct pd_diags *diags,
		    const char *what, struct pd_where where);
/* Free the buffers (pos and the flags stay). */
void pd_stream_free(struct pd_stream *st);

size_t pd_stream_fill_slow(struct pd_stream *st, size_t need);

/*
 * Make at least `need` (at most 65536) bytes available at buf[head], if
 * the input has them; returns how many there are.
 */
static inline size_t pd_stream_fill(struct pd_stream *st, size_t need)
{
	size_t avail = st->tail - st->head;

	return avail >= need ? avail : pd_stream_fill_slow(st, need);
}

static inline void pd_stream_consume(struct pd_stream *st, size_t n)
{
	st->head += n;
	st->pos += n;
}

/*
 * Skip the payload still to skip.  Returns false (diagnostic added) when
 * the input ends first.
 */
bool pd_stream_skip(struct pd_stream *st);

/*
 * Read the payload still to skip into *buf (realloc'd, capacity *cap; the
 * caller frees it).  Memory grows with the bytes actually read, never
 * with the declared size.  Returns 0 with *got == the declared size, or -1
 * when the input ended early (*got tells how much arrived; diagnostic
 * added).
 */
int pd_stream_read_payload(struct pd_stream *st, uint8_t **buf, size_t *cap,
			   uint64_t *got);

#endif
