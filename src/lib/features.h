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
#include "perf_abi.h"
#include "session.h"

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

/*
 * What most decoders begin with.  pd_feat_model: the feature's model,
 * `size` zeroed bytes from the session's arena, set as f->model (NULL:
 * out of memory).  pd_feat_array: a counted array (perf's "u32 nr; nr x
 * {...}"): n entries of at least `min` bytes each must fit in what is
 * left of c (cur_check_count, whose diagnostic names `what`), then n
 * zeroed entries of `size` bytes (one at least, so that an empty array
 * is not NULL).  NULL: the count does not fit, or out of memory.
 */
void *pd_feat_model(struct pd_session *s, struct pd_feature *f, size_t size);
void *pd_feat_array(struct pd_session *s, struct cursor *c, const char *what,
		    uint64_t n, size_t min, size_t size);

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
