// SPDX-License-Identifier: MIT
/*
 * The feature registry: one entry per id perf (tools/perf/util/header.h,
 * enum HEADER_*) or simpleperf (record_file.h, FEAT_*) defines.
 */
#include "lib/format/features.h"
#include "lib/base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct pd_feat_ops ops[] = {
	[HEADER_RESERVED] = {"RESERVED", NULL, false},
	[HEADER_TRACING_DATA] = {"TRACING_DATA", parse_feat_tracing_data,
				 false},
	[HEADER_BUILD_ID] = {"BUILD_ID", parse_feat_build_id, false},
	[HEADER_HOSTNAME] = {"HOSTNAME", parse_feat_string, false},
	[HEADER_OSRELEASE] = {"OSRELEASE", parse_feat_string, false},
	[HEADER_VERSION] = {"VERSION", parse_feat_string, false},
	[HEADER_ARCH] = {"ARCH", parse_feat_string, false},
	[HEADER_NRCPUS] = {"NRCPUS", parse_feat_nrcpus, false},
	[HEADER_CPUDESC] = {"CPUDESC", parse_feat_string, false},
	[HEADER_CPUID] = {"CPUID", parse_feat_string, false},
	[HEADER_TOTAL_MEM] = {"TOTAL_MEM", parse_feat_u64, false},
	[HEADER_CMDLINE] = {"CMDLINE", parse_feat_cmdline, false},
	[HEADER_EVENT_DESC] = {"EVENT_DESC", parse_feat_event_desc, false},
	[HEADER_CPU_TOPOLOGY] = {"CPU_TOPOLOGY", parse_feat_cpu_topology,
				 false},
	[HEADER_NUMA_TOPOLOGY] = {"NUMA_TOPOLOGY", parse_feat_numa_topology,
				  false},
	[HEADER_BRANCH_STACK] = {"BRANCH_STACK", NULL, true},
	[HEADER_PMU_MAPPINGS] = {"PMU_MAPPINGS", parse_feat_pmu_mappings,
				 false},
	[HEADER_GROUP_DESC] = {"GROUP_DESC", parse_feat_group_desc, false},
	[HEADER_AUXTRACE] = {"AUXTRACE", parse_feat_auxtrace, false},
	[HEADER_STAT] = {"STAT", NULL, true},
	[HEADER_CACHE] = {"CACHE", parse_feat_cache, false},
	[HEADER_SAMPLE_TIME] = {"SAMPLE_TIME", parse_feat_sample_time, false},
	[HEADER_MEM_TOPOLOGY] = {"MEM_TOPOLOGY", parse_feat_mem_topology,
				 false},
	[HEADER_CLOCKID] = {"CLOCKID", parse_feat_u64, false},
	[HEADER_DIR_FORMAT] = {"DIR_FORMAT", parse_feat_u64, false},
	[HEADER_BPF_PROG_INFO] = {"BPF_PROG_INFO", parse_feat_bpf_prog_info,
				  false},
	[HEADER_BPF_BTF] = {"BPF_BTF", parse_feat_bpf_btf, false},
	[HEADER_COMPRESSED] = {"COMPRESSED", parse_feat_compressed, false},
	[HEADER_CPU_PMU_CAPS] = {"CPU_PMU_CAPS", parse_feat_cpu_pmu_caps,
				 false},
	[HEADER_CLOCK_DATA] = {"CLOCK_DATA", parse_feat_clock_data, false},
	[HEADER_HYBRID_TOPOLOGY] = {"HYBRID_TOPOLOGY",
				    parse_feat_hybrid_topology, false},
	[HEADER_PMU_CAPS] = {"PMU_CAPS", parse_feat_pmu_caps, false},
	[HEADER_CPU_DOMAIN_INFO] = {"CPU_DOMAIN_INFO",
				    parse_feat_cpu_domain_info, false},
	[HEADER_E_MACHINE] = {"E_MACHINE", parse_feat_e_machine, false},
	[HEADER_CLN_SIZE] = {"CLN_SIZE", parse_feat_u32, false},
};

/* simpleperf's features, 128..134; named SP_* to keep them apart. */
static const struct pd_feat_ops sp_ops[] = {
	{"SP_FILE", NULL, false},
	{"SP_META_INFO", parse_feat_sp_meta_info, false},
	{"SP_DEBUG_UNWIND", NULL, false},
	{"SP_DEBUG_UNWIND_FILE", NULL, false},
	{"SP_FILE2", NULL, false},
	{"SP_ETM_BRANCH_LIST", NULL, false},
	{"SP_INIT_MAP", NULL, false},
};

const struct pd_feat_ops *pd_feat_ops(unsigned id)
{
	if (id < PD_NELEMS(ops))
		return &ops[id];
	if (id >= SP_FEAT_FILE && id - SP_FEAT_FILE < PD_NELEMS(sp_ops))
		return &sp_ops[id - SP_FEAT_FILE];
	return NULL;
}

const char *pd_feat_name(unsigned id)
{
	const struct pd_feat_ops *o = pd_feat_ops(id);

	return o ? o->name : NULL;
}

int pd_feat_lookup(const char *name)
{
	char *end;
	unsigned long v;

	if (strncasecmp(name, "HEADER_", 7) == 0)
		name += 7;
	if (isdigit((unsigned char)name[0])) {
		v = strtoul(name, &end, 0);
		if (*end == 0 && v < 256)
			return (int)v;
		return -1;
	}
	for (unsigned id = 0; id < 256; id++) {
		const char *n = pd_feat_name(id);

		if (n && strcasecmp(n, name) == 0)
			return (int)id;
	}
	return -1;
}
