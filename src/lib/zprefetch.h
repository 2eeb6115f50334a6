/* SPDX-License-Identifier: MIT */
/*
 * The records of a data section with PERF_RECORD_COMPRESSED(2) records,
 * decompressed ahead on a helper thread: the thread reads the file,
 * decompresses the containers (one zstd stream, FORMAT.md §7.4) and hands
 * over blocks of whole records, the decompressed ones and the ones stored
 * plainly, in file order, while the caller counts the block before.
 *
 * For fast walks only: the thread never reports a problem.  Anything
 * unusual (a record with a payload, a damaged or torn record, a zstd
 * error, a compressed record inside a compressed one) ends the walk with
 * -1, and the caller starts over with the reader, which says what is
 * wrong.  Memory: a few reused blocks and the zstd state.
 */
#ifndef PD_ZPREFETCH_H
#define PD_ZPREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "reader.h"

/*
 * Records from one place: a container's inner records (each has the
 * container's offset), or plain records that follow each other in the
 * file (a record's offset is offset + its distance from pos).
 */
struct pd_zseg {
	uint32_t pos;	 /* where in the block it starts */
	bool compressed; /* came out of the container at `offset` */
	uint64_t offset; /* file offset of the container or first record */
};

struct pd_zblock {
	const uint8_t *p; /* whole records */
	size_t len;
	const struct pd_zseg *seg; /* by pos, the first at 0 */
	uint32_t nseg;
};

struct pd_zprefetch;

struct pd_zprefetch *pd_zprefetch_start(struct pd_input *in, uint64_t start,
					uint64_t end, bool swap);

/*
 * The next block: 1, with *b valid until the next call; 0 at the end of
 * the section; -1 when the walk must be left to the reader.
 */
int pd_zprefetch_next(struct pd_zprefetch *zp, struct pd_zblock *b);

/* Stop, and give the totals of what was read (as the reader counts them). */
void pd_zprefetch_stop(struct pd_zprefetch *zp, struct pd_reader_stats *st);

#endif
