/* SPDX-License-Identifier: MIT */
/*
 * The loop of every walk over records: the only code that takes records
 * from a reader (reader.h).  A walk over a recording (walk.h) runs it with
 * the recording's update step; the scans that read a range of an input
 * before there is a model to update (the pipe stream's metadata walk,
 * session_pipe.c; the torn-recording scan, torn.c) run it bare.
 *
 * A visitor is a function called with each record (pd_visit_fn); it
 * returns false to end the walk.  pd_walk_run is inline so that a
 * visitor that does little per record (stats) is compiled into the loop
 * with the byte order as a constant; pd_walk_loop_run calls through the
 * pointer.
 */
#ifndef PD_WALK_LOOP_H
#define PD_WALK_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/io/reader.h"

struct pd_walk_loop;

/* A record of the walk; false: stop. */
typedef bool (*pd_visit_fn)(void *arg, const struct pd_event *ev);
/*
 * The update step: sees a record before the visitor does, and may read
 * its payload (pd_walk_read_payload; pd_walk_keep_record first).
 */
typedef void (*pd_step_fn)(void *arg, struct pd_walk_loop *l,
			   struct pd_event *ev);

struct pd_walk_loop {
	struct pd_reader *r;
	/* records of a type >= step_from go by step first; UINT64_MAX:
	 * none, for a record's type is 32 bits and may be UINT32_MAX (the
	 * update step's records are metadata, HEADER_ATTR on) */
	uint64_t step_from;
	pd_step_fn step;
	void *step_arg;
	bool swap; /* the source's byte order is not this host's */
};

/*
 * Open the loop on src (reader.h), read as `flags` (PD_READ_*) say, with
 * no update step.  Returns 0, or -1 when out of memory.
 */
int pd_walk_loop_open(struct pd_walk_loop *l, const struct pd_reader_src *src,
		      unsigned flags);
/* Only one stream of src, from `start` (pd_reader_open_stream). */
int pd_walk_loop_open_stream(struct pd_walk_loop *l,
			     const struct pd_reader_src *src, unsigned flags,
			     int stream, uint64_t start, uint64_t skip);
void pd_walk_loop_close(struct pd_walk_loop *l);

/*
 * Run the visitor over the records: 1 when it stopped the walk, 0 at the
 * end of every stream, -1 on an I/O error (a diagnostic is added).
 */
static inline __attribute__((always_inline)) int
pd_walk_run(struct pd_walk_loop *l, pd_visit_fn fn, void *arg, const bool swap)
{
	struct pd_reader *r = l->r;
	const uint64_t from = l->step_from; /* in a register, not reloaded */
	/* the records the step wants go the slow way: the fast one, taken
	 * by nearly every record, has no compare for the step */
	const uint32_t below =
		from < PD_REC_HEADER_ATTR ? (uint32_t)from : PD_REC_HEADER_ATTR;
	struct pd_event ev;

	for (;;) {
		if (!pd_reader_take_fast(r, &ev, swap, below)) {
			int rc = pd_reader_next_slow(r, &ev);

			if (rc != 1)
				return rc;
			if (__builtin_expect(ev.type >= from, 0))
				l->step(l->step_arg, l, &ev);
		}
		if (!fn(arg, &ev))
			return 1;
	}
}

/* The same, the visitor called through its pointer. */
int pd_walk_loop_run(struct pd_walk_loop *l, pd_visit_fn fn, void *arg);

/* The reader's byte order, for a visitor compiled once for each. */
bool pd_walk_loop_swap(const struct pd_walk_loop *l);

/*
 * For the update step: the record just read keeps its bytes in the
 * reader's copy (ev->p moves there) when reading its payload would
 * overwrite them (pd_reader_keep_record).
 */
void pd_walk_keep_record(struct pd_walk_loop *l, struct pd_event *ev);
/* The payload of the record just read (pd_reader_read_payload). */
int pd_walk_read_payload(struct pd_walk_loop *l, uint8_t **buf, size_t *cap,
			 uint64_t *got);
/* The stream is a pre-upstream Google one (pd_reader_set_legacy_google). */
void pd_walk_set_legacy_google(struct pd_walk_loop *l, bool legacy);

/* Where the streams of a walk ended: the byte account's input. */
struct pd_data_ends {
	uint64_t main; /* the data when data.size is 0, the pipe stream */
	uint64_t *dir; /* each data.N file of a directory (ndir of them) */
	size_t ndir;
};
void pd_data_ends_free(struct pd_data_ends *e);

/* What the reader counted (pd_reader_stats); the ends of its streams. */
void pd_walk_loop_stats(const struct pd_walk_loop *l,
			struct pd_reader_stats *st);
uint64_t pd_walk_loop_data_end(const struct pd_walk_loop *l, int stream);

#endif
