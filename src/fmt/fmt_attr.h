/* SPDX-License-Identifier: MIT */
/*
 * The formatter for one event of the recording: its perf_event_attr with
 * every field the attr's size covers, decoded by name, its event and PMU
 * names, its ids and their ID_INDEX entries.
 */
#ifndef PD_FMT_ATTR_H
#define PD_FMT_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/evlist.h"
#include "../lib/session.h"
#include "emit.h"

/* One entry of a PERF_RECORD_ID_INDEX (69) record (FORMAT.md §7). */
struct pd_id_index_entry {
	uint64_t id, idx, cpu, tid;
	bool has_guest; /* the record has the guest part */
	uint64_t machine_pid, vcpu;
	uint64_t offset; /* file offset of the entry (of the
				   * compressed container if compressed) */
};

/* Every ID_INDEX entry of the recording, sorted by id. */
struct pd_id_index {
	bool present; /* at least one ID_INDEX record */
	uint32_t nrecords;
	struct pd_id_index_entry *v;
	size_t n;
};

/* The entry for id, or NULL. */
const struct pd_id_index_entry *pd_id_index_find(const struct pd_id_index *ix,
						 uint64_t id);

/*
 * The attr's fields (type .. config4, the bytes beyond), in attr order:
 * only those inside attr.size.  Used by the attrs command's objects.
 */
void emit_attr_fields(struct emitter *e, const struct pd_session *s,
		      const struct pd_attr *a);

/*
 * One event as an array element: title "attr N: NAME (PMU) at 0xOFF";
 * index, name, offsets, the attr fields, ids, id_index (when the
 * recording has ID_INDEX; ix may be NULL), and `raw` (the attr bytes,
 * rawlen of them) as a hex dump with -x.
 */
void emit_evsel(struct emitter *e, const struct pd_session *s,
		const struct pd_evsel *ev, const struct pd_id_index *ix,
		const uint8_t *raw, size_t rawlen);

/* precise_ip as a value with its meaning, and perf's ":ppp" modifier. */
void emit_precise_ip(struct emitter *e, uint64_t flags);

#endif
