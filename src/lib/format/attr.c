// SPDX-License-Identifier: MIT
/*
 * perf_event_attr decoding.  Layout checked against
 * include/uapi/linux/perf_event.h (VER0..VER8) and the pending VER9
 * config4:
 *
 *   0 u32 type          4 u32 size          8 u64 config
 *  16 u64 sample_period/freq                24 u64 sample_type
 *  32 u64 read_format   40 u64 flags (bit-field)
 *  48 u32 wakeup_events/watermark           52 u32 bp_type
 *  56 u64 config1       64 u64 config2 (VER1)
 *  72 u64 branch_sample_type (VER2)
 *  80 u64 sample_regs_user  88 u32 sample_stack_user  92 s32 clockid (VER3)
 *  96 u64 sample_regs_intr (VER4)
 * 104 u32 aux_watermark  108 u16 sample_max_stack  110 u16 __reserved_2 (VER5)
 * 112 u32 aux_sample_size  116 u32 aux_action bit-field (VER6)
 * 120 u64 sig_data (VER7)   128 u64 config3 (VER8)   136 u64 config4 (VER9)
 */
#include "lib/format/attr.h"

#include <string.h>

uint64_t pd_bitrev64(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++, v >>= 1)
		r = r << 1 | (v & 1);
	return r;
}

static uint32_t bitrev32(uint32_t v)
{
	return (uint32_t)(pd_bitrev64(v) >> 32);
}

bool pd_attr_parse(struct cursor *c, size_t len, bool big_endian,
		   struct pd_attr *a)
{
	struct cursor ac;
	uint64_t start = cur_off(c);

	memset(a, 0, sizeof(*a));
	a->offset = start;
	if (len > cur_left(c)) {
		cur_fail(c, cur_short_code(c), "perf_event_attr",
			 "need %zu bytes, %zu left", len, cur_left(c));
		return false;
	}
	ac = cur_sub(c, "perf_event_attr", len);
	a->type = cur_u32(&ac, "type");
	a->size = cur_u32(&ac, "size");
	if (!cur_ok(&ac))
		return false;
	uint32_t size = a->size ? a->size : PD_ATTR_SIZE_VER0;

	if (size < PD_ATTR_SIZE_VER0)
		pd_diag_add(c->diags, PD_C_UNUSUAL, c->where, PD_WARN,
			    start + 4, "perf_event_attr",
			    "attr.size %u is smaller than the first layout (64 "
			    "bytes)",
			    a->size);
	if (size > len)
		pd_diag_add(c->diags, PD_C_UNUSUAL, c->where, PD_WARN,
			    start + 4, "perf_event_attr",
			    "attr.size %u is larger than the %zu bytes it was "
			    "given; decoding those",
			    size, len);
	a->avail = size < len ? size : (uint32_t)len;
	/* the cursor covers exactly the attr's bytes: fields past it are absent */
	ac.len = a->avail;

#define FIELD(off, lenb, dst, rd)               \
	do {                                    \
		if (attr_has(a, off, lenb))     \
			a->dst = rd(&ac, #dst); \
	} while (0)
	FIELD(8, 8, config, cur_u64);
	FIELD(16, 8, sample_period, cur_u64);
	FIELD(24, 8, sample_type, cur_u64);
	FIELD(32, 8, read_format, cur_u64);
	FIELD(40, 8, flags, cur_u64);
	FIELD(48, 4, wakeup_events, cur_u32);
	FIELD(52, 4, bp_type, cur_u32);
	FIELD(56, 8, config1, cur_u64);
	FIELD(64, 8, config2, cur_u64);
	FIELD(72, 8, branch_sample_type, cur_u64);
	FIELD(80, 8, sample_regs_user, cur_u64);
	FIELD(88, 4, sample_stack_user, cur_u32);
	FIELD(92, 4, clockid, cur_s32);
	FIELD(96, 8, sample_regs_intr, cur_u64);
	FIELD(104, 4, aux_watermark, cur_u32);
	FIELD(108, 2, sample_max_stack, cur_u16);
	FIELD(110, 2, reserved_2, cur_u16);
	FIELD(112, 4, aux_sample_size, cur_u32);
	FIELD(116, 4, aux_action, cur_u32);
	FIELD(120, 8, sig_data, cur_u64);
	FIELD(128, 8, config3, cur_u64);
	FIELD(136, 8, config4, cur_u64);
#undef FIELD
	if (a->avail > PD_ATTR_SIZE_KNOWN) {
		a->nextra = a->avail - PD_ATTR_SIZE_KNOWN;
		a->extra_offset = start + PD_ATTR_SIZE_KNOWN;
		a->extra = cur_bytes(&ac, "bytes beyond the known layout",
				     a->nextra);
	}
	/*
	 * A big-endian producer allocates bit-fields from the most significant
	 * bit: read in its byte order, the flag word is bit-reversed
	 * (perf session.c swap_bitfield).  Same for aux_action.
	 */
	if (big_endian) {
		a->flags = pd_bitrev64(a->flags);
		a->aux_action = bitrev32(a->aux_action);
	}
	return cur_ok(&ac);
}
