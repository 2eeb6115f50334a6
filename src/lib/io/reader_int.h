/* SPDX-License-Identifier: MIT */
/* The reader's insides (reader.c, reader_z.c); see reader.h. */
#ifndef PD_READER_INT_H
#define PD_READER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <zstd.h>

#include "lib/io/reader.h"
#include "lib/io/stream.h"

#define NSEG 16

/* PD_READAHEAD_ALWAYS: read ahead on every source (a flag of r->flags) */
#define READ_AHEAD_ALWAYS (1u << 31)

/* A record framed in the file's bytes. */
struct pd_rec {
	uint64_t off; /* file offset of the record header */
	uint32_t type;
	uint16_t misc;
	uint16_t size;	  /* header.size, including the header */
	const uint8_t *p; /* size bytes; valid until the next call */
	uint64_t payload; /* bytes after header.size (66, 71) */
	int job;	  /* a container framed ahead: its job
			   * (reader_zahead.c); else -1 */
};

/* Which container produced the decompressed bytes from inner_start on. */
struct seg {
	uint64_t inner_start;
	uint64_t container;
};

/*
 * A container's output (reader_z.c), after ZCARRY bytes of room where the
 * start of a record cut by the container before is copied.
 */
#define ZCARRY 65536u
/*
 * One container's output larger than this is refused (memory bound): perf
 * compresses at most one mmap flush into a record, and a record holds
 * less than 64 KiB of zstd data.  Two such buffers are the most the
 * decompressed side holds in the plain mode (reader_zahead.c says how
 * much the fast mode holds).
 */
#define ZOUT_MAX   (16u << 20)
#define ZOUT_START (1u << 20)
/*
 * The largest zstd window decoded: 8 MiB.  zstd keeps a window of
 * history, as large as the frame declares (its own limit is 2^27, 128
 * MiB), on top of the two output buffers of up to ZOUT_MAX each, so that
 * window, not more, keeps the decompressed side under 48 MiB.  perf's
 * levels 1 to 19 (perf record -z, --compression-level) use windows of
 * 2^23 at most (zstd's lib/compress/clevels.h), its levels 20 to 22 more.
 * A larger one is refused: zstd-window-too-large.
 */
#define ZWINDOW_LOG_MAX PD_ZSTD_WINDOW_LOG_MAX
_Static_assert((1u << ZWINDOW_LOG_MAX) <= ZOUT_MAX, "window <= ZOUT_MAX");
/* pd_z_inflate's answer when a frame's window is above ZWINDOW_LOG_MAX */
extern const char pd_z_window_too_large[];
/* A new decompressor with the window cap (NULL: out of memory). */
ZSTD_DStream *pd_z_new(void);

struct zout {
	uint8_t *buf; /* ZCARRY, then len decompressed bytes */
	size_t cap, len;
};

/* One input stream's decompressor and its undelivered output. */
struct zstate {
	ZSTD_DStream *zd;
	struct zout out[2];  /* the one handed out from, and the next */
	int cur;	     /* which */
	const uint8_t *buf;  /* out[cur].buf, or NULL before any */
	size_t head, tail;   /* undelivered bytes are buf[head..tail) */
	uint64_t inner_head; /* decompressed offset of buf[head] */
	uint64_t skip;	     /* payload bytes (66/71) still to skip */
	struct seg seg[NSEG];
	int nseg;
	bool broken;	      /* stop decompressing this stream */
	struct zahead *ahead; /* fast mode: decompressing on a helper */
};

struct source {
	struct pd_stream st;
	struct pd_input in; /* data.N: its own file */
	bool own_input;
	/*
	 * data.N not opened yet: its name (the session's), opened when the
	 * walk gets there and closed when it is done, so that a directory of
	 * many data.N files holds one descriptor at a time.
	 */
	const char *lazy_name;
	uint64_t lazy_start, lazy_skip; /* where to start in it */
	int index;	   /* -1 the main stream, else data.N's N */
	uint64_t data_end; /* the file offset after its last whole record */
	bool seen_attr;	   /* a HEADER_ATTR went by (legacy streams) */
	char what[48];
	struct zstate z;
};

/* What the cursor stands on. */
enum { AIM_NONE, AIM_FILE, AIM_Z };

struct pd_reader {
	struct pd_reader_cursor c; /* first: pd_reader_take_fast reads it */
	const uint8_t *c_start;	   /* where the cursor was set */
	int aim;
	bool swap;
	bool legacy_google;
	struct pd_diags *diags;
	unsigned flags;
	const char *dir;	      /* the directory of data.N files */
	struct pd_input_count *count; /* where their reads are counted */
	struct source *src;
	int nsrc, cur;
	uint8_t *payload; /* PD_READ_PAYLOADS: reused buffer */
	size_t payload_cap;
	struct pd_reader_stats stats;
	uint8_t rec_copy[65536]; /* a record whose payload is read */
};

static inline bool is_container(uint32_t type)
{
	return type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2;
}

/* reader_z.c: the decompressed side of a source */
/* A container's zstd bytes; false when COMPRESSED2's data_size is bad. */
bool pd_z_data(bool swap, const struct pd_rec *rec, const uint8_t **zp,
	       size_t *zlen);
/*
 * Room in o for `need` more bytes of output: the capacity that takes
 * (o->cap when there is room; 0 past ZOUT_MAX), and growing it.
 */
size_t pd_z_room_size(const struct zout *o, size_t need);
bool pd_z_room(struct zout *o, size_t need);
typedef bool (*pd_z_room_fn)(void *arg, struct zout *o, size_t need);
/*
 * All of a container's output, into o after its ZCARRY bytes of room,
 * growing it with room().  Returns NULL, or why it stopped: zstd's error
 * name, or "" when room() refused (past ZOUT_MAX).
 */
const char *pd_z_inflate(ZSTD_DStream *zd, ZSTD_inBuffer *in, struct zout *o,
			 pd_z_room_fn room, void *arg);
void pd_z_decompress(struct pd_reader *r, struct source *src,
		     const struct pd_rec *rec);
bool pd_z_deliver(struct pd_reader *r, struct source *src, struct pd_event *ev);
/* The container the byte at inner came out of; *bound: where the next
 * container's bytes begin (UINT64_MAX: none yet). */
uint64_t pd_z_container(const struct zstate *z, uint64_t inner,
			uint64_t *bound);
void pd_z_consume(struct zstate *z, size_t n);
/* At the end of the source: says so if a record was left unfinished. */
void pd_z_end(struct pd_reader *r, struct source *src);
void pd_z_free(struct zstate *z);

/* reader_zahead.c: decompression on a helper thread (the fast mode) */
/* Does this source decompress on a helper? */
bool pd_zahead_want(const struct pd_reader *r, const struct source *src);
/* Frame ahead in the bytes the source's stream holds. */
void pd_zahead_fill(struct pd_reader *r, struct source *src);
/* The oldest record framed ahead, if any. */
bool pd_zahead_pop(struct source *src, struct pd_rec *rec);
bool pd_zahead_pending(const struct source *src);
/*
 * A container's output through the helper, swapped into o (false: the
 * source decompresses on the caller's thread); *why as pd_z_inflate's.
 */
bool pd_zahead_take(struct pd_reader *r, struct source *src,
		    const struct pd_rec *rec, const uint8_t *zp, size_t zlen,
		    struct zout *o, const char **why);
void pd_zahead_free(struct zahead *a);

#endif
