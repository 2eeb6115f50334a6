// SPDX-License-Identifier: MIT
/*
 * Decoders for the PMU features (CPU_PMU_CAPS, PMU_CAPS, HYBRID_TOPOLOGY),
 * the scheduler's CPU_DOMAIN_INFO and simpleperf's META_INFO; models in
 * feat_topo.h.  Layouts checked against tools/perf/util/header.c,
 * torvalds/linux 00093b31, and simpleperf's record_file_reader.cpp.
 */
#include "lib/format/feat_ctx.h"
#include "lib/format/feat_topo.h"

/* ---- CPU_PMU_CAPS, PMU_CAPS ------------------------------------------ */

/* __write_pmu_caps(): u32 nr_caps; nr_caps × {string name; string value} */
static bool read_pmu_caps(struct pd_feat_ctx *x, struct cursor *c,
			  struct pd_pmu_caps *p)
{
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	p->nr_caps = cur_u32(c, "nr_caps");
	p->caps = pd_feat_array(x, c, "caps", p->nr_caps, 2 * 4,
				sizeof(*p->caps));
	if (!p->caps)
		return false;
	for (uint32_t i = 0; i < p->nr_caps && cur_ok(c); i++) {
		p->caps[i].name = cur_hstring(c, "cap name");
		p->caps[i].value = cur_hstring(c, "cap value");
		if (cur_ok(c))
			p->n = i + 1;
	}
	return cur_ok(c);
}

/*
 * CPU_PMU_CAPS: write_cpu_pmu_caps() / process_cpu_pmu_caps():
 *   u32 nr_caps; nr_caps × {string name; string value}   (no PMU name)
 */
void parse_feat_cpu_pmu_caps(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c)
{
	struct feat_cpu_pmu_caps *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	read_pmu_caps(x, c, &m->caps);
}

/*
 * PMU_CAPS: write_pmu_caps() / process_pmu_caps():
 *   u32 nr_pmu; nr_pmu × {u32 nr_caps; nr_caps × {string name;
 *   string value}; string pmu_name}   (the name after its caps: header.c __write_pmu_caps)
 */
void parse_feat_pmu_caps(struct pd_feat_ctx *x, struct pd_feature *f,
			 struct cursor *c)
{
	struct feat_pmu_caps *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr_pmu = cur_u32(c, "nr_pmu");
	/* each PMU: nr_caps and a name at least */
	m->pmus =
		pd_feat_array(x, c, "pmus", m->nr_pmu, 2 * 4, sizeof(*m->pmus));
	if (!m->pmus)
		return;
	for (uint32_t i = 0; i < m->nr_pmu; i++) {
		struct pd_pmu_caps *p = &m->pmus[i];
		bool ok = read_pmu_caps(x, c, p);

		if (ok) {
			p->pmu_name = cur_hstring(c, "pmu_name");
			p->has_name = cur_ok(c);
		}
		if (p->n || p->has_name)
			m->n = i + 1;
		if (!cur_ok(c))
			return;
	}
}

/* ---- HYBRID_TOPOLOGY ------------------------------------------------- */

/*
 * HYBRID_TOPOLOGY: write_hybrid_topology() / process_hybrid_topology():
 *   u32 nr; nr × {string pmu_name; string cpus}
 */
void parse_feat_hybrid_topology(struct pd_feat_ctx *x, struct pd_feature *f,
				struct cursor *c)
{
	struct feat_hybrid_topology *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u32(c, "nr");
	m->nodes =
		pd_feat_array(x, c, "nodes", m->nr, 2 * 4, sizeof(*m->nodes));
	if (!m->nodes)
		return;
	for (uint32_t i = 0; i < m->nr && cur_ok(c); i++) {
		m->nodes[i].pmu_name = cur_hstring(c, "pmu_name");
		m->nodes[i].cpus = cur_hstring(c, "cpus");
		if (cur_ok(c))
			m->n = i + 1;
	}
}

/* ---- CPU_DOMAIN_INFO ------------------------------------------------- */

static void check_cpu_domains(struct pd_feat_ctx *x,
			      const struct feat_cpu_domain_info *m,
			      const struct pd_cpu_domains *d, uint64_t off)
{
	if (x->env->has_nrcpus && d->cpu >= x->env->nr_cpus_avail)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_CPU_DOMAIN_INFO), PD_WARN, off,
			    "HEADER_CPU_DOMAIN_INFO",
			    "cpu %u is not below NRCPUS nr_cpus_avail %u (perf "
			    "indexes its table with it)",
			    d->cpu, x->env->nr_cpus_avail);
	for (uint32_t j = 0; j < d->n; j++)
		if (d->domains[j].domain >= m->max_sched_domains)
			pd_diag_add(x->diags, PD_C_UNUSUAL,
				    PD_AT_FEATURE(HEADER_CPU_DOMAIN_INFO),
				    PD_WARN, off, "HEADER_CPU_DOMAIN_INFO",
				    "cpu %u: domain %u is not below "
				    "max_sched_domains %u",
				    d->cpu, d->domains[j].domain,
				    m->max_sched_domains);
}

