/* SPDX-License-Identifier: MIT */
/*
 * The decoded record: one model struct per record type but SAMPLE, in
 * the tagged union pd_record (pd_record.type picks the member of `u`),
 * below both the record-type registry (record_types.h), whose layouts
 * name these members, and the decoder (record.h).  Layouts checked
 * against tools/lib/perf/include/perf/event.h and
 * include/uapi/linux/perf_event.h, 2026 trees.
 *
 * Strings and byte arrays point into the record bytes (valid until the
 * next record is read) or into the session (feature models); arrays are
 * allocated from the per-record scratch arena.
 */
#ifndef PD_RECORD_MODEL_H
#define PD_RECORD_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/format/attr.h"
#include "lib/base/cursor.h"
#include "lib/format/perf_abi.h"

struct pd_feature;
struct feat_tracing_data;

/* How a record's body is decoded. */
enum pd_rec_kind {
	PD_RK_NONE,   /* FINISHED_ROUND, FINISHED_INIT, SWITCH: no body */
	PD_RK_FIELDS, /* field by field, into the member of pd_record.u */
	PD_RK_RAW,    /* SAMPLE (sample.c), simpleperf's, unknown: bytes */
};

/* ---- kernel records ------------------------------------------------ */

/* MMAP (1) and MMAP2 (10) */
struct pd_rec_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	bool is_mmap2;
	bool has_build_id;  /* MMAP2 with misc MMAP_BUILD_ID */
	bool no_prot_flags; /* MMAP2 as RHEL 7's 3.10 kernels wrote it:
				   * the filename at 64, no prot and flags */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;	 /* as stored */
	const uint8_t *build_id; /* 20 bytes in the record */
	uint32_t prot, flags;
	struct pd_str filename;
};

struct pd_rec_lost {
	uint64_t id, lost;
};

struct pd_rec_comm {
	uint32_t pid, tid;
	struct pd_str comm;
};

/* EXIT (4) and FORK (7) */
struct pd_rec_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/* THROTTLE (5) and UNTHROTTLE (6) */
struct pd_rec_throttle {
	uint64_t time, id, stream_id;
};

/* One value of a READ record (struct read_format, uapi perf_event.h). */
struct pd_read_value {
	uint64_t value, id, lost;
};

/* READ (8): values laid out by the attr's read_format. */
struct pd_rec_read {
	uint32_t pid, tid;
	bool has_format; /* an attr was found: read_format known */
	uint64_t read_format;
	unsigned attr_idx; /* which attr (when has_format) */
	uint64_t nr;	   /* group: as stored */
	uint64_t time_enabled, time_running;
	struct pd_read_value *values;
	uint32_t nvalues; /* decoded */
	uint64_t *raw;	  /* no attr: the u64 words after tid */
	uint32_t nraw;
};

struct pd_rec_aux {
	uint64_t aux_offset, aux_size, flags;
};

/* ITRACE_START (12) and SWITCH_CPU_WIDE (15) */
struct pd_rec_pid_tid {
	uint32_t pid, tid;
};

struct pd_rec_lost_samples {
	uint64_t lost;
};

struct pd_ns_link {
	uint64_t dev, ino;
};

struct pd_rec_namespaces {
	uint32_t pid, tid;
	uint64_t nr; /* nr_namespaces as stored */
	struct pd_ns_link *v;
	uint32_t nread;
};

struct pd_rec_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	struct pd_str name;
};

struct pd_rec_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	const uint8_t *tag; /* 8 bytes */
};

struct pd_rec_cgroup {
	uint64_t id;
	struct pd_str path;
};

struct pd_rec_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *old_bytes, *new_bytes;
	uint64_t bytes_offset;
};

struct pd_rec_hw_id {
	uint64_t hw_id;
};

struct pd_rec_callchain_deferred {
	uint64_t cookie, nr;
	uint64_t *ips;
	uint32_t nips;
};

/* ---- perf's records ------------------------------------------------ */

