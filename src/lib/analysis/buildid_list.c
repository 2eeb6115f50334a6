// SPDX-License-Identifier: MIT
/*
 * The build-id list of a recording (see buildid_list.h): entries from the
 * HEADER_BUILD_ID feature, HEADER_BUILD_ID records and MMAP2 build-ids,
 * deduplicated by (build-id, filename); with hits, samples per DSO.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/buildid_list.h"
#include "lib/analysis/buildid_maps.h"
#include "lib/session/event.h"
#include "lib/session/evlist.h"
#include "lib/session/filter.h"
#include "lib/format/features.h"
#include "lib/session/record.h"
#include "lib/session/sample.h"
#include "lib/session/session.h"
#include "lib/session/walk.h"

const char *const pd_bid_src_names[PD_BID_NSRC] = {
	"feature",
	"record",
	"mmap2",
	"sample",
};

#define NO_SLOT PD_HINDEX_NONE

/* Room for one more entry (realloc: the old array does not stay). */
static bool grow_entries(struct pd_bid_list *l)
{
	size_t ncap = l->cap ? l->cap * 2 : 64;
	struct pd_bid_entry *nv;

	if (l->n < l->cap)
		return true;
	nv = realloc(l->v, ncap * sizeof(*nv));
	if (!nv)
		return false;
	memset(nv + l->cap, 0, (ncap - l->cap) * sizeof(*nv));
	l->v = nv;
	l->cap = ncap;
	return true;
}

/* The entry for (build-id, filename) and its hash, or NULL. */
static struct pd_bid_entry *find_entry(const struct pd_bid_list *l,
				       const uint8_t *id, uint8_t id_size,
				       const char *name, size_t name_len,
				       uint32_t *hash)
{
	uint32_t h, pos = 0, i;

	h = pd_fnv1a(name, name_len, pd_fnv1a(id, id_size, PD_FNV_SEED));
	*hash = h;
	while ((i = pd_hindex_next(&l->index, h, &pos)) != NO_SLOT) {
		struct pd_bid_entry *b = &l->v[i];

		if (b->build_id_size == id_size &&
		    b->filename_len == name_len &&
		    memcmp(b->build_id, id, id_size) == 0 &&
		    memcmp(b->filename, name, name_len) == 0)
			return b;
	}
	return NULL;
}

const struct pd_bid_entry *pd_bid_list_find(const struct pd_bid_list *l,
					    const uint8_t *id, uint8_t id_size,
					    const char *name, size_t name_len)
{
	uint32_t h;

	if (id_size > PD_BUILD_ID_MAX)
		id_size = PD_BUILD_ID_MAX;
	return find_entry(l, id, id_size, name,
			  pd_bid_dso_name_len(name, name_len), &h);
}

/*
 * Add (or merge into) the entry for (build-id, filename).  Returns the
 * entry, or NULL when the list is full or out of memory (warned once).
 */
static struct pd_bid_entry *add_entry(struct pd_bid_list *l,
				      struct pd_session *s, const uint8_t *id,
				      uint8_t id_size, const char *name,
				      size_t name_len, unsigned src,
				      uint64_t offset, bool *is_new)
{
	uint32_t h;
	struct pd_bid_entry *b;

	*is_new = false;
	if (id_size > PD_BUILD_ID_MAX)
		id_size = PD_BUILD_ID_MAX;
	/* "[kernel.kallsyms]_text" in MMAP, "[kernel.kallsyms]" elsewhere */
	name_len = pd_bid_dso_name_len(name, name_len);
	b = find_entry(l, id, id_size, name, name_len, &h);
	if (b) {
		b->sources |= src;
		return b;
	}
	if (l->n >= PD_BID_MAX_ENTRIES || !grow_entries(l) ||
	    pd_hindex_add(&l->index, h, (uint32_t)l->n) < 0)
		goto full;
	b = &l->v[l->n];
	b->filename = arena_alloc(&l->arena, name_len + 1);
	if (!b->filename)
		goto full;
	memcpy(b->filename, name, name_len);
	b->filename_len = (uint32_t)name_len;
	memcpy(b->build_id, id, id_size);
	b->build_id_size = id_size;
	b->sources = src;
	b->offset = offset;
	l->n++;
	*is_new = true;
	return b;
full:
	l->not_kept++;
	if (!l->full_warned)
		pd_diag_add(&s->diags, PD_C_TABLE_FULL,
			    PD_AT_NAMED("build-id list"), PD_WARN, offset,
			    "build-id list",
			    "more than %u distinct build-ids (or out of "
			    "memory): the rest are left out and counted "
			    "(not_kept)",
			    PD_BID_MAX_ENTRIES);
	l->full_warned = true;
	return NULL;
}

