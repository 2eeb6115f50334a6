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

#include "lib/format/evsel.h"

struct pd_session;

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
