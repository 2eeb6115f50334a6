/* SPDX-License-Identifier: MIT */
/*
 * The on-disk ABI of perf.data: every number the kernel, perf and
 * simpleperf write that perfdump reads, defined here and nowhere else.
 *
 *   include/uapi/linux/perf_event.h      enum perf_event_type,
 *       perf_event_sample_format, perf_event_read_format,
 *       perf_branch_sample_type, perf_callchain_context, perf_type_id,
 *       perf_sample_regs_abi, PERF_RECORD_MISC_*, PERF_AUX_FLAG_*,
 *       struct perf_event_attr's bit-field, PERF_ATTR_SIZE_VER*
 *   tools/lib/perf/include/perf/event.h  enum perf_user_event_type,
 *       PERF_CPU_MAP__*, PERF_EVENT_UPDATE__*, PERF_RECORD_MISC_*
 *       of perf's own records
 *   tools/perf/util/header.h             the feature ids (HEADER_*),
 *       struct perf_file_header
 *   system/extras/simpleperf/record.h, record_file.h (AOSP)
 *       simpleperf's private record types and feature ids
 *
 * Names are the kernel's with PD_ for PERF_ (PD_REC_ for PERF_RECORD_);
 * the feature ids keep perf's own HEADER_ names.  Checked against
 * torvalds/linux (2026 trees).
 */
#ifndef PD_PERF_ABI_H
#define PD_PERF_ABI_H

#include <stdint.h>

/* ---- struct perf_file_header (tools/perf/util/header.h) ------------- */

#define PD_MAGIC2	      0x32454c4946524550ULL /* "PERFILE2" */
#define PD_HEADER_SIZE	      104
#define PD_HEADER_SIZE_NOFEAT 72 /* pre-2010: no adds_features bitmap */
#define PD_PIPE_HEADER_SIZE   16 /* struct perf_pipe_file_header */
/* A record's size is a u16 (struct perf_event_header) */
#define PD_REC_SIZE_MAX 0xffffu
/* perf_record_header_feature's fixed part: the header, u64 feat_id */
#define PD_REC_FEATURE_HDR_SIZE 16
/* HEADER_TRACING_DATA as perf writes it: the header, u32 size, u32 pad
 * (tools/lib/perf/include/perf/event.h perf_record_header_tracing_data) */
#define PD_REC_TRACING_DATA_SIZE 16
#define PD_FEAT_BITS		 256 /* HEADER_FEAT_BITS */

/* ---- record types (perf_event_header.type) ------------------------- */

enum pd_rec_type {
	/* the kernel's: enum perf_event_type */
	PD_REC_MMAP = 1,
	PD_REC_LOST = 2,
	PD_REC_COMM = 3,
	PD_REC_EXIT = 4,
	PD_REC_THROTTLE = 5,
	PD_REC_UNTHROTTLE = 6,
	PD_REC_FORK = 7,
	PD_REC_READ = 8,
	PD_REC_SAMPLE = 9,
	PD_REC_MMAP2 = 10,
	PD_REC_AUX = 11,
	PD_REC_ITRACE_START = 12,
	PD_REC_LOST_SAMPLES = 13,
	PD_REC_SWITCH = 14,
	PD_REC_SWITCH_CPU_WIDE = 15,
	PD_REC_NAMESPACES = 16,
	PD_REC_KSYMBOL = 17,
	PD_REC_BPF_EVENT = 18,
	PD_REC_CGROUP = 19,
	PD_REC_TEXT_POKE = 20,
	PD_REC_AUX_OUTPUT_HW_ID = 21,
	PD_REC_CALLCHAIN_DEFERRED = 22,
	PD_REC_MAX = 23, /* PERF_RECORD_MAX: past the last kernel type */

