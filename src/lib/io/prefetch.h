/* SPDX-License-Identifier: MIT */
/*
 * Sequential read-ahead of a file range on a helper thread: the copy out
 * of the page cache (most of a fast walk's cost) runs on another CPU while
 * the caller walks the chunk before.  A few chunks in flight, reused: the
 * memory is PD_PREFETCH_NBUF * (chunk + carry), whatever the file size.
 * If the thread cannot be started, chunks are read on the caller's thread.
 */
#ifndef PD_PREFETCH_H
#define PD_PREFETCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/io/input.h"

/*
 * Chunks in flight: enough that the reading thread seldom waits for the
 * walk to give one back (3 took 1.25x the time of 8; 12 and 16 were
 * no faster than 8).
 */
#define PD_PREFETCH_NBUF 8

struct pd_prefetch;

/*
 * Read [start, end) of `in` in chunks of `chunk` bytes.  Each chunk has
 * `carry` bytes of room before it, where the caller may copy the tail of
 * the chunk before (a record split between two chunks).  NULL when out of
 * memory.
 */
struct pd_prefetch *pd_prefetch_start(struct pd_input *in, uint64_t start,
				      uint64_t end, size_t chunk, size_t carry);

/*
 * The next chunk: *p is its first byte (with `carry` writable bytes before
 * it).  Returns its length, 0 at the end of the range, -1 on a read error
 * (errno set).  Hands the chunk before back to the reader thread: copy
 * what is still needed out of it first.
 */
ssize_t pd_prefetch_next(struct pd_prefetch *pf, uint8_t **p);

/* Stop the thread (wherever it is) and free everything. */
void pd_prefetch_stop(struct pd_prefetch *pf);

#endif
