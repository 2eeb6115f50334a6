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
#include "record_types.h"

#include <stddef.h>

#include "record_int.h"
#include "util.h"

/* One entry of perf_types[], its name the enum's: REC(MMAP, ...) */
#define REC(t, min, kind, parse) \
	[PD_REC_##t] = {PD_REC_##t, #t, min, PD_RK_##kind, parse}
/* One entry of sp_types[]: simpleperf's records are kept as bytes */
#define SP(t)                                                            \
	[PD_REC_SP_##t - PD_REC_SP_START] = {PD_REC_SP_##t, "SP_" #t, 0, \
					     PD_RK_RAW, NULL}

/* The kernel's types 1..22 and perf's 64..86, indexed by type. */
static const struct pd_rec_ops perf_types[PD_REC_HEADER_MAX] = {
	REC(MMAP, 41, FIELDS, rec_parse_mmap),
	REC(LOST, 24, FIELDS, rec_parse_lost),
	REC(COMM, 17, FIELDS, rec_parse_comm),
	REC(EXIT, 32, FIELDS, rec_parse_task),
	REC(THROTTLE, 32, FIELDS, rec_parse_throttle),
	REC(UNTHROTTLE, 32, FIELDS, rec_parse_throttle),
	REC(FORK, 32, FIELDS, rec_parse_task),
	REC(READ, 24, FIELDS, rec_parse_read),
	REC(SAMPLE, 0, RAW, NULL), /* decoded by sample.c */
	REC(MMAP2, 73, FIELDS, rec_parse_mmap),
	REC(AUX, 32, FIELDS, rec_parse_aux),
	REC(ITRACE_START, 16, FIELDS, rec_parse_itrace_start),
	REC(LOST_SAMPLES, 16, FIELDS, rec_parse_lost_samples),
	REC(SWITCH, 8, NONE, NULL),
	REC(SWITCH_CPU_WIDE, 16, FIELDS, rec_parse_switch_cpu_wide),
	REC(NAMESPACES, 24, FIELDS, rec_parse_namespaces),
	REC(KSYMBOL, 25, FIELDS, rec_parse_ksymbol),
	REC(BPF_EVENT, 24, FIELDS, rec_parse_bpf_event),
	REC(CGROUP, 17, FIELDS, rec_parse_cgroup),
	REC(TEXT_POKE, 24, FIELDS, rec_parse_text_poke),
	REC(AUX_OUTPUT_HW_ID, 16, FIELDS, rec_parse_hw_id),
	REC(CALLCHAIN_DEFERRED, 16, FIELDS, rec_parse_callchain_deferred),

	REC(HEADER_ATTR, 72, FIELDS, rec_parse_header_attr),
	REC(HEADER_EVENT_TYPE, 16, FIELDS, rec_parse_event_type),
	REC(HEADER_TRACING_DATA, 12, FIELDS, rec_parse_tracing_data),
	REC(HEADER_BUILD_ID, 36, FIELDS, rec_parse_build_id),
	REC(FINISHED_ROUND, 0, NONE, NULL),
	REC(ID_INDEX, 16, FIELDS, rec_parse_id_index),
	REC(AUXTRACE_INFO, 16, FIELDS, rec_parse_auxtrace_info),
	REC(AUXTRACE, 48, FIELDS, rec_parse_auxtrace),
	REC(AUXTRACE_ERROR, 49, FIELDS, rec_parse_auxtrace_error),
	REC(THREAD_MAP, 16, FIELDS, rec_parse_thread_map),
	REC(CPU_MAP, 16, FIELDS, rec_parse_cpu_map),
	REC(STAT_CONFIG, 16, FIELDS, rec_parse_stat_config),
	REC(STAT, 48, FIELDS, rec_parse_stat),
	REC(STAT_ROUND, 24, FIELDS, rec_parse_stat_round),
	REC(EVENT_UPDATE, 24, FIELDS, rec_parse_event_update),
	REC(TIME_CONV, 32, FIELDS, rec_parse_time_conv),
	REC(HEADER_FEATURE, 16, FIELDS, rec_parse_header_feature),
	REC(COMPRESSED, 0, FIELDS, rec_parse_compressed),
	REC(FINISHED_INIT, 0, NONE, NULL),
	REC(COMPRESSED2, 16, FIELDS, rec_parse_compressed),
	REC(BPF_METADATA, 528, FIELDS, rec_parse_bpf_metadata),
	REC(SCHEDSTAT_CPU, 24, FIELDS, rec_parse_schedstat),
	REC(SCHEDSTAT_DOMAIN, 24, FIELDS, rec_parse_schedstat),
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
