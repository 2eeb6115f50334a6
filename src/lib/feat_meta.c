// SPDX-License-Identifier: MIT
#include "features.h"
void parse_feat_auxtrace(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_bpf_btf(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_bpf_prog_info(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_build_id(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_event_desc(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_group_desc(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_pmu_mappings(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
void parse_feat_tracing_data(struct pd_session *s, struct pd_feature *f, struct cursor *c)
{
	(void)s; (void)f; (void)c;
}
