// SPDX-License-Identifier: MIT
/* The byte account of a recording (see account.h). */
#include "lib/analysis/account.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base/cursor.h"
#include "lib/format/features.h"
#include "lib/session/session.h"

#define LISTED_GAPS 32u

struct acct {
	const struct pd_session *s;
	struct pd_byte_account *ba;
	uint32_t cap, gap_cap;
	bool oom;
};

static int cmp_region(const void *a, const void *b)
{
	const struct pd_region *x = a, *y = b;

	if (x->offset != y->offset)
		return (x->offset > y->offset) - (x->offset < y->offset);
	return (x->size > y->size) - (x->size < y->size);
}

static struct pd_region *add_region(struct acct *a, const char *what,
				    uint64_t off, uint64_t size)
{
	struct pd_byte_account *ba = a->ba;

	if (!size || ba->nregions == a->cap)
		return NULL;
	ba->regions[ba->nregions] =
		(struct pd_region){.what = what, .offset = off, .size = size};
	return &ba->regions[ba->nregions++];
}

/* Reading the file changes no state of the session that anyone sees. */
static ssize_t pread_at(const struct pd_session *s, uint64_t off, void *buf,
			size_t n)
{
	return pd_input_pread((struct pd_input *)&s->in, off, buf, n);
}

/* Are the bytes [off, end) of in all zero?  (false on a read error) */
static bool zero_bytes(struct pd_input *in, uint64_t off, uint64_t end,
		       uint64_t *first_nonzero)
{
	uint8_t buf[65536];

	while (off < end) {
		size_t want = end - off < sizeof(buf) ? (size_t)(end - off)
						      : sizeof(buf);
		ssize_t got = pd_input_pread(in, off, buf, want);

		if (got <= 0)
			return false;
		for (ssize_t i = 0; i < got; i++)
			if (buf[i]) {
				*first_nonzero = off + (uint64_t)i;
				return false;
			}
		off += (uint64_t)got;
	}
	return true;
}

/* Are a gap's bytes all zero?  (false when they cannot be read) */
static bool all_zero(const struct pd_session *s, const struct pd_region *g,
		     uint64_t *first_nonzero)
{
	struct pd_input in;
	char path[4096];
	unsigned kind;
	bool zero;

	if (!g->file)
		return zero_bytes((struct pd_input *)&s->in, g->offset,
				  g->offset + g->size, first_nonzero);
	snprintf(path, sizeof(path), "%s/%s", s->path, g->file);
	if (pd_input_open_regular(&in, path, &kind) < 0)
		return false;
	zero = zero_bytes(&in, g->offset, g->offset + g->size, first_nonzero);
	pd_input_close(&in);
	return zero;
}

/* Whole feature table entries of size 0 from off on (at most max bytes). */
static uint64_t table_slack(const struct pd_session *s, uint64_t off,
			    uint64_t max)
{
	const struct pd_header *h = &s->hdr;
	uint64_t n = 0, len = 0;

	for (int i = 0; i < 4; i++)
		n += (uint64_t)__builtin_popcountll(h->features[i]);
	while (len + 16 <= max && n++ < PD_FEAT_BITS) {
		uint8_t e[16];

		if (pread_at(s, off + len, e, 16) != 16 ||
		    pd_get64(e + 8, s->swap))
			break;
		len += 16;
	}
	return len;
}

static void push_gap(struct acct *a, struct pd_region g)
{
	struct pd_byte_account *ba = a->ba;

	if (ba->nall_gaps == a->gap_cap) {
		uint32_t cap = a->gap_cap ? a->gap_cap * 2 : 16;
		struct pd_region *v = realloc(ba->gaps, cap * sizeof(*v));

		if (!v) {
			a->oom = true;
			return;
		}
		ba->gaps = v;
		a->gap_cap = cap;
	}
	ba->gaps[ba->nall_gaps++] = g;
	ba->ngaps = ba->nall_gaps < LISTED_GAPS ? (uint32_t)ba->nall_gaps
						: LISTED_GAPS;
	ba->unaccounted += g.size;
}

static void add_gap(struct acct *a, uint64_t off, uint64_t size, bool trailing)
{
	const struct pd_session *s = a->s;
	const struct pd_header *h = &s->hdr;
	struct pd_region g = {
		.what = "unaccounted", .offset = off, .size = size};

	g.trailing = trailing;
	if (s->mode == PD_MODE_FILE && s->header_ok && !h->data.size &&
	    off >= h->data.offset) {
		g.kind = PD_GAP_TORN_RECORDS;
		g.name = "records after the last whole one";
	}
	push_gap(a, g);
}

/*
 * perf reserves a table entry for every feature bit set before it writes
 * the sections, then clears the bit of a feature whose writer fails
 * (tools/perf/util/header.c: perf_header__adds_write) without giving back
 * its entry: whole entries of size 0 right after the table, part of it.
 * A directory's header file has the same table as a plain file.
 */
static void table_slack_region(struct acct *a)
{
	const struct pd_session *s = a->s;
	const struct pd_header *h = &s->hdr;
	const struct pd_byte_account *ba = a->ba;
	uint64_t off = h->feat_table_off + h->table_raw_len;
	uint64_t lim = ba->file_size;
	bool after_region = false;
	struct pd_region *r;

	if (s->mode == PD_MODE_PIPE || !h->table_raw_len || off >= lim)
		return;
	/* only bytes of no other region, right after one (the table) */
	for (uint32_t i = 0; i < ba->nregions; i++) {
		const struct pd_region *x = &ba->regions[i];
		uint64_t end = x->offset + x->size;

		if (x->offset <= off && end > off)
			return;
		after_region |= end == off;
		if (x->offset > off && x->offset < lim)
			lim = x->offset;
	}
	if (!after_region)
		return;
	r = add_region(a, "feature_table", off, table_slack(s, off, lim - off));
	if (r)
		r->name = "unused entries";
}

