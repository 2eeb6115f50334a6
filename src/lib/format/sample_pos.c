// SPDX-License-Identifier: MIT
/* A sample's fixed-size leading fields (see sample_pos.h). */
#include "lib/format/sample_pos.h"

#include "lib/base/util.h"
#include "lib/format/perf_abi.h"

void pd_sample_positions(uint64_t st, struct pd_sample_pos *pos)
{
	/* the fixed-size fields, in __evsel__parse_sample order */
	static const uint64_t order[] = {
		PD_SAMPLE_IDENTIFIER, PD_SAMPLE_IP,   PD_SAMPLE_TID,
		PD_SAMPLE_TIME,	      PD_SAMPLE_ADDR, PD_SAMPLE_ID,
		PD_SAMPLE_STREAM_ID,  PD_SAMPLE_CPU,  PD_SAMPLE_PERIOD,
	};
	int slot = 1; /* slot 0 is the record header */

	*pos = (struct pd_sample_pos){.tid = -1,
				      .time = -1,
				      .cpu = -1,
				      .period = -1,
				      .ip = -1,
				      .callchain = -1};
	for (size_t i = 0; i < PD_NELEMS(order); i++) {
		if (!(st & order[i]))
			continue;
		switch (order[i]) {
		case PD_SAMPLE_IP: pos->ip = slot; break;
		case PD_SAMPLE_TID: pos->tid = slot; break;
		case PD_SAMPLE_TIME: pos->time = slot; break;
		case PD_SAMPLE_CPU: pos->cpu = slot; break;
		case PD_SAMPLE_PERIOD: pos->period = slot; break;
		default: break;
		}
		slot++;
	}
	pos->slots = slot;
	/* __evsel__parse_sample: READ, then CALLCHAIN */
	if ((st & PD_SAMPLE_CALLCHAIN) && !(st & PD_SAMPLE_READ))
		pos->callchain = slot;
}
