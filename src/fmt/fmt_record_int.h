/* SPDX-License-Identifier: MIT */
/* Shared by the record formatters (fmt_record.c, fmt_record_user.c). */
#ifndef PD_FMT_RECORD_INT_H
#define PD_FMT_RECORD_INT_H

#include "fmt_records.h"

#define REC_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* A name from a table indexed by value, or NULL. */
static inline const char *rec_name(const char *const *t, size_t n, uint64_t v)
{
	return v < n ? t[v] : NULL;
}

/* The fields of perf's records (64+) and the AUX area ones. */
void emit_record_user(struct emitter *e, const struct pd_session *s,
		      const struct pd_event *ev, const struct pd_record *r);

/* cpu_map_data: map_type, the raw form, and "cpus" as a list "0-3,8". */
void emit_cpu_map(struct emitter *e, const struct pd_cpu_map *m);

#endif
