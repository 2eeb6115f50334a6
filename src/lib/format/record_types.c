// SPDX-License-Identifier: MIT
/*
 * The record-type registry (record_types.h): every type's name, minimum
 * size and decoder, once.  Names are the kernel's without PERF_RECORD_
 * (include/uapi/linux/perf_event.h, tools/lib/perf/include/perf/event.h)
 * and simpleperf's with SP_ (system/extras/simpleperf/record.h).
 *
 * Minimum sizes are perf_event__min_size[] (tools/perf/util/session.c,
 * 2026): types with a trailing string need one byte of it; EVENT_UPDATE,
 * TIME_CONV, SCHEDSTAT_* only their fixed head; READ pid, tid and one
 * value; CPU_MAP the smallest variant.  HEADER_EVENT_TYPE is 16, not
 * perf's 80: old perf cut the record to the name (rec_parse_event_type).
 */
#include "lib/format/record_types.h"

#include <stddef.h>
#include <string.h>

#include "lib/format/record_types_int.h"
#include "lib/base/util.h"

/* clang-format off */
/* 0, or a build error when member m of struct T is not w bytes wide */
#define WIDTH_CHECK(T, m, w) \
	(0 * sizeof(char[sizeof(((struct T *)0)->m) == (w) ? 1 : -1]))
/*
 * Field `name` at offset `off` of the body, `w` bytes wide, decoded into
 * member m of model struct T (which must be as wide).
 */
#define FIELD(T, m, name, off, w) \
	{name, off, w, offsetof(struct T, m) + WIDTH_CHECK(T, m, w)}
#define LAYOUT(fields) {fields, PD_NELEMS(fields)}
#define NO_HEAD {NULL, 0} /* no fixed fields */
/* clang-format on */

/* ---- the fixed fields each body starts with ----------------------- */

/* MMAP, MMAP2: u32 pid, tid; u64 addr, len, pgoff (then rec_parse_mmap) */
static const struct pd_rec_field mmap_head[] = {
	FIELD(pd_rec_mmap, pid, "pid", 0, 4),
	FIELD(pd_rec_mmap, tid, "tid", 4, 4),
	FIELD(pd_rec_mmap, addr, "addr", 8, 8),
	FIELD(pd_rec_mmap, len, "len", 16, 8),
	FIELD(pd_rec_mmap, pgoff, "pgoff", 24, 8),
};

/* LOST: u64 id, lost */
static const struct pd_rec_field lost_head[] = {
	FIELD(pd_rec_lost, id, "id", 0, 8),
	FIELD(pd_rec_lost, lost, "lost", 8, 8),
};

/* COMM: u32 pid, tid; char comm[] */
static const struct pd_rec_field comm_head[] = {
	FIELD(pd_rec_comm, pid, "pid", 0, 4),
	FIELD(pd_rec_comm, tid, "tid", 4, 4),
};

/* EXIT, FORK: u32 pid, ppid, tid, ptid; u64 time */
static const struct pd_rec_field task_head[] = {
	FIELD(pd_rec_task, pid, "pid", 0, 4),
	FIELD(pd_rec_task, ppid, "ppid", 4, 4),
	FIELD(pd_rec_task, tid, "tid", 8, 4),
	FIELD(pd_rec_task, ptid, "ptid", 12, 4),
	FIELD(pd_rec_task, time, "time", 16, 8),
};

/* THROTTLE, UNTHROTTLE: u64 time, id, stream_id */
static const struct pd_rec_field throttle_head[] = {
	FIELD(pd_rec_throttle, time, "time", 0, 8),
	FIELD(pd_rec_throttle, id, "id", 8, 8),
	FIELD(pd_rec_throttle, stream_id, "stream_id", 16, 8),
};

/* READ: u32 pid, tid; then the read_format values (rec_parse_read) */
static const struct pd_rec_field read_head[] = {
	FIELD(pd_rec_read, pid, "pid", 0, 4),
	FIELD(pd_rec_read, tid, "tid", 4, 4),
};

/* AUX: u64 aux_offset, aux_size, flags */
static const struct pd_rec_field aux_head[] = {
	FIELD(pd_rec_aux, aux_offset, "aux_offset", 0, 8),
	FIELD(pd_rec_aux, aux_size, "aux_size", 8, 8),
	FIELD(pd_rec_aux, flags, "flags", 16, 8),
};

/* ITRACE_START: u32 pid, tid */
static const struct pd_rec_field itrace_start_head[] = {
	FIELD(pd_rec_pid_tid, pid, "pid", 0, 4),
	FIELD(pd_rec_pid_tid, tid, "tid", 4, 4),
};

