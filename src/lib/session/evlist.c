// SPDX-License-Identifier: MIT
/*
 * The events of a recording (see evlist.h).  Checked against
 * torvalds/linux tools/perf/util/header.c (read_attr,
 * perf_session__read_header), evlist.c (evlist__event2evsel,
 * evlist__event2id), evsel.c (__perf_evsel__calc_id_pos/_is_pos,
 * perf_evsel__parse_id_sample).
 */
#include "lib/session/evlist.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/format/sample_pos.h"
#include "lib/session/evlist_int.h"
#include "lib/session/session.h"

static struct pd_evsel *add_evsel(struct pd_session *s)
{
	struct pd_evlist *l = &s->evlist;
	struct pd_evsel *v;

	if (l->n == l->cap) {
		/* doubling: thousands of attrs are not copied thousands of
		 * times (PD_EVLIST_MAX_ATTRS bounds them) */
		uint32_t ncap = l->cap ? l->cap * 2 : 8;

		v = realloc(l->v, ncap * sizeof(*v));
		if (!v)
			return NULL;
		l->v = v;
		l->cap = ncap;
	}
	v = &l->v[l->n];
	memset(v, 0, sizeof(*v));
	v->idx = l->n++;
	return v;
}

/* evsel.c __perf_evsel__calc_id_pos / __perf_evsel__calc_is_pos */
static void calc_pos(struct pd_evsel *ev)
{
	uint64_t t = ev->attr.sample_type;
	struct pd_sample_pos pos;

	/* the time order reads each sample's TIME there (pd_sample_time) */
	pd_sample_positions(t, &pos);
	ev->time_pos = pos.time;

	if (t & PD_SAMPLE_IDENTIFIER) {
		ev->id_pos = 0;
		ev->is_pos = 1;
		return;
	}
	if (!(t & PD_SAMPLE_ID)) {
		ev->id_pos = ev->is_pos = -1;
		return;
	}
	ev->id_pos = !!(t & PD_SAMPLE_IP) + !!(t & PD_SAMPLE_TID) +
		     !!(t & PD_SAMPLE_TIME) + !!(t & PD_SAMPLE_ADDR);
	ev->is_pos = 1 + !!(t & PD_SAMPLE_CPU) + !!(t & PD_SAMPLE_STREAM_ID);
}

/*
 * What the evlist keeps whatever the file claims: attrs (about 500 bytes
 * each) and ids (24 bytes with the id map) over all of them.  perf
 * record -a -e 'syscalls:*' on 256 CPUs has about 700 attrs and 180,000
 * ids; attrs whose ids sections all claim the same bytes of a hostile
 * file would hold hundreds of MiB.
 */
#define PD_EVLIST_MAX_ATTRS (1u << 14)
#define PD_EVLIST_MAX_IDS   (1u << 20)

/* The ids an attr may keep: up to n, or what the cap leaves (said once). */
static uint64_t ids_allowed(struct pd_session *s, uint64_t n, uint64_t off,
			    struct pd_where where, const char *what)
{
	uint64_t kept = s->evlist.kept_ids;

	if (n <= PD_EVLIST_MAX_IDS - kept) {
		s->evlist.kept_ids += n;
		return n;
	}
	if (!s->evlist.ids_capped)
		pd_diag_add(
			&s->diags, PD_C_TABLE_FULL, where, PD_WARN, off, what,
			"the attrs' ids pass the %u perfdump keeps: %llu "
			"of these and the ids of the attrs after are not "
			"kept (records with them belong to no attr)",
			PD_EVLIST_MAX_IDS,
			(unsigned long long)(n - (PD_EVLIST_MAX_IDS - kept)));
	s->evlist.ids_capped = true;
	s->evlist.kept_ids = PD_EVLIST_MAX_IDS;
	return PD_EVLIST_MAX_IDS - kept;
}

