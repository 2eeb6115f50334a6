// SPDX-License-Identifier: MIT
/*
 * Decoders for CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE and MEM_TOPOLOGY (models
 * in feat_topo.h; the PMU features are in feat_pmu.c).  Layouts checked
 * against tools/perf/util/header.c, torvalds/linux 00093b31 (write_* /
 * process_* of each feature).
 */
#include <string.h>

#include "lib/format/feat_ctx.h"
#include "lib/format/feat_topo.h"

/* ---- CPU_TOPOLOGY ---------------------------------------------------- */

/*
 * Does a revision-3 tail (string list of dies; nr × u32 die_id) fill
 * `probe` exactly from byte 8 * nr on?  Reads a silent copy of the cursor.
 */
static bool rev3_fits(struct cursor probe, uint32_t nr)
{
	uint32_t ndies;

	probe.diags = NULL;
	if (!cur_skip(&probe, "core/socket ids", (size_t)nr * 8))
		return false;
	ndies = cur_u32(&probe, "nr dies");
	/* dies are at most the CPUs; few enough to bound the search */
	if (!cur_ok(&probe) || ndies == 0 || ndies > nr || ndies > 256)
		return false;
	for (uint32_t i = 0; i < ndies && cur_ok(&probe); i++)
		cur_hstring(&probe, "die");
	return cur_ok(&probe) && cur_left(&probe) == (size_t)nr * 4;
}

/*
 * Without NRCPUS, the per-CPU count must come from the bytes after the
 * sibling lists: a revision-3 tail that fits exactly, else 8-byte pairs.
 */
static bool infer_nr_cpus(struct pd_feat_ctx *x, struct cursor *c, uint32_t *nr)
{
	size_t left = cur_left(c);

	for (uint64_t n = 1; n * 12 + 8 <= left && n <= 65536; n++) {
		if (rev3_fits(*c, (uint32_t)n)) {
			*nr = (uint32_t)n;
			goto found;
		}
	}
	if (left % 8 == 0 && left / 8 <= UINT32_MAX) {
		*nr = (uint32_t)(left / 8);
		goto found;
	}
	pd_diag_add(x->diags, PD_C_FEATURE_UNDECODABLE,
		    PD_AT_FEATURE(HEADER_CPU_TOPOLOGY), PD_ERR, cur_off(c),
		    "HEADER_CPU_TOPOLOGY",
		    "NRCPUS is absent and the CPU count cannot be inferred "
		    "from the %zu bytes after the sibling lists",
		    left);
	return false;
found:
	pd_diag_add(x->diags, PD_C_UNUSUAL, PD_AT_FEATURE(HEADER_CPU_TOPOLOGY),
		    PD_WARN, cur_off(c), "HEADER_CPU_TOPOLOGY",
		    "NRCPUS is absent; %u CPUs inferred from the %zu bytes "
		    "after the sibling lists",
		    *nr, left);
	return true;
}

/* What perf's string_size() assumes a string list takes: 64-byte padding. */
static uint64_t perf_strlist_size(const struct pd_strlist *l)
{
	uint64_t size = 4;

	for (uint32_t i = 0; i < l->nr; i++)
		size += (((uint64_t)l->v[i].len + 1 + 63) & ~(uint64_t)63) + 4;
	return size;
}

/*
 * process_cpu_topology() decides whether revisions 2 and 3 are present by
 * comparing the section size with a size recomputed from the strings, as
 * if each were padded to 64 bytes.  Writers that pad less (quipper pads
 * to 8) make perf ignore the ids we decode: say so.
 */
static void check_perf_size(struct pd_feat_ctx *x, const struct cursor *c,
			    uint64_t perf_size, const char *part)
{
	if (perf_size < c->len)
		return;
	pd_diag_add(x->diags, PD_C_UNUSUAL, PD_AT_FEATURE(HEADER_CPU_TOPOLOGY),
		    PD_WARN, c->base, "HEADER_CPU_TOPOLOGY",
		    "strings are not padded to 64 bytes: perf computes %llu of "
		    "the %zu bytes as used and ignores the %s",
		    (unsigned long long)perf_size, c->len, part);
}

static void read_core_socket_ids(struct cursor *c, struct feat_cpu_topology *m)
{
	for (uint32_t i = 0; i < m->nr_cpus && cur_ok(c); i++) {
		m->cpu[i].core_id = cur_u32(c, "core_id");
		m->cpu[i].socket_id = cur_u32(c, "socket_id");
		if (cur_ok(c))
			m->n_ids = i + 1;
	}
}