/* LOST_SAMPLES: u64 lost */
static const struct pd_rec_field lost_samples_head[] = {
	FIELD(pd_rec_lost_samples, lost, "lost", 0, 8),
};

/* SWITCH_CPU_WIDE: u32 next_prev_pid, next_prev_tid */
static const struct pd_rec_field switch_cpu_wide_head[] = {
	FIELD(pd_rec_pid_tid, pid, "next_prev_pid", 0, 4),
	FIELD(pd_rec_pid_tid, tid, "next_prev_tid", 4, 4),
};

/* NAMESPACES: u32 pid, tid; u64 nr_namespaces; then the links */
static const struct pd_rec_field namespaces_head[] = {
	FIELD(pd_rec_namespaces, pid, "pid", 0, 4),
	FIELD(pd_rec_namespaces, tid, "tid", 4, 4),
	FIELD(pd_rec_namespaces, nr, "nr_namespaces", 8, 8),
};

/* KSYMBOL: u64 addr; u32 len; u16 ksym_type, flags; char name[] */
static const struct pd_rec_field ksymbol_head[] = {
	FIELD(pd_rec_ksymbol, addr, "addr", 0, 8),
	FIELD(pd_rec_ksymbol, len, "len", 8, 4),
	FIELD(pd_rec_ksymbol, ksym_type, "ksym_type", 12, 2),
	FIELD(pd_rec_ksymbol, flags, "flags", 14, 2),
};

/* BPF_EVENT: u16 type, flags; u32 id; u8 tag[8] */
static const struct pd_rec_field bpf_event_head[] = {
	FIELD(pd_rec_bpf_event, type, "type", 0, 2),
	FIELD(pd_rec_bpf_event, flags, "flags", 2, 2),
	FIELD(pd_rec_bpf_event, id, "id", 4, 4),
};

/* CGROUP: u64 id; char path[] */
static const struct pd_rec_field cgroup_head[] = {
	FIELD(pd_rec_cgroup, id, "id", 0, 8),
};

/* TEXT_POKE: u64 addr; u16 old_len, new_len; then the bytes */
static const struct pd_rec_field text_poke_head[] = {
	FIELD(pd_rec_text_poke, addr, "addr", 0, 8),
	FIELD(pd_rec_text_poke, old_len, "old_len", 8, 2),
	FIELD(pd_rec_text_poke, new_len, "new_len", 10, 2),
};

/* AUX_OUTPUT_HW_ID: u64 hw_id */
static const struct pd_rec_field hw_id_head[] = {
	FIELD(pd_rec_hw_id, hw_id, "hw_id", 0, 8),
};

/* CALLCHAIN_DEFERRED: u64 cookie, nr; then u64 ips[nr] */
static const struct pd_rec_field callchain_deferred_head[] = {
	FIELD(pd_rec_callchain_deferred, cookie, "cookie", 0, 8),
	FIELD(pd_rec_callchain_deferred, nr, "nr", 8, 8),
};

/* STAT_CONFIG: u64 nr; then nr entries */
static const struct pd_rec_field stat_config_head[] = {
	FIELD(pd_rec_stat_config, nr, "nr", 0, 8),
};

/* STAT_CONFIG's entries: u64 tag, val */
static const struct pd_rec_field stat_config_entry[] = {
	FIELD(pd_stat_config_ent, tag, "tag", 0, 8),
	FIELD(pd_stat_config_ent, val, "val", 8, 8),
};

const struct pd_rec_layout pd_stat_config_entry_layout =
	LAYOUT(stat_config_entry);

/* STAT: u64 id; u32 cpu, thread; u64 val, ena, run */
static const struct pd_rec_field stat_head[] = {
	FIELD(pd_rec_stat, id, "id", 0, 8),
	FIELD(pd_rec_stat, cpu, "cpu", 8, 4),
	FIELD(pd_rec_stat, thread, "thread", 12, 4),
	FIELD(pd_rec_stat, val, "val", 16, 8),
	FIELD(pd_rec_stat, ena, "ena", 24, 8),
	FIELD(pd_rec_stat, run, "run", 32, 8),
};

/* STAT_ROUND: u64 type, time */
static const struct pd_rec_field stat_round_head[] = {
	FIELD(pd_rec_stat_round, type, "type", 0, 8),
	FIELD(pd_rec_stat_round, time, "time", 8, 8),
};

