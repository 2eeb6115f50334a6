/* SPDX-License-Identifier: MIT */
/*
 * Record framing, the one place that reads a perf_event_header
 * {u32 type; u16 misc; u16 size} (include/uapi/linux/perf_event.h) and
 * says whether the bytes hold a whole record.  The reader (reader.c, and
 * its inline hot path in reader.h) runs it over the file's bytes and over
 * decompressed bytes alike.
 */
#ifndef PD_FRAME_H
#define PD_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/cursor.h"
#include "lib/format/perf_abi.h"

struct pd_frame {
	uint32_t type;
	uint16_t misc;
	uint16_t size; /* header.size, including the header */
};

enum {
	PD_FRAME_BAD = -1,  /* size < 8: the next record cannot be found */
	PD_FRAME_MORE = 0,  /* fewer bytes than a header, or than its size */
	PD_FRAME_WHOLE = 1, /* a whole record of f->size bytes at p */
};

/*
 * Frame the record at p (lim: the end of the bytes there are).  The
 * header is decoded (into *f) whenever its 8 bytes are there.
 */
static inline int pd_frame(const uint8_t *p, const uint8_t *lim, bool swap,
			   struct pd_frame *f)
{
	size_t avail = (size_t)(lim - p);

	if (avail < 8)
		return PD_FRAME_MORE;
	f->type = pd_get32(p, swap);
	f->misc = pd_get16(p + 4, swap);
	f->size = pd_get16(p + 6, swap);
	if (f->size < 8)
		return PD_FRAME_BAD;
	return f->size <= avail ? PD_FRAME_WHOLE : PD_FRAME_MORE;
}

/*
 * Bytes that follow a record beyond header.size
 * (tools/perf/util/session.c: perf_session__process_user_event):
 * HEADER_TRACING_DATA's u32 size when the record is perf's 12- or 16-byte
 * form (simpleperf's carries the data inside the record), AUXTRACE's u64
 * size (not in pre-upstream Google streams, whose type 71 is a feature).
 */
static inline uint64_t pd_record_payload(uint32_t type, const uint8_t *p,
					 uint16_t size, bool swap,
					 bool legacy_google)
{
	if (type == PD_REC_HEADER_TRACING_DATA && size >= 12 && size <= 16)
		return pd_get32(p + 8, swap);
	if (type == PD_REC_AUXTRACE && size >= 16 && !legacy_google)
		return pd_get64(p + 8, swap);
	return 0;
}

/*
 * Pre-upstream Google pipe streams send the header features as record
 * types 66 + feature id (69..80) before the first HEADER_ATTR.  The
 * feature id a record carries, or 0.
 */
static inline unsigned pd_legacy_feature(bool legacy_google, bool seen_attr,
					 uint32_t type)
{
	uint32_t id = type - PD_REC_LEGACY_FEATURE_BASE; /* wraps below */

	return legacy_google && !seen_attr && id >= HEADER_HOSTNAME &&
			       id <= HEADER_NUMA_TOPOLOGY
		       ? id
		       : 0;
}

#endif
