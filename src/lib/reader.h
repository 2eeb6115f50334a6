/* SPDX-License-Identifier: MIT */
/*
 * The record stream of a recording, whatever its shape: the data section
 * of a file (or everything after data.offset when data.size is 0), a pipe
 * stream, a directory's data section and data.N files; PERF_RECORD_
 * COMPRESSED (81) and COMPRESSED2 (83) decompressed transparently with
 * one zstd stream and one carry-over buffer per input stream (FORMAT.md
 * §7.4), so a record split across two compressed records is whole.
 * Memory is bounded: a window over the file, and a decompression buffer.
 */
#ifndef PD_READER_H
#define PD_READER_H

#include <stdbool.h>
#include <stdint.h>

struct pd_session;
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
	uint64_t payload_offset;      /* file offset of the payload */
	unsigned legacy_feature;      /* pre-upstream Google pipe streams:
				       * the header feature id a record of
				       * type 69..80 carries (0: none) */
};

enum {
	PD_READ_PAYLOADS = 1 << 0,	/* keep 66/71 payload bytes (bounded) */
	PD_READ_NO_DECOMPRESS = 1 << 1, /* hand out 81/83 records as they are */
	PD_READ_DATA_N = 1 << 2, /* also the data.N files of a directory */
};

/* Payload bytes kept with PD_READ_PAYLOADS: at most this many. */
#define PD_READ_PAYLOAD_MAX (16u << 20)

/*
 * Open the record stream of an opened session.  Returns NULL only when
 * out of memory.  Problems (torn records, bad zstd data) go to s->diags
 * and end the stream they happen in.
 */
struct pd_reader *pd_reader_open(struct pd_session *s, unsigned flags);

/*
 * Only one stream: -1 the data section (or pipe), N the directory's Nth
 * data.N file.  For merging streams by time.
 */
struct pd_reader *pd_reader_open_stream(struct pd_session *s, unsigned flags,
					int stream);

/* 1: an event; 0: the end of every stream; -1: I/O error (diag added). */
int pd_reader_next(struct pd_reader *r, struct pd_event *ev);

void pd_reader_close(struct pd_reader *r);

/* Totals, for summaries: compressed bytes in, decompressed bytes out. */
struct pd_reader_stats {
	uint64_t compressed_records; /* 81 and 83 records fed to zstd */
	uint64_t compressed_bytes;   /* their zstd bytes */
	uint64_t decompressed_bytes;
	uint64_t containers[2];	     /* COMPRESSED, COMPRESSED2 records read */
	uint64_t container_bytes[2]; /* their header.size, summed */
	uint64_t data_end; /* main stream: file offset after its last whole
			     * record (its payload included) */
};
void pd_reader_stats(const struct pd_reader *r, struct pd_reader_stats *st);

#endif
