// SPDX-License-Identifier: MIT
/*
 * Sample words packed with bit-fields: perf_branch_entry.flags and
 * perf_mem_data_src (include/uapi/linux/perf_event.h).
 */
#include "lib/session/sample.h"

static uint64_t bits(uint64_t v, unsigned lo, unsigned n)
{
	return (v >> lo) & ((1ULL << n) - 1);
}

/*
 * struct perf_branch_entry's flags has no explicit big-endian layout:
 * a big-endian producer allocates the bit-fields from the most
 * significant bit down (mispred at 63), so the positions mirror the
 * little-endian ones (evsel.c evsel__bitfield_swap_branch_flags).  The
 * word is read in the producer's byte order first.
 *
 *   field      little-endian   big-endian
 *   mispred    0               63
 *   predicted  1               62
 *   in_tx      2               61
 *   abort      3               60
 *   cycles     4-19            44-59
 *   type       20-23           40-43
 *   spec       24-25           38-39
 *   new_type   26-29           34-37
 *   priv       30-32           31-33
 *   reserved   33-63           0-30
 */
void pd_branch_flags_split(uint64_t f, bool big_endian,
			   struct pd_branch_entry *be)
{
	be->flags = f;
	if (!big_endian) {
		be->mispred = bits(f, 0, 1);
		be->predicted = bits(f, 1, 1);
		be->in_tx = bits(f, 2, 1);
		be->abort = bits(f, 3, 1);
		be->cycles = (uint16_t)bits(f, 4, 16);
		be->type = (uint8_t)bits(f, 20, 4);
		be->spec = (uint8_t)bits(f, 24, 2);
		be->new_type = (uint8_t)bits(f, 26, 4);
		be->priv = (uint8_t)bits(f, 30, 3);
		be->reserved = bits(f, 33, 31);
	} else {
		be->mispred = bits(f, 63, 1);
		be->predicted = bits(f, 62, 1);
		be->in_tx = bits(f, 61, 1);
		be->abort = bits(f, 60, 1);
		be->cycles = (uint16_t)bits(f, 44, 16);
		be->type = (uint8_t)bits(f, 40, 4);
		be->spec = (uint8_t)bits(f, 38, 2);
		be->new_type = (uint8_t)bits(f, 34, 4);
		be->priv = (uint8_t)bits(f, 31, 3);
		be->reserved = bits(f, 0, 31);
	}
}

/*
 * union perf_mem_data_src defines both bit orders, so the numeric
 * positions hold for either producer once the u64 is read in its order.
 */
void pd_data_src_split(uint64_t v, struct pd_data_src *d)
{
	d->op = (uint8_t)bits(v, 0, 5);
	d->lvl = (uint16_t)bits(v, 5, 14);
	d->snoop = (uint8_t)bits(v, 19, 5);
	d->lock = (uint8_t)bits(v, 24, 2);
	d->dtlb = (uint8_t)bits(v, 26, 7);
	d->lvl_num = (uint8_t)bits(v, 33, 4);
	d->remote = bits(v, 37, 1);
	d->snoopx = (uint8_t)bits(v, 38, 2);
	d->blk = (uint8_t)bits(v, 40, 3);
	d->hops = (uint8_t)bits(v, 43, 3);
	d->reserved = (uint32_t)bits(v, 46, 18);
}
