/* SPDX-License-Identifier: MIT */
/*
 * Formatters for records: the fields of a decoded sample or record body,
 * written into the row/object the caller opened (which already holds the
 * offset, size, type and misc).
 */
#ifndef PD_FMT_RECORDS_H
#define PD_FMT_RECORDS_H

#include "lib/session/evlist.h"
#include "lib/io/reader.h"
#include "lib/session/record.h"
#include "lib/session/sample.h"
#include "lib/session/session.h"
#include "fmt/emit.h"

void emit_sample(struct emitter *e, const struct pd_session *s,
		 const struct pd_evsel *ev, const struct pd_event *rec,
		 const struct pd_sample *smp);
void emit_record(struct emitter *e, const struct pd_session *s,
		 const struct pd_event *ev, const struct pd_record *r);

#endif