struct pd_rec_header_attr {
	struct pd_attr attr;
	uint32_t attr_size; /* bytes the attr takes: attr.size, 0 => 64 */
	uint64_t *ids;
	uint32_t nids;
	uint64_t ids_offset;
};

struct pd_rec_event_type {
	uint64_t event_id;
	struct pd_str name;
};

struct pd_rec_tracing_data {
	uint32_t size;	/* blob bytes after the record (8-padded) */
	bool has_pad;	/* 16-byte record (12 in old files) */
	bool in_record; /* simpleperf: the blob is in the record */
	uint32_t pad;
	const struct feat_tracing_data *blob; /* decoded, when available */
};

struct pd_rec_build_id {
	int32_t pid;
	const uint8_t *build_id; /* 20 bytes */
	uint8_t size_byte;
	uint8_t build_id_size; /* valid bytes */
	struct pd_str filename;
	uint32_t after_name; /* bytes after the name's NUL (padding or
				  * a 2025 sample_id) */
};

struct pd_id_index_ent {
	uint64_t id, idx, cpu, tid;
	uint64_t machine_pid, vcpu;
};

struct pd_rec_id_index {
	uint64_t nr;
	struct pd_id_index_ent *v;
	uint32_t nread;
	bool has_guest; /* machine_pid/vcpu follow the entries */
};

struct pd_rec_auxtrace_info {
	uint32_t type, reserved;
	uint64_t *priv;
	uint32_t npriv;
};

struct pd_rec_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
};

struct pd_rec_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip;
	bool has_time; /* fmt >= 1 */
	uint64_t time;
	struct pd_str msg;
	bool has_guest; /* fmt >= 2 and room */
	uint32_t machine_pid, vcpu;
};

struct pd_thread_map_ent {
	uint64_t pid;
	struct pd_str comm;
};

struct pd_rec_thread_map {
	uint64_t nr;
	struct pd_thread_map_ent *v;
	uint32_t nread;
};

/*
 * perf_record_cpu_map_data (tools/lib/perf/include/perf/event.h), in
 * CPU_MAP records and EVENT_UPDATE records of type CPUS.
 */
struct pd_cpu_map {
	bool ok; /* fully decoded */
	uint16_t type;
	uint16_t nr;	    /* CPUS: entries; MASK: words */
	uint16_t long_size; /* MASK: 4 or 8 */
	uint8_t any_cpu;    /* RANGE_CPUS */
	uint16_t start_cpu, end_cpu;
	uint64_t *mask; /* MASK words */
	uint32_t nmask;
	int32_t *cpus; /* the CPUs, -1 = any */
	uint32_t ncpus;
	char *list; /* "-1,0-3,8" */
};

struct pd_stat_config_ent {
	uint64_t tag, val;
};

struct pd_rec_stat_config {
	uint64_t nr;
	struct pd_stat_config_ent *v;
	uint32_t nread;
	/* how AGGR_MODE values are named: perf's enum changed */
	int aggr_numbering;	  /* enum pd_aggr_numbering */
	const char *perf_version; /* HEADER_VERSION text, or NULL */
};

/* perf's enum aggr_mode (tools/perf/util/stat.h) as numbered over time */
enum pd_aggr_numbering {
	PD_AGGR_PRE_CACHE, /* perf < 6.4: none..die, core, thread, unset, node */
	PD_AGGR_CACHE,	   /* 6.4 .. 6.8: cache before core */
	PD_AGGR_CLUSTER,   /* 6.9+: cluster before cache */
};

