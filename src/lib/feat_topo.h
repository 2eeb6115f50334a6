/* SPDX-License-Identifier: MIT */
/*
 * Models of the machine-topology and PMU-capability features:
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, CPU_PMU_CAPS,
 * HYBRID_TOPOLOGY, PMU_CAPS, CPU_DOMAIN_INFO, and simpleperf's META_INFO.
 */
#ifndef PD_FEAT_TOPO_H
#define PD_FEAT_TOPO_H

#include <stdint.h>

#include "cursor.h"

struct pd_session;
struct pd_feature;

void parse_feat_cpu_topology(struct pd_session *s, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_numa_topology(struct pd_session *s, struct pd_feature *f,
			      struct cursor *c);
void parse_feat_cache(struct pd_session *s, struct pd_feature *f,
		      struct cursor *c);
void parse_feat_mem_topology(struct pd_session *s, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_cpu_pmu_caps(struct pd_session *s, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_hybrid_topology(struct pd_session *s, struct pd_feature *f,
				struct cursor *c);
void parse_feat_pmu_caps(struct pd_session *s, struct pd_feature *f,
			 struct cursor *c);
void parse_feat_cpu_domain_info(struct pd_session *s, struct pd_feature *f,
				struct cursor *c);
void parse_feat_sp_meta_info(struct pd_session *s, struct pd_feature *f,
			     struct cursor *c);

#endif
