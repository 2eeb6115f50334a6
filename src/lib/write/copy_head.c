// SPDX-License-Identifier: MIT
/*
 * The parts of the file around the data section, laid out as perf lays
 * them out (tools/perf/util/header.c: perf_session__write_header,
 * perf_header__adds_write):
 *
 *   file header (104 bytes), written last
 *   ids: each attr's u64 ids, one attr after the other
 *   attrs section: per attr, perf_event_attr (attr_size - 16 bytes) and
 *       its ids section {u64 offset, u64 size}
 *   data section: the records
 *   feature table: {u64 offset, u64 size} per feature bit set, in bit
 *       order, at data.offset + data.size
 *   the feature sections
 *
 * perf reads each attr with the stride attr.size + 16 (header.c
 * read_attr), so every attr is written at one size, the largest of the
 * recording's (a smaller one padded with zeros and its size field set to
 * it: the fields it lacks read as zero either way).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/format/attr.h"
#include "lib/format/feat_meta.h"
#include "lib/format/features.h"
#include "lib/session/evlist.h"
#include "lib/write/copy_int.h"

#define ATTR_SIZE_OFF 4 /* perf_event_attr.size: u32 after u32 type */

void copy_note(struct copy *c, const char *fmt, ...)
{
	struct pd_copy_result *r = c->r;
	va_list ap;

	if (r->nnotes >= PD_COPY_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
}

int copy_refuse(struct copy *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->r->why, sizeof(c->r->why), fmt, ap);
	va_end(ap);
	c->r->err = 0;
	return -1;
}

const uint32_t pd_copy_attr_sizes[] = {
	PD_ATTR_SIZE_VER0,
	PD_ATTR_SIZE_VER1,
	PD_ATTR_SIZE_VER2,
	PD_ATTR_SIZE_VER3,
	PD_ATTR_SIZE_VER4,
	PD_ATTR_SIZE_VER5,
	PD_ATTR_SIZE_VER6,
	PD_ATTR_SIZE_VER7,
	PD_ATTR_SIZE_VER8,
	PD_ATTR_SIZE_VER9,
	0,
};

size_t copy_attr_nonzero(const uint8_t *raw, size_t len, size_t from)
{
	while (from < len && !raw[from])
		from++;
	return from < len ? from : len;
}

/*
 * --attr-size: may evsel i's attr (raw, len bytes) be written at asz?
 * Only when every byte past asz is zero: a field the older layout lacks
 * reads as zero there either way (kernel/events/core.c perf_copy_attr
 * takes a smaller attr so).
 */
static int attr_fits(struct copy *c, uint32_t i, const uint8_t *raw, size_t len,
		     uint64_t asz)
{
	size_t b = copy_attr_nonzero(raw, len, asz);
	const char *field = pd_attr_field_name(b);

	if (b == len)
		return 0;
	return copy_refuse(
		c,
		"--attr-size %llu: event %u (%s): %s is not zero (byte %zu of "
		"its %zu-byte attr); an attr of %llu bytes cannot hold it",
		(unsigned long long)asz, i,
		c->s->evlist.v[i].name[0] ? c->s->evlist.v[i].name : "unnamed",
		field ? field : "a field past the layouts perfdump knows", b,
		len, (unsigned long long)asz);
}

