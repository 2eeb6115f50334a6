/* SPDX-License-Identifier: MIT */
/* Tracepoint fields and formats (fmt_tracepoint.c). */
#ifndef PD_FMT_TRACEPOINT_H
#define PD_FMT_TRACEPOINT_H

#include "lib/tracepoint/tracepoint.h"
#include "fmt/emit.h"

/* "fields": {name: value, ...} and "print" of a tracepoint sample. */
void emit_tp_sample(struct emitter *e, const struct pd_tp_sample *t);

/* parsed, fields [{name, type, offset, size, signed, ...}], print_fmt. */
void emit_tp_format(struct emitter *e, const struct pd_tp_event *ev);

#endif
