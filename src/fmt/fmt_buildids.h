/* SPDX-License-Identifier: MIT */
/*
 * Formatters for the build-id list (lib/analysis/buildid_list.h) and for the
 * resolution of one build-id (lib/analysis/buildid.h), shared by `buildids` and
 * `features --resolve`.
 */
#ifndef PD_FMT_BUILDIDS_H
#define PD_FMT_BUILDIDS_H

#include <stdbool.h>

#include "lib/analysis/buildid.h"
#include "lib/analysis/buildid_list.h"
#include "fmt/emit.h"

/*
 * The resolution fields of an entry, into the open entry object:
 * status, path, found_build_id, detail, tried[].
 */
void emit_bid_res(struct emitter *e, const struct pd_bid_res *r);

/* One entry of the list (a row). */
void emit_bid_entry(struct emitter *e, const struct pd_bid_entry *b,
		    bool resolved, bool with_hits);

/*
 * The "summary" object: entries (all), listed (shown), counts per status
 * and per source, and the sample counts of --hits.
 */
void emit_bid_summary(struct emitter *e, const struct pd_bid_list *l,
		      size_t listed, bool resolved);

#endif