/* Read up to n ids at off (file mode); bounded by the file and the cap. */
static uint64_t *read_ids(struct pd_session *s, uint64_t off, uint64_t size,
			  uint32_t *n, uint64_t attr)
{
	uint64_t cnt = size / 8;
	uint64_t *ids;
	char what[32];

	*n = 0;
	if (!cnt || off > s->in.size || size > s->in.size - off)
		return NULL; /* reported by the header checks */
	snprintf(what, sizeof(what), "attr %llu", (unsigned long long)attr);
	cnt = ids_allowed(s, cnt, off, PD_AT_ATTR(attr), what);
	ids = cnt ? arena_calloc(&s->arena, (size_t)cnt, sizeof(*ids)) : NULL;
	if (!ids)
		return NULL;
	uint64_t i = 0;

	while (i < cnt) {
		uint8_t raw[4096];
		size_t want = cnt - i < sizeof(raw) / 8 ? (size_t)(cnt - i) * 8
							: sizeof(raw);
		ssize_t got = pd_input_pread(&s->in, off + 8 * i, raw, want);

		if (got < 0) {
			pd_diag_add(&s->diags, PD_C_READ_ERROR, PD_AT_ATTRS,
				    PD_ERR, off, "attr ids", "read error: %s",
				    strerror(errno));
			return NULL;
		}
		for (size_t k = 0; k + 8 <= (size_t)got; k += 8)
			ids[i++] = pd_get64(raw + k, s->swap);
		if ((size_t)got < want)
			break;
	}
	*n = (uint32_t)i;
	return ids;
}

/* Room for one more attr, or a warning (once) that there is none. */
static bool attr_room(struct pd_session *s, uint64_t total, uint64_t off,
		      struct pd_where where, const char *what)
{
	if (s->evlist.n < PD_EVLIST_MAX_ATTRS)
		return true;
	if (s->evlist.n == PD_EVLIST_MAX_ATTRS && !s->evlist.attrs_capped)
		pd_diag_add(&s->diags, PD_C_TABLE_FULL, where, PD_WARN, off,
			    what,
			    "%llu attrs: the first %u are kept, the others "
			    "are not read (records of theirs belong to no "
			    "attr)",
			    (unsigned long long)total, PD_EVLIST_MAX_ATTRS);
	s->evlist.attrs_capped = true;
	return false;
}

/*
 * File mode: attrs.size / attr_size entries of {attr; u64 ids.offset;
 * u64 ids.size}, strided by the header's attr_size
 * (tools/perf/util/header.c: perf_session__read_header).
 */
static void load_file_attrs(struct pd_session *s)
{
	const struct pd_header *h = &s->hdr;
	uint64_t n, fsize = s->in.size;

	if (!s->header_ok || h->attr_size < 16 + 8 || !h->attrs.size)
		return;
	/* untrusted count: each entry is read only if it lies in the file */
	n = h->attrs.size / h->attr_size;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = h->attrs.offset + i * h->attr_size;
		struct pd_evsel *ev;
		struct cursor c;
		uint8_t *b;
		char what[32];

		if (off > fsize || h->attr_size > fsize - off)
			break; /* the header checks said so */
		if (!attr_room(s, n, off, PD_AT_ATTRS, "attrs section"))
			break;
		b = arena_alloc(&s->arena, (size_t)h->attr_size);
		if (!b ||
		    pd_input_pread(&s->in, off, b, (size_t)h->attr_size) !=
			    (ssize_t)h->attr_size)
			break;
		ev = add_evsel(s);
		if (!ev)
			return;
		snprintf(what, sizeof(what), "attr %llu",
			 (unsigned long long)i);
		cur_init(&c, b, (size_t)h->attr_size, off, s->swap, &s->diags,
			 what, PD_AT_ATTR(i));
		ev->entry_offset = off;
		pd_attr_parse(&c, (size_t)h->attr_size - 16, s->big_endian,
			      &ev->attr);
		uint64_t ioff = cur_u64(&c, "ids.offset");
		uint64_t isz = cur_u64(&c, "ids.size");

		ev->ids_offset = ioff;
		ev->ids = read_ids(s, ioff, isz, &ev->nids, i);
	}
}