/* EVENT_UPDATE: u64 type, id; then the type's payload */
static const struct pd_rec_field event_update_head[] = {
	FIELD(pd_rec_event_update, type, "type", 0, 8),
	FIELD(pd_rec_event_update, id, "id", 8, 8),
};

/* HEADER_FEATURE: u64 feat_id; then the feature section's bytes */
static const struct pd_rec_field header_feature_head[] = {
	FIELD(pd_rec_header_feature, feat_id, "feat_id", 0, 8),
};

/*
 * One entry of perf_types[], its name the enum's: REC(MMAP, 41, FIELDS,
 * LAYOUT(mmap_head), rec_parse_mmap)
 */
#define REC(t, min, kind, head, parse) \
	[PD_REC_##t] = {PD_REC_##t, #t, min, PD_RK_##kind, head, parse}
/* clang-format off */
/* One entry of sp_types[]: simpleperf's records are kept as bytes */
#define SP(t) \
	[PD_REC_SP_##t - PD_REC_SP_START] = \
		{PD_REC_SP_##t, "SP_" #t, 0, PD_RK_RAW, NO_HEAD, NULL}
/* clang-format on */

/* The kernel's types 1..22 and perf's 64..86, indexed by type. */
static const struct pd_rec_ops perf_types[PD_REC_HEADER_MAX] = {
	REC(MMAP, 41, FIELDS, LAYOUT(mmap_head), rec_parse_mmap),
	REC(LOST, 24, FIELDS, LAYOUT(lost_head), NULL),
	REC(COMM, 17, FIELDS, LAYOUT(comm_head), rec_parse_comm),
	REC(EXIT, 32, FIELDS, LAYOUT(task_head), NULL),
	REC(THROTTLE, 32, FIELDS, LAYOUT(throttle_head), NULL),
	REC(UNTHROTTLE, 32, FIELDS, LAYOUT(throttle_head), NULL),
	REC(FORK, 32, FIELDS, LAYOUT(task_head), NULL),
	REC(READ, 24, FIELDS, LAYOUT(read_head), rec_parse_read),
	REC(SAMPLE, 0, RAW, NO_HEAD, NULL), /* decoded by sample.c */
	REC(MMAP2, 73, FIELDS, LAYOUT(mmap_head), rec_parse_mmap),
	REC(AUX, 32, FIELDS, LAYOUT(aux_head), NULL),
	REC(ITRACE_START, 16, FIELDS, LAYOUT(itrace_start_head), NULL),
	REC(LOST_SAMPLES, 16, FIELDS, LAYOUT(lost_samples_head), NULL),
	REC(SWITCH, 8, NONE, NO_HEAD, NULL),
	REC(SWITCH_CPU_WIDE, 16, FIELDS, LAYOUT(switch_cpu_wide_head), NULL),
	REC(NAMESPACES, 24, FIELDS, LAYOUT(namespaces_head),
	    rec_parse_namespaces),
	REC(KSYMBOL, 25, FIELDS, LAYOUT(ksymbol_head), rec_parse_ksymbol),
	REC(BPF_EVENT, 24, FIELDS, LAYOUT(bpf_event_head), rec_parse_bpf_event),
	REC(CGROUP, 17, FIELDS, LAYOUT(cgroup_head), rec_parse_cgroup),
	REC(TEXT_POKE, 24, FIELDS, LAYOUT(text_poke_head), rec_parse_text_poke),
	REC(AUX_OUTPUT_HW_ID, 16, FIELDS, LAYOUT(hw_id_head), NULL),
	REC(CALLCHAIN_DEFERRED, 24, FIELDS, LAYOUT(callchain_deferred_head),
	    rec_parse_callchain_deferred),

	REC(HEADER_ATTR, 72, FIELDS, NO_HEAD, rec_parse_header_attr),
	REC(HEADER_EVENT_TYPE, 16, FIELDS, NO_HEAD, rec_parse_event_type),
	REC(HEADER_TRACING_DATA, 12, FIELDS, NO_HEAD, rec_parse_tracing_data),
	REC(HEADER_BUILD_ID, 36, FIELDS, NO_HEAD, rec_parse_build_id),
	REC(FINISHED_ROUND, 0, NONE, NO_HEAD, NULL),
	REC(ID_INDEX, 16, FIELDS, NO_HEAD, rec_parse_id_index),
	REC(AUXTRACE_INFO, 16, FIELDS, NO_HEAD, rec_parse_auxtrace_info),
	REC(AUXTRACE, 48, FIELDS, NO_HEAD, rec_parse_auxtrace),
	REC(AUXTRACE_ERROR, 49, FIELDS, NO_HEAD, rec_parse_auxtrace_error),
	REC(THREAD_MAP, 16, FIELDS, NO_HEAD, rec_parse_thread_map),
	REC(CPU_MAP, 16, FIELDS, NO_HEAD, rec_parse_cpu_map),
	REC(STAT_CONFIG, 16, FIELDS, LAYOUT(stat_config_head),
	    rec_parse_stat_config),
	REC(STAT, 48, FIELDS, LAYOUT(stat_head), NULL),
	REC(STAT_ROUND, 24, FIELDS, LAYOUT(stat_round_head), NULL),
	REC(EVENT_UPDATE, 24, FIELDS, LAYOUT(event_update_head),
	    rec_parse_event_update),
	REC(TIME_CONV, 32, FIELDS, NO_HEAD, rec_parse_time_conv),
	REC(HEADER_FEATURE, 16, FIELDS, LAYOUT(header_feature_head),
	    rec_parse_header_feature),
	REC(COMPRESSED, 0, FIELDS, NO_HEAD, rec_parse_compressed),
	REC(FINISHED_INIT, 0, NONE, NO_HEAD, NULL),
	REC(COMPRESSED2, 16, FIELDS, NO_HEAD, rec_parse_compressed),
	REC(BPF_METADATA, 528, FIELDS, NO_HEAD, rec_parse_bpf_metadata),
	REC(SCHEDSTAT_CPU, 24, FIELDS, NO_HEAD, rec_parse_schedstat),
	REC(SCHEDSTAT_DOMAIN, 24, FIELDS, NO_HEAD, rec_parse_schedstat),
};

/* simpleperf's private types, indexed by type - PD_REC_SP_START. */
static const struct pd_rec_ops sp_types[PD_REC_SP_MAX - PD_REC_SP_START] = {
	SP(KERNEL_SYMBOL),    /* 32769 */
	SP(DSO),	      /* 32770 */
	SP(SYMBOL),	      /* 32771 */
	SP(SPLIT),	      /* 32772 */
	SP(SPLIT_END),	      /* 32773 */
	SP(EVENT_ID),	      /* 32774 */
	SP(CALLCHAIN),	      /* 32775 */
	SP(UNWINDING_RESULT), /* 32776 */
	SP(TRACING_DATA),     /* 32777 */
};

const struct pd_rec_ops *pd_rec_ops(uint32_t type)
{
	const struct pd_rec_ops *t = NULL;

	if (type < PD_NELEMS(perf_types))
		t = &perf_types[type];
	else if (type >= PD_REC_SP_START &&
		 type - PD_REC_SP_START < PD_NELEMS(sp_types))
		t = &sp_types[type - PD_REC_SP_START];
	return t && t->name ? t : NULL;
}

void pd_rec_fields_get(const struct pd_rec_layout *l, const uint8_t *p,
		       bool swap, void *model)
{
	uint8_t *m = model;

	for (uint8_t i = 0; i < l->n; i++) {
		const struct pd_rec_field *f = &l->f[i];
		const uint8_t *q = p + f->off;
		uint16_t v16;
		uint32_t v32;
		uint64_t v64;

		switch (f->width) {
		case sizeof(uint8_t): m[f->model] = *q; break;
		case sizeof(uint16_t):
			v16 = pd_get16(q, swap);
			memcpy(m + f->model, &v16, 2);
			break;
		case sizeof(uint32_t):
			v32 = pd_get32(q, swap);
			memcpy(m + f->model, &v32, 4);
			break;
		default:
			v64 = pd_get64(q, swap);
			memcpy(m + f->model, &v64, 8);
			break;
		}
	}
}

const char *pd_record_type_name(uint32_t type)
{
	const struct pd_rec_ops *t = pd_rec_ops(type);

	return t ? t->name : NULL;
}

uint32_t pd_record_min_size(uint32_t type)
{
	const struct pd_rec_ops *t = pd_rec_ops(type);

	return t ? t->min_size : 0;
}

size_t pd_record_types(const char **names, uint32_t *types, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < PD_NELEMS(perf_types) + PD_NELEMS(sp_types);
	     i++) {
		const struct pd_rec_ops *t =
			i < PD_NELEMS(perf_types)
				? &perf_types[i]
				: &sp_types[i - PD_NELEMS(perf_types)];

		if (t->name && n < max) {
			names[n] = t->name;
			types[n++] = t->type;
		}
	}
	return n;
}
