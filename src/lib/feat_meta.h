/* SPDX-License-Identifier: MIT */
/*
 * Models of the features that describe events and their metadata:
 * TRACING_DATA, BUILD_ID, EVENT_DESC, PMU_MAPPINGS, GROUP_DESC, AUXTRACE,
 * BPF_PROG_INFO, BPF_BTF.
 */
#ifndef PD_FEAT_META_H
#define PD_FEAT_META_H

#include <stdint.h>

#include "cursor.h"

struct pd_session;
struct pd_feature;

void parse_feat_tracing_data(struct pd_session *s, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_build_id(struct pd_session *s, struct pd_feature *f,
			 struct cursor *c);
void parse_feat_event_desc(struct pd_session *s, struct pd_feature *f,
			   struct cursor *c);
void parse_feat_pmu_mappings(struct pd_session *s, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_group_desc(struct pd_session *s, struct pd_feature *f,
			   struct cursor *c);
void parse_feat_auxtrace(struct pd_session *s, struct pd_feature *f,
			 struct cursor *c);
void parse_feat_bpf_prog_info(struct pd_session *s, struct pd_feature *f,
			      struct cursor *c);
void parse_feat_bpf_btf(struct pd_session *s, struct pd_feature *f,
			struct cursor *c);

#endif
