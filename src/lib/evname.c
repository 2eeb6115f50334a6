// SPDX-License-Identifier: MIT
/*
 * Event names from perf_event_attr (see evname.h).  Tables checked against
 * include/uapi/linux/perf_event.h (torvalds/linux 00093b31); names as
 * perf 6.1 gives them: tools/perf/util/evsel.c evsel__hw_name,
 * evsel__sw_name, evsel__hw_cache_name, evsel__raw_name, evsel__bp_name.
 */
#include "evname.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "feat_meta.h"
#include "features.h"
#include "session.h"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* enum perf_type_id */
const char *pd_attr_type_name(uint32_t type)
{
	static const char *const names[] = {
		"HARDWARE", "SOFTWARE", "TRACEPOINT",
		"HW_CACHE", "RAW",	"BREAKPOINT",
	};

	return type < NELEMS(names) ? names[type] : NULL;
}

/* The PMU HEADER_PMU_MAPPINGS names for a type, or NULL. */
const char *pd_pmu_mapping_name(const struct pd_session *s, uint32_t type,
				char *buf, size_t len)
{
	const struct pd_feature *f = pd_find_feature(s, HEADER_PMU_MAPPINGS);
	const struct feat_pmu_mappings *m = f ? f->model : NULL;

	for (uint32_t i = 0; m && i < m->nr_read; i++) {
		if (m->v[i].type == type) {
			snprintf(buf, len, "%.*s", (int)m->v[i].name.len,
				 m->v[i].name.s);
			return buf;
		}
	}
	return NULL;
}

/*
 * Dynamic PMU types (>= PERF_TYPE_MAX) are named by HEADER_PMU_MAPPINGS
 * when the recording has it.
 */
const char *pd_pmu_type_name(const struct pd_session *s, uint32_t type,
			     char *buf, size_t len)
{
	if (pd_attr_type_name(type))
		return pd_attr_type_name(type);
	return pd_pmu_mapping_name(s, type, buf, len);
}

/* enum perf_hw_id, named as perf's evsel__hw_names[] */
const char *pd_hw_event_name(uint64_t id)
{
	static const char *const names[] = {
		"cycles",
		"instructions",
		"cache-references",
		"cache-misses",
		"branches",
		"branch-misses",
		"bus-cycles",
		"stalled-cycles-frontend",
		"stalled-cycles-backend",
		"ref-cycles",
	};

	return id < NELEMS(names) ? names[id] : NULL;
}

/* enum perf_sw_ids, named as perf's evsel__sw_names[] */
const char *pd_sw_event_name(uint64_t id)
{
	static const char *const names[] = {
		"cpu-clock",	    "task-clock",
		"page-faults",	    "context-switches",
		"cpu-migrations",   "minor-faults",
		"major-faults",	    "alignment-faults",
		"emulation-faults", "dummy",
		"bpf-output",	    "cgroup-switches",
	};

	return id < NELEMS(names) ? names[id] : NULL;
}

/*
 * HW_CACHE config 0x00DDCCBB: cache BB, op CC, result DD, named as perf's
 * __evsel__hw_cache_type_op_res_name(): "L1-dcache-load-misses" for a
 * miss, "L1-dcache-loads" for an access.
 */
const char *pd_hw_cache_name(uint64_t config, char *buf, size_t len)
{
	static const char *const cache[] = {
		"L1-dcache", "L1-icache", "LLC",  "dTLB",
		"iTLB",	     "branch",	  "node",
	};
	static const char *const op[] = {"load", "store", "prefetch"};
	static const char *const ops[] = {"loads", "stores", "prefetches"};
	unsigned c = config & 0xff, o = config >> 8 & 0xff,
		 r = config >> 16 & 0xff;

	if ((config & 0xff000000) || c >= NELEMS(cache) || o >= NELEMS(op) ||
	    r > 1)
		return NULL;
	if (r)
		snprintf(buf, len, "%s-%s-misses", cache[c], op[o]);
	else
		snprintf(buf, len, "%s-%s", cache[c], ops[o]);
	return buf;
}

/* perf's __evsel__bp_name: "mem:0xADDR:rwx" (bp_addr is config1) */
static const char *bp_name(const struct pd_attr *a, char *buf, size_t len)
{
	if (!attr_has(a, 56, 8))
		return NULL;
	snprintf(buf, len, "mem:0x%" PRIx64 ":%s%s%s", a->config1,
		 a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
		 a->bp_type & 4 ? "x" : "");
	return buf;
}

const char *pd_attr_config_name(const struct pd_attr *a, char *buf, size_t len)
{
	uint64_t low = a->config & 0xffffffffULL;

	if (!attr_has(a, 8, 8))
		return NULL;
	switch (a->type) {
	case PD_TYPE_HARDWARE: return pd_hw_event_name(low);
	case PD_TYPE_SOFTWARE: return pd_sw_event_name(a->config);
	case PD_TYPE_HW_CACHE: return pd_hw_cache_name(low, buf, len);
	case PD_TYPE_RAW:
		snprintf(buf, len, "raw 0x%" PRIx64, a->config);
		return buf;
	case PD_TYPE_BREAKPOINT: return bp_name(a, buf, len);
	}
	return NULL;
}
