/* SPDX-License-Identifier: MIT */
/*
 * Feature sections: ids and names (tools/perf/util/header.h, simpleperf's
 * record_file.h), and the decoder registry.  Each decoder turns the bytes
 * of one feature into a model struct (feat_*.h) and never prints.
 */
#ifndef PD_FEATURES_H
#define PD_FEATURES_H

#include <stdbool.h>

#include "cursor.h"
#include "session.h"

enum {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_CPU_DOMAIN_INFO,
	HEADER_LAST_FEATURE, /* 33: sentinel, never set in files */
	/* simpleperf (system/extras/simpleperf/record_file.h) */
	SP_FEAT_FILE = 128,
	SP_FEAT_META_INFO,
	SP_FEAT_DEBUG_UNWIND,
	SP_FEAT_DEBUG_UNWIND_FILE,
	SP_FEAT_FILE2,
	SP_FEAT_ETM_BRANCH_LIST,
	SP_FEAT_INIT_MAP,
};

/*
 * Decoder for one feature.  `c` covers one part of the feature's bytes
 * (file section, HEADER_FEATURE payload, or one build-id record); the
 * decoder allocates its model from s->arena on the first call and appends
 * to it on later ones (multi-part features).  It reads only through `c`;
 * bytes it leaves unread are reported by the caller.
 */
typedef void (*pd_feat_parse_fn)(struct pd_session *s, struct pd_feature *f,
				 struct cursor *c);

struct pd_feat_ops {
	const char *name; /* perf's name without HEADER_, e.g. "CPU_TOPOLOGY" */
	pd_feat_parse_fn parse; /* NULL: no payload is decoded (hex only) */
	bool flag_only; /* perf writes no payload (BRANCH_STACK, STAT) */
};

/*
 * Some pipe-mode writers (perf_data_converter's "aligned" 6.12 files) pad
 * each HEADER_FEATURE payload with up to 7 zero bytes to a multiple of 8.
 * pd_feat_more_data(): bytes remain in `c` that are not such padding;
 * pd_feat_skip_padding(): consume that padding after a decoded feature.
 * Section-mode features have no padding: every byte left is reported.
 */
bool pd_feat_more_data(const struct pd_feature *f, const struct cursor *c);
void pd_feat_skip_padding(const struct pd_feature *f, struct cursor *c);

/* The registry entry for an id, or NULL for ids nobody defines. */
const struct pd_feat_ops *pd_feat_ops(unsigned id);
/* "HOSTNAME", "SP_META_INFO", ... or NULL when unknown. */
const char *pd_feat_name(unsigned id);
/* Parse "hostname", "HEADER_HOSTNAME", "Hostname", "3" -> id; -1 if none. */
int pd_feat_lookup(const char *name);

#include "feat_sys.h"
#include "feat_meta.h"
#include "feat_topo.h"

#endif
