/* SPDX-License-Identifier: MIT */
/*
 * The record stream of a recording, whatever its shape: the data section
 * of a file (or everything after data.offset when data.size is 0), a pipe
 * stream, a directory's data section and data.N files; PERF_RECORD_
 * COMPRESSED (81) and COMPRESSED2 (83) decompressed transparently with
 * one zstd stream and one carry-over buffer per input stream
 * (tools/perf/util/session.c: perf_session__process_compressed_event), so
 * a record split across two compressed records is whole.  The one reader
 * of records: every command takes them from here.
 *
 * Memory is bounded: a window over the file (or, in fast mode, a few
 * read-ahead chunks), and a decompression buffer.
 *
 * pd_reader_take_fast is inline: it frames the next record where the
 * reader's cursor stands (the file's bytes or decompressed ones);
 * pd_reader_next_slow in reader.c takes the rest: a refill, a record with a payload, a container, a
 * metadata record, the end of a stream or damage.
 *
 * Only the walk (walk_loop.h) reads records from a reader: every other
 * part of perfdump takes them from a walk.
 */
#ifndef PD_READER_H
#define PD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/diag.h"
#include "lib/format/frame.h"
#include "lib/io/input.h"
#include "lib/io/read_opts.h"

struct pd_reader;

struct pd_event {
	uint64_t offset;       /* file offset of the record; inside a compressed
			      * record, the file offset of that container */
	int stream;	       /* -1: the file's data section or the pipe;
			      * N >= 0: the directory's Nth data.N file */
	bool compressed;       /* came out of a COMPRESSED/COMPRESSED2 record */
	uint64_t inner_offset; /* offset in the decompressed stream */
	uint32_t type;
	uint16_t misc;
	uint16_t size;	  /* header.size */
	const uint8_t *p; /* the size bytes; valid until the next call */
	uint64_t payload; /* bytes that follow header.size (66, 71) */
	const uint8_t *payload_bytes; /* them, when asked for (else NULL) */
	uint64_t payload_offset;      /* file offset of the payload (when
				       * payload is not 0) */
	unsigned legacy_feature;      /* pre-upstream Google pipe streams:
				       * the header feature id a record of
				       * type 69..80 carries (0: none) */
};

enum {
	PD_READ_PAYLOADS = 1 << 0,	/* keep 66/71 payload bytes (bounded) */
	PD_READ_NO_DECOMPRESS = 1 << 1, /* hand out 81/83 records as they are */
	PD_READ_DATA_N = 1 << 2, /* also the data.N files of a directory */
	/*
	 * Read ahead on a helper thread (the file's bytes, in place): for
	 * one walk at a time over a whole recording, on each source of at
	 * least PD_AHEAD_MIN (4 MiB) bytes.  The records are the same;
	 * the read options override it (read_opts.h).
	 */
	PD_READ_FAST = 1 << 3,
	/*
	 * A 64 KiB window over the file, whatever its size: for a walk that
	 * takes a few records and closes (the merge of a directory's
	 * streams, order.c), not to read a MiB each time.
	 */
	PD_READ_SMALL_WINDOW = 1 << 4,
	/*
	 * With PD_READ_FAST: decompress zstd containers on the caller's
	 * thread all the same, not a few ahead on a helper
	 * (reader_zahead.c).  For a walk that does little with each record
	 * (stats): handing the decompressed bytes to another CPU costs it
	 * more than decompressing them itself.
	 */
	PD_READ_INLINE_Z = 1 << 5,
};

/*
 * The largest zstd window the reader decodes, 2^23 bytes (reader_int.h
 * says why); what perfdump compresses (copy --compress) stays under it.
 */
#define PD_ZSTD_WINDOW_LOG_MAX 23

/* Payload bytes kept with PD_READ_PAYLOADS: at most this many. */
#define PD_READ_PAYLOAD_MAX (16u << 20)

/*
 * What a reader reads (the walk fills it from the recording, walk.c):
 * the main stream, [start, end) of `in` (end UINT64_MAX: to the end of
 * the input), when `readable`; and a directory's data.N files, named
 * dir_names[0..ndir) in the directory `dir`.  Problems go to `diags`,
 * named `what` and concerning `where` in them.
 */
struct pd_reader_src {
	struct pd_input *in;
	uint64_t start, end;
	bool readable; /* false: the main stream cannot be located */
	const char *what;
	struct pd_where where;
	bool swap;
	bool legacy_google;
	const char *dir;
	const char *const *dir_names;
	size_t ndir;
	struct pd_diags *diags;
	const struct pd_read_opts *ro;
};