struct pd_rec_stat {
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct pd_rec_stat_round {
	uint64_t type, time;
};

struct pd_rec_event_update {
	uint64_t type, id;
	struct pd_str str;	/* UNIT, NAME */
	double scale;		/* SCALE */
	struct pd_cpu_map cpus; /* CPUS */
};

struct pd_rec_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	bool has_cycles; /* size >= 56 */
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

struct pd_rec_header_feature {
	uint64_t feat_id;
	bool end_marker;	       /* no payload: the end of the features */
	const struct pd_feature *feat; /* decoded payload (may be NULL) */
};

/* COMPRESSED (81), COMPRESSED2 (83): only seen undecompressed */
struct pd_rec_compressed {
	bool has_data_size; /* 83 */
	uint64_t data_size;
	uint64_t padding; /* 83: bytes after the data */
};

struct pd_bpf_metadata_ent {
	struct pd_str key, value;
};

struct pd_rec_bpf_metadata {
	struct pd_str prog_name;
	uint64_t nr_entries;
	struct pd_bpf_metadata_ent *v;
	uint32_t nread;
};

/* One counter of a SCHEDSTAT record: name and width from the field list. */
struct pd_schedstat_field {
	const char *name;
	uint8_t size; /* 4 or 8 */
};

struct pd_rec_schedstat {
	uint64_t timestamp;
	uint32_t cpu;
	uint16_t version;
	uint16_t domain; /* SCHEDSTAT_DOMAIN */
	bool known;	 /* version 15..17: fields named */
	const struct pd_schedstat_field *fields;
	uint64_t *vals;
	uint32_t nvals;
};

/* A record kept as bytes: simpleperf's, unknown types, legacy features. */
struct pd_rec_raw {
	const uint8_t *p;
	uint32_t n;
	uint64_t off;
};

struct pd_record {
	uint32_t type;
	uint32_t body_size;   /* bytes of the body decoded (trailer excluded) */
	uint64_t body_offset; /* file offset of the body (record + 8) */
	enum pd_rec_kind kind;
	bool ok;	   /* decoded without errors */
	bool too_small;	   /* shorter than the type's minimum */
	uint32_t min_size; /* that minimum (perf_event__min_size) */
	/* bytes at the end of the body that were not decoded (not padding) */
	const uint8_t *tail;
	uint32_t ntail;
	uint64_t tail_offset;
	/*
	 * Pre-upstream Google pipe streams send features as record types
	 * 66 + id (the reader sets e->legacy_feature): such a record decodes
	 * as that feature (u.feature) whatever its type number says.
	 */
	bool legacy_feature;
	union {
		struct pd_rec_mmap mmap;
		struct pd_rec_lost lost;
		struct pd_rec_comm comm;
		struct pd_rec_task task;
		struct pd_rec_throttle throttle;
		struct pd_rec_read read;
		struct pd_rec_aux aux;
		struct pd_rec_pid_tid pid_tid;
		struct pd_rec_lost_samples lost_samples;
		struct pd_rec_namespaces ns;
		struct pd_rec_ksymbol ksymbol;
		struct pd_rec_bpf_event bpf;
		struct pd_rec_cgroup cgroup;
		struct pd_rec_text_poke text_poke;
		struct pd_rec_hw_id hw_id;
		struct pd_rec_callchain_deferred deferred;
		struct pd_rec_header_attr attr;
		struct pd_rec_event_type event_type;
		struct pd_rec_tracing_data tracing;
		struct pd_rec_build_id build_id;
		struct pd_rec_id_index id_index;
		struct pd_rec_auxtrace_info auxtrace_info;
		struct pd_rec_auxtrace auxtrace;
		struct pd_rec_auxtrace_error auxtrace_error;
		struct pd_rec_thread_map thread_map;
		struct pd_cpu_map cpu_map;
		struct pd_rec_stat_config stat_config;
		struct pd_rec_stat stat;
		struct pd_rec_stat_round stat_round;
		struct pd_rec_event_update event_update;
		struct pd_rec_time_conv time_conv;
		struct pd_rec_header_feature feature;
		struct pd_rec_compressed compressed;
		struct pd_rec_bpf_metadata bpf_metadata;
		struct pd_rec_schedstat schedstat;
		struct pd_rec_raw raw;
	} u;
};

#endif
