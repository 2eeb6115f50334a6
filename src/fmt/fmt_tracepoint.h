/* SPDX-License-Identifier: MIT */
/* Tracepoint fields and formats (fmt_tracepoint.c). */
#ifndef PD_FMT_TRACEPOINT_H
#define PD_FMT_TRACEPOINT_H

#include "lib/tracepoint/tracepoint.h"
#include "fmt/emit.h"
#include "fmt/redact.h"

/* "fields": {name: value, ...} and "print" of a tracepoint sample. */
/* --redact's kind of a string field: PRIV_COMM for a ...comm, else
 * PRIV_STR (fmt_tracepoint.c). */
enum pd_priv tp_str_kind(const struct pd_tp_field *f);
void emit_tp_sample(struct emitter *e, const struct pd_tp_sample *t);

/* parsed, fields [{name, type, offset, size, signed, ...}], print_fmt. */
void emit_tp_format(struct emitter *e, const struct pd_tp_event *ev);

#endif