/*
 * Pipe mode: PERF_RECORD_HEADER_ATTR = header; attr (attr.size bytes,
 * 0 meaning 64); u64 ids[] to the end of the record
 * (tools/perf/util/header.c: perf_event__process_attr).
 */
static void load_pipe_attrs(struct pd_session *s)
{
	for (size_t i = 0; i < s->npipe_attrs; i++) {
		const struct pd_part *p = &s->pipe_attrs[i];
		struct pd_evsel *ev;
		struct cursor c;
		uint32_t asize;

		if (!attr_room(s, s->npipe_attrs, p->offset,
			       PD_AT_RECORD(PD_REC_HEADER_ATTR),
			       "PERF_RECORD_HEADER_ATTR"))
			return;
		ev = add_evsel(s);
		if (!ev)
			return;
		cur_init(&c, p->bytes, (size_t)p->loaded, p->offset, s->swap,
			 &s->diags, "PERF_RECORD_HEADER_ATTR",
			 PD_AT_RECORD(PD_REC_HEADER_ATTR));
		ev->entry_offset = p->offset;
		cur_skip(&c, "header", 8);
		if (cur_left(&c) < 8) {
			cur_fail(&c, cur_bad_code(&c), "attr",
				 "no room for an attr");
			continue;
		}
		asize = pd_get32(p->bytes + 12, s->swap);
		if (asize == 0)
			asize = PD_ATTR_SIZE_VER0;
		if (asize > cur_left(&c))
			asize = (uint32_t)cur_left(
				&c); /* reported by the parser */
		pd_attr_parse(&c, asize, s->big_endian, &ev->attr);
		uint64_t all = cur_left(&c) / 8, n;

		ev->ids_offset = cur_off(&c);
		n = all ? ids_allowed(s, all, ev->ids_offset,
				      PD_AT_RECORD(PD_REC_HEADER_ATTR),
				      "PERF_RECORD_HEADER_ATTR")
			: 0;
		ev->ids =
			n ? arena_calloc(&s->arena, (size_t)n, sizeof(*ev->ids))
			  : NULL;
		for (uint64_t k = 0; k < n && ev->ids; k++)
			ev->ids[k] = cur_u64(&c, "id");
		ev->nids = ev->ids ? (uint32_t)n : 0;
		cur_skip(&c, "ids not kept", (size_t)(all - n) * 8);
		if (cur_left(&c))
			pd_diag_add(
				&s->diags, PD_C_IDS_SIZE_MISMATCH,
				PD_AT_RECORD(PD_REC_HEADER_ATTR), PD_WARN,
				cur_off(&c), "PERF_RECORD_HEADER_ATTR",
				"%zu bytes after the ids are not a whole id",
				cur_left(&c));
	}
}

/* Ids in two attrs or more, each said; then how many more. */
#define DUPLICATE_IDS_SHOWN 16