/*
 * A directory's data.N files (tools/perf/util/data.c:
 * perf_data__create_dir): records from offset 0 of each, the bytes after
 * the last whole record a gap.  Each its own file, after the header's.
 */
static void data_n_regions(struct acct *a, const struct pd_data_ends *ends)
{
	const struct pd_session *s = a->s;
	struct pd_byte_account *ba = a->ba;

	for (size_t i = 0; i < s->ndir; i++) {
		uint64_t size = s->dir[i].size;
		uint64_t end = ends && i < ends->ndir ? ends->dir[i] : 0;
		struct pd_region *r;

		end = end < size ? end : size;
		ba->file_size += size;
		ba->covered += end;
		r = add_region(a, "data", 0, end);
		if (r) {
			r->name = s->dir[i].name;
			r->file = s->dir[i].name;
		}
		if (end < size)
			push_gap(a, (struct pd_region){
					    .what = "unaccounted",
					    .file = s->dir[i].name,
					    .offset = end,
					    .size = size - end,
					    .name = "records after the last "
						    "whole one",
					    .kind = PD_GAP_TORN_RECORDS,
					    .trailing = true,
				    });
	}
}

static void file_regions(struct acct *a, uint64_t data_end)
{
	const struct pd_session *s = a->s;
	const struct pd_header *h = &s->hdr;
	struct pd_region *r;

	add_region(a, "header", 0, h->size);
	add_region(a, "attrs", h->attrs.offset, h->attrs.size);
	for (uint32_t i = 0; i < s->evlist.n; i++) {
		const struct pd_evsel *e = &s->evlist.v[i];

		if (e->ids_offset)
			add_region(a, "ids", e->ids_offset,
				   (uint64_t)e->nids * 8);
	}
	add_region(a, "event_types", h->event_types.offset,
		   h->event_types.size);
	if (h->data.size)
		add_region(a, "data", h->data.offset, h->data.size);
	else if (data_end > h->data.offset)
		add_region(a, "data (scanned)", h->data.offset,
			   data_end - h->data.offset);
	/* perf writes the table at data.offset + data.size: none if 0 */
	if (h->table_raw_len && h->has_bitmap && h->data.size)
		add_region(a, "feature_table", h->feat_table_off,
			   h->table_raw_len);
	for (size_t i = 0; i < s->nfeat; i++) {
		const struct pd_feature *f = &s->feat[i];

		if (f->src != PD_FSRC_SECTION || !f->nparts)
			continue;
		r = add_region(a, "feature", f->parts[0].offset,
			       f->parts[0].size);
		if (r)
			r->name = pd_feat_name(f->id);
	}
}

/* The union of the regions, clipped to the file; the rest are gaps. */
static void find_gaps(struct acct *a)
{
	struct pd_byte_account *ba = a->ba;
	uint64_t end = 0;

	qsort(ba->regions, ba->nregions, sizeof(*ba->regions), cmp_region);
	for (uint32_t i = 0; i < ba->nregions; i++) {
		const struct pd_region *r = &ba->regions[i];
		uint64_t x = r->offset, y;

		if (x >= ba->file_size)
			continue;
		y = r->size > ba->file_size - x ? ba->file_size : x + r->size;
		if (x > end)
			add_gap(a, end, x - end, false);
		if (y <= end) {
			ba->overlap += y - x;
			continue;
		}
		if (x < end)
			ba->overlap += end - x;
		ba->covered += y - (x > end ? x : end);
		end = y;
	}
	if (end < ba->file_size && a->s->mode != PD_MODE_DIR)
		add_gap(a, end, ba->file_size - end, true);
}

int pd_byte_account(const struct pd_session *s, const struct pd_data_ends *ends,
		    bool scan_gaps, struct pd_byte_account *ba)
{
	struct acct a = {.s = s, .ba = ba};
	uint64_t data_end = ends ? ends->main : 0;

	memset(ba, 0, sizeof(*ba));
	a.cap = 10 + s->evlist.n + (uint32_t)s->nfeat + (uint32_t)s->ndir;
	ba->file_size = s->in.size;
	ba->regions = calloc(a.cap, sizeof(*ba->regions));
	if (!ba->regions)
		return -1;
	if (s->mode == PD_MODE_PIPE) {
		add_region(&a, "header", 0, PD_PIPE_HEADER_SIZE);
		add_region(&a, "records", PD_PIPE_HEADER_SIZE,
			   data_end > PD_PIPE_HEADER_SIZE
				   ? data_end - PD_PIPE_HEADER_SIZE
				   : 0);
	} else if (s->header_ok) {
		file_regions(&a, data_end);
		table_slack_region(&a);
	} else {
		/* the header's bytes that could be read (header.c) */
		add_region(&a, "header", 0, s->hdr.raw_len);
	}
	find_gaps(&a);
	data_n_regions(&a, ends);
	for (uint64_t i = 0; scan_gaps && i < ba->nall_gaps; i++) {
		struct pd_region *g = &ba->gaps[i];

		g->first_nonzero = g->offset;
		g->zero = all_zero(s, g, &g->first_nonzero);
	}
	if (a.oom) {
		pd_byte_account_free(ba);
		return -1;
	}
	return 0;
}

void pd_byte_account_free(struct pd_byte_account *ba)
{
	free(ba->regions);
	free(ba->gaps);
	memset(ba, 0, sizeof(*ba));
}
