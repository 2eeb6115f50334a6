/* SPDX-License-Identifier: MIT */
/*
 * The model of a recording's events, as the session holds it: each attr
 * with its ids and name, the sorted id map, and the sample_id fields a
 * record carries.  Plain types (and how an evsel is named); evlist.h
 * builds and looks them up.
 */
#ifndef PD_EVSEL_H
#define PD_EVSEL_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/format/attr.h"

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
	int time_pos; /* u64 index of a sample's TIME (pd_sample_positions) */
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
	/* ids[k].id is ids_base + k for every k (perf numbers an evlist's
	 * ids in a row): an id's slot without a search */
	bool ids_dense;
	uint64_t ids_base;
	uint32_t kept_ids;	       /* over every evsel (evlist.c's cap) */
	bool attrs_capped, ids_capped; /* evlist.c's caps were reached */
};

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

/* Name an evsel (name_from: where the name comes from). */
void pd_evsel_name(struct pd_evsel *ev, const char *from, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
