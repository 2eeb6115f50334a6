/* SPDX-License-Identifier: MIT */
/*
 * The events of a recording: each attr with its ids and name, the id ->
 * attr lookup, and which attr describes a record (tools/perf/util/evlist.c
 * evlist__event2evsel; evsel.c __perf_evsel__calc_id_pos/is_pos,
 * perf_evsel__parse_id_sample).
 */
#ifndef PD_EVLIST_H
#define PD_EVLIST_H

#include <stdbool.h>
#include <stdint.h>

#include "attr.h"

struct pd_session;
struct pd_tp_event;

struct pd_evsel {
	unsigned idx;
	struct pd_attr attr;
	uint64_t *ids;
	uint32_t nids;
	uint64_t ids_offset;   /* file offset of the ids (0: none) */
	uint64_t entry_offset; /* attrs-section entry, or HEADER_ATTR record */
	char name[256];	       /* "": unnamed (evname.c says when) */
	const char *name_from; /* "EVENT_DESC", "EVENT_UPDATE", "TRACING_DATA",
				  "attr", NULL */
	int id_pos;	       /* u64 index of the id in a sample, -1 none */
	int is_pos;	       /* u64 index from the end in other records */
	/* tracepoints (tracepoint.c): the format, looked up once per blob */
	const struct pd_tp_event *tp;
	uint32_t tp_gen;
	bool tp_missing_said;
};

struct pd_idmap {
	uint64_t id;
	uint32_t idx;
};

struct pd_evlist {
	bool loaded;
	struct pd_evsel *v;
	uint32_t n, cap;
	struct pd_idmap *ids; /* sorted by id */
	uint32_t nids;
	uint32_t kept_ids;	       /* over every evsel (evlist.c's cap) */
	bool attrs_capped, ids_capped; /* evlist.c's caps were reached */
};

/*
 * Build s->evlist from the attrs section (file mode) or the HEADER_ATTR
 * records (pipe mode), with names from EVENT_UPDATE NAME records,
 * EVENT_DESC, TRACING_DATA, else the attr (evname.h).  Idempotent;
 * problems go to s->diags.
 */
void pd_evlist_load(struct pd_session *s);

/* The evsel an id belongs to, or NULL. */
const struct pd_evsel *pd_evlist_find(const struct pd_session *s, uint64_t id);
/* The index of id in l->ids (sorted by id), or -1. */
int64_t pd_evlist_id_slot(const struct pd_evlist *l, uint64_t id);

/* Name an evsel (name_from: where the name comes from). */
void pd_evsel_name(struct pd_evsel *ev, const char *from, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Name an evsel from an EVENT_UPDATE (78) NAME record seen in the data. */
void pd_evlist_set_name(struct pd_session *s, uint64_t id, const char *name,
			size_t len);
/*
 * Apply an EVENT_UPDATE record (p: size bytes, header included): a NAME
 * update (type 2: u64 type; u64 id; char name[]) names its evsel.
 */
void pd_evlist_apply_update(struct pd_session *s, const uint8_t *p,
			    size_t size);

/*
 * The sample_id fields every record may carry (tools/perf/util/evsel.c:
 * perf_evsel__parse_id_sample): for a
 * SAMPLE they come from the sample body; for others from the trailer at
 * the end of the record (only with sample_id_all).
 */
struct pd_sample_id {
	bool has_tid, has_time, has_id, has_stream_id, has_cpu;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t trailer_offset; /* file offset of the trailer (non-sample) */
	uint32_t trailer_size;	 /* bytes (0: none) */
};

/*
 * Which evsel describes the record at p (size bytes, header included) of
 * this type (evlist__event2evsel): the only one, the first when it lacks
 * sample_id_all, else by the id at id_pos / is_pos (id 0: the first).
 * NULL when the id belongs to no attr (*id_out tells which).
 */
const struct pd_evsel *pd_record_evsel(const struct pd_session *s,
				       uint32_t type, const uint8_t *p,
				       uint32_t size, uint64_t *id_out);

/*
 * Decode the sample_id trailer of a non-sample kernel record (types 1..63
 * except SAMPLE) described by ev.  Returns false if the record is too
 * small for the trailer its attr declares.
 */
bool pd_parse_sample_id(const struct pd_session *s, const struct pd_evsel *ev,
			const uint8_t *p, uint32_t size, uint64_t file_off,
			struct pd_sample_id *out);

/* Size in bytes of the trailer an attr declares (0 without sample_id_all). */
uint32_t pd_sample_id_size(const struct pd_attr *a);

/*
 * An attr's bytes as the file holds them (for -x): pipe mode keeps the
 * HEADER_ATTR records; in file mode they are read again (attr.size bytes
 * at most).  NULL when there are none; a read error is a diagnostic.
 */
const uint8_t *pd_evsel_raw(struct pd_session *s, const struct pd_evsel *ev,
			    size_t *len);

#endif
