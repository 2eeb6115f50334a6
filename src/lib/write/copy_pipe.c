// SPDX-License-Identifier: MIT
/*
 * Pipe mode's head: what perf record -o - writes before the data
 * (tools/perf/util/synthetic-events.c: perf_event__synthesize_for_pipe,
 * perf_event__synthesize_attrs, perf_event__synthesize_features,
 * perf_event__synthesize_tracing_data, perf_event__synthesize_build_id;
 * header.c: perf_header__write_pipe):
 *
 *   struct perf_pipe_file_header {u64 magic "PERFILE2", u64 size 16}
 *   HEADER_ATTR per attr: {header, perf_event_attr, u64 ids[]}
 *   HEADER_FEATURE per feature: {header, u64 feat_id, the section's
 *       bytes}, then one with no bytes, the end of the features
 *   HEADER_TRACING_DATA: {header, u32 size, u32 pad}, then size bytes
 *       (the tracing data padded to 8), outside the record's size
 *   HEADER_BUILD_ID per entry of the BUILD_ID feature (its entries are
 *       laid out as these records: header, pid, build-id, filename)
 *
 * Every record's size is a u16: a feature or an attr with its ids that
 * does not fit is left out (a note) or refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/format/features.h"
#include "lib/format/frame.h"
#include "lib/session/evlist.h"
#include "lib/write/copy_int.h"

/* perf 6.1's HEADER_LAST_FEATURE, the end of its features: what perf
 * record writes on this machine, when the input names none */
#define PIPE_END_FEATURE 32

static void rec_header(struct copy *c, uint8_t *b, uint32_t type, uint16_t misc,
		       uint16_t size)
{
	pd_put32(b, type, c->swap);
	pd_put16(b + 4, misc, c->swap);
	pd_put16(b + 6, size, c->swap);
}

/*
 * HEADER_ATTR: perf 6.1 reads the ids after its own 128-byte attr
 * (event.h struct perf_record_header_attr), so an attr is written at 128
 * bytes: a smaller one padded, a larger one cut when the bytes past 128
 * are zero (newer perf finds the ids after attr.size: event.h
 * perf_record_header_attr_id, so 128 suits both).  --attr-size decides.
 */
static uint64_t pipe_attr_size(const struct copy *c, const uint8_t **raw,
			       size_t *len, uint64_t asz)
{
	const struct pd_evlist *l = &c->s->evlist;

	if (c->o->attr_size || asz <= PD_ATTR_SIZE_VER7)
		return asz < PD_ATTR_SIZE_VER7 ? PD_ATTR_SIZE_VER7 : asz;
	for (uint32_t k = 0; k < copy_nevsels(c); k++) {
		uint32_t i = copy_evsel_at(c, k);

		if (copy_attr_nonzero(raw[i], len[i], PD_ATTR_SIZE_VER7) <
		    len[i])
			return asz;
	}
	for (uint32_t i = 0; i < l->n; i++)
		if (len[i] > PD_ATTR_SIZE_VER7)
			len[i] = PD_ATTR_SIZE_VER7;
	return PD_ATTR_SIZE_VER7;
}

static int write_attrs(struct copy *c)
{
	const struct pd_evlist *l = &c->s->evlist;
	const uint8_t **raw = calloc(l->n ? l->n : 1, sizeof(*raw));
	size_t *len = calloc(l->n ? l->n : 1, sizeof(*len));
	uint64_t asz;
	uint8_t b[8 + PD_ATTR_SIZE_KNOWN + 256];
	int rc = -1;

	if (!raw || !len) {
		rc = copy_refuse(c, "out of memory");
		goto out;
	}
	if (copy_attr_bytes(c, raw, len, &asz, sizeof(b) - 8) < 0)
		goto out;
	asz = pipe_attr_size(c, raw, len, asz);
	for (uint32_t k = 0; k < copy_nevsels(c); k++) {
		uint32_t i = copy_evsel_at(c, k);
		uint64_t size = 8 + asz + 8ULL * l->v[i].nids;

		if (size > PD_REC_SIZE_MAX) {
			rc = copy_refuse(c,
					 "attr %u has %u ids: more than a "
					 "HEADER_ATTR record holds",
					 i, l->v[i].nids);
			goto out;
		}
		rec_header(c, b, PD_REC_HEADER_ATTR, 0, (uint16_t)size);
		copy_attr_image(c, raw[i], len[i], asz, b + 8);
		pd_out_write(&c->out, b, 8 + asz);
		for (uint32_t j = 0; j < l->v[i].nids; j++) {
			pd_put64(b, l->v[i].ids[j], c->swap);
			pd_out_write(&c->out, b, 8);
		}
	}
	c->r->nattrs = copy_nevsels(c);
	c->r->attr_size = (uint32_t)asz;
	rc = 0;
out:
	free(raw);
	free(len);
	return rc;
}

