/* SPDX-License-Identifier: MIT */
/*
 * Feature sections: ids and names (tools/perf/util/header.h, simpleperf's
 * record_file.h), and the decoder registry.  Each decoder turns the bytes
 * of one feature into a model struct (feat_*.h) and never prints; the
 * decoders include feat_ctx.h, not this header, which includes their
 * models for the users of the registry.
 */
#ifndef PD_FEATURES_H
#define PD_FEATURES_H

#include <stdbool.h>

#include "lib/format/feat_ctx.h"
#include "lib/format/perf_abi.h"

struct pd_feat_ops {
	const char *name; /* perf's name without HEADER_, e.g. "CPU_TOPOLOGY" */
	pd_feat_parse_fn parse; /* NULL: no payload is decoded (hex only) */
	bool flag_only; /* perf writes no payload (BRANCH_STACK, STAT) */
};

/* The registry entry for an id, or NULL for ids nobody defines. */
const struct pd_feat_ops *pd_feat_ops(unsigned id);
/* "HOSTNAME", "SP_META_INFO", ... or NULL when unknown. */
const char *pd_feat_name(unsigned id);
/* Parse "hostname", "HEADER_HOSTNAME", "Hostname", "3" -> id; -1 if none. */
int pd_feat_lookup(const char *name);

#include "lib/format/feat_sys.h"
#include "lib/format/feat_meta.h"
#include "lib/format/feat_topo.h"

#endif
