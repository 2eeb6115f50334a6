// SPDX-License-Identifier: MIT
/*
 * The fields of perf's own records (64..86, model in
 * lib/format/record_model.h).  Keys are the field names of tools/lib/perf/include/perf/event.h; `size`,
 * `offset` and `type` would repeat the row's own keys, so they carry a
 * prefix: tracing_data_size, auxtrace_size, auxtrace_offset,
 * auxtrace_type, error_type, map_type, update_type, round_type.
 */
#include <inttypes.h>
#include <stdio.h>

#include "lib/session/evlist.h"
#include "lib/format/features.h"
#include "fmt/fmt_attr.h"
#include "fmt/fmt_features.h"
#include "fmt/fmt_record_int.h"
#include "fmt/fmt_sample.h"

/* enum auxtrace_type (tools/perf/util/auxtrace.h) */
static const char *const auxtrace_type_names[] = {
	"unknown", "intel_pt",	  "intel_bts", "cs_etm",
	"arm_spe", "s390_cpumsf", "hisi_ptt",
};

/* enum auxtrace_error_type */
static const char *const auxtrace_error_names[] = {NULL, "itrace"};

static const char *const cpu_map_type_names[] = {"CPUS", "MASK", "RANGE_CPUS"};

/* PERF_EVENT_UPDATE__* */
static const char *const event_update_names[] = {"UNIT", "SCALE", "NAME",
						 "CPUS"};

/* PERF_STAT_ROUND_TYPE__* */
static const char *const stat_round_names[] = {"interval", "final"};

/* PERF_STAT_CONFIG_TERM__* (AGGR_LEVEL: 2025) */
static const char *const stat_config_tags[] = {"AGGR_MODE", "INTERVAL", "SCALE",
					       "AGGR_LEVEL"};

/*
 * enum aggr_mode (tools/perf/util/stat.h): perf's internal numbering,
 * changed as modes were inserted (AGGR_CACHE in 6.4, AGGR_CLUSTER in
 * 6.9).
 */
static const char *const aggr_pre_cache[] = {
	"none", "global", "socket", "die", "core", "thread", "unset", "node",
};
static const char *const aggr_cache[] = {
	"none", "global", "socket", "die",  "cache",
	"core", "thread", "unset",  "node",
};
static const char *const aggr_cluster[] = {
	"none",	 "global", "socket", "die",   "cluster",
	"cache", "core",   "thread", "unset", "node",
};

static const char *aggr_mode_name(int numbering, uint64_t v)
{
	switch (numbering) {
	case PD_AGGR_CLUSTER:
		return rec_name(aggr_cluster, PD_NELEMS(aggr_cluster), v);
	case PD_AGGR_CACHE:
		return rec_name(aggr_cache, PD_NELEMS(aggr_cache), v);
	default: return rec_name(aggr_pre_cache, PD_NELEMS(aggr_pre_cache), v);
	}
}

static const char *const aggr_numbering_text[] = {
	[PD_AGGR_PRE_CACHE] = "perf before 6.4 (no cache, cluster modes)",
	[PD_AGGR_CACHE] = "perf 6.4 to 6.8 (cache mode, no cluster)",
	[PD_AGGR_CLUSTER] = "perf 6.9 or later (cluster and cache modes)",
};

void emit_cpu_map(struct emitter *e, const struct pd_cpu_map *m)
{
	emit_enum(e, "map_type", m->type,
		  rec_name(cpu_map_type_names, PD_NELEMS(cpu_map_type_names),
			   m->type));
	switch (m->type) {
	case PD_CPU_MAP_CPUS:
		emit_u64(e, "nr", m->nr);
		emit_arr_begin(e, "cpu");
		for (uint32_t i = 0; i < m->ncpus; i++)
			emit_s64(e, NULL, m->cpus[i]);
		emit_arr_end(e);
		break;
	case PD_CPU_MAP_MASK:
		emit_u64(e, "nr", m->nr);
		emit_u64(e, "long_size", m->long_size);
		emit_arr_begin(e, "mask");
		for (uint32_t i = 0; i < m->nmask; i++)
			emit_hex(e, NULL, m->mask[i]);
		emit_arr_end(e);
		break;
	case PD_CPU_MAP_RANGE_CPUS:
		emit_u64(e, "any_cpu", m->any_cpu);
		emit_u64(e, "start_cpu", m->start_cpu);
		emit_u64(e, "end_cpu", m->end_cpu);
		break;
	default: break;
	}
	if (m->ok)
		emit_str(e, "cpus", m->list ? m->list : "");
}