static void read_die_ids(struct cursor *c, struct feat_cpu_topology *m)
{
	if (!cur_check_count(c, "die_id", m->nr_cpus, 4))
		return;
	for (uint32_t i = 0; i < m->nr_cpus && cur_ok(c); i++) {
		m->cpu[i].die_id = cur_u32(c, "die_id");
		if (cur_ok(c))
			m->n_die_ids = i + 1;
	}
}

/*
 * CPU_TOPOLOGY: write_cpu_topology() / process_cpu_topology():
 *   rev1: u32 nr; string sibling_sockets[nr] (package_cpus_list);
 *         u32 nr; string sibling_threads[nr] (core_cpus_list)
 *   rev2: (if any bytes remain) nr_cpus_avail × {u32 core_id; u32 socket_id}
 *   rev3: (if any bytes still remain) u32 nr; string sibling_dies[nr];
 *         nr_cpus_avail × u32 die_id
 * perf writes the die part only when the machine has die topology (x86).
 */
void parse_feat_cpu_topology(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c)
{
	struct feat_cpu_topology *m = pd_feat_model(x, f, sizeof(*m));
	uint64_t perf_size;

	if (!m)
		return;
	m->revision = 1;
	if (!pd_read_strlist(x, c, "sibling sockets", &m->sibling_sockets) ||
	    !pd_read_strlist(x, c, "sibling threads", &m->sibling_threads))
		return;
	if (!pd_feat_more_data(f, c))
		goto out;

	m->revision = 2;
	perf_size = perf_strlist_size(&m->sibling_sockets) +
		    perf_strlist_size(&m->sibling_threads);
	check_perf_size(x, c, perf_size, "core and socket ids");
	if (x->env->has_nrcpus) {
		m->nr_cpus = x->env->nr_cpus_avail;
	} else if (infer_nr_cpus(x, c, &m->nr_cpus)) {
		m->nr_cpus_inferred = true;
	} else {
		return;
	}
	m->cpu = pd_feat_array(x, c, "core_id/socket_id", m->nr_cpus, 8,
			       sizeof(*m->cpu));
	if (!m->cpu)
		return;
	read_core_socket_ids(c, m);
	if (!pd_feat_more_data(f, c))
		goto out;

	m->revision = 3;
	if (perf_size < c->len)
		check_perf_size(x, c, perf_size + (uint64_t)m->nr_cpus * 8,
				"die information");
	if (!pd_read_strlist(x, c, "sibling dies", &m->sibling_dies))
		return;
	read_die_ids(c, m);
out:
	return; /* record padding is skipped by pd_decode_feature() */
}

/* ---- NUMA_TOPOLOGY --------------------------------------------------- */

/*
 * NUMA_TOPOLOGY: write_numa_topology() / process_numa_topology():
 *   u32 nr; nr × {u32 node; u64 mem_total; u64 mem_free; string cpus}
 * packed (the u64s are 4-byte misaligned); memory in kB.
 */
void parse_feat_numa_topology(struct pd_feat_ctx *x, struct pd_feature *f,
			      struct cursor *c)
{
	struct feat_numa_topology *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u32(c, "nr");
	m->nodes = pd_feat_array(x, c, "nodes", m->nr, 4 + 8 + 8 + 4,
				 sizeof(*m->nodes));
	if (!m->nodes)
		return;
	for (uint32_t i = 0; i < m->nr && cur_ok(c); i++) {
		struct pd_numa_node *n = &m->nodes[i];
		uint64_t off = cur_off(c);

		n->node = cur_u32(c, "node");
		n->mem_total = cur_u64(c, "mem_total");
		n->mem_free = cur_u64(c, "mem_free");
		n->cpus = cur_hstring(c, "cpus");
		if (!cur_ok(c))
			return;
		m->n = i + 1;
		if (n->mem_free > n->mem_total)
			pd_diag_add(x->diags, PD_C_UNUSUAL,
				    PD_AT_FEATURE(HEADER_NUMA_TOPOLOGY),
				    PD_WARN, off, "HEADER_NUMA_TOPOLOGY",
				    "node %u: mem_free %llu kB is larger than "
				    "mem_total %llu kB",
				    n->node, (unsigned long long)n->mem_free,
				    (unsigned long long)n->mem_total);
	}
}

/* ---- CACHE ----------------------------------------------------------- */

/*
 * CACHE: write_cache() / process_cache():
 *   u32 version (1); u32 nr;
 *   nr × {u32 level; u32 line_size; u32 sets; u32 ways;
 *         string type; string size; string map}
 */
void parse_feat_cache(struct pd_feat_ctx *x, struct pd_feature *f,
		      struct cursor *c)
{
	struct feat_cache *m = pd_feat_model(x, f, sizeof(*m));
	uint64_t off = cur_off(c);

