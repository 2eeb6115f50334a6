// SPDX-License-Identifier: MIT
#include "fmt_features.h"
void emit_feat_cache(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_cpu_domain_info(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_cpu_pmu_caps(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_cpu_topology(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_hybrid_topology(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_mem_topology(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_numa_topology(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_pmu_caps(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_sp_meta_info(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