	/*
	 * perf's own: enum perf_user_event_type.  Every type below
	 * PD_REC_USER_START is written by the kernel and may carry a
	 * sample_id trailer.
	 */
	PD_REC_USER_START = 64, /* PERF_RECORD_USER_TYPE_START */
	PD_REC_HEADER_ATTR = 64,
	PD_REC_HEADER_EVENT_TYPE = 65,
	PD_REC_HEADER_TRACING_DATA = 66,
	PD_REC_HEADER_BUILD_ID = 67,
	PD_REC_FINISHED_ROUND = 68,
	PD_REC_ID_INDEX = 69,
	PD_REC_AUXTRACE_INFO = 70,
	PD_REC_AUXTRACE = 71,
	PD_REC_AUXTRACE_ERROR = 72,
	PD_REC_THREAD_MAP = 73,
	PD_REC_CPU_MAP = 74,
	PD_REC_STAT_CONFIG = 75,
	PD_REC_STAT = 76,
	PD_REC_STAT_ROUND = 77,
	PD_REC_EVENT_UPDATE = 78,
	PD_REC_TIME_CONV = 79,
	PD_REC_HEADER_FEATURE = 80,
	PD_REC_COMPRESSED = 81,
	PD_REC_FINISHED_INIT = 82,
	PD_REC_COMPRESSED2 = 83,
	PD_REC_BPF_METADATA = 84,
	PD_REC_SCHEDSTAT_CPU = 85,
	PD_REC_SCHEDSTAT_DOMAIN = 86,
	PD_REC_HEADER_MAX = 87, /* PERF_RECORD_HEADER_MAX */

	/* simpleperf's private types (record.h SIMPLE_PERF_RECORD_*) */
	PD_REC_SP_START = 32768, /* SIMPLE_PERF_RECORD_TYPE_START */
	PD_REC_SP_KERNEL_SYMBOL = 32769,
	PD_REC_SP_DSO = 32770,
	PD_REC_SP_SYMBOL = 32771,
	PD_REC_SP_SPLIT = 32772,
	PD_REC_SP_SPLIT_END = 32773,
	PD_REC_SP_EVENT_ID = 32774,
	PD_REC_SP_CALLCHAIN = 32775,
	PD_REC_SP_UNWINDING_RESULT = 32776,
	PD_REC_SP_TRACING_DATA = 32777,
	PD_REC_SP_MAX = 32778,
};

/*
 * Pre-upstream Google perf (2012-13) sent the header features of a pipe
 * stream as record type PD_REC_LEGACY_FEATURE_BASE + feature id, before
 * HEADER_ATTR: HOSTNAME (69) .. NUMA_TOPOLOGY (80), colliding with perf's
 * ID_INDEX .. HEADER_FEATURE.
 */
#define PD_REC_LEGACY_FEATURE_BASE 66

/* ---- perf_event_header.misc ----------------------------------------- */

#define PD_MISC_CPUMODE_MASK 0x7u
enum {
	PD_MISC_CPUMODE_UNKNOWN = 0,
	PD_MISC_KERNEL = 1,
	PD_MISC_USER = 2,
	PD_MISC_HYPERVISOR = 3,
	PD_MISC_GUEST_KERNEL = 4,
	PD_MISC_GUEST_USER = 5,
};
/* bits 12..15 mean different things per record type */
#define PD_MISC_PROC_MAP_PARSE_TIMEOUT (1u << 12) /* MMAP, MMAP2 */
#define PD_MISC_MMAP_DATA	       (1u << 13) /* MMAP, MMAP2 */
#define PD_MISC_COMM_EXEC	       (1u << 13) /* COMM */
#define PD_MISC_FORK_EXEC	       (1u << 13) /* FORK */
#define PD_MISC_SWITCH_OUT	       (1u << 13) /* SWITCH, SWITCH_CPU_WIDE */
#define PD_MISC_EXACT_IP	       (1u << 14) /* SAMPLE */
#define PD_MISC_SWITCH_OUT_PREEMPT     (1u << 14) /* SWITCH, SWITCH_CPU_WIDE */
#define PD_MISC_MMAP_BUILD_ID	       (1u << 14) /* MMAP2 */
#define PD_MISC_LOST_SAMPLES_BPF       (1u << 15) /* LOST_SAMPLES (perf) */
#define PD_MISC_BUILD_ID_SIZE	       (1u << 15) /* HEADER_BUILD_ID (perf) */

/* ---- perf_event_attr ------------------------------------------------- */