static void add_feature(struct pd_bid_list *l, struct pd_session *s)
{
	struct pd_feature *f = NULL;

	for (size_t i = 0; i < s->nfeat; i++)
		if (s->feat[i].id == HEADER_BUILD_ID)
			f = &s->feat[i];
	if (!f)
		return;
	pd_decode_feature(s, f);
	const struct feat_build_id *m = f->model;
	unsigned src = f->src == PD_FSRC_BUILDID_RECORDS ? PD_BID_SRC_RECORD
							 : PD_BID_SRC_FEATURE;

	for (size_t i = 0; m && i < m->nr; i++) {
		const struct pd_build_id *e = &m->v[i];
		struct pd_bid_entry *b;
		bool is_new;

		if (!e->build_id)
			continue;
		b = add_entry(l, s, e->build_id, e->build_id_size,
			      e->filename.s, e->filename.len, src, e->offset,
			      &is_new);
		if (is_new) {
			b->pid = e->pid;
			b->has_pid = e->has_pid;
			b->misc = e->misc;
		}
	}
}

/* ---- the record walk ------------------------------------------------- */

struct walk {
	struct pd_bid_list *l;
	struct pd_session *s;
	struct arena scratch;
	struct pd_bid_maps *maps;	/* with hits */
	const struct pd_filter *filter; /* the samples counted (NULL: all) */
	bool cap_warned;
	/* pipe mode: the records before are in the feature */
	uint64_t feature_end;
};

static void cap_hit(struct walk *w, uint64_t off)
{
	w->l->hits.capped = true;
	w->l->hits.not_kept++;
	if (!w->cap_warned)
		pd_diag_add(
			&w->s->diags, PD_C_TABLE_FULL, PD_AT_NAMED("--hits"),
			PD_WARN, off, "--hits",
			"more than %u maps, %u processes or %u DSOs: later "
			"MMAP, MMAP2, KSYMBOL and FORK records are left out "
			"and counted (not_kept); sample counts may be short",
			PD_BID_MAX_MAPS, PD_BID_MAX_PROCS, PD_BID_MAX_DSOS);
	w->cap_warned = true;
}

static void on_sample(struct walk *w, const struct pd_event *ev)
{
	struct pd_session *s = w->s;
	const struct pd_evsel *evsel;
	struct pd_sample smp;
	struct pd_bid_hit hit;
	bool mapped = false;
	uint64_t rid;

	evsel = pd_record_evsel(s, ev->type, ev->p, ev->size, &rid);
	pd_parse_sample(s, evsel, ev, &w->scratch, &smp);
	if (w->filter &&
	    !pd_filter_passes(w->filter, &smp.common, evsel, PD_REC_SAMPLE))
		return;
	w->l->hits.samples++;
	if ((smp.decoded_type & PD_SAMPLE_IP) &&
	    (smp.decoded_type & PD_SAMPLE_TID))
		mapped = pd_bid_maps_sample(w->maps,
					    ev->misc & PD_MISC_CPUMODE_MASK,
					    smp.common.pid, smp.ip, &hit);
	if (mapped) {
		hit.dso->samples++;
		w->l->hits.mapped++;
	} else {
		w->l->hits.unmapped++;
	}
}