void fmt_cpu_map_rec(const struct fmt_rec *x)
{
	emit_cpu_map(x->e, &x->r->u.cpu_map);
}

void fmt_header_attr(const struct fmt_rec *x)
{
	const struct pd_rec_header_attr *m = &x->r->u.attr;
	struct emitter *e = x->e;

	emit_u64(e, "nr_ids", m->nids);
	emit_obj_begin(e, "attr");
	emit_attr_fields(e, x->s, &m->attr);
	emit_obj_end(e);
	emit_arr_begin(e, "ids");
	for (uint32_t i = 0; i < m->nids; i++)
		emit_hex(e, NULL, m->ids[i]);
	emit_arr_end(e);
}

void fmt_event_type(const struct fmt_rec *x)
{
	emit_hex(x->e, "event_id", x->r->u.event_type.event_id);
	emit_pstr(x->e, "name", &x->r->u.event_type.name);
}

/* a summary of the blob; `features TRACING_DATA` shows all of it */
static void emit_tracing_blob(struct emitter *e,
			      const struct feat_tracing_data *b)
{
	emit_row_begin(e, "tracing_data");
	emit_bool(e, "magic_ok", b->step >= PD_TRACE_MAGIC);
	if (b->step >= PD_TRACE_PARAMS) {
		emit_pstr(e, "version", &b->version);
		emit_str(e, "endian", b->endian ? "big" : "little");
		emit_u64(e, "long_size", b->long_size);
		emit_u64(e, "page_size", b->page_size);
	}
	if (b->has_nr_ftrace)
		emit_u64(e, "nr_ftrace", b->nr_ftrace);
	if (b->has_nr_systems)
		emit_u64(e, "nr_systems", b->nr_systems);
	emit_u64(e, "nr_events", b->nevents);
	emit_u64(e, "decoded_size", b->size);
	emit_bool(e, "complete", b->step == PD_TRACE_DONE);
	emit_obj_end(e);
}

void fmt_tracing_data(const struct fmt_rec *x)
{
	const struct pd_rec_tracing_data *m = &x->r->u.tracing;
	struct emitter *e = x->e;

	emit_u64(e, "tracing_data_size", m->size);
	if (m->in_record)
		emit_str(e, "data_in_record", "yes (simpleperf)");
	if (m->has_pad)
		emit_u64(e, "pad", m->pad);
	if (m->blob)
		emit_tracing_blob(e, m->blob);
}

void fmt_build_id(const struct fmt_rec *x)
{
	const struct pd_rec_build_id *m = &x->r->u.build_id;
	struct emitter *e = x->e;

	emit_s64(e, "pid", m->pid);
	if (m->build_id)
		emit_hexstr(e, "build_id", m->build_id, m->build_id_size);
	emit_u64(e, "build_id_size", m->build_id_size);
	emit_private_pstr(e, "filename", PRIV_PATH, &m->filename);
}