int copy_attr_bytes(struct copy *c, const uint8_t **raw, size_t *len,
		    uint64_t *asz, size_t max)
{
	struct pd_session *s = c->s;
	const struct pd_evlist *l = &s->evlist;

	if (l->attrs_capped || l->ids_capped)
		return copy_refuse(
			c, "the recording has more attrs or ids than "
			   "perfdump keeps: they cannot all be written");
	*asz = PD_ATTR_SIZE_VER0;
	for (uint32_t i = 0; i < l->n; i++) {
		raw[i] = pd_evsel_raw(s, &l->v[i], &len[i]);
		if (!raw[i] || len[i] < PD_ATTR_SIZE_VER0)
			return copy_refuse(
				c,
				"attr %u: only %zu bytes of its "
				"perf_event_attr could be read (64 at "
				"least)",
				i, raw[i] ? len[i] : (size_t)0);
	}
	/* the size of the largest attr written (--event: of the kept) */
	for (uint32_t k = 0; k < copy_nevsels(c); k++) {
		uint32_t i = copy_evsel_at(c, k);

		if (len[i] > *asz)
			*asz = len[i];
	}
	if (c->o->attr_size) {
		*asz = c->o->attr_size;
		for (uint32_t k = 0; k < copy_nevsels(c); k++) {
			uint32_t i = copy_evsel_at(c, k);

			if (attr_fits(c, i, raw[i], len[i], *asz) < 0)
				return -1;
			if (len[i] > *asz)
				len[i] = *asz;
		}
	}
	if (*asz > max)
		return copy_refuse(c,
				   "attrs of %llu bytes are larger than any "
				   "perf_event_attr perfdump knows",
				   (unsigned long long)*asz);
	return 0;
}

void copy_attr_image(const struct copy *c, const uint8_t *raw, size_t len,
		     uint64_t asz, uint8_t *b)
{
	memset(b, 0, asz);
	memcpy(b, raw, len);
	/* the size read is that of the bytes written (a smaller attr's, or
	 * a size field that disagrees with the attrs section's stride) */
	pd_put32(b + ATTR_SIZE_OFF, (uint32_t)asz, c->swap);
}

int copy_write_attrs(struct copy *c, uint64_t *attrs_off, uint64_t *attr_size)
{
	const struct pd_evlist *l = &c->s->evlist;
	const uint8_t **raw = calloc(l->n ? l->n : 1, sizeof(*raw));
	size_t *len = calloc(l->n ? l->n : 1, sizeof(*len));
	uint64_t *ids_off = calloc(l->n ? l->n : 1, sizeof(*ids_off));
	uint64_t asz = 0;
	uint8_t b[PD_ATTR_SIZE_KNOWN + 256];
	int rc = -1;

	if (!raw || !len || !ids_off) {
		rc = copy_refuse(c, "out of memory");
		goto out;
	}
	if (copy_attr_bytes(c, raw, len, &asz, sizeof(b) - 16) < 0)
		goto out;
	for (uint32_t k = 0; k < copy_nevsels(c); k++) {
		uint32_t i = copy_evsel_at(c, k);

		ids_off[i] = c->out.off;
		for (uint32_t j = 0; j < l->v[i].nids; j++) {
			pd_put64(b, l->v[i].ids[j], c->swap);
			pd_out_write(&c->out, b, 8);
		}
	}
	*attrs_off = c->out.off;
	for (uint32_t k = 0; k < copy_nevsels(c); k++) {
		uint32_t i = copy_evsel_at(c, k);

		copy_attr_image(c, raw[i], len[i], asz, b);
		pd_put64(b + asz, l->v[i].nids ? ids_off[i] : 0, c->swap);
		pd_put64(b + asz + 8, (uint64_t)l->v[i].nids * 8, c->swap);
		pd_out_write(&c->out, b, asz + 16);
	}
	*attr_size = asz + 16;
	c->r->nattrs = copy_nevsels(c);
	c->r->attr_size = (uint32_t)asz;
	rc = 0;
out:
	free(raw);
	free(len);
	free(ids_off);
	return rc;
}

bool copy_input_range(struct copy *c, uint64_t off, uint64_t len)
{
	while (len && !c->out.err) {
		size_t n = len < PD_COPY_CHUNK ? (size_t)len : PD_COPY_CHUNK;
		ssize_t got = pd_input_pread(&c->s->in, off, c->chunk, n);

		if (got != (ssize_t)n) {
			c->out.err = got < 0 ? errno : EIO;
			return false;
		}
		pd_out_write(&c->out, c->chunk, n);
		off += n;
		len -= n;
	}
	return !c->out.err;
}