	if (!m)
		return;
	m->version = cur_u32(c, "version");
	if (!cur_ok(c))
		return;
	if (m->version != 1) {
		/* perf refuses the section; the layout of others is unknown */
		pd_diag_add(x->diags, PD_C_FEATURE_UNDECODABLE,
			    PD_AT_FEATURE(HEADER_CACHE), PD_ERR, off,
			    "HEADER_CACHE", "version %u is not 1; not decoded",
			    m->version);
		return;
	}
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u32(c, "nr");
	m->caches = pd_feat_array(x, c, "cache levels", m->nr, 16 + 3 * 4,
				  sizeof(*m->caches));
	if (!m->caches)
		return;
	for (uint32_t i = 0; i < m->nr && cur_ok(c); i++) {
		struct pd_cache_level *l = &m->caches[i];

		l->level = cur_u32(c, "level");
		l->line_size = cur_u32(c, "line_size");
		l->sets = cur_u32(c, "sets");
		l->ways = cur_u32(c, "ways");
		l->type = cur_hstring(c, "type");
		l->size = cur_hstring(c, "size");
		l->map = cur_hstring(c, "map");
		if (cur_ok(c))
			m->n = i + 1;
	}
}

/* ---- MEM_TOPOLOGY ---------------------------------------------------- */

/* u64 node; u64 size; u64 size_bits: false if they could not be read */
static bool read_mem_node_head(struct pd_feat_ctx *x, struct cursor *c,
			       struct pd_mem_node *n)
{
	n->off = cur_off(c);
	n->node = cur_u64(c, "node");
	n->size = cur_u64(c, "size");
	n->size_bits = cur_u64(c, "bitmap size");
	if (!cur_ok(c))
		return false;
	if (n->size != n->size_bits)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_MEM_TOPOLOGY), PD_WARN, n->off,
			    "HEADER_MEM_TOPOLOGY",
			    "node %llu: size %llu differs from the bitmap's "
			    "own size %llu (perf uses the latter)",
			    (unsigned long long)n->node,
			    (unsigned long long)n->size,
			    (unsigned long long)n->size_bits);
	return true;
}

/* u64 words[(size_bits + 63) / 64], checked against the bytes left */
static void read_mem_bitmap(struct pd_feat_ctx *x, struct cursor *c,
			    struct pd_mem_node *n)
{
	n->nr_words = n->size_bits / 64 + (n->size_bits % 64 != 0);
	n->words = pd_feat_array(x, c, "bitmap words", n->nr_words, 8,
				 sizeof(*n->words));
	if (!n->words)
		return;
	for (uint64_t i = 0; i < n->nr_words && cur_ok(c); i++) {
		n->words[i] = cur_u64(c, "bitmap word");
		if (cur_ok(c))
			n->n_words = i + 1;
	}
	/* bits past size_bits are not blocks: perf never sets them */
	if (cur_ok(c) && n->size_bits % 64 &&
	    n->words[n->nr_words - 1] >> (n->size_bits % 64))
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_MEM_TOPOLOGY), PD_WARN, n->off,
			    "HEADER_MEM_TOPOLOGY",
			    "node %llu: bitmap has bits set past its size %llu",
			    (unsigned long long)n->node,
			    (unsigned long long)n->size_bits);
}

/*
 * MEM_TOPOLOGY: write_mem_topology() / do_write_bitmap() /
 * process_mem_topology() / do_read_bitmap():
 *   u64 version (1); u64 block_size; u64 nr;
 *   nr × {u64 node; u64 size; u64 size (again, the bitmap's);
 *         u64 words[(size + 63) / 64]}
 * size is a bit count: memory block indexes (memoryN in sysfs) + 1.
 */
void parse_feat_mem_topology(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c)
{
	struct feat_mem_topology *m = pd_feat_model(x, f, sizeof(*m));
	uint64_t off = cur_off(c);

	if (!m)
		return;
	m->version = cur_u64(c, "version");
	if (!cur_ok(c))
		return;
	if (m->version != 1) {
		pd_diag_add(x->diags, PD_C_FEATURE_UNDECODABLE,
			    PD_AT_FEATURE(HEADER_MEM_TOPOLOGY), PD_ERR, off,
			    "HEADER_MEM_TOPOLOGY",
			    "version %llu is not 1; not decoded",
			    (unsigned long long)m->version);
		return;
	}
	m->block_size = cur_u64(c, "block_size");
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u64(c, "nr");
	m->nodes =
		pd_feat_array(x, c, "nodes", m->nr, 3 * 8, sizeof(*m->nodes));
	if (!m->nodes)
		return;
	for (uint64_t i = 0; i < m->nr && cur_ok(c); i++) {
		if (!read_mem_node_head(x, c, &m->nodes[i]))
			return;
		m->n = i + 1; /* shown even if its bitmap is cut short */
		read_mem_bitmap(x, c, &m->nodes[i]);
	}
}
