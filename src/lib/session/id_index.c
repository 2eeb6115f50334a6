// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_ID_INDEX (tools/lib/perf/include/perf/event.h: struct
 * perf_record_id_index, written by perf_event__synthesize_id_index in
 * tools/perf/util/synthetic-events.c): which cpu, thread and index in its
 * event's maps each sample id stands for.
 */
#include "lib/session/id_index.h"

#include <stdlib.h>
#include <string.h>

#include "lib/session/evlist.h"
#include "lib/session/walk.h"
#include "lib/session/record.h"
#include "lib/session/session.h"

/* ID_INDEX entries kept at most (32 bytes each, 8 MiB). */
#define ID_INDEX_MAX (1u << 18)
/* Records looked at for ID_INDEX before the first kernel record. */
#define SCAN_MAX 100000

static int cmp_entry(const void *a, const void *b)
{
	const struct pd_id_index_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Keep the entries of an ID_INDEX (69) record, decoded by pd_parse_record
 * (record_user.c), with their file offsets.
 */
static void parse_id_index(struct pd_session *s, const struct pd_event *ev,
			   struct pd_id_index *ix, size_t *cap,
			   struct arena *scratch)
{
	struct pd_record rec;
	const struct pd_rec_id_index *m = &rec.u.id_index;

	ix->present = true;
	ix->nrecords++;
	arena_reset(scratch);
	pd_parse_record(s, ev, 0, scratch, &rec);
	for (uint32_t i = 0; i < m->nread; i++) {
		struct pd_id_index_entry *x;

		if (ix->n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;

			if (ix->n >= ID_INDEX_MAX) {
				pd_diag_add(&s->diags, PD_C_UNUSUAL,
					    PD_AT_RECORD(PD_REC_ID_INDEX),
					    PD_WARN, ev->offset,
					    "PERF_RECORD_ID_INDEX",
					    "more than %u entries; the rest "
					    "are not shown",
					    ID_INDEX_MAX);
				return;
			}
			x = realloc(ix->v, ncap * sizeof(*x));
			if (!x)
				return;
			ix->v = x;
			*cap = ncap;
		}
		x = &ix->v[ix->n++];
		x->id = m->v[i].id;
		x->idx = m->v[i].idx;
		x->cpu = m->v[i].cpu;
		x->tid = m->v[i].tid;
		x->offset = ev->compressed ? ev->offset
					   : ev->offset + 16 + 32ULL * i;
		x->has_guest = m->has_guest;
		x->machine_pid = m->has_guest ? m->v[i].machine_pid : 0;
		x->vcpu = m->has_guest ? m->v[i].vcpu : 0;
	}
}

/*
 * The records perf synthesizes before ID_INDEX (builtin-record.c
 * record__synthesize: the pipe-mode metadata, TIME_CONV, then "id_index
 * before auxtrace_info").  HEADER_TRACING_DATA only in pipe mode:
 * simpleperf writes its own form of it into file-mode data sections.
 */
static bool before_id_index(const struct pd_session *s, uint32_t type)
{
	switch (type) {
	case PD_REC_HEADER_ATTR:
	case PD_REC_HEADER_EVENT_TYPE:
	case PD_REC_HEADER_BUILD_ID:
	case PD_REC_FINISHED_ROUND:
	case PD_REC_ID_INDEX:
	case PD_REC_EVENT_UPDATE:
	case PD_REC_TIME_CONV:
	case PD_REC_HEADER_FEATURE: return true;
	case PD_REC_HEADER_TRACING_DATA: return s->mode == PD_MODE_PIPE;
	}
	return false;
}

/*
 * ID_INDEX records come before the first kernel record and before
 * FINISHED_INIT, so the walk stops at the first record that does not
 * precede them: bounded, whatever the size of the recording.
 */
struct scan {
	struct pd_session *s;
	struct pd_id_index *ix;
	size_t cap;
	unsigned n;
	struct arena scratch;
};

static bool scan_visit(void *arg, const struct pd_event *ev)
{
	struct scan *sc = arg;

	if (sc->n++ >= SCAN_MAX || !before_id_index(sc->s, ev->type))
		return false;
	if (ev->type == PD_REC_ID_INDEX)
		parse_id_index(sc->s, ev, sc->ix, &sc->cap, &sc->scratch);
	return true;
}

static void load_id_index(struct pd_session *s, struct pd_id_index *ix)
{
	static const struct pd_visitor v = {.event = scan_visit};
	static const struct pd_walk_opts o = {.flags = PD_WALK_PREFIX};
	struct scan sc = {.s = s, .ix = ix};

	/* the pre-upstream Google pipe format uses 69 for a feature */
	if (s->mode == PD_MODE_PIPE && s->pipe.legacy_google)
		return;
	pd_walk(s, &o, &v, &sc);
	arena_free(&sc.scratch);
	if (ix->n)
		qsort(ix->v, ix->n, sizeof(*ix->v), cmp_entry);
}

/*
 * ID_INDEX ids that no attr has.  (idx is the id's index in its event's
 * cpu/thread map, evlist.c perf_evlist__set_sid_idx, not the attr's.)
 */
static void check_id_index(struct pd_session *s, const struct pd_id_index *ix)
{
	for (size_t i = 0; i < ix->n; i++)
		if (!pd_evlist_find(s, ix->v[i].id))
			pd_diag_add(&s->diags, PD_C_UNKNOWN_SAMPLE_ID,
				    PD_AT_RECORD(PD_REC_ID_INDEX), PD_WARN,
				    ix->v[i].offset, "PERF_RECORD_ID_INDEX",
				    "id 0x%llx belongs to no attr",
				    (unsigned long long)ix->v[i].id);
}

const struct pd_id_index_entry *pd_id_index_find(const struct pd_id_index *ix,
						 uint64_t id)
{
	size_t lo = 0, hi = ix ? ix->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ix && lo < ix->n && ix->v[lo].id == id ? &ix->v[lo] : NULL;
}

void pd_id_index_load(struct pd_session *s, struct pd_id_index *ix)
{
	load_id_index(s, ix);
	check_id_index(s, ix);
}

void pd_id_index_free(struct pd_id_index *ix)
{
	free(ix->v);
	memset(ix, 0, sizeof(*ix));
}