static void on_record(struct walk *w, const struct pd_event *ev)
{
	struct pd_session *s = w->s;
	struct pd_decoded d;
	const struct pd_record *rec = &d.rec;

	if (ev->legacy_feature)
		return;
	arena_reset(&w->scratch);
	if (ev->type == PD_REC_SAMPLE) {
		if (w->maps)
			on_sample(w, ev);
		return;
	}
	if (ev->type != PD_REC_MMAP && ev->type != PD_REC_MMAP2 &&
	    ev->type != PD_REC_FORK && ev->type != PD_REC_HEADER_BUILD_ID &&
	    (ev->type != PD_REC_KSYMBOL || !w->maps))
		return;
	pd_decode_event(s, ev, &w->scratch, 0, &d);
	if (rec->too_small)
		return;
	if (ev->type == PD_REC_HEADER_BUILD_ID) {
		const struct pd_rec_build_id *r = &rec->u.build_id;
		struct pd_bid_entry *b;
		bool is_new;

		/*
		 * pipe mode: already in the feature (from the same records),
		 * but for a live stream's, read after the feature was
		 */
		if (!r->build_id ||
		    (s->mode == PD_MODE_PIPE && ev->offset < w->feature_end))
			return;
		b = add_entry(w->l, s, r->build_id, r->build_id_size,
			      r->filename.s, r->filename.len, PD_BID_SRC_RECORD,
			      ev->offset, &is_new);
		if (is_new) {
			b->pid = r->pid;
			b->has_pid = true;
			b->misc = ev->misc;
		}
		return;
	}
	/* KSYMBOL's samples are mapped, counted apart (hits.ksymbol) */
	if (w->maps && !pd_bid_maps_record(w->maps, ev, rec))
		cap_hit(w, ev->offset);
	if (ev->type == PD_REC_FORK || ev->type == PD_REC_KSYMBOL)
		return;
	/* MMAP, MMAP2 */
	const struct pd_rec_mmap *m = &rec->u.mmap;
	bool has_bid = m->has_build_id && m->build_id;
	uint8_t bid_size = has_bid ? m->build_id_size : 0;

	if (bid_size > PD_BUILD_ID_MAX)
		bid_size = PD_BUILD_ID_MAX;
	if (!m->filename.s)
		return;
	if (has_bid) {
		bool is_new;
		struct pd_bid_entry *b = add_entry(
			w->l, s, m->build_id, bid_size, m->filename.s,
			m->filename.len, PD_BID_SRC_MMAP2, ev->offset, &is_new);

		if (is_new) {
			b->pid = (int32_t)m->pid;
			b->has_pid = true;
			b->misc = ev->misc & PD_MISC_CPUMODE_MASK;
		}
	}
}

static bool visit(void *arg, const struct pd_event *ev)
{
	on_record(arg, ev);
	return true;
}

/* The first of l's first n entries named like d (and with its build-id). */
static struct pd_bid_entry *entry_of_dso(struct pd_bid_list *l,
					 const struct pd_hindex *by_name,
					 const struct pd_bid_dso *d)
{
	uint32_t pos = 0, j, best = NO_SLOT;
	uint32_t h = pd_fnv1a(d->name, d->name_len, PD_FNV_SEED);

	while ((j = pd_hindex_next(by_name, h, &pos)) != NO_SLOT) {
		struct pd_bid_entry *e = &l->v[j];

		if (j < best && e->filename_len == d->name_len &&
		    memcmp(e->filename, d->name, d->name_len) == 0 &&
		    (!d->build_id_size ||
		     pd_bid_equal(e->build_id, e->build_id_size, d->build_id,
				  d->build_id_size)))
			best = j;
	}
	return best == NO_SLOT ? NULL : &l->v[best];
}

