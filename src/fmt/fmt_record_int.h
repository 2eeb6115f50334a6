/* SPDX-License-Identifier: MIT */
/* Shared by the record formatters (fmt_record.c, fmt_record_user.c). */
#ifndef PD_FMT_RECORD_INT_H
#define PD_FMT_RECORD_INT_H

#include "lib/base/util.h"
#include "fmt/fmt_records.h"

/* A name from a table indexed by value, or NULL. */
static inline const char *rec_name(const char *const *t, size_t n, uint64_t v)
{
	return v < n ? t[v] : NULL;
}

/* What a record's formatter gets: the row to write into, the record. */
struct fmt_rec {
	struct emitter *e;
	const struct pd_session *s;
	const struct pd_record *r;
};

/* Writes the fields of x->r, decoded as PD_RK_FIELDS, into x->e. */
typedef void (*fmt_rec_fn)(const struct fmt_rec *x);

/* perf's records (64..86), in fmt_record_user.c */
void fmt_header_attr(const struct fmt_rec *x);
void fmt_event_type(const struct fmt_rec *x);
void fmt_tracing_data(const struct fmt_rec *x);
void fmt_build_id(const struct fmt_rec *x);
void fmt_id_index(const struct fmt_rec *x);
void fmt_auxtrace_info(const struct fmt_rec *x);
void fmt_auxtrace(const struct fmt_rec *x);
void fmt_auxtrace_error(const struct fmt_rec *x);
void fmt_thread_map(const struct fmt_rec *x);
void fmt_cpu_map_rec(const struct fmt_rec *x);
void fmt_stat_config(const struct fmt_rec *x);
void fmt_stat(const struct fmt_rec *x);
void fmt_stat_round(const struct fmt_rec *x);
void fmt_event_update(const struct fmt_rec *x);
void fmt_time_conv(const struct fmt_rec *x);
/* HEADER_FEATURE, and a legacy Google feature record of any type */
void fmt_header_feature(const struct fmt_rec *x);
void fmt_compressed(const struct fmt_rec *x); /* COMPRESSED, COMPRESSED2 */
void fmt_bpf_metadata(const struct fmt_rec *x);
void fmt_schedstat(const struct fmt_rec *x); /* SCHEDSTAT_CPU, _DOMAIN */

/* cpu_map_data: map_type, the raw form, and "cpus" as a list "0-3,8". */
void emit_cpu_map(struct emitter *e, const struct pd_cpu_map *m);

#endif