/* Sizes of the published layouts (PERF_ATTR_SIZE_VER0..8, VER9 pending). */
#define PD_ATTR_SIZE_VER0  64  /* the first published struct */
#define PD_ATTR_SIZE_VER1  72  /* config2 */
#define PD_ATTR_SIZE_VER2  80  /* branch_sample_type */
#define PD_ATTR_SIZE_VER3  96  /* sample_regs_user, sample_stack_user */
#define PD_ATTR_SIZE_VER4  104 /* sample_regs_intr */
#define PD_ATTR_SIZE_VER5  112 /* aux_watermark */
#define PD_ATTR_SIZE_VER6  120 /* aux_sample_size */
#define PD_ATTR_SIZE_VER7  128 /* sig_data */
#define PD_ATTR_SIZE_VER8  136 /* config3 */
#define PD_ATTR_SIZE_VER9  144 /* config4 (pending) */
#define PD_ATTR_SIZE_KNOWN PD_ATTR_SIZE_VER9 /* the fields perfdump knows */

/* attr.type: enum perf_type_id */
enum {
	PD_TYPE_HARDWARE = 0,
	PD_TYPE_SOFTWARE = 1,
	PD_TYPE_TRACEPOINT = 2,
	PD_TYPE_HW_CACHE = 3,
	PD_TYPE_RAW = 4,
	PD_TYPE_BREAKPOINT = 5,
	PD_TYPE_MAX = 6, /* PERF_TYPE_MAX: dynamic PMU types from here */
};
/* attr.config of PD_TYPE_SOFTWARE: enum perf_sw_ids, the clocks */
enum {
	PD_SW_CPU_CLOCK = 0,
	PD_SW_TASK_CLOCK = 1,
};
/* PERF_PMU_TYPE_SHIFT: HARDWARE / HW_CACHE config bits 32-63 */
#define PD_PMU_TYPE_SHIFT 32

/* The attr bit-field (the u64 after read_format): bits decoding uses. */
#define PD_ATTR_DISABLED	(1ULL << 0)
#define PD_ATTR_EXCLUDE_USER	(1ULL << 4)
#define PD_ATTR_EXCLUDE_KERNEL	(1ULL << 5)
#define PD_ATTR_EXCLUDE_HV	(1ULL << 6)
#define PD_ATTR_FREQ		(1ULL << 10)
#define PD_ATTR_WATERMARK	(1ULL << 14)
#define PD_ATTR_PRECISE_SHIFT	15 /* precise_ip: 2 bits */
#define PD_ATTR_SAMPLE_ID_ALL	(1ULL << 18)
#define PD_ATTR_EXCLUDE_HOST	(1ULL << 19)
#define PD_ATTR_EXCLUDE_GUEST	(1ULL << 20)
#define PD_ATTR_USE_CLOCKID	(1ULL << 25)
#define PD_ATTR_WRITE_BACKWARD	(1ULL << 27)
#define PD_ATTR_BUILD_ID	(1ULL << 34)
#define PD_ATTR_DEFER_CALLCHAIN (1ULL << 38) /* user chain in record 22 */
/* the bits that ask the kernel for side-band records (MMAP, MMAP2 and
 * their data maps, COMM, FORK/EXIT, NAMESPACES, KSYMBOL, BPF_EVENT,
 * CGROUP, TEXT_POKE: include/uapi/linux/perf_event.h, set for the tracking
 * event by tools/perf/util/evsel.c evsel__config) */
#define PD_ATTR_MMAP	   (1ULL << 8)
#define PD_ATTR_COMM	   (1ULL << 9)
#define PD_ATTR_TASK	   (1ULL << 13)
#define PD_ATTR_MMAP_DATA  (1ULL << 17)
#define PD_ATTR_MMAP2	   (1ULL << 23)
#define PD_ATTR_NAMESPACES (1ULL << 28)
#define PD_ATTR_KSYMBOL	   (1ULL << 29)
#define PD_ATTR_BPF_EVENT  (1ULL << 30)
#define PD_ATTR_CGROUP	   (1ULL << 32)
#define PD_ATTR_TEXT_POKE  (1ULL << 33)
#define PD_ATTR_SIDE_BAND                                                 \
	(PD_ATTR_MMAP | PD_ATTR_COMM | PD_ATTR_TASK | PD_ATTR_MMAP_DATA | \
	 PD_ATTR_MMAP2 | PD_ATTR_NAMESPACES | PD_ATTR_KSYMBOL |           \
	 PD_ATTR_BPF_EVENT | PD_ATTR_CGROUP | PD_ATTR_TEXT_POKE)

