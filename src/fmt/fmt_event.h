/* SPDX-License-Identifier: MIT */
/* The formatter for one record of the stream, decoded (records). */
#ifndef PD_FMT_EVENT_H
#define PD_FMT_EVENT_H

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

#endif
