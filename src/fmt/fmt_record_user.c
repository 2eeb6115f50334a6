// SPDX-License-Identifier: MIT
/*
 * The fields of perf's own records (64..86, model in lib/record.h).  Keys
 * are the field names of tools/lib/perf/include/perf/event.h; `size`,
 * `offset` and `type` would repeat the row's own keys, so they carry a
 * prefix: tracing_data_size, auxtrace_size, auxtrace_offset,
 * auxtrace_type, error_type, map_type, update_type, round_type.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../lib/features.h"
#include "fmt_attr.h"
#include "fmt_features.h"
#include "fmt_record_int.h"

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
 * changed as modes were inserted (FORMAT.md §7.2, trap 28).
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
		return rec_name(aggr_cluster, REC_NELEMS(aggr_cluster), v);
	case PD_AGGR_CACHE:
		return rec_name(aggr_cache, REC_NELEMS(aggr_cache), v);
	default: return rec_name(aggr_pre_cache, REC_NELEMS(aggr_pre_cache), v);
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
		  rec_name(cpu_map_type_names, REC_NELEMS(cpu_map_type_names),
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

static void emit_header_attr(struct emitter *e, const struct pd_session *s,
			     const struct pd_rec_header_attr *m)
{
	emit_u64(e, "nr_ids", m->nids);
	emit_obj_begin(e, "attr");
	emit_attr_fields(e, s, &m->attr);
	emit_obj_end(e);
	emit_arr_begin(e, "ids");
	for (uint32_t i = 0; i < m->nids; i++)
		emit_hex(e, NULL, m->ids[i]);
	emit_arr_end(e);
}

static void emit_tracing_data(struct emitter *e,
			      const struct pd_rec_tracing_data *m)
{
	const struct feat_tracing_data *b = m->blob;

	emit_u64(e, "tracing_data_size", m->size);
	if (m->in_record)
		emit_str(e, "data_in_record", "yes (simpleperf)");
	if (m->has_pad)
		emit_u64(e, "pad", m->pad);
	if (!b)
		return;
	/* a summary of the blob; `features TRACING_DATA` shows all of it */
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

static void emit_build_id(struct emitter *e, const struct pd_rec_build_id *m)
{
	emit_s64(e, "pid", m->pid);
	if (m->build_id)
		emit_hexstr(e, "build_id", m->build_id, m->build_id_size);
	emit_u64(e, "build_id_size", m->build_id_size);
	emit_pstr(e, "filename", &m->filename);
}

