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

#include <stddef.h>
#include <string.h>

uint64_t pd_bitrev64(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++, v >>= 1)
		r = r << 1 | (v & 1);
	return r;
}

/*
 * The fields after type and size, in the order of struct perf_event_attr
 * (include/uapi/linux/perf_event.h), each with where it lies and where it
 * goes.  clockid is an s32 read as its u32 bits.
 */
#define F(o, l, n)                                    \
	{                                             \
		o, l, #n, offsetof(struct pd_attr, n) \
	}
static const struct attr_field {
	uint16_t off, len;
	const char *name;
	size_t dst;
} fields[] = {
	F(8, 8, config),
	F(16, 8, sample_period),
	F(24, 8, sample_type),
	F(32, 8, read_format),
	F(40, 8, flags),
	F(48, 4, wakeup_events),
	F(52, 4, bp_type),
	F(56, 8, config1),
	F(64, 8, config2),
	F(72, 8, branch_sample_type),
	F(80, 8, sample_regs_user),
	F(88, 4, sample_stack_user),
	F(92, 4, clockid),
	F(96, 8, sample_regs_intr),
	F(104, 4, aux_watermark),
	F(108, 2, sample_max_stack),
	F(110, 2, reserved_2),
	F(112, 4, aux_sample_size),
	F(116, 4, aux_action),
	F(120, 8, sig_data),
	F(128, 8, config3),
	F(136, 8, config4),
};
#undef F

const char *pd_attr_field_name(size_t off)
{
	if (off < 4)
		return "type";
	if (off < 8)
		return "size";
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (off < (size_t)fields[i].off + fields[i].len)
			return fields[i].name;
	return NULL;
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

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct attr_field *f = &fields[i];
		char *dst = (char *)a + f->dst;

		if (!attr_has(a, f->off, f->len))
			break; /* the fields are in order: none after it */
		if (f->len == 2)
			*(uint16_t *)dst = cur_u16(&ac, f->name);
		else if (f->len == 4)
			*(uint32_t *)dst = cur_u32(&ac, f->name);
		else
			*(uint64_t *)dst = cur_u64(&ac, f->name);
	}
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
