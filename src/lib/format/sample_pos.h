/* SPDX-License-Identifier: MIT */
/*
 * The positions of a sample's fixed-size leading fields, from its attr's
 * sample_type alone (tools/perf/util/evsel.c __evsel__parse_sample reads
 * them in this order): what the fast paths read in place (stats,
 * profile, the time order's TIME) and what the event list keeps per
 * evsel.
 */
#ifndef PD_SAMPLE_POS_H
#define PD_SAMPLE_POS_H

#include <stdint.h>

/*
 * Where the fixed-size leading fields of a sample sit, as u64 slots from
 * the start of the record (slot 0 is the header), -1 when absent; slots:
 * the first slot past them (PERIOD and everything before it); callchain:
 * the slot of CALLCHAIN's nr when nothing of variable size (READ) comes
 * before it, else -1.
 */
struct pd_sample_pos {
	int tid, time, cpu, period;
	int slots;
	int ip;
	int callchain;
};
void pd_sample_positions(uint64_t sample_type, struct pd_sample_pos *pos);

#endif