static struct pd_cpu_domains *
read_cpu_domains(struct pd_feat_ctx *x, struct cursor *c,
		 const struct feat_cpu_domain_info *m)
{
	struct pd_cpu_domains *d = arena_alloc(x->arena, sizeof(*d));
	size_t min = m->has_dname ? 4 * 4 : 3 * 4;

	if (!d)
		return NULL;
	d->cpu = cur_u32(c, "cpu");
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	d->nr_domains = cur_u32(c, "nr_domains");
	d->domains = pd_feat_array(x, c, "domains", d->nr_domains, min,
				   sizeof(*d->domains));
	if (!d->domains)
		return d;
	for (uint32_t j = 0; j < d->nr_domains && cur_ok(c); j++) {
		struct pd_sched_domain *dom = &d->domains[j];

		dom->domain = cur_u32(c, "domain");
		if (m->has_dname)
			dom->dname = cur_hstring(c, "dname");
		dom->cpumask = cur_hstring(c, "cpumask");
		dom->cpulist = cur_hstring(c, "cpulist");
		if (cur_ok(c))
			d->n = j + 1;
	}
	return d;
}

/*
 * CPU_DOMAIN_INFO [2026]: write_cpu_domain_info() /
 * process_cpu_domain_info():
 *   u32 schedstat_version; u32 max_sched_domains (highest index + 1);
 *   per CPU in /proc/schedstat: {u32 cpu; u32 nr_domains;
 *     nr_domains × {u32 domain; string dname (version >= 17 only);
 *                   string cpumask; string cpulist}}
 * perf reads exactly nr_cpus_online CPU entries; decoded here until the
 * section ends, and the count compared.
 */
void parse_feat_cpu_domain_info(struct pd_feat_ctx *x, struct pd_feature *f,
				struct cursor *c)
{
	struct feat_cpu_domain_info *m = pd_feat_model(x, f, sizeof(*m));
	uint64_t start = cur_off(c);

	if (!m)
		return;
	m->schedstat_version = cur_u32(c, "schedstat_version");
	m->max_sched_domains = cur_u32(c, "max_sched_domains");
	m->has_dname = m->schedstat_version >= 17;
	while (pd_feat_more_data(f, c)) {
		uint64_t off = cur_off(c);
		struct pd_cpu_domains *d = read_cpu_domains(x, c, m);

		if (!d)
			return;
		if (m->last)
			m->last->next = d;
		else
			m->cpus = d;
		m->last = d;
		m->n++;
		if (!cur_ok(c))
			return;
		check_cpu_domains(x, m, d, off);
	}
	if (!cur_ok(c))
		return;
	if (x->env->has_nrcpus && m->n != x->env->nr_cpus_online)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_CPU_DOMAIN_INFO), PD_WARN,
			    start, "HEADER_CPU_DOMAIN_INFO",
			    "%u CPU entries, but NRCPUS nr_cpus_online is %u "
			    "(perf reads that many)",
			    m->n, x->env->nr_cpus_online);
}

/* ---- simpleperf META_INFO -------------------------------------------- */

/* Empty keys and values: counted, reported once (a run of NULs is many). */
struct meta_empty {
	uint32_t n;
	uint64_t first_off;
};

static void note_empty(struct meta_empty *me, const struct pd_str *str)
{
	if (str->len)
		return;
	if (!me->n++)
		me->first_off = str->off;
}

/*
 * simpleperf META_INFO (129): RecordFileWriter::WriteMetaInfoFeature() /
 * RecordFileReader::ReadMetaInfoFeature():
 *   {char key[]; '\0'; char value[]; '\0'} repeated to the section end;
 *   no count, no padding.  Keys seen: simpleperf_version, clockid,
 *   timestamp, event_type_info, android_version, product_props, ...
 */
void parse_feat_sp_meta_info(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c)
{
	struct feat_sp_meta_info *m = pd_feat_model(x, f, sizeof(*m));
	struct meta_empty me = {0};

	if (!m)
		return;
	while (cur_ok(c) && cur_left(c)) {
		struct pd_meta_entry *e = arena_alloc(x->arena, sizeof(*e));

		if (!e)
			return;
		e->key = cur_cstring(c, "key");
		if (!cur_ok(c))
			return;
		if (m->last)
			m->last->next = e;
		else
			m->entries = e;
		m->last = e;
		m->n++;
		note_empty(&me, &e->key);
		if (!cur_left(c)) {
			pd_diag_add(x->diags, PD_C_UNUSUAL,
				    PD_AT_FEATURE(SP_FEAT_META_INFO), PD_WARN,
				    e->key.off, "HEADER_SP_META_INFO",
				    "key without a value at the end of the "
				    "section");
			break;
		}
		e->value = cur_cstring(c, "value");
		e->has_value = cur_ok(c);
		if (e->has_value)
			note_empty(&me, &e->value);
	}
	if (me.n)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(SP_FEAT_META_INFO), PD_WARN,
			    me.first_off, "HEADER_SP_META_INFO",
			    "%u empty keys or values, the first here "
			    "(simpleperf's reader rejects the section)",
			    me.n);
}