static void emit_id_index(struct emitter *e, const struct pd_rec_id_index *m)
{
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

static void emit_auxtrace_error(struct emitter *e,
				const struct pd_rec_auxtrace_error *m)
{
	emit_enum(e, "error_type", m->type,
		  rec_name(auxtrace_error_names,
			   REC_NELEMS(auxtrace_error_names), m->type));
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

static void emit_stat_config(struct emitter *e,
			     const struct pd_rec_stat_config *m)
{
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "data");
	for (uint32_t i = 0; i < m->nread; i++) {
		const struct pd_stat_config_ent *v = &m->v[i];

		emit_row_begin(e, NULL);
		emit_enum(e, "tag", v->tag,
			  rec_name(stat_config_tags,
				   REC_NELEMS(stat_config_tags), v->tag));
		if (v->tag == 0)
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

static void emit_schedstat(struct emitter *e, const struct pd_record *r)
{
	const struct pd_rec_schedstat *m = &r->u.schedstat;

	emit_u64(e, "timestamp", m->timestamp);
	emit_u64(e, "cpu", m->cpu);
	emit_u64(e, "version", m->version);
	if (r->type == PD_REC_SCHEDSTAT_DOMAIN)
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

static void emit_event_update(struct emitter *e,
			      const struct pd_rec_event_update *m)
{
	emit_enum(e, "update_type", m->type,
		  rec_name(event_update_names, REC_NELEMS(event_update_names),
			   m->type));
	emit_hex(e, "id", m->id);
	switch (m->type) {
	case 0: emit_pstr(e, "unit", &m->str); break;
	case 1: emit_double(e, "scale", m->scale, "%g"); break;
	case 2: emit_pstr(e, "name", &m->str); break;
	case 3:
		emit_row_begin(e, "cpu_map");
		emit_cpu_map(e, &m->cpus);
		emit_obj_end(e);
		break;
	default: break;
	}
}

static void emit_feature_record(struct emitter *e, const struct pd_session *s,
				const struct pd_record *r)
{
	const struct pd_rec_header_feature *m = &r->u.feature;
	const char *name = m->feat_id <= UINT32_MAX
				   ? pd_feat_name((unsigned)m->feat_id)
				   : NULL;

	/* the end marker's id is the writer's HEADER_LAST_FEATURE (trap 21) */
	emit_enum(e, "feat_id", m->feat_id,
		  m->end_marker ? "LAST_FEATURE" : name);
	/* pre-upstream Google pipe streams: record type 66 + feature id */
	if (r->legacy_feature)
		emit_bool(e, "legacy", true);
	emit_bool(e, "end_marker", m->end_marker);
	if (m->end_marker || !m->feat)
		return;
	/* the payload as `features` shows it: one element */
	emit_arr_begin(e, "feature");
	emit_feature(e, s, m->feat);
	emit_arr_end(e);
}

void emit_record_user(struct emitter *e, const struct pd_session *s,
		      const struct pd_event *ev, const struct pd_record *r)
{
	(void)ev;
	if (r->legacy_feature) {
		emit_feature_record(e, s, r);
		return;
	}
	switch (r->type) {
	case PD_REC_HEADER_ATTR: emit_header_attr(e, s, &r->u.attr); break;
	case PD_REC_HEADER_EVENT_TYPE:
		emit_hex(e, "event_id", r->u.event_type.event_id);
		emit_pstr(e, "name", &r->u.event_type.name);
		break;
	case PD_REC_HEADER_TRACING_DATA:
		emit_tracing_data(e, &r->u.tracing);
		break;
	case PD_REC_HEADER_BUILD_ID: emit_build_id(e, &r->u.build_id); break;
	case PD_REC_ID_INDEX: emit_id_index(e, &r->u.id_index); break;
	case PD_REC_AUXTRACE_INFO:
		emit_enum(e, "auxtrace_type", r->u.auxtrace_info.type,
			  rec_name(auxtrace_type_names,
				   REC_NELEMS(auxtrace_type_names),
				   r->u.auxtrace_info.type));
		emit_u64(e, "reserved", r->u.auxtrace_info.reserved);
		emit_arr_begin(e, "priv");
		for (uint32_t i = 0; i < r->u.auxtrace_info.npriv; i++)
			emit_hex(e, NULL, r->u.auxtrace_info.priv[i]);
		emit_arr_end(e);
		break;
	case PD_REC_AUXTRACE:
		emit_u64(e, "auxtrace_size", r->u.auxtrace.size);
		emit_hex(e, "auxtrace_offset", r->u.auxtrace.offset);
		emit_hex(e, "reference", r->u.auxtrace.reference);
		emit_u64(e, "idx", r->u.auxtrace.idx);
		emit_s64(e, "tid", (int32_t)r->u.auxtrace.tid);
		emit_s64(e, "cpu", (int32_t)r->u.auxtrace.cpu);
		break;
	case PD_REC_AUXTRACE_ERROR:
		emit_auxtrace_error(e, &r->u.auxtrace_error);
		break;
	case PD_REC_THREAD_MAP:
		emit_u64(e, "nr", r->u.thread_map.nr);
		emit_arr_begin(e, "entries");
		for (uint32_t i = 0; i < r->u.thread_map.nread; i++) {
			emit_row_begin(e, NULL);
			emit_s64(e, "pid", (int64_t)r->u.thread_map.v[i].pid);
			emit_pstr(e, "comm", &r->u.thread_map.v[i].comm);
			emit_obj_end(e);
		}
		emit_arr_end(e);
		break;
	case PD_REC_CPU_MAP: emit_cpu_map(e, &r->u.cpu_map); break;
	case PD_REC_STAT_CONFIG: emit_stat_config(e, &r->u.stat_config); break;
	case PD_REC_STAT:
		emit_hex(e, "id", r->u.stat.id);
		emit_s64(e, "cpu", (int32_t)r->u.stat.cpu);
		emit_s64(e, "thread", (int32_t)r->u.stat.thread);
		emit_u64(e, "val", r->u.stat.val);
		emit_u64(e, "ena", r->u.stat.ena);
		emit_u64(e, "run", r->u.stat.run);
		break;
	case PD_REC_STAT_ROUND:
		emit_enum(e, "round_type", r->u.stat_round.type,
			  rec_name(stat_round_names,
				   REC_NELEMS(stat_round_names),
				   r->u.stat_round.type));
		emit_u64(e, "time", r->u.stat_round.time);
		break;
	case PD_REC_EVENT_UPDATE:
		emit_event_update(e, &r->u.event_update);
		break;
	case PD_REC_TIME_CONV:
		emit_u64(e, "time_shift", r->u.time_conv.time_shift);
		emit_u64(e, "time_mult", r->u.time_conv.time_mult);
		emit_u64(e, "time_zero", r->u.time_conv.time_zero);
		if (r->u.time_conv.has_cycles) {
			emit_u64(e, "time_cycles", r->u.time_conv.time_cycles);
			emit_hex(e, "time_mask", r->u.time_conv.time_mask);
			emit_u64(e, "cap_user_time_zero",
				 r->u.time_conv.cap_user_time_zero);
			emit_u64(e, "cap_user_time_short",
				 r->u.time_conv.cap_user_time_short);
		}
		break;
	case PD_REC_HEADER_FEATURE: emit_feature_record(e, s, r); break;
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2:
		emit_u64(e, "data_size", r->u.compressed.data_size);
		if (r->u.compressed.has_data_size)
			emit_u64(e, "padding", r->u.compressed.padding);
		break;
	case PD_REC_BPF_METADATA:
		emit_pstr(e, "prog_name", &r->u.bpf_metadata.prog_name);
		emit_u64(e, "nr_entries", r->u.bpf_metadata.nr_entries);
		emit_arr_begin(e, "entries");
		for (uint32_t i = 0; i < r->u.bpf_metadata.nread; i++) {
			emit_row_begin(e, NULL);
			emit_pstr(e, "key", &r->u.bpf_metadata.v[i].key);
			emit_pstr(e, "value", &r->u.bpf_metadata.v[i].value);
			emit_obj_end(e);
		}
		emit_arr_end(e);
		break;
	case PD_REC_SCHEDSTAT_CPU:
	case PD_REC_SCHEDSTAT_DOMAIN: emit_schedstat(e, r); break;
	default: break;
	}
}
