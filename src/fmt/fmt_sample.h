/* SPDX-License-Identifier: MIT */
/*
 * The value decoders of emit_sample() (fmt_sample_values.c): packed
 * sample words written field by field with their uapi names
 * (include/uapi/linux/perf_event.h).
 */
#ifndef PD_FMT_SAMPLE_H
#define PD_FMT_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/format/regs.h"
#include "lib/session/sample.h"
#include "fmt/emit.h"

/*
 * A callchain context marker's name: "PERF_CONTEXT_KERNEL" (long) or
 * "kernel"; NULL if v is not a known marker.
 */
const char *pd_context_name(uint64_t v, bool long_name);

/* One branch entry as a row: from, to, flags and every flag field. */
void emit_branch_entry(struct emitter *e, enum pd_arch arch,
		       const struct pd_branch_entry *be);

/* "data_src": the raw word and its fields, named. */
void emit_data_src(struct emitter *e, uint64_t v);

struct pd_evsel;
/* "event": the evsel's name (names.h pd_evsel_label), null if none. */
void emit_event_name(struct emitter *e, const struct pd_evsel *ev);

/* "transaction": the raw word, its flags and the abort code. */
void emit_transaction(struct emitter *e, uint64_t v);

#endif