/* ---- the features ----------------------------------------------------- */

const char *copy_feat_name(unsigned id, char *buf, size_t len)
{
	const char *n = pd_feat_name(id);

	if (n)
		snprintf(buf, len, "HEADER_%s", n);
	else
		snprintf(buf, len, "feature %u", id);
	return buf;
}

/* Are all of f's bytes there, so that they can be written as read? */
static bool feat_whole(const struct copy *c, const struct pd_feature *f,
		       uint64_t *size)
{
	*size = 0;
	if (f->src == PD_FSRC_SECTION) {
		const struct pd_part *p = &f->parts[0];

		*size = p->size;
		return p->offset <= c->s->in.size &&
		       p->size <= c->s->in.size - p->offset;
	}
	if (f->src == PD_FSRC_LEGACY_RECORD)
		return false; /* its records' layout is not perf's sections' */
	for (size_t i = 0; i < f->nparts; i++) {
		if (f->parts[i].loaded != f->parts[i].size)
			return false;
		*size += f->parts[i].size;
	}
	return true;
}

/*
 * Did reading f find anything wrong with it (an error, or a warning that
 * check counts as damage: a string without its NUL)?  Then it is left
 * out rather than written as read.
 */
static bool feat_flagged(const struct pd_session *s, const struct pd_feature *f)
{
	if (f->bad)
		return true;
	for (size_t i = 0; i < s->diags.n; i++)
		if (s->diags.v[i].where.kind == PD_IN_FEATURE &&
		    s->diags.v[i].where.id == f->id)
			return true;
	return false;
}

/* f's bytes (feat_whole: all there, so bounded by the input's size). */
static uint8_t *feat_load(struct copy *c, const struct pd_feature *f,
			  uint64_t size)
{
	uint8_t *b = malloc(size ? size : 1);
	uint64_t at = 0;

	if (!b)
		return NULL;
	if (f->src == PD_FSRC_SECTION) {
		if (pd_input_pread(&c->s->in, f->parts[0].offset, b, size) !=
		    (ssize_t)size) {
			free(b);
			return NULL;
		}
		return b;
	}
	/* size: the parts' bytes, or fewer (blob_size) */
	for (size_t i = 0; i < f->nparts && at < size; i++) {
		uint64_t n = f->parts[i].size;

		if (!n)
			continue; /* an empty part has no bytes */
		n = n < size - at ? n : size - at;
		memcpy(b + at, f->parts[i].bytes, n);
		at += n;
	}
	return b;
}

static bool redacted_feat(unsigned id)
{
	return id == HEADER_HOSTNAME || id == HEADER_OSRELEASE ||
	       id == HEADER_CMDLINE || id == HEADER_BUILD_ID ||
	       id == HEADER_TRACING_DATA;
}

/*
 * --redact: w's bytes with their strings redacted (copy_redact.c), or
 * false: f is left out (it could not be read to be redacted).
 */
static bool redact_feat(struct copy *c, struct feat_out *w)
{
	uint8_t *loaded = w->bytes ? NULL : feat_load(c, w->f, w->size), *out;
	const uint8_t *in = w->bytes ? w->bytes : loaded;
	size_t outlen;
	int rc;

	if (!in)
		return false;
	if (w->f->id == HEADER_HOSTNAME)
		copy_redact_host(c, in, w->size);
	rc = copy_redact_feature(c, w->f, in, w->size, &out, &outlen);
	free(loaded);
	if (rc > 0) {
		free(w->bytes);
		w->bytes = out;
		w->size = outlen;
	}
	return rc >= 0;
}

/* --build-ids hit: BUILD_ID cut to the entries hit (copy_bid.c) */
static bool bid_feat(struct copy *c, struct feat_out *w)
{
	uint8_t *in = feat_load(c, w->f, w->size);

	return !in || copy_bid_keep_hits(c, w, in);
}

