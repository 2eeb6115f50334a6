/* SPDX-License-Identifier: MIT */
/* The formatter for one record of the stream, decoded (records). */
#ifndef PD_FMT_EVENT_H
#define PD_FMT_EVENT_H

#include "lib/analysis/symbolize.h"
#include "lib/session/event.h"
#include "lib/io/reader.h"
#include "lib/session/session.h"
#include "fmt/emit.h"

/*
 * One record as an array element (or a JSON line): title "0xOFF [0xSIZE]
 * PERF_RECORD_NAME", misc, where it came from, its event, the fields of
 * d (pd_decode_event), the sample_id trailer, raw bytes with -x.
 */
void emit_event(struct emitter *e, const struct pd_session *s,
		const struct pd_event *ev, const struct pd_decoded *d);

/*
 * The same with a sample's frames (records --symbols), after its fields:
 * "frames", each {ip, sym, symoff, dso} (null: [unknown]), or a context
 * marker {context}; text: a line a frame, perf script's "IP SYM+OFF
 * (DSO)".  f NULL: as emit_event.
 */
void emit_event_frames(struct emitter *e, const struct pd_session *s,
		       const struct pd_event *ev, const struct pd_decoded *d,
		       const struct pd_frames *f);

#endif