void fmt_id_index(const struct fmt_rec *x)
{
	const struct pd_rec_id_index *m = &x->r->u.id_index;
	struct emitter *e = x->e;

	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "entries");
	for (uint32_t i = 0; i < m->nread; i++) {
		const struct pd_id_index_ent *v = &m->v[i];

		emit_row_begin(e, NULL);
		emit_hex(e, "id", v->id);
		emit_u64(e, "idx", v->idx);
		/* cpu and tid are -1 for "any", stored as u64 */
		emit_s64(e, "cpu", (int64_t)v->cpu);
		emit_s64(e, "tid", (int64_t)v->tid);
		if (m->has_guest) {
			emit_s64(e, "machine_pid", (int64_t)v->machine_pid);
			emit_s64(e, "vcpu", (int64_t)v->vcpu);
		}
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void fmt_auxtrace_info(const struct fmt_rec *x)
{
	const struct pd_rec_auxtrace_info *m = &x->r->u.auxtrace_info;
	struct emitter *e = x->e;

	emit_enum(e, "auxtrace_type", m->type,
		  rec_name(auxtrace_type_names, PD_NELEMS(auxtrace_type_names),
			   m->type));
	emit_u64(e, "reserved", m->reserved);
	emit_arr_begin(e, "priv");
	for (uint32_t i = 0; i < m->npriv; i++)
		emit_hex(e, NULL, m->priv[i]);
	emit_arr_end(e);
}

void fmt_auxtrace(const struct fmt_rec *x)
{
	const struct pd_rec_auxtrace *m = &x->r->u.auxtrace;
	struct emitter *e = x->e;

	emit_u64(e, "auxtrace_size", m->size);
	emit_hex(e, "auxtrace_offset", m->offset);
	emit_hex(e, "reference", m->reference);
	emit_u64(e, "idx", m->idx);
	emit_s64(e, "tid", (int32_t)m->tid);
	emit_s64(e, "cpu", (int32_t)m->cpu);
}

void fmt_auxtrace_error(const struct fmt_rec *x)
{
	const struct pd_rec_auxtrace_error *m = &x->r->u.auxtrace_error;
	struct emitter *e = x->e;

	emit_enum(e, "error_type", m->type,
		  rec_name(auxtrace_error_names,
			   PD_NELEMS(auxtrace_error_names), m->type));
	emit_u64(e, "code", m->code);
	emit_s64(e, "cpu", (int32_t)m->cpu);
	emit_s64(e, "pid", (int32_t)m->pid);
	emit_s64(e, "tid", (int32_t)m->tid);
	emit_u64(e, "fmt", m->fmt);
	emit_hex(e, "ip", m->ip);
	if (m->has_time)
		emit_u64(e, "time", m->time);
	emit_pstr(e, "msg", &m->msg);
	if (m->has_guest) {
		emit_s64(e, "machine_pid", (int32_t)m->machine_pid);
		emit_s64(e, "vcpu", (int32_t)m->vcpu);
	}
}

void fmt_thread_map(const struct fmt_rec *x)
{
	const struct pd_rec_thread_map *m = &x->r->u.thread_map;
	struct emitter *e = x->e;

	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "entries");
	for (uint32_t i = 0; i < m->nread; i++) {
		emit_row_begin(e, NULL);
		emit_s64(e, "pid", (int64_t)m->v[i].pid);
		emit_private_pstr(e, "comm", PRIV_COMM, &m->v[i].comm);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void fmt_stat_config(const struct fmt_rec *x)
{
	const struct pd_rec_stat_config *m = &x->r->u.stat_config;
	struct emitter *e = x->e;

	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "data");
	for (uint32_t i = 0; i < m->nread; i++) {
		const struct pd_stat_config_ent *v = &m->v[i];

		emit_row_begin(e, NULL);
		emit_enum(e, "tag", v->tag,
			  rec_name(stat_config_tags,
				   PD_NELEMS(stat_config_tags), v->tag));
		if (v->tag == PD_STAT_CONFIG_TERM_AGGR_MODE)
			emit_enum(e, "val", v->val,
				  aggr_mode_name(m->aggr_numbering, v->val));
		else
			emit_u64(e, "val", v->val);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	/* the aggr_mode names are a guess from the writer's perf version */
	emit_str(e, "aggr_mode_numbering",
		 aggr_numbering_text[m->aggr_numbering]);
}

void fmt_stat(const struct fmt_rec *x)
{
	const struct pd_rec_stat *m = &x->r->u.stat;
	struct emitter *e = x->e;

	const struct pd_evsel *ev = pd_evlist_find(x->s, m->id);

	emit_hex(e, "id", m->id);
	/* the id's event (builtin-stat.c process_stat_event: id2evsel) */
	emit_event_name(e, ev);
	emit_s64(e, "cpu", (int32_t)m->cpu);
	emit_s64(e, "thread", (int32_t)m->thread);
	emit_u64(e, "val", m->val);
	emit_u64(e, "ena", m->ena);
	emit_u64(e, "run", m->run);
}

void fmt_stat_round(const struct fmt_rec *x)
{
	const struct pd_rec_stat_round *m = &x->r->u.stat_round;

	emit_enum(x->e, "round_type", m->type,
		  rec_name(stat_round_names, PD_NELEMS(stat_round_names),
			   m->type));
	emit_u64(x->e, "time", m->time);
}

void fmt_schedstat(const struct fmt_rec *x)
{
	const struct pd_rec_schedstat *m = &x->r->u.schedstat;
	struct emitter *e = x->e;

	emit_u64(e, "timestamp", m->timestamp);
	emit_u64(e, "cpu", m->cpu);
	emit_u64(e, "version", m->version);
	if (x->r->type == PD_REC_SCHEDSTAT_DOMAIN)
		emit_u64(e, "domain", m->domain);
	if (m->known) {
		emit_row_begin(e, "counters");
		for (uint32_t i = 0; i < m->nvals; i++)
			emit_u64(e, m->fields[i].name, m->vals[i]);
		emit_obj_end(e);
		return;
	}
	/* a version perfdump does not know: the u64 words */
	emit_arr_begin(e, "words");
	for (uint32_t i = 0; i < m->nvals; i++)
		emit_u64(e, NULL, m->vals[i]);
	emit_arr_end(e);
}

void fmt_event_update(const struct fmt_rec *x)
{
	const struct pd_rec_event_update *m = &x->r->u.event_update;
	struct emitter *e = x->e;

	emit_enum(e, "update_type", m->type,
		  rec_name(event_update_names, PD_NELEMS(event_update_names),
			   m->type));
	emit_hex(e, "id", m->id);
	switch (m->type) {
	case PD_EVENT_UPDATE_UNIT: emit_pstr(e, "unit", &m->str); break;
	case PD_EVENT_UPDATE_SCALE:
		emit_double(e, "scale", m->scale, "%g");
		break;
	case PD_EVENT_UPDATE_NAME: emit_pstr(e, "name", &m->str); break;
	case PD_EVENT_UPDATE_CPUS:
		emit_row_begin(e, "cpu_map");
		emit_cpu_map(e, &m->cpus);
		emit_obj_end(e);
		break;
	default: break;
	}
}

void fmt_time_conv(const struct fmt_rec *x)
{
	const struct pd_rec_time_conv *m = &x->r->u.time_conv;
	struct emitter *e = x->e;

	emit_u64(e, "time_shift", m->time_shift);
	emit_u64(e, "time_mult", m->time_mult);
	emit_u64(e, "time_zero", m->time_zero);
	if (!m->has_cycles)
		return;
	emit_u64(e, "time_cycles", m->time_cycles);
	emit_hex(e, "time_mask", m->time_mask);
	emit_u64(e, "cap_user_time_zero", m->cap_user_time_zero);
	emit_u64(e, "cap_user_time_short", m->cap_user_time_short);
}

void fmt_header_feature(const struct fmt_rec *x)
{
	const struct pd_rec_header_feature *m = &x->r->u.feature;
	struct emitter *e = x->e;
	const char *name = m->feat_id <= UINT32_MAX
				   ? pd_feat_name((unsigned)m->feat_id)
				   : NULL;

	/*
	 * the end marker's id is the writer's HEADER_LAST_FEATURE
	 * (tools/perf/util/header.c: perf_event__synthesize_features)
	 */
	emit_enum(e, "feat_id", m->feat_id,
		  m->end_marker ? "LAST_FEATURE" : name);
	/* pre-upstream Google pipe streams: record type 66 + feature id */
	if (x->r->legacy_feature)
		emit_bool(e, "legacy", true);
	emit_bool(e, "end_marker", m->end_marker);
	if (m->end_marker || !m->feat)
		return;
	/* the payload as `features` shows it: one element */
	emit_arr_begin(e, "feature");
	emit_feature(e, x->s, m->feat);
	emit_arr_end(e);
}

void fmt_compressed(const struct fmt_rec *x)
{
	const struct pd_rec_compressed *m = &x->r->u.compressed;

	emit_u64(x->e, "data_size", m->data_size);
	if (m->has_data_size)
		emit_u64(x->e, "padding", m->padding);
}

void fmt_bpf_metadata(const struct fmt_rec *x)
{
	const struct pd_rec_bpf_metadata *m = &x->r->u.bpf_metadata;
	struct emitter *e = x->e;

	emit_pstr(e, "prog_name", &m->prog_name);
	emit_u64(e, "nr_entries", m->nr_entries);
	emit_arr_begin(e, "entries");
	for (uint32_t i = 0; i < m->nread; i++) {
		emit_row_begin(e, NULL);
		emit_pstr(e, "key", &m->v[i].key);
		emit_pstr(e, "value", &m->v[i].value);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}
