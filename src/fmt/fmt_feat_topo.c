// SPDX-License-Identifier: MIT
/*
 * Formatters for the topology and PMU-capability features (models in
 * lib/format/feat_topo.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fmt/fmt_features.h"

/* ---- CPU_TOPOLOGY ---------------------------------------------------- */

static void emit_cpu_ids(struct emitter *e, const struct feat_cpu_topology *m)
{
	emit_arr_begin(e, "cpus");
	for (uint32_t i = 0; i < m->n_ids; i++) {
		const struct pd_cpu_ids *id = &m->cpu[i];

		/* perf prints the ids with %d: offline CPUs show -1 */
		emit_row_begin(e, NULL);
		emit_u64(e, "cpu", i);
		emit_s64(e, "core_id", (int32_t)id->core_id);
		if (m->revision >= 3 && i < m->n_die_ids)
			emit_s64(e, "die_id", (int32_t)id->die_id);
		emit_s64(e, "socket_id", (int32_t)id->socket_id);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_feat_cpu_topology(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f)
{
	const struct feat_cpu_topology *m = f->model;

	(void)s;
	emit_u64(e, "revision", m->revision);
	emit_u64(e, "nr_sibling_sockets", m->sibling_sockets.nr);
	emit_strlist(e, "sibling_sockets", &m->sibling_sockets);
	emit_u64(e, "nr_sibling_threads", m->sibling_threads.nr);
	emit_strlist(e, "sibling_threads", &m->sibling_threads);
	if (m->revision >= 3) {
		emit_u64(e, "nr_sibling_dies", m->sibling_dies.nr);
		emit_strlist(e, "sibling_dies", &m->sibling_dies);
	}
	if (m->revision >= 2) {
		emit_u64(e, "nr_cpus", m->nr_cpus);
		emit_str(e, "nr_cpus_from",
			 m->nr_cpus_inferred ? "inferred"
					     : "NRCPUS nr_cpus_avail");
		emit_cpu_ids(e, m);
	}
}

/* ---- NUMA_TOPOLOGY --------------------------------------------------- */

void emit_feat_numa_topology(struct emitter *e, const struct pd_session *s,
			     const struct pd_feature *f)
{
	const struct feat_numa_topology *m = f->model;

	(void)s;
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "nodes");
	for (uint32_t i = 0; i < m->n; i++) {
		const struct pd_numa_node *n = &m->nodes[i];

		/* kB, like TOTAL_MEM (header.c: write_numa_topology) */
		emit_row_begin(e, NULL);
		emit_u64(e, "node", n->node);
		emit_u64(e, "mem_total_kb", n->mem_total);
		emit_u64(e, "mem_free_kb", n->mem_free);
		emit_pstr(e, "cpus", &n->cpus);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* ---- CACHE ----------------------------------------------------------- */

void emit_feat_cache(struct emitter *e, const struct pd_session *s,
		     const struct pd_feature *f)
{
	const struct feat_cache *m = f->model;

	(void)s;
	emit_u64(e, "version", m->version);
	if (m->version != 1)
		return;
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "caches");
	for (uint32_t i = 0; i < m->n; i++) {
		const struct pd_cache_level *l = &m->caches[i];

		emit_row_begin(e, NULL);
		emit_u64(e, "level", l->level);
		emit_pstr(e, "type", &l->type);
		emit_pstr(e, "size", &l->size);
		emit_pstr(e, "map", &l->map);
		emit_u64(e, "line_size", l->line_size);
		emit_u64(e, "sets", l->sets);
		emit_u64(e, "ways", l->ways);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* ---- MEM_TOPOLOGY ---------------------------------------------------- */

static bool bit_set(const struct pd_mem_node *n, uint64_t bit)
{
	return (n->words[bit / 64] >> (bit % 64)) & 1;
}

/*
 * The node's blocks as perf's bitmap_scnprintf() writes them: "0-23,32-199"
 * (bits of the decoded words within size_bits).  Returns malloc'd text.
 */
static char *block_ranges(const struct pd_mem_node *n, uint64_t *count)
{
	uint64_t nbits = n->n_words * 64;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	*count = 0;
	if (!fp)
		return NULL;
	if (nbits > n->size_bits)
		nbits = n->size_bits;
	for (uint64_t b = 0; b < nbits;) {
		uint64_t end;

		if (b % 64 == 0 && !n->words[b / 64]) {
			b += 64; /* an empty word */
			continue;
		}
		if (!bit_set(n, b)) {
			b++;
			continue;
		}
		for (end = b; end + 1 < nbits && bit_set(n, end + 1); end++)
			;
		fprintf(fp, "%s%" PRIu64, *count ? "," : "", b);
		if (end > b)
			fprintf(fp, "-%" PRIu64, end);
		*count += end - b + 1;
		b = end + 1;
	}
	if (fclose(fp) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void emit_mem_node(struct emitter *e, const struct feat_mem_topology *m,
			  const struct pd_mem_node *n)
{
	uint64_t nr_blocks = 0;
	/* a bitmap cut short would list too few blocks: show none */
	char *ranges =
		n->n_words == n->nr_words ? block_ranges(n, &nr_blocks) : NULL;

	emit_obj_begin_t(e, NULL, "node %" PRIu64, n->node);
	emit_offset(e, "offset", n->off);
	emit_u64(e, "node", n->node);
	emit_u64(e, "size", n->size);
	emit_u64(e, "size_bits", n->size_bits);
	if (!ranges) {
		emit_null(e, "blocks");
		emit_null(e, "nr_blocks");
		emit_null(e, "mem_size");
	} else {
		emit_str(e, "blocks", ranges);
		emit_u64(e, "nr_blocks", nr_blocks);
		/* what perf prints in brackets: set blocks × block size */
		if (!m->block_size || nr_blocks <= UINT64_MAX / m->block_size)
			emit_size(e, "mem_size", nr_blocks * m->block_size);
		else
			emit_null(e, "mem_size");
	}
	emit_obj_end(e);
	free(ranges);
}

void emit_feat_mem_topology(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f)
{
	const struct feat_mem_topology *m = f->model;

	(void)s;
	emit_u64(e, "version", m->version);
	if (m->version != 1)
		return;
	emit_size(e, "block_size", m->block_size);
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "nodes");
	for (uint64_t i = 0; i < m->n; i++)
		emit_mem_node(e, m, &m->nodes[i]);
	emit_arr_end(e);
}

/* ---- CPU_PMU_CAPS, PMU_CAPS ------------------------------------------ */

static void emit_caps(struct emitter *e, const struct pd_pmu_caps *p)
{
	emit_u64(e, "nr_caps", p->nr_caps);
	emit_arr_begin(e, "caps");
	for (uint32_t i = 0; i < p->n; i++) {
		emit_row_begin(e, NULL);
		emit_pstr(e, "name", &p->caps[i].name);
		emit_pstr(e, "value", &p->caps[i].value);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_feat_cpu_pmu_caps(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f)
{
	const struct feat_cpu_pmu_caps *m = f->model;

	(void)s;
	emit_caps(e, &m->caps);
}

void emit_feat_pmu_caps(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f)
{
	const struct feat_pmu_caps *m = f->model;

	(void)s;
	emit_u64(e, "nr_pmu", m->nr_pmu);
	emit_arr_begin(e, "pmus");
	for (uint32_t i = 0; i < m->n; i++) {
		const struct pd_pmu_caps *p = &m->pmus[i];

		emit_obj_begin(e, NULL);
		/* stored after the caps (header.c: __write_pmu_caps) */
		if (p->has_name)
			emit_pstr(e, "pmu_name", &p->pmu_name);
		else
			emit_null(e, "pmu_name");
		emit_caps(e, p);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* ---- HYBRID_TOPOLOGY ------------------------------------------------- */

void emit_feat_hybrid_topology(struct emitter *e, const struct pd_session *s,
			       const struct pd_feature *f)
{
	const struct feat_hybrid_topology *m = f->model;

	(void)s;
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "nodes");
	for (uint32_t i = 0; i < m->n; i++) {
		emit_row_begin(e, NULL);
		emit_pstr(e, "pmu_name", &m->nodes[i].pmu_name);
		emit_pstr(e, "cpus", &m->nodes[i].cpus);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* ---- CPU_DOMAIN_INFO ------------------------------------------------- */

static void emit_cpu_domains(struct emitter *e,
			     const struct feat_cpu_domain_info *m,
			     const struct pd_cpu_domains *d)
{
	emit_obj_begin_t(e, NULL, "cpu %u", d->cpu);
	emit_u64(e, "cpu", d->cpu);
	emit_u64(e, "nr_domains", d->nr_domains);
	emit_arr_begin(e, "domains");
	for (uint32_t j = 0; j < d->n; j++) {
		const struct pd_sched_domain *dom = &d->domains[j];

		emit_row_begin(e, NULL);
		emit_u64(e, "domain", dom->domain);
		if (m->has_dname)
			emit_pstr(e, "dname", &dom->dname);
		emit_pstr(e, "cpumask", &dom->cpumask);
		emit_pstr(e, "cpulist", &dom->cpulist);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_obj_end(e);
}

void emit_feat_cpu_domain_info(struct emitter *e, const struct pd_session *s,
			       const struct pd_feature *f)
{
	const struct feat_cpu_domain_info *m = f->model;

	(void)s;
	emit_u64(e, "schedstat_version", m->schedstat_version);
	emit_u64(e, "max_sched_domains", m->max_sched_domains);
	emit_u64(e, "nr_cpus", m->n);
	emit_arr_begin(e, "cpus");
	for (const struct pd_cpu_domains *d = m->cpus; d; d = d->next)
		emit_cpu_domains(e, m, d);
	emit_arr_end(e);
}

/* ---- simpleperf META_INFO -------------------------------------------- */

void emit_feat_sp_meta_info(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f)
{
	const struct feat_sp_meta_info *m = f->model;

	(void)s;
	emit_u64(e, "nr", m->n);
	emit_arr_begin(e, "info");
	for (const struct pd_meta_entry *i = m->entries; i; i = i->next) {
		emit_row_begin(e, NULL);
		emit_pstr(e, "key", &i->key);
		if (i->has_value)
			emit_pstr(e, "value", &i->value);
		else
			emit_null(e, "value");
		emit_obj_end(e);
	}
	emit_arr_end(e);
}
