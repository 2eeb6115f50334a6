/* SPDX-License-Identifier: MIT */
/*
 * The ID_INDEX records of a recording: which cpu, thread and map index
 * each sample id stands for.  No printing.
 */
#ifndef PD_ID_INDEX_H
#define PD_ID_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_session;

/*
 * One entry of a PERF_RECORD_ID_INDEX (69) record
 * (tools/lib/perf/include/perf/event.h: struct id_index_entry and, when
 * the record is long enough, struct id_index_entry_2).
 */
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
 * Read the ID_INDEX records of s (they come before the first kernel
 * record: the walk is bounded) into ix, sorted by id; warn about ids no
 * attr has.  Needs the evlist (pd_evlist_load).  Problems go to s->diags.
 */
void pd_id_index_load(struct pd_session *s, struct pd_id_index *ix);
void pd_id_index_free(struct pd_id_index *ix);

#endif