/* attr.sample_type: enum perf_event_sample_format */
enum {
	PD_SAMPLE_IP = 1 << 0,
	PD_SAMPLE_TID = 1 << 1,
	PD_SAMPLE_TIME = 1 << 2,
	PD_SAMPLE_ADDR = 1 << 3,
	PD_SAMPLE_READ = 1 << 4,
	PD_SAMPLE_CALLCHAIN = 1 << 5,
	PD_SAMPLE_ID = 1 << 6,
	PD_SAMPLE_CPU = 1 << 7,
	PD_SAMPLE_PERIOD = 1 << 8,
	PD_SAMPLE_STREAM_ID = 1 << 9,
	PD_SAMPLE_RAW = 1 << 10,
	PD_SAMPLE_BRANCH_STACK = 1 << 11,
	PD_SAMPLE_REGS_USER = 1 << 12,
	PD_SAMPLE_STACK_USER = 1 << 13,
	PD_SAMPLE_WEIGHT = 1 << 14,
	PD_SAMPLE_DATA_SRC = 1 << 15,
	PD_SAMPLE_IDENTIFIER = 1 << 16,
	PD_SAMPLE_TRANSACTION = 1 << 17,
	PD_SAMPLE_REGS_INTR = 1 << 18,
	PD_SAMPLE_PHYS_ADDR = 1 << 19,
	PD_SAMPLE_AUX = 1 << 20,
	PD_SAMPLE_CGROUP = 1 << 21,
	PD_SAMPLE_DATA_PAGE_SIZE = 1 << 22,
	PD_SAMPLE_CODE_PAGE_SIZE = 1 << 23,
	PD_SAMPLE_WEIGHT_STRUCT = 1 << 24,
	PD_SAMPLE_MAX = 1 << 25,
};
/* the fields of the sample_id trailer of the other kernel records, with
 * sample_id_all (tools/perf/util/evsel.c perf_evsel__parse_id_sample) */