/*
 * Open the record stream: the main stream, and with PD_READ_DATA_N the
 * data.N files after it.  Returns NULL only when out of memory.
 * Problems (torn records, bad zstd data) go to src->diags and end the
 * stream they happen in.
 */
struct pd_reader *pd_reader_open(const struct pd_reader_src *src,
				 unsigned flags);

/*
 * Only one stream: -1 the main stream, N the Nth data.N file; from its
 * start (start 0), or from file offset `start` with `skip` payload bytes
 * to pass over first (where an earlier reader of the stream stopped,
 * after a record that was not compressed).  For merging streams by
 * time.  Only that stream's file is opened.
 */
struct pd_reader *pd_reader_open_stream(const struct pd_reader_src *src,
					unsigned flags, int stream,
					uint64_t start, uint64_t skip);

/*
 * The stream is a pre-upstream Google pipe stream (known after its first
 * record): type 71 carries no payload, types 69..80 before the first
 * HEADER_ATTR are features.
 */
void pd_reader_set_legacy_google(struct pd_reader *r, bool legacy);

/*
 * Read the payload of the record just returned (66/71 from the file) into
 * *buf (realloc'd, capacity *cap; the caller frees it; memory grows with
 * the bytes actually read).  Returns 0 with *got == its size, or -1 when
 * the input ended early (*got tells how much arrived; diagnostic added).
 * ev->p of that record is no longer valid afterwards.
 */
int pd_reader_read_payload(struct pd_reader *r, uint8_t **buf, size_t *cap,
			   uint64_t *got);

/*
 * The record just returned keeps its bytes in the reader's own copy
 * (ev->p moves there) when reading its payload would overwrite them.
 */
void pd_reader_keep_record(struct pd_reader *r, struct pd_event *ev);

void pd_reader_close(struct pd_reader *r);

/* Totals, for summaries: compressed bytes in, decompressed bytes out. */
struct pd_reader_stats {
	uint64_t compressed_records; /* 81 and 83 records fed to zstd */
	uint64_t compressed_bytes;   /* their zstd bytes */
	uint64_t decompressed_bytes;
	uint64_t containers[2];	     /* COMPRESSED, COMPRESSED2 records read */
	uint64_t container_bytes[2]; /* their header.size, summed */
	uint64_t data_end;    /* main stream: file offset after its last whole
			     * record (its payload included) */
	uint64_t stop_offset; /* main stream: the file offset its walk
			       * stopped at (the end, or the damage) */
	bool stopped_clean;   /* main stream: at its end, not at damage */
};
void pd_reader_stats(const struct pd_reader *r, struct pd_reader_stats *st);
/*
 * The file offset after the last whole record of a stream (-1 the main
 * stream, else data.N's N) read so far; 0 for a stream not read.
 */
uint64_t pd_reader_data_end(const struct pd_reader *r, int stream);

/*
 * Where the next record is framed (private to the reader; here for the
 * inline pd_reader_take_fast): bytes holding records, from the file or
 * decompressed.
 */
struct pd_reader_cursor {
	const uint8_t *p, *lim;
	uint64_t at;	    /* file: the file offset of p; decompressed: the
			     * offset of p in the decompressed stream */
	uint64_t container; /* decompressed: the container's file offset */
	int stream;
	bool compressed; /* the bytes are decompressed ones */
	bool swap;
};

/*
 * The next record, whatever it is: 1, an event; 0, the end of every
 * stream; -1, an I/O error (a diagnostic is added).
 */
int pd_reader_next_slow(struct pd_reader *r, struct pd_event *ev);

/*
 * A record taken in place at the cursor, when it is whole there and of a
 * type below `below` (at most HEADER_ATTR: the types from HEADER_ATTR on
 * have payloads, are containers or legacy features); false: the caller
 * takes it with pd_reader_next_slow.
 */
static inline bool pd_reader_take_fast(struct pd_reader *r, struct pd_event *ev,
				       bool swap, uint32_t below)
{
	/* the cursor is the reader's first member */
	struct pd_reader_cursor *c = (struct pd_reader_cursor *)(void *)r;
	struct pd_frame f;

	if (pd_frame(c->p, c->lim, swap, &f) != PD_FRAME_WHOLE ||
	    f.type >= below)
		return false;
	*ev = (struct pd_event){
		.offset = c->compressed ? c->container : c->at,
		.stream = c->stream,
		.compressed = c->compressed,
		.inner_offset = c->compressed ? c->at : 0,
		.type = f.type,
		.misc = f.misc,
		.size = f.size,
		.p = c->p,
	};
	c->p += f.size;
	c->at += f.size;
	return true;
}

#endif
