/* SPDX-License-Identifier: MIT */
/*
 * perf_event_attr, every field of every size up to the newest
 * (include/uapi/linux/perf_event.h; FORMAT.md §5).  A field exists only if
 * the attr's own size covers it (attr_has()); bytes beyond the newest
 * layout perfdump knows are kept, never refused.
 */
#ifndef PD_ATTR_H
#define PD_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"

/* Sizes of the published layouts (PERF_ATTR_SIZE_VER0..8, VER9 pending). */
#define PD_ATTR_SIZE_VER0  64
#define PD_ATTR_SIZE_VER8  136
#define PD_ATTR_SIZE_KNOWN 144 /* through config4 (VER9, pending) */

/* attr flag bits (FORMAT.md §5.2) that decoding depends on */
#define PD_ATTR_DISABLED      (1ULL << 0)
#define PD_ATTR_FREQ	      (1ULL << 10)
#define PD_ATTR_PRECISE_SHIFT 15
#define PD_ATTR_SAMPLE_ID_ALL (1ULL << 18)
#define PD_ATTR_USE_CLOCKID   (1ULL << 25)
#define PD_ATTR_BUILD_ID      (1ULL << 34)

/* PERF_SAMPLE_* bits */
enum {
	PD_SAMPLE_IP = 1 << 0,
	PD_SAMPLE_TID = 1 << 1,
	PD_SAMPLE_TIME = 1 << 2,
	PD_SAMPLE_ADDR = 1 << 3,
	PD_SAMPLE_READ = 1 << 4,
	PD_SAMPLE_CALLCHAIN = 1 << 5,
	PD_SAMPLE_ID = 1 << 6,
	PD_SAMPLE_CPU = 1 << 7,
	PD_SAMPLE_PERIOD = 1 << 8,
	PD_SAMPLE_STREAM_ID = 1 << 9,
	PD_SAMPLE_RAW = 1 << 10,
	PD_SAMPLE_BRANCH_STACK = 1 << 11,
	PD_SAMPLE_REGS_USER = 1 << 12,
	PD_SAMPLE_STACK_USER = 1 << 13,
	PD_SAMPLE_WEIGHT = 1 << 14,
	PD_SAMPLE_DATA_SRC = 1 << 15,
	PD_SAMPLE_IDENTIFIER = 1 << 16,
	PD_SAMPLE_TRANSACTION = 1 << 17,
	PD_SAMPLE_REGS_INTR = 1 << 18,
	PD_SAMPLE_PHYS_ADDR = 1 << 19,
	PD_SAMPLE_AUX = 1 << 20,
	PD_SAMPLE_CGROUP = 1 << 21,
	PD_SAMPLE_DATA_PAGE_SIZE = 1 << 22,
	PD_SAMPLE_CODE_PAGE_SIZE = 1 << 23,
	PD_SAMPLE_WEIGHT_STRUCT = 1 << 24,
	PD_SAMPLE_MAX = 1 << 25,
};

/* PERF_FORMAT_* bits */
enum {
	PD_FORMAT_TOTAL_TIME_ENABLED = 1 << 0,
	PD_FORMAT_TOTAL_TIME_RUNNING = 1 << 1,
	PD_FORMAT_ID = 1 << 2,
	PD_FORMAT_GROUP = 1 << 3,
	PD_FORMAT_LOST = 1 << 4,
	PD_FORMAT_MAX = 1 << 5,
};

/* PERF_SAMPLE_BRANCH_* bits that change the sample layout */
#define PD_BRANCH_HW_INDEX (1ULL << 17)
#define PD_BRANCH_COUNTERS (1ULL << 19)

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
 * (FORMAT.md §1.1).  Returns false if not even the first 8 bytes were
 * there.
 */
bool pd_attr_parse(struct cursor *c, size_t len, bool big_endian,
		   struct pd_attr *a);

/* precise_ip, 0..3 */
static inline unsigned attr_precise_ip(const struct pd_attr *a)
{
	return (unsigned)(a->flags >> PD_ATTR_PRECISE_SHIFT) & 3;
}

/* Reverse all 64 bits (big-endian producers' bit-fields). */
uint64_t pd_bitrev64(uint64_t v);

#endif
