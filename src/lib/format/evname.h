/* SPDX-License-Identifier: MIT */
/*
 * Event names from perf_event_attr: the type and event name tables
 * (include/uapi/linux/perf_event.h; perf's names from
 * tools/perf/util/evsel.c evsel__hw_names, evsel__sw_names,
 * evsel__hw_cache*), used by the evlist to name an event the file names
 * nowhere (as evsel__name does) and by the attrs command for config_name.
 */
#ifndef PD_EVNAME_H
#define PD_EVNAME_H

#include <stddef.h>
#include <stdint.h>

#include "lib/format/attr.h"

/* enum perf_type_id 0..5 ("HARDWARE" ...), NULL otherwise. */
const char *pd_attr_type_name(uint32_t type);

/* perf's names: "cycles", "cpu-clock", ...; NULL if unknown. */
const char *pd_hw_event_name(uint64_t id);
const char *pd_sw_event_name(uint64_t id);
/* "L1-dcache-load-misses" from a HW_CACHE config's low 24 bits. */
const char *pd_hw_cache_name(uint64_t config, char *buf, size_t len);

/*
 * The event a fixed type (HARDWARE, SOFTWARE, HW_CACHE, RAW, BREAKPOINT)
 * and its config select, named as perf names it, without modifiers:
 * "cpu-clock", "raw 0x1a", "mem:0x1000:rw".  NULL for other types
 * (tracepoints are named by their format) and unknown configs.
 */
const char *pd_attr_config_name(const struct pd_attr *a, char *buf, size_t len);

/* The name of PMU type `type` (PMU_MAPPINGS) into buf, or NULL. */
typedef const char *pd_pmu_name_fn(void *ctx, uint32_t type, char *buf,
				   size_t len);

/*
 * An event's name from its attr alone, as perf 6.1's evsel__name composes
 * it, into buf (NULL when the attr cannot name it; evname.c has the rules
 * and where they leave an event unnamed).  pmu_of(ctx, ...) names the
 * dynamic and hybrid PMU types.  For events the file names nowhere
 * (evlist.c: after EVENT_DESC, EVENT_UPDATE and TRACING_DATA).
 */
const char *pd_attr_event_name(const struct pd_attr *a, pd_pmu_name_fn *pmu_of,
			       void *ctx, char *buf, size_t len);

#endif