static int cmp_idmap(const void *a, const void *b)
{
	const struct pd_idmap *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void build_idmap(struct pd_session *s)
{
	struct pd_evlist *l = &s->evlist;
	size_t n = 0;

	for (uint32_t i = 0; i < l->n; i++)
		n += l->v[i].nids;
	if (!n)
		return;
	l->ids = calloc(n, sizeof(*l->ids));
	if (!l->ids)
		return;
	for (uint32_t i = 0; i < l->n; i++)
		for (uint32_t k = 0; k < l->v[i].nids; k++)
			l->ids[l->nids++] =
				(struct pd_idmap){l->v[i].ids[k], i};
	qsort(l->ids, l->nids, sizeof(*l->ids), cmp_idmap);
	l->ids_base = l->ids[0].id;
	l->ids_dense = true;
	for (uint32_t i = 1; i < l->nids && l->ids_dense; i++)
		l->ids_dense = l->ids[i].id - l->ids_base == i;
	/* the first few each, then how many more: attrs whose ids sections
	 * overlap would give a warning per id */
	uint64_t dup = 0, first_more = 0;

	for (uint32_t i = 1; i < l->nids; i++) {
		if (l->ids[i].id != l->ids[i - 1].id ||
		    l->ids[i].idx == l->ids[i - 1].idx)
			continue;
		if (dup++ == DUPLICATE_IDS_SHOWN) {
			first_more = l->v[l->ids[i].idx].ids_offset;
			continue;
		}
		if (dup > DUPLICATE_IDS_SHOWN)
			continue;
		pd_diag_add(&s->diags, PD_C_DUPLICATE_ID, PD_AT_ATTRS, PD_WARN,
			    l->v[l->ids[i].idx].ids_offset, "attr ids",
			    "id 0x%llx belongs to attr %u and attr %u; "
			    "records with it are taken as attr %u",
			    (unsigned long long)l->ids[i].id, l->ids[i - 1].idx,
			    l->ids[i].idx, l->ids[i - 1].idx);
	}
	if (dup > DUPLICATE_IDS_SHOWN)
		pd_diag_add(&s->diags, PD_C_DUPLICATE_ID, PD_AT_ATTRS, PD_WARN,
			    first_more, "attr ids",
			    "%llu more ids belong to two attrs or more; "
			    "records with one are taken as the first attr's",
			    (unsigned long long)(dup - DUPLICATE_IDS_SHOWN));
}

int64_t pd_evlist_id_slot(const struct pd_evlist *l, uint64_t id)
{
	uint32_t lo = 0, hi = l->nids;

	if (l->ids_dense)
		return id - l->ids_base < l->nids ? (int64_t)(id - l->ids_base)
						  : -1;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (l->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nids && l->ids[lo].id == id ? (int64_t)lo : -1;
}

const struct pd_evsel *pd_evlist_find(const struct pd_session *s, uint64_t id)
{
	const struct pd_evlist *l = &s->evlist;
	int64_t k = pd_evlist_id_slot(l, id);

	return k < 0 ? NULL : &l->v[l->ids[k].idx];
}

void pd_evlist_load(struct pd_session *s)
{
	struct pd_evlist *l = &s->evlist;

	if (l->loaded)
		return;
	l->loaded = true;
	if (s->mode == PD_MODE_PIPE)
		load_pipe_attrs(s);
	else
		load_file_attrs(s);
	for (uint32_t i = 0; i < l->n; i++)
		calc_pos(&l->v[i]);
	build_idmap(s);
	evlist_name_events(s);
	/* perf requires every attr to agree with the first (evlist.c) */
	for (uint32_t i = 1; i < l->n; i++) {
		const struct pd_attr *a = &l->v[0].attr, *b = &l->v[i].attr;

		if ((a->flags ^ b->flags) & PD_ATTR_SAMPLE_ID_ALL)
			pd_diag_add(&s->diags, PD_C_SAMPLE_ID_LAYOUT_MISMATCH,
				    PD_AT_ATTRS, PD_WARN, l->v[i].entry_offset,
				    "attrs",
				    "attr %u and attr 0 disagree on "
				    "sample_id_all; perf refuses such files",
				    i);
		else if (l->v[i].id_pos != l->v[0].id_pos ||
			 l->v[i].is_pos != l->v[0].is_pos)
			pd_diag_add(&s->diags, PD_C_SAMPLE_ID_LAYOUT_MISMATCH,
				    PD_AT_ATTRS, PD_WARN, l->v[i].entry_offset,
				    "attrs",
				    "attr %u places the sample id differently "
				    "from attr 0 (sample_type 0x%llx vs "
				    "0x%llx); perf refuses such files",
				    i, (unsigned long long)b->sample_type,
				    (unsigned long long)a->sample_type);
	}
}

const struct pd_evsel *pd_record_evsel(const struct pd_session *s,
				       uint32_t type, const uint8_t *p,
				       uint32_t size, uint64_t *id_out)
{
	const struct pd_evlist *l = &s->evlist;
	const struct pd_evsel *first = l->n ? &l->v[0] : NULL;
	uint32_t n = size >= 8 ? (size - 8) / 8 : 0;
	uint64_t id;

	*id_out = 0;
	if (!first)
		return NULL;
	if (l->n == 1)
		return first;
	if (!(first->attr.flags & PD_ATTR_SAMPLE_ID_ALL) &&
	    type != PD_REC_SAMPLE)
		return first;
	if (type == PD_REC_SAMPLE) {
		if (first->id_pos < 0 || (uint32_t)first->id_pos >= n)
			return first;
		id = pd_get64(p + 8 + 8 * (uint32_t)first->id_pos, s->swap);
	} else {
		if (first->is_pos < 0 || (uint32_t)first->is_pos > n)
			return first;
		id = pd_get64(p + 8 + 8 * (n - (uint32_t)first->is_pos),
			      s->swap);
	}
	*id_out = id;
	if (!id) /* synthesized records have id 0 */
		return first;
	return pd_evlist_find(s, id);
}

uint32_t pd_sample_id_size(const struct pd_attr *a)
{
	uint64_t t = a->sample_type;

	if (!(a->flags & PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	return 8 * (uint32_t)__builtin_popcountll(t & PD_SAMPLE_ID_ALL_FIELDS);
}

/* perf_evsel__parse_id_sample: the trailer, read backwards from the end */
bool pd_parse_sample_id(const struct pd_session *s, const struct pd_evsel *ev,
			const uint8_t *p, uint32_t size, uint64_t file_off,
			struct pd_sample_id *out)
{
	uint32_t tsize = ev ? pd_sample_id_size(&ev->attr) : 0;
	uint64_t t = ev ? ev->attr.sample_type : 0;
	const uint8_t *q;
	bool sw = s->swap;

	memset(out, 0, sizeof(*out));
	if (!tsize)
		return true;
	if (size < 8 || tsize > size - 8)
		return false;
	q = p + size - 8;
	out->trailer_offset = file_off + size - tsize;
	out->trailer_size = tsize;
	if (t & PD_SAMPLE_IDENTIFIER) {
		out->id = pd_get64(q, sw);
		out->has_id = true;
		q -= 8;
	}
	if (t & PD_SAMPLE_CPU) {
		out->cpu = pd_get32(q, sw);
		out->res = pd_get32(q + 4, sw);
		out->has_cpu = true;
		q -= 8;
	}
	if (t & PD_SAMPLE_STREAM_ID) {
		out->stream_id = pd_get64(q, sw);
		out->has_stream_id = true;
		q -= 8;
	}
	if (t & PD_SAMPLE_ID) {
		out->id = pd_get64(q, sw);
		out->has_id = true;
		q -= 8;
	}
	if (t & PD_SAMPLE_TIME) {
		out->time = pd_get64(q, sw);
		out->has_time = true;
		q -= 8;
	}
	if (t & PD_SAMPLE_TID) {
		out->pid = pd_get32(q, sw);
		out->tid = pd_get32(q + 4, sw);
		out->has_tid = true;
	}
	return true;
}

/*
 * The attr's bytes for -x: pipe mode keeps the HEADER_ATTR records; in
 * file mode they are read again (attr.size bytes at most, u32-bounded by
 * the evlist's own read).
 */
const uint8_t *pd_evsel_raw(struct pd_session *s, const struct pd_evsel *ev,
			    size_t *len)
{
	const struct pd_attr *a = &ev->attr;
	uint8_t *b;
	ssize_t got;

	*len = 0;
	if (!a->avail)
		return NULL;
	if (s->mode == PD_MODE_PIPE) {
		for (size_t i = 0; i < s->npipe_attrs; i++) {
			const struct pd_part *p = &s->pipe_attrs[i];

			if (p->offset == ev->entry_offset &&
			    p->loaded >= 8 + (uint64_t)a->avail) {
				*len = a->avail;
				return p->bytes + 8;
			}
		}
		return NULL;
	}
	b = arena_alloc(&s->arena, a->avail);
	if (!b)
		return NULL;
	got = pd_input_pread(&s->in, a->offset, b, a->avail);
	if (got < 0) {
		pd_diag_add(&s->diags, PD_C_READ_ERROR, PD_AT_ATTRS, PD_ERR,
			    a->offset, "perf_event_attr", "read error: %s",
			    strerror(errno));
		return NULL;
	}
	*len = (size_t)got;
	return b;
}
