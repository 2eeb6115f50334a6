// SPDX-License-Identifier: MIT
#include "features.h"
void parse_feat_cache(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_cpu_domain_info(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_cpu_pmu_caps(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_cpu_topology(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_hybrid_topology(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_mem_topology(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_numa_topology(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_pmu_caps(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_sp_meta_info(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
