// SPDX-License-Identifier: MIT
#include "fmt_features.h"
void emit_feat_auxtrace(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_bpf_btf(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_bpf_prog_info(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_build_id(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_event_desc(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_group_desc(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_pmu_mappings(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
void emit_feat_tracing_data(struct emitter *e, const struct pd_session *s, const struct pd_feature *f)
{
	(void)e; (void)s; (void)f;
}
