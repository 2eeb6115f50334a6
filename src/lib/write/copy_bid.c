// SPDX-License-Identifier: MIT
/*
 * copy --build-ids hit: the BUILD_ID feature's entries of the DSOs that a
 * written sample hits, as perf record writes them (builtin-record.c
 * record__process_buildids: perf_session__process_events marks each
 * sample's DSO hit, then write_build_id writes the hit ones only).  The
 * hits are those of `buildids --hits` (buildid_list.c, the one mapping
 * of samples to DSOs), counting the samples the copy keeps.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/buildid_list.h"
#include "lib/format/features.h"
#include "lib/session/event.h"
#include "lib/write/copy_int.h"

static void build(struct copy *c)
{
	pd_bid_list_build_hits(c->bids, c->s, false, true, c->o->filter);
}

int copy_bid_init(struct copy *c)
{
	if (!c->o->build_ids_hit)
		return 0;
	if (c->s->pipe.live)
		return copy_refuse(
			c, "--build-ids hit: a pipe-mode recording "
			   "is read a single time, as it arrives; copy it "
			   "to a file first, then copy that");
	c->bids = calloc(1, sizeof(*c->bids));
	if (!c->bids)
		return copy_refuse(c, "out of memory");
	copy_quietly(c, build);
	return 0;
}

void copy_bid_free(struct copy *c)
{
	if (!c->bids)
		return;
	pd_bid_list_free(c->bids);
	free(c->bids);
	c->bids = NULL;
}

static bool hit(const struct copy *c, const struct pd_build_id *e)
{
	const struct pd_bid_entry *b;

	if (!e->build_id)
		return false;
	b = pd_bid_list_find(c->bids, e->build_id, e->build_id_size,
			     e->filename.s, e->filename.len);
	return b && b->samples;
}

bool copy_bid_keep_hits(struct copy *c, struct feat_out *w, uint8_t *in)
{
	const struct feat_build_id *m;
	struct pd_frame fr;
	size_t at = 0, out = 0, k = 0, kept = 0;

	m = w->f->model; /* decoded by pd_copy (pd_decode_features) */
	if (!m || c->bids->hits.capped) {
		copy_note(c, "HEADER_BUILD_ID: every entry kept: %s",
			  m ? "too many maps to tell the DSOs hit"
			    : "its entries could not be read");
		free(in);
		return true;
	}
	/* entry k is the model's k-th (feat_meta.c parse_feat_build_id);
	 * the kept ones moved down in place */
	while (at < w->size &&
	       pd_frame(in + at, in + w->size, c->swap, &fr) ==
		       PD_FRAME_WHOLE &&
	       k < m->nr && m->v[k].size == fr.size) {
		if (hit(c, &m->v[k])) {
			memmove(in + out, in + at, fr.size);
			out += fr.size;
			kept++;
		}
		at += fr.size;
		k++;
	}
	if (at != w->size || k != m->nr) {
		copy_note(c, "HEADER_BUILD_ID: every entry kept: its entries "
			     "could not be told apart");
		free(in);
		return true;
	}
	copy_note(c,
		  "HEADER_BUILD_ID: %zu of %zu entries written, those of the "
		  "DSOs the written samples hit",
		  kept, m->nr);
	w->bytes = in;
	w->size = out;
	return out > 0;
}
