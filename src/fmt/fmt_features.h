/* SPDX-License-Identifier: MIT */
/*
 * Formatters for feature sections: one emit function per feature id, each
 * writing a decoded model through the emitter (never reading the file).
 */
#ifndef PD_FMT_FEATURES_H
#define PD_FMT_FEATURES_H

#include "lib/format/features.h"
#include "lib/session/session.h"
#include "fmt/emit.h"

/*
 * Writes the decoded fields of f->model into the feature's object (the
 * caller has opened it and written id, name, offset, size).  Only called
 * when f->model is not NULL.
 */
typedef void (*pd_feat_emit_fn)(struct emitter *e, const struct pd_session *s,
				const struct pd_feature *f);

/* One feature: common fields, decoded fields, unparsed bytes, raw (-x). */
void emit_feature(struct emitter *e, const struct pd_session *s,
		  const struct pd_feature *f);

/*
 * "features": every feature id perf and simpleperf define (and any other
 * the file has), with whether the file has it (features --list).
 */
void emit_feature_list(struct emitter *e, const struct pd_session *s);

/* Shared by several formatters. */
void emit_strlist(struct emitter *e, const char *key,
		  const struct pd_strlist *l);
/* "2026-11-21T10:00:00.123456789Z" from ns since the epoch. */
void format_iso8601_ns(char *buf, size_t len, uint64_t ns);
/* "12345.678901" seconds.microseconds as perf prints sample times. */
void format_perf_time(char *buf, size_t len, uint64_t ns);

#define NSEC_PER_SEC ((uint64_t)1000000000)

/* fmt_feat_sys.c */
void emit_feat_string(struct emitter *e, const struct pd_session *s,
		      const struct pd_feature *f);
void emit_feat_nrcpus(struct emitter *e, const struct pd_session *s,
		      const struct pd_feature *f);
void emit_feat_total_mem(struct emitter *e, const struct pd_session *s,
			 const struct pd_feature *f);
void emit_feat_cmdline(struct emitter *e, const struct pd_session *s,
		       const struct pd_feature *f);
void emit_feat_sample_time(struct emitter *e, const struct pd_session *s,
			   const struct pd_feature *f);
void emit_feat_e_machine(struct emitter *e, const struct pd_session *s,
			 const struct pd_feature *f);
void emit_feat_cln_size(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f);
void emit_feat_clockid(struct emitter *e, const struct pd_session *s,
		       const struct pd_feature *f);
void emit_feat_dir_format(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f);
void emit_feat_compressed(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f);
void emit_feat_clock_data(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f);

/* fmt_feat_meta.c */
void emit_feat_tracing_data(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f);
void emit_feat_build_id(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f);
void emit_feat_event_desc(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f);
void emit_feat_pmu_mappings(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f);
void emit_feat_group_desc(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f);
void emit_feat_auxtrace(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f);
void emit_feat_bpf_prog_info(struct emitter *e, const struct pd_session *s,
			     const struct pd_feature *f);
void emit_feat_bpf_btf(struct emitter *e, const struct pd_session *s,
		       const struct pd_feature *f);

/* fmt_feat_topo.c */
void emit_feat_cpu_topology(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f);
void emit_feat_numa_topology(struct emitter *e, const struct pd_session *s,
			     const struct pd_feature *f);
void emit_feat_cache(struct emitter *e, const struct pd_session *s,
		     const struct pd_feature *f);
void emit_feat_mem_topology(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f);
void emit_feat_cpu_pmu_caps(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f);
void emit_feat_hybrid_topology(struct emitter *e, const struct pd_session *s,
			       const struct pd_feature *f);
void emit_feat_pmu_caps(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f);
void emit_feat_cpu_domain_info(struct emitter *e, const struct pd_session *s,
			       const struct pd_feature *f);
void emit_feat_sp_meta_info(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f);

#endif
