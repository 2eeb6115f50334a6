/* SPDX-License-Identifier: MIT */
/*
 * Every record type but SAMPLE, decoded field by field: the
 * kernel's records 1..22 (their body, without the sample_id trailer),
 * perf's user records 64..86, simpleperf's 32768+ and unknown types (kept
 * as bytes).  Layouts checked against tools/lib/perf/include/perf/event.h,
 * include/uapi/linux/perf_event.h and tools/perf/util/session.c
 * (perf_event__swap_ops, perf_event__min_size), 2026 trees.
 *
 * The model (record_model.h) is a tagged union: pd_record.type picks the
 * member of `u`.
 */
#ifndef PD_RECORD_H
#define PD_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/format/attr.h"
#include "lib/base/cursor.h"
#include "lib/format/perf_abi.h"
#include "lib/io/reader.h"
#include "lib/format/record_model.h"
#include "lib/format/record_types.h"

struct pd_session;
struct pd_event;
struct pd_evsel;
struct pd_feature;
struct feat_tracing_data;

/*
 * Decode the body of e (everything after the 8-byte header and before a
 * sample_id trailer of trailer_size bytes) into out; arrays and strings go
 * into `scratch` or point into e->p.  Problems go to s->diags with file
 * offsets.  Returns false when the record is damaged.
 */
bool pd_parse_record(struct pd_session *s, const struct pd_event *e,
		     uint32_t trailer_size, struct arena *scratch,
		     struct pd_record *out);

/*
 * The fixed fields of a few records read in place (record_view.c), for
 * counting loops where pd_parse_record would cost too much (stats): the
 * head of the body through its type's layout in the registry
 * (record_types.c), the one pd_parse_record decodes.  Each returns false,
 * filling nothing, when e is not of the view's type (FORK or EXIT for the
 * task view) or is shorter than its type's minimum (pd_record_min_size);
 * none reports a problem (the record decoder does).
 */
bool pd_lost_view(const struct pd_event *e, bool swap, struct pd_rec_lost *v);
bool pd_lost_samples_view(const struct pd_event *e, bool swap,
			  struct pd_rec_lost_samples *v);
bool pd_aux_view(const struct pd_event *e, bool swap, struct pd_rec_aux *v);
bool pd_task_view(const struct pd_event *e, bool swap, struct pd_rec_task *v);
bool pd_stat_view(const struct pd_event *e, bool swap, struct pd_rec_stat *v);
bool pd_stat_round_view(const struct pd_event *e, bool swap,
			struct pd_rec_stat_round *v);
/* EVENT_UPDATE's type and id; payload: the bytes after them, to the end */
bool pd_event_update_view(const struct pd_event *e, bool swap,
			  struct pd_rec_event_update *v,
			  struct pd_rec_raw *payload);
/* STAT_CONFIG's nr (as stored); entries: the bytes after it, to the end */
bool pd_stat_config_view(const struct pd_event *e, bool swap,
			 struct pd_rec_stat_config *v,
			 struct pd_rec_raw *entries);
/* Entry i of those bytes (the caller checked that it fits) */
void pd_stat_config_entry_view(const struct pd_rec_raw *entries, uint64_t i,
			       bool swap, struct pd_stat_config_ent *v);
/*
 * HEADER_FEATURE (80) in place (tools/perf/util/header.c:
 * perf_event__process_feature): u64 feat_id, then the feature section's
 * bytes; none make it the end-of-features marker.  false: no room for
 * feat_id.  rec is the whole record (size bytes from file offset off).
 */
struct pd_feature_rec_view {
	uint64_t feat_id;
	bool end_marker;
	const uint8_t *data; /* the feature section's bytes */
	uint32_t size;
	uint64_t data_off; /* their file offset */
};

bool pd_header_feature_view(const uint8_t *rec, uint16_t size, uint64_t off,
			    bool swap, struct pd_feature_rec_view *v);
/*
 * COMM's pid, tid and comm up to its NUL or the start of its sample_id
 * trailer of trailer_size bytes (not copied), where pd_parse_record ends it
 */
bool pd_comm_view(const struct pd_event *e, bool swap, uint32_t trailer_size,
		  struct pd_rec_comm *v);

/* Counter names of a SCHEDSTAT record version (15..17); NULL if unknown. */
const struct pd_schedstat_field *
pd_schedstat_fields(bool domain, uint16_t version, uint32_t *n);

/*
 * The process a record is about, from its own fields (MMAP, MMAP2, COMM,
 * FORK, EXIT, READ, ITRACE_START, NAMESPACES, SWITCH_CPU_WIDE's next/prev
 * excluded): what --pid/--tid filter on, before the sample_id trailer.
 */
bool pd_record_pid_tid(const struct pd_record *r, uint32_t *pid, uint32_t *tid);

#endif