#define PD_SAMPLE_ID_ALL_FIELDS                                                \
	(PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | \
	 PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

/* attr.read_format: enum perf_event_read_format */
enum {
	PD_FORMAT_TOTAL_TIME_ENABLED = 1 << 0,
	PD_FORMAT_TOTAL_TIME_RUNNING = 1 << 1,
	PD_FORMAT_ID = 1 << 2,
	PD_FORMAT_GROUP = 1 << 3,
	PD_FORMAT_LOST = 1 << 4,
	PD_FORMAT_MAX = 1 << 5,
};

/* attr.branch_sample_type: the PERF_SAMPLE_BRANCH_* bits that change the
 * sample layout */
#define PD_BRANCH_HW_INDEX (1ULL << 17)
#define PD_BRANCH_COUNTERS (1ULL << 19)

/* ---- inside records ---------------------------------------------------- */

/* a build-id in MMAP2 and HEADER_BUILD_ID (BUILD_ID_SIZE, build-id.h) */
#define PD_BUILD_ID_MAX 20
/* a BPF program tag in BPF_EVENT and BPF_PROG_INFO (BPF_TAG_SIZE, bpf.h) */
#define PD_BPF_TAG_SIZE 8

/* char arrays of perf's records (tools/lib/perf/include/perf/event.h) */
#define PD_MAX_EVENT_NAME	  64 /* HEADER_EVENT_TYPE name */
#define PD_MAX_AUXTRACE_ERROR_MSG 64 /* AUXTRACE_ERROR msg */

/* Callchain context markers (enum perf_callchain_context): >= CONTEXT_MAX */
#define PD_CONTEXT_MAX		 ((uint64_t)-4095)
#define PD_CONTEXT_HV		 ((uint64_t)-32)
#define PD_CONTEXT_KERNEL	 ((uint64_t)-128)
#define PD_CONTEXT_USER		 ((uint64_t)-512)
#define PD_CONTEXT_USER_DEFERRED ((uint64_t)-640)
#define PD_CONTEXT_GUEST	 ((uint64_t)-2048)
#define PD_CONTEXT_GUEST_KERNEL	 ((uint64_t)-2176)
#define PD_CONTEXT_GUEST_USER	 ((uint64_t)-2560)

/* REGS abi (enum perf_sample_regs_abi); 4 = SIMD block follows [pending] */
#define PD_REGS_ABI_32	 1
#define PD_REGS_ABI_64	 2
#define PD_REGS_ABI_SIMD 4

/* PERF_RECORD_AUX flags */
#define PD_AUX_FLAG_TRUNCATED		 0x01u
#define PD_AUX_FLAG_OVERWRITE		 0x02u
#define PD_AUX_FLAG_PARTIAL		 0x04u
#define PD_AUX_FLAG_COLLISION		 0x08u
#define PD_AUX_FLAG_PMU_FORMAT_TYPE_MASK 0xff00u

/* PERF_RECORD_KSYMBOL flags (PERF_RECORD_KSYMBOL_FLAGS_*) */
#define PD_KSYMBOL_FLAG_UNREGISTER 0x01u

/* perf_record_cpu_map_data.type (PERF_CPU_MAP__*) */
enum {
	PD_CPU_MAP_CPUS = 0,
	PD_CPU_MAP_MASK = 1,
	PD_CPU_MAP_RANGE_CPUS = 2,
};

/* perf_record_event_update.type (PERF_EVENT_UPDATE__*) */
enum {
	PD_EVENT_UPDATE_UNIT = 0,
	PD_EVENT_UPDATE_SCALE = 1,
	PD_EVENT_UPDATE_NAME = 2,
	PD_EVENT_UPDATE_CPUS = 3,
};

/* perf_record_stat_config_entry.tag (PERF_STAT_CONFIG_TERM__*) */
enum {
	PD_STAT_CONFIG_TERM_AGGR_MODE = 0,
	PD_STAT_CONFIG_TERM_INTERVAL = 1,
	PD_STAT_CONFIG_TERM_SCALE = 2,
	PD_STAT_CONFIG_TERM_AGGR_LEVEL = 3,
};

/* HEADER_COMPRESSED's type: enum perf_compress_type (tools/perf/util/env.h) */
enum {
	PD_COMP_NONE = 0,
	PD_COMP_ZSTD = 1,
};

/* ---- feature ids (tools/perf/util/header.h, simpleperf record_file.h) -- */

enum {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID = 2,
	HEADER_HOSTNAME = 3,
	HEADER_OSRELEASE = 4,
	HEADER_VERSION = 5,
	HEADER_ARCH = 6,
	HEADER_NRCPUS = 7,
	HEADER_CPUDESC = 8,
	HEADER_CPUID = 9,
	HEADER_TOTAL_MEM = 10,
	HEADER_CMDLINE = 11,
	HEADER_EVENT_DESC = 12,
	HEADER_CPU_TOPOLOGY = 13,
	HEADER_NUMA_TOPOLOGY = 14,
	HEADER_BRANCH_STACK = 15,
	HEADER_PMU_MAPPINGS = 16,
	HEADER_GROUP_DESC = 17,
	HEADER_AUXTRACE = 18,
	HEADER_STAT = 19,
	HEADER_CACHE = 20,
	HEADER_SAMPLE_TIME = 21,
	HEADER_MEM_TOPOLOGY = 22,
	HEADER_CLOCKID = 23,
	HEADER_DIR_FORMAT = 24,
	HEADER_BPF_PROG_INFO = 25,
	HEADER_BPF_BTF = 26,
	HEADER_COMPRESSED = 27,
	HEADER_CPU_PMU_CAPS = 28,
	HEADER_CLOCK_DATA = 29,
	HEADER_HYBRID_TOPOLOGY = 30,
	HEADER_PMU_CAPS = 31,
	HEADER_CPU_DOMAIN_INFO = 32,
	/* perf-tools-next, 2025-26: see feat_sys.c parse_feat_e_machine */
	HEADER_E_MACHINE = 33,
	HEADER_CLN_SIZE = 34,
	HEADER_LAST_FEATURE = 35, /* sentinel, never set in files */
	/* simpleperf's (record_file.h FEAT_*) */
	SP_FEAT_FILE = 128,
	SP_FEAT_META_INFO = 129,
	SP_FEAT_DEBUG_UNWIND = 130,
	SP_FEAT_DEBUG_UNWIND_FILE = 131,
	SP_FEAT_FILE2 = 132,
	SP_FEAT_ETM_BRANCH_LIST = 133,
	SP_FEAT_INIT_MAP = 134,
};

#endif
