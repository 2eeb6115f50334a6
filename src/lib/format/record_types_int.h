/* SPDX-License-Identifier: MIT */
/*
 * The decoders the record-type registry (record_types.c) points at,
 * declared below the decoder (record_int.h) so that the registry does
 * not include it.
 */
#ifndef PD_RECORD_TYPES_INT_H
#define PD_RECORD_TYPES_INT_H

struct rec_ctx;

/*
 * The decoders of the registry (record_types.c): each fills what of x->r->u
 * follows the head its type's layout decoded, for x->r->type (struct
 * rec_ctx: record_int.h).  The kernel's records are in record.c, perf's
 * in record_user.c, the stat records, CPU maps and SCHEDSTAT in
 * record_stat.c.
 */
void rec_parse_mmap(struct rec_ctx *x); /* MMAP and MMAP2 */
void rec_parse_comm(struct rec_ctx *x);
void rec_parse_read(struct rec_ctx *x);
void rec_parse_namespaces(struct rec_ctx *x);
void rec_parse_ksymbol(struct rec_ctx *x);
void rec_parse_bpf_event(struct rec_ctx *x);
void rec_parse_cgroup(struct rec_ctx *x);
void rec_parse_text_poke(struct rec_ctx *x);
void rec_parse_callchain_deferred(struct rec_ctx *x);

void rec_parse_header_attr(struct rec_ctx *x);
void rec_parse_event_type(struct rec_ctx *x);
void rec_parse_tracing_data(struct rec_ctx *x);
void rec_parse_build_id(struct rec_ctx *x);
void rec_parse_id_index(struct rec_ctx *x);
void rec_parse_auxtrace_info(struct rec_ctx *x);
void rec_parse_auxtrace(struct rec_ctx *x);
void rec_parse_auxtrace_error(struct rec_ctx *x);
void rec_parse_thread_map(struct rec_ctx *x);
void rec_parse_time_conv(struct rec_ctx *x);
void rec_parse_header_feature(struct rec_ctx *x);
void rec_parse_compressed(struct rec_ctx *x); /* COMPRESSED, COMPRESSED2 */
void rec_parse_bpf_metadata(struct rec_ctx *x);

void rec_parse_cpu_map(struct rec_ctx *x);
void rec_parse_stat_config(struct rec_ctx *x);
void rec_parse_event_update(struct rec_ctx *x);
void rec_parse_schedstat(struct rec_ctx *x); /* SCHEDSTAT_CPU, _DOMAIN */

#endif