/* The sampled DSOs: counts onto their entries, new entries if none. */
static void attach_hits(struct walk *w)
{
	struct pd_bid_list *l = w->l;
	size_t nd = pd_bid_maps_ndsos(w->maps), n0 = l->n;
	struct pd_hindex by_name = {0}; /* the entries before, by name */

	for (size_t j = 0; j < n0; j++) {
		uint32_t h = pd_fnv1a(l->v[j].filename, l->v[j].filename_len,
				      PD_FNV_SEED);

		if (pd_hindex_add(&by_name, h, (uint32_t)j) < 0) {
			pd_diag_add(&w->s->diags, PD_C_MALFORMED,
				    PD_AT_NAMED("--hits"), PD_ERR, PD_NO_OFFSET,
				    "--hits", "out of memory");
			pd_hindex_free(&by_name);
			return;
		}
	}
	for (size_t i = 0; i < nd; i++) {
		struct pd_bid_dso *d = pd_bid_maps_dso(w->maps, i);
		struct pd_bid_entry *b;
		bool is_new;

		if (!d->samples)
			continue;
		/*
		 * A BPF program has no file nor build-id: perf buildid-list -H
		 * lists only the machine's DSOs, not those KSYMBOLs make
		 * (machine.c: machine__process_ksymbol_register, dso__new).
		 */
		if (d->ksymbol) {
			l->hits.ksymbol += d->samples;
			continue;
		}
		b = entry_of_dso(l, &by_name, d);
		if (!b) {
			b = add_entry(l, w->s, d->build_id, 0, d->name,
				      d->name_len, PD_BID_SRC_SAMPLE, 0,
				      &is_new);
			/* only kernel and user samples are mapped */
			if (b && is_new)
				b->misc = d->kernel ? PD_MISC_KERNEL
						    : PD_MISC_USER;
		}
		if (b)
			b->samples += d->samples;
	}
	pd_hindex_free(&by_name);
}

int pd_bid_list_build(struct pd_bid_list *l, struct pd_session *s,
		      bool scan_records, bool with_hits)
{
	return pd_bid_list_build_hits(l, s, scan_records, with_hits, NULL);
}

int pd_bid_list_build_hits(struct pd_bid_list *l, struct pd_session *s,
			   bool scan_records, bool with_hits,
			   const struct pd_filter *f)
{
	static const struct pd_visitor v = {.event = visit};
	struct walk w = {.l = l, .s = s, .filter = f};
	struct pd_walk_opts o = {
		.flags = s->mode == PD_MODE_DIR ? PD_WALK_DATA_N : 0};
	int rc = 0;

	memset(l, 0, sizeof(*l));
	l->with_hits = with_hits;
	add_feature(l, s);
	/* a live pipe stream: the session has walked this far only */
	w.feature_end = s->pipe.live ? s->pipe.walked : UINT64_MAX;
	if (!scan_records && !with_hits)
		return 0;
	if (with_hits) {
		w.maps = pd_bid_maps_new(0);
		if (!w.maps) {
			pd_diag_add(&s->diags, PD_C_MALFORMED,
				    PD_AT_NAMED("--hits"), PD_ERR, PD_NO_OFFSET,
				    "--hits", "out of memory");
			return -1;
		}
		o.flags |= PD_WALK_TIME_ORDER;
		rc = pd_walk(s, &o, &v, &w);
		attach_hits(&w);
		l->hits.maps = pd_bid_maps_count(w.maps);
		pd_bid_maps_free(w.maps);
	} else {
		rc = pd_walk(s, &o, &v, &w);
	}
	arena_free(&w.scratch);
	if (rc < 0)
		pd_diag_add(&s->diags, PD_C_MALFORMED,
			    PD_AT_NAMED("build-id list"), PD_ERR, PD_NO_OFFSET,
			    "build-id list",
			    "out of memory while reading the records");
	return rc;
}

void pd_bid_list_resolve(struct pd_bid_list *l, const struct pd_bid_where *w)
{
	for (size_t i = 0; i < l->n; i++) {
		struct pd_bid_entry *b = &l->v[i];

		if (!b->build_id_size) {
			b->res.status = pd_bid_is_pseudo(b->filename,
							 b->filename_len) &&
							!pd_bid_is_kernel(
								b->filename,
								b->filename_len)
						? PD_BID_PSEUDO
						: PD_BID_NO_BUILD_ID;
			b->res.detail = b->res.status == PD_BID_PSEUDO
						? "not a file"
						: "the recording has no "
						  "build-id for it";
			continue;
		}
		pd_bid_resolve(w, b->build_id, b->build_id_size, b->filename,
			       b->filename_len, b->misc & PD_MISC_CPUMODE_MASK,
			       &l->arena, &b->res);
	}
}

void pd_bid_list_free(struct pd_bid_list *l)
{
	free(l->v);
	pd_hindex_free(&l->index);
	arena_free(&l->arena);
	memset(l, 0, sizeof(*l));
}
