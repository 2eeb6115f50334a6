/* SPDX-License-Identifier: MIT */
/*
 * perf_event_attr, every field of every size up to the newest
 * (include/uapi/linux/perf_event.h).  A field exists only if
 * the attr's own size covers it (attr_has()); bytes beyond the newest
 * layout perfdump knows are kept, never refused.
 */
#ifndef PD_ATTR_H
#define PD_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/cursor.h"
#include "lib/format/perf_abi.h"

struct pd_attr {
	uint64_t offset; /* file offset of the attr */
	uint32_t size;	 /* attr.size as stored (0 means 64) */
	uint32_t avail;	 /* bytes of the attr that were decoded */
	uint32_t type;
	uint64_t config;
	uint64_t sample_period; /* sample_freq when flags has freq */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;		/* bit-field, little-endian bit numbering */
	uint32_t wakeup_events; /* wakeup_watermark when flags has watermark */
	uint32_t bp_type;
	uint64_t config1; /* bp_addr, kprobe_func, uprobe_path */
	uint64_t config2; /* bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t aux_action; /* bit-field, like flags */
	uint64_t sig_data;
	uint64_t config3;
	uint64_t config4;     /* VER9 [pending] */
	const uint8_t *extra; /* bytes beyond PD_ATTR_SIZE_KNOWN */
	uint32_t nextra;
	uint64_t extra_offset;
};

/* Does the attr's size cover the field at [off, off + len)? */
static inline bool attr_has(const struct pd_attr *a, size_t off, size_t len)
{
	return off + len <= a->avail;
}

/*
 * Decode an attr from the next `len` bytes of c (len = the bytes the
 * container gives it: attr_size - 16, the record's room, EVENT_DESC's
 * attr_sz).  attr.size decides which fields exist; a size larger than len
 * decodes only len bytes (diagnostic), a size smaller leaves the rest.
 * `big_endian`: the producer's byte order, for the bit-field reversal
 * (tools/perf/util/session.c: perf_event__attr_swap).  Returns false if
 * not even the first 8 bytes were
 * there.
 */
bool pd_attr_parse(struct cursor *c, size_t len, bool big_endian,
		   struct pd_attr *a);

/*
 * The name of the perf_event_attr field that holds byte off ("config3"),
 * or NULL past the layout perfdump knows.
 */
const char *pd_attr_field_name(size_t off);

/* precise_ip, 0..3 */
static inline unsigned attr_precise_ip(const struct pd_attr *a)
{
	return (unsigned)(a->flags >> PD_ATTR_PRECISE_SHIFT) & 3;
}

/* Reverse all 64 bits (big-endian producers' bit-fields). */
uint64_t pd_bitrev64(uint64_t v);

#endif
