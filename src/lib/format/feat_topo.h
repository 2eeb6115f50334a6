/* SPDX-License-Identifier: MIT */
/*
 * Models of the machine-topology and PMU-capability features:
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, CPU_PMU_CAPS,
 * HYBRID_TOPOLOGY, PMU_CAPS, CPU_DOMAIN_INFO, and simpleperf's META_INFO.
 * Layouts checked against tools/perf/util/header.c (write_* / process_*),
 * torvalds/linux 00093b31, and simpleperf's record_file_reader.cpp.
 *
 * Counts are kept twice where a decoder can stop early: `nr` as stored in
 * the file, `n` as many entries as were decoded.
 */
#ifndef PD_FEAT_TOPO_H
#define PD_FEAT_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/cursor.h"
#include "lib/format/feat_sys.h"

struct pd_feat_ctx;
struct pd_feature;

/* CPU_TOPOLOGY per-CPU ids; perf writes -1 (0xffffffff) for offline CPUs. */
struct pd_cpu_ids {
	uint32_t core_id, socket_id; /* revision 2 */
	uint32_t die_id;	     /* revision 3 */
};

/*
 * CPU_TOPOLOGY (tools/perf/util/header.c: process_cpu_topology).  rev1: sibling sockets (package CPU lists, perf's
 * "core_siblings"), sibling threads (core CPU lists).  rev2 if bytes
 * remain: per CPU {core_id, socket_id}.  rev3 if bytes still remain:
 * sibling dies, per CPU die_id.  The per-CPU arrays have NRCPUS
 * nr_cpus_avail entries.
 */
struct feat_cpu_topology {
	unsigned revision; /* 1, 2 or 3 */
	struct pd_strlist sibling_sockets;
	struct pd_strlist sibling_threads;
	struct pd_strlist sibling_dies; /* revision 3 */
	uint32_t nr_cpus;		/* per-CPU entries expected */
	bool nr_cpus_inferred;		/* no NRCPUS: counted from the bytes */
	uint32_t n_ids;			/* core/socket id pairs decoded */
	uint32_t n_die_ids;		/* die ids decoded */
	struct pd_cpu_ids *cpu;		/* nr_cpus entries */
};

/* NUMA_TOPOLOGY node: memory in kB (header.c: write_numa_topology), cpus a CPU list string. */
struct pd_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	struct pd_str cpus;
};

struct feat_numa_topology {
	uint32_t nr, n;
	struct pd_numa_node *nodes;
};

/* CACHE level, from /sys/devices/system/cpu/cpuN/cache/indexM. */
struct pd_cache_level {
	uint32_t level, line_size, sets, ways;
	struct pd_str type, size, map;
};

struct feat_cache {
	uint32_t version; /* 1; perf rejects others */
	uint32_t nr, n;
	struct pd_cache_level *caches;
};

/*
 * MEM_TOPOLOGY node (header.c: memory_node__read): `size` is the bitmap length in bits (highest
 * memory block index + 1), stored again as the bitmap's own length.
 */
struct pd_mem_node {
	uint64_t node;
	uint64_t size;	    /* first copy */
	uint64_t size_bits; /* the bitmap's copy (perf uses this one) */
	uint64_t nr_words, n_words;
	uint64_t *words; /* bit i = memory block i belongs to the node */
	uint64_t off;	 /* file offset of the node entry */
};

struct feat_mem_topology {
	uint64_t version;    /* 1; perf rejects others */
	uint64_t block_size; /* bytes per memory block */
	uint64_t nr, n;
	struct pd_mem_node *nodes;
};

/* One capability "name=value" of a PMU (sysfs caps/ directory). */
struct pd_pmu_cap {
	struct pd_str name, value;
};

struct pd_pmu_caps {
	uint32_t nr_caps, n;
	struct pd_pmu_cap *caps;
	struct pd_str pmu_name; /* PMU_CAPS only: stored after the caps */
	bool has_name;
};

/* CPU_PMU_CAPS: the caps of the core ("cpu") PMU, no name (header.c: write_cpu_pmu_caps). */
struct feat_cpu_pmu_caps {
	struct pd_pmu_caps caps;
};

/* PMU_CAPS: the caps of every other PMU that has some. */
struct feat_pmu_caps {
	uint32_t nr_pmu, n;
	struct pd_pmu_caps *pmus;
};

/* HYBRID_TOPOLOGY: one node per core PMU (cpu_core, cpu_atom). */
struct pd_hybrid_node {
	struct pd_str pmu_name, cpus;
};

struct feat_hybrid_topology {
	uint32_t nr, n;
	struct pd_hybrid_node *nodes;
};

/* CPU_DOMAIN_INFO: one sched domain of a CPU, from /proc/schedstat. */
struct pd_sched_domain {
	uint32_t domain;
	struct pd_str dname; /* only if schedstat_version >= 17 */
	struct pd_str cpumask;
	struct pd_str cpulist;
};

struct pd_cpu_domains {
	uint32_t cpu;
	uint32_t nr_domains, n;
	struct pd_sched_domain *domains;
	struct pd_cpu_domains *next;
};

struct feat_cpu_domain_info {
	uint32_t schedstat_version;
	uint32_t max_sched_domains; /* highest domain index + 1 */
	bool has_dname;		    /* schedstat_version >= 17 */
	uint32_t n;		    /* CPU entries decoded */
	struct pd_cpu_domains *cpus, *last;
};

/* simpleperf META_INFO: NUL-terminated key and value strings. */
struct pd_meta_entry {
	struct pd_str key, value;
	bool has_value;
	struct pd_meta_entry *next;
};

struct feat_sp_meta_info {
	uint32_t n;
	struct pd_meta_entry *entries, *last;
};

void parse_feat_cpu_topology(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_numa_topology(struct pd_feat_ctx *x, struct pd_feature *f,
			      struct cursor *c);
void parse_feat_cache(struct pd_feat_ctx *x, struct pd_feature *f,
		      struct cursor *c);
void parse_feat_mem_topology(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_cpu_pmu_caps(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_hybrid_topology(struct pd_feat_ctx *x, struct pd_feature *f,
				struct cursor *c);
void parse_feat_pmu_caps(struct pd_feat_ctx *x, struct pd_feature *f,
			 struct cursor *c);
void parse_feat_cpu_domain_info(struct pd_feat_ctx *x, struct pd_feature *f,
				struct cursor *c);
void parse_feat_sp_meta_info(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c);

#endif
