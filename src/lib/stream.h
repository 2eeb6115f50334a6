/* SPDX-License-Identifier: MIT */
/*
 * Record framing: walks perf_event_header-framed records through a bounded
 * window (never the whole file), from a data section, a data.N file or a
 * pipe stream.  Knows the two records whose payload follows header.size
 * (HEADER_TRACING_DATA 66, AUXTRACE 71; FORMAT.md §7.3) and skips their
 * payload unless the caller reads it.
 */
#ifndef PD_STREAM_H
#define PD_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "input.h"

#define PD_REC_HEADER_TRACING_DATA 66
#define PD_REC_AUXTRACE		   71

struct pd_rec {
	uint64_t off; /* file offset of the record header */
	uint32_t type;
	uint16_t misc;
	uint16_t size;	  /* header.size, including the header */
	const uint8_t *p; /* size bytes; valid until the next call */
	uint64_t payload; /* bytes after header.size (66, 71) */
};

struct pd_stream {
	struct pd_input *in;
	uint64_t pos; /* file offset of buf[head] */
	uint64_t end; /* UINT64_MAX: until end of input */
	uint8_t *buf;
	size_t cap, head, tail;
	bool eof;      /* input exhausted (tail is all there is) */
	uint64_t skip; /* payload still to skip */
	bool swap;
	bool ioerr;
	/*
	 * Pre-upstream Google pipe streams reuse type 71 for a header
	 * feature, long before AUXTRACE existed: no payload follows it.
	 */
	bool legacy_google;
	struct pd_diags *diags;
	const char *what;      /* "data section", "pipe stream", "data.3" */
	struct pd_where where; /* the same, for the diagnostics */
};

/*
 * Bytes that follow a record beyond header.size (FORMAT.md §7.3):
 * HEADER_TRACING_DATA's u32 size when the record is perf's 12- or 16-byte
 * form (simpleperf's carries the data inside the record), AUXTRACE's u64
 * size (not in pre-upstream Google streams, whose type 71 is a feature).
 */
uint64_t pd_record_payload(uint32_t type, const uint8_t *p, uint16_t size,
			   bool swap, bool legacy_google);

/*
 * Pre-upstream Google pipe streams send the header features as record
 * types 66 + feature id (69..80) before the first HEADER_ATTR.  The
 * feature id a record carries, or 0.
 */
static inline unsigned pd_legacy_feature(bool legacy_google, bool seen_attr,
					 uint32_t type)
{
	return legacy_google && !seen_attr && type >= 69 && type <= 80
		       ? type - 66
		       : 0;
}

void pd_stream_init(struct pd_stream *st, struct pd_input *in, uint64_t start,
		    uint64_t end, bool swap, struct pd_diags *diags,
		    const char *what, struct pd_where where);
void pd_stream_free(struct pd_stream *st);

/* 1: a record; 0: clean end; -1: damaged or I/O error (diagnostic added). */
int pd_stream_next(struct pd_stream *st, struct pd_rec *r);

/*
 * Read the payload that follows the record just returned (66/71) into
 * *buf (realloc'd, capacity *cap; the caller frees it).  Memory grows with
 * the bytes actually read, never with the declared size.  Returns 0 with
 * *got == declared size, or -1 when the input ended early (*got tells how
 * much arrived; diagnostic added).
 */
int pd_stream_read_payload(struct pd_stream *st, uint8_t **buf, size_t *cap,
			   uint64_t *got);

#endif