/* The host name, for OSRELEASE, before any feature is redacted. */
static void find_host(struct copy *c)
{
	uint64_t size;

	for (size_t i = 0; i < c->s->nfeat; i++) {
		const struct pd_feature *f = &c->s->feat[i];
		uint8_t *in;

		if (f->id != HEADER_HOSTNAME || feat_flagged(c->s, f) ||
		    !feat_whole(c, f, &size) || !(in = feat_load(c, f, size)))
			continue;
		copy_redact_host(c, in, size);
		free(in);
	}
}

/*
 * A pipe's HEADER_TRACING_DATA record pads the blob to 8 bytes
 * (synthetic-events.c perf_event__synthesize_tracing_data); the feature
 * section is the blob (header.c write_tracing_data), so the padding stays
 * behind.
 */
static uint64_t blob_size(const struct pd_feature *f, uint64_t size)
{
	const struct feat_tracing_data *m = f->model;

	if (f->src != PD_FSRC_TRACING_RECORD || !m || m->size > size)
		return size;
	return m->size;
}

void copy_pick_features(struct copy *c, struct feat_out *want, bool *has)
{
	const struct pd_session *s = c->s;
	char name[48];

	if (c->o->redact)
		find_host(c);
	for (size_t i = 0; i < s->nfeat; i++) {
		const struct pd_feature *f = &s->feat[i];
		uint64_t size;

		if (f->id >= PD_FEAT_BITS || f->id == HEADER_RESERVED ||
		    has[f->id] || f->id == HEADER_SAMPLE_TIME)
			continue;
		copy_feat_name(f->id, name, sizeof(name));
		if (f->id == HEADER_COMPRESSED) {
			if (!c->o->compress)
				copy_note(c,
					  "%s left out: the records are "
					  "written decompressed",
					  name);
			continue;
		}
		if (f->id == HEADER_AUXTRACE && c->aux_data) {
			copy_note(c,
				  "%s left out: its index holds the AUX "
				  "data's file offsets in the input; perf "
				  "finds the AUX data without it",
				  name);
			continue;
		}
		if (f->id == HEADER_DIR_FORMAT)
			continue; /* the copy is one file */
		if (feat_flagged(s, f) || !feat_whole(c, f, &size)) {
			copy_note(c, "%s left out: damaged", name);
			continue;
		}
		want[f->id] =
			(struct feat_out){.f = f, .size = blob_size(f, size)};
		if (copy_event_feature(c, &want[f->id]) < 0)
			continue; /* a note says why */
		if (f->id == HEADER_BUILD_ID && c->bids &&
		    !bid_feat(c, &want[f->id])) {
			copy_note(c,
				  "%s left out: no written sample hits a DSO "
				  "it names",
				  name);
			free(want[f->id].bytes);
			want[f->id] = (struct feat_out){0};
			continue;
		}
		if (c->o->redact && redacted_feat(f->id) &&
		    !redact_feat(c, &want[f->id])) {
			copy_note(c, "%s left out: it could not be redacted",
				  name);
			continue;
		}
		has[f->id] = true;
	}
	/*
	 * A reader of a byte-swapped file tells how its bitmap was written
	 * by the HOSTNAME bit (header.c perf_file_header__read: without it,
	 * every bit but BUILD_ID is dropped): an empty one, if need be.
	 */
	if (c->swap && !has[HEADER_HOSTNAME]) {
		has[HEADER_HOSTNAME] = true;
		want[HEADER_HOSTNAME] = (struct feat_out){.size = 4 + 64};
		copy_note(c, "HEADER_HOSTNAME written empty: a byte-swapped "
			     "file's readers need it to read its feature "
			     "bitmap");
	}
	/* as perf record -z: how they were compressed (copy_z.c) */
	if (c->o->compress) {
		has[HEADER_COMPRESSED] = true;
		want[HEADER_COMPRESSED] = (struct feat_out){.size = 20};
	}
	/* perf record writes the first and last sample's time; a pipe's
	 * head is written before the samples are seen */
	if (c->o->pipe)
		return;
	if (c->r->has_time || pd_feat_bit(&s->hdr, HEADER_SAMPLE_TIME)) {
		has[HEADER_SAMPLE_TIME] = true;
		want[HEADER_SAMPLE_TIME] = (struct feat_out){.size = 16};
	}
}

