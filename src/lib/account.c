// SPDX-License-Identifier: MIT
/* The byte account of a recording (see account.h). */
#include "account.h"

#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "features.h"
#include "session.h"

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

/* Are the bytes [off, end) all zero?  (false on a read error) */
static bool all_zero(const struct pd_session *s, uint64_t off, uint64_t end,
		     uint64_t *first_nonzero)
{
	uint8_t buf[65536];

	while (off < end) {
		size_t want = end - off < sizeof(buf) ? (size_t)(end - off)
						      : sizeof(buf);
		ssize_t got = pread_at(s, off, buf, want);

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
	/* a directory's header file has the same table as a plain file */
	if (s->mode != PD_MODE_PIPE && h->table_raw_len &&
	    off == h->feat_table_off + h->table_raw_len) {
		uint64_t slack = table_slack(s, off, size);

		if (slack) {
			g.size = slack;
			g.kind = PD_GAP_TABLE_SLACK;
			g.name = "unused feature table entries";
			g.trailing = trailing && slack == size;
			g.zero = false; /* perf's, not padding */
			push_gap(a, g);
			if (slack == size)
				return;
			g = (struct pd_region){.what = "unaccounted",
					       .offset = off + slack,
					       .size = size - slack};
			g.trailing = trailing;
		}
	} else if (s->mode == PD_MODE_FILE && s->header_ok && !h->data.size &&
		   off >= h->data.offset) {
		g.kind = PD_GAP_TORN_RECORDS;
		g.name = "records after the last whole one";
	}
	push_gap(a, g);
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

int pd_byte_account(const struct pd_session *s, uint64_t data_end,
		    bool scan_gaps, struct pd_byte_account *ba)
{
	struct acct a = {.s = s, .ba = ba};

	memset(ba, 0, sizeof(*ba));
	a.cap = 8 + s->evlist.n + (uint32_t)s->nfeat;
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
	}
	find_gaps(&a);
	for (uint64_t i = 0; scan_gaps && i < ba->nall_gaps; i++) {
		struct pd_region *g = &ba->gaps[i];

		g->first_nonzero = g->offset;
		if (g->kind != PD_GAP_TABLE_SLACK)
			g->zero = all_zero(s, g->offset, g->offset + g->size,
					   &g->first_nonzero);
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