/* The records of the features perf sends as HEADER_FEATURE. */
static void write_features(struct copy *c, const struct feat_out *want,
			   const bool *has)
{
	const struct pd_session *s = c->s;
	uint8_t b[PD_REC_FEATURE_HDR_SIZE];
	char name[48];
	unsigned n = 0;

	for (unsigned id = 0; id < PD_FEAT_BITS; id++) {
		/* an empty one would read as the end of the features (perf
		 * sends none: perf_event__synthesize_features) */
		if (!has[id] || id == HEADER_TRACING_DATA ||
		    id == HEADER_BUILD_ID || !want[id].size)
			continue;
		copy_feat_name(id, name, sizeof(name));
		if (id == HEADER_AUXTRACE) {
			/* perf reads its index from the file (header.c
			 * process_auxtrace): no pipe has it */
			copy_note(c, "%s left out: a pipe has no AUX index",
				  name);
			continue;
		}
		if (want[id].size > PD_REC_SIZE_MAX - PD_REC_FEATURE_HDR_SIZE) {
			copy_note(c,
				  "%s left out: its %llu bytes do not fit "
				  "in a HEADER_FEATURE record",
				  name, (unsigned long long)want[id].size);
			continue;
		}
		rec_header(c, b, PD_REC_HEADER_FEATURE, 0,
			   (uint16_t)(PD_REC_FEATURE_HDR_SIZE + want[id].size));
		pd_put64(b + 8, id, c->swap);
		pd_out_write(&c->out, b, sizeof(b));
		copy_write_feature(c, id, &want[id]);
		c->features[id / 64] |= 1ULL << (id % 64);
		n++;
	}
	/* the end of the features: the input's own mark, or perf 6.1's */
	rec_header(c, b, PD_REC_HEADER_FEATURE, 0, PD_REC_FEATURE_HDR_SIZE);
	pd_put64(b + 8,
		 s->pipe.has_end_marker ? s->pipe.end_marker_id
					: PIPE_END_FEATURE,
		 c->swap);
	pd_out_write(&c->out, b, sizeof(b));
	c->r->nfeatures = n;
}

static void write_tracing(struct copy *c, const struct feat_out *w)
{
	uint64_t aligned = (w->size + 7) & ~7ULL;
	uint8_t b[PD_REC_TRACING_DATA_SIZE] = {0};

	if (aligned > UINT32_MAX) {
		copy_note(c, "HEADER_TRACING_DATA left out: larger than its "
			     "record's u32 size");
		return;
	}
	rec_header(c, b, PD_REC_HEADER_TRACING_DATA, 0,
		   PD_REC_TRACING_DATA_SIZE);
	pd_put32(b + 8, (uint32_t)aligned, c->swap);
	pd_out_write(&c->out, b, sizeof(b));
	copy_write_feature(c, HEADER_TRACING_DATA, w);
	pd_out_zero(&c->out, aligned - w->size);
	c->features[0] |= 1ULL << HEADER_TRACING_DATA;
}

/* One part's build-id entries, each a HEADER_BUILD_ID record. */
static void write_buildid_part(struct copy *c, const uint8_t *p, uint64_t n)
{
	uint8_t hdr[8];

	struct pd_frame fr;

	/* each entry starts with a record header (header.c
	 * write_build_id: struct perf_record_header_build_id) */
	while (pd_frame(p, p + n, c->swap, &fr) == PD_FRAME_WHOLE) {
		rec_header(c, hdr, PD_REC_HEADER_BUILD_ID, fr.misc, fr.size);
		pd_out_write(&c->out, hdr, 8);
		pd_out_write(&c->out, p + 8, fr.size - 8u);
		p += fr.size;
		n -= fr.size;
	}
	/* anything else left is damage: the feature was left out */
}

static void write_buildids(struct copy *c, const struct feat_out *w)
{
	const struct pd_feature *f = w->f;

	if (w->bytes) { /* --redact: the entries rewritten */
		write_buildid_part(c, w->bytes, w->size);
		c->features[0] |= 1ULL << HEADER_BUILD_ID;
		return;
	}
	for (size_t i = 0; i < f->nparts; i++)
		if (!f->parts[i].bytes ||
		    f->parts[i].loaded != f->parts[i].size) {
			copy_note(c, "HEADER_BUILD_ID left out: too large to "
				     "load");
			return;
		}
	for (size_t i = 0; i < f->nparts; i++)
		write_buildid_part(c, f->parts[i].bytes, f->parts[i].size);
	c->features[0] |= 1ULL << HEADER_BUILD_ID;
}

int copy_write_pipe_head(struct copy *c)
{
	struct feat_out want[PD_FEAT_BITS] = {{0}};
	bool has[PD_FEAT_BITS] = {0};
	uint8_t b[PD_PIPE_HEADER_SIZE];

	pd_put64(b, PD_MAGIC2, c->swap);
	pd_put64(b + 8, PD_PIPE_HEADER_SIZE, c->swap);
	pd_out_write(&c->out, b, sizeof(b));
	if (write_attrs(c) < 0)
		return -1;
	copy_pick_features(c, want, has);
	write_features(c, want, has);
	if (has[HEADER_TRACING_DATA])
		write_tracing(c, &want[HEADER_TRACING_DATA]);
	if (has[HEADER_BUILD_ID] && want[HEADER_BUILD_ID].f)
		write_buildids(c, &want[HEADER_BUILD_ID]);
	for (unsigned id = 0; id < PD_FEAT_BITS; id++)
		free(want[id].bytes);
	return 0;
}