void copy_write_feature(struct copy *c, unsigned id, const struct feat_out *w)
{
	const struct pd_feature *f = w->f;
	uint8_t b[16];

	if (!f && id == HEADER_HOSTNAME) {
		/* perf's string: u32 len, then len bytes (NUL-padded to 64) */
		pd_put32(b, 64, c->swap);
		pd_out_write(&c->out, b, 4);
		pd_out_zero(&c->out, 64);
		return;
	}
	if (w->bytes) {
		pd_out_write(&c->out, w->bytes, w->size);
		return;
	}
	if (!f && id == HEADER_COMPRESSED) {
		copy_z_feature(c);
		return;
	}
	if (!f) { /* HEADER_SAMPLE_TIME: first u64, last u64 */
		pd_put64(b, c->r->first_time, c->swap);
		pd_put64(b + 8, c->r->last_time, c->swap);
		pd_out_write(&c->out, b, 16);
		return;
	}
	if (f->src == PD_FSRC_SECTION) {
		copy_input_range(c, f->parts[0].offset, f->parts[0].size);
		return;
	}
	/* w->size: all of the parts' bytes, or fewer (blob_size) */
	for (size_t i = 0, left = w->size; i < f->nparts && left; i++) {
		size_t n = f->parts[i].size < left ? f->parts[i].size : left;

		pd_out_write(&c->out, f->parts[i].bytes, n);
		left -= n;
	}
}

void copy_write_features(struct copy *c)
{
	struct feat_out want[PD_FEAT_BITS] = {{0}};
	bool has[PD_FEAT_BITS] = {0};
	uint64_t off;
	uint8_t b[16];
	unsigned n = 0;

	copy_pick_features(c, want, has);
	for (unsigned id = 0; id < PD_FEAT_BITS; id++)
		n += has[id];
	off = c->out.off + 16ULL * n;
	for (unsigned id = 0; id < PD_FEAT_BITS; id++) {
		if (!has[id])
			continue;
		pd_put64(b, off, c->swap);
		pd_put64(b + 8, want[id].size, c->swap);
		pd_out_write(&c->out, b, 16);
		off += want[id].size;
		c->features[id / 64] |= 1ULL << (id % 64);
	}
	for (unsigned id = 0; id < PD_FEAT_BITS; id++)
		if (has[id])
			copy_write_feature(c, id, &want[id]);
	for (unsigned id = 0; id < PD_FEAT_BITS; id++)
		free(want[id].bytes);
	c->r->nfeatures = n;
}

void copy_write_header(struct copy *c, uint64_t attrs_off, uint64_t attr_size)
{
	const struct pd_copy_result *r = c->r;
	uint8_t h[PD_HEADER_SIZE] = {0};

	pd_put64(h, PD_MAGIC2, c->swap);
	pd_put64(h + 8, PD_HEADER_SIZE, c->swap);
	pd_put64(h + 16, attr_size, c->swap);
	pd_put64(h + 24, attrs_off, c->swap);
	pd_put64(h + 32, (uint64_t)r->nattrs * attr_size, c->swap);
	pd_put64(h + 40, r->data_offset, c->swap);
	pd_put64(h + 48, r->data_size, c->swap);
	/* event_types (56): perf writes zeros; the bitmap as 4 x u64 */
	for (int i = 0; i < 4; i++)
		pd_put64(h + 72 + 8 * i, c->features[i], c->swap);
	pd_out_patch(&c->out, 0, h, sizeof(h));
}
