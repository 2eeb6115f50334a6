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

#include "lib/session/evlist.h"
#include "lib/session/id_index.h"
#include "lib/session/session.h"
#include "fmt/emit.h"

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
