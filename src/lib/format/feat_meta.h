/* SPDX-License-Identifier: MIT */
/*
 * Models of the features that describe events and their metadata:
 * TRACING_DATA, BUILD_ID, EVENT_DESC, PMU_MAPPINGS, GROUP_DESC, AUXTRACE,
 * BPF_PROG_INFO, BPF_BTF.  Layouts checked against torvalds/linux 00093b31
 * tools/perf/util/header.c (write_* / process_*), trace-event-read.c,
 * build-id.c, synthetic-events.c, bpf-utils.[ch], include/uapi/linux/bpf.h.
 *
 * Strings and byte arrays point into the loaded feature bytes (never
 * copied, never byte-swapped); they live as long as the session.
 */
#ifndef PD_FEAT_META_H
#define PD_FEAT_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/format/attr.h"
#include "lib/base/cursor.h"
#include "lib/format/perf_abi.h"

struct arena;
struct pd_feat_ctx;
struct pd_tp;
struct pd_feature;

/* ---- TRACING_DATA (trace-event-read.c trace_report) ------------------- */

/* One event format text ("name: X\nID: N\nformat:\n..."). */
struct pd_trace_format {
	struct pd_str system; /* "ftrace" for the ftrace formats */
	struct pd_str name;   /* the "name:" line; len 0 when missing */
	uint64_t id;	      /* "ID:" line = attr.config of TRACEPOINT */
	bool has_id;
	uint64_t offset;  /* file offset of the format text */
	uint64_t size;	  /* its length */
	const char *text; /* the text (size bytes, not NUL-terminated) */
};

struct pd_trace_system {
	struct pd_str name;
	uint32_t nr_events; /* as stored */
};

/* How far the blob was decoded: fields of later steps are absent. */
enum pd_trace_step {
	PD_TRACE_NONE,
	PD_TRACE_MAGIC,	 /* magic checked */
	PD_TRACE_PARAMS, /* version, endian, long size, page size */
	PD_TRACE_HEADER_PAGE,
	PD_TRACE_HEADER_EVENT,
	PD_TRACE_FTRACE, /* ftrace formats */
	PD_TRACE_EVENTS, /* per-system formats */
	PD_TRACE_KALLSYMS,
	PD_TRACE_PRINTK,
	PD_TRACE_DONE, /* saved cmdlines too (if version >= 0.6) */
};

#define PD_TRACE_MAX_HP_FIELDS 8

struct feat_tracing_data {
	enum pd_trace_step step; /* last step fully decoded */
	uint64_t offset;	 /* file offset of the blob */
	uint64_t size;		 /* blob bytes decoded */
	struct pd_str version;	 /* "0.6" */
	uint8_t endian;		 /* raw byte: non-zero = big-endian */
	uint8_t long_size;
	uint32_t page_size;
	uint64_t header_page_offset, header_page_size;
	const char *header_page_text; /* texts below: not NUL-terminated */
	struct pd_str header_page_fields[PD_TRACE_MAX_HP_FIELDS];
	unsigned nr_header_page_fields;
	uint64_t header_event_offset, header_event_size;
	uint32_t nr_ftrace;		    /* ftrace formats, as stored */
	uint32_t nr_systems;		    /* as stored */
	bool has_nr_ftrace, has_nr_systems; /* the counts were read */
	struct pd_trace_system *systems;
	size_t nsystems;		/* decoded */
	struct pd_trace_format *events; /* ftrace ones first, then per system */
	size_t nevents, events_cap;
	uint32_t kallsyms_size;
	uint64_t kallsyms_offset;
	const char *kallsyms_text;
	uint32_t printk_size;
	uint64_t printk_offset;
	const char *printk_text;
	bool has_saved_cmdlines; /* version >= 0.6 */
	uint64_t saved_cmdlines_size, saved_cmdlines_offset;
	const char *saved_cmdlines_text;
	uint64_t padding; /* zero bytes after the blob (pipe) */
	/* the formats parsed (tracepoint.h), events[i] for events[i]; set by
	 * the session once the blob is decoded (session_tp.c) */
	const struct pd_tp *tp;
	struct feat_tracing_data *next; /* another blob (unusual) */
};

/* The format whose ID is `id`, or NULL. */
const struct pd_trace_format *
pd_tracing_find_id(const struct feat_tracing_data *m, uint64_t id);

/* ---- BUILD_ID (build-id.c write_buildid, header.c read_build_ids) ----- */

struct pd_build_id {
	uint64_t offset; /* file offset of the entry */
	uint32_t type;	 /* header.type: 0 in sections, 67 in records */
	uint16_t misc;
	uint16_t size;		 /* header.size: the entry length */
	int32_t pid;		 /* -1 host kernel; 0 default guest */
	bool has_pid;		 /* false: pre-2010 ABI, pid inferred */
	uint8_t size_byte;	 /* the stored size byte (offset 32) */
	uint8_t build_id_size;	 /* bytes of build_id that are valid */
	const uint8_t *build_id; /* PD_BUILD_ID_MAX bytes in the file */
	struct pd_str filename;
};

struct pd_bid_res;

struct feat_build_id {
	struct pd_build_id *v;
	size_t nr, cap;
	bool abi_quirk; /* pre-pid layout detected (nel.kallsyms]) */
	/* features --resolve: nr resolutions (lib/analysis/buildid.h), else NULL */
	const struct pd_bid_res *res;
};

/* ---- EVENT_DESC (header.c write_event_desc / read_event_desc) -------- */

/*
 * One event: its attr decoded by the one attr parser (attr.h), every
 * field the attr's size and the stored attr_sz cover, as attrs decodes
 * the attrs section.
 */
struct pd_event_desc {
	struct pd_attr attr; /* attr.offset: its file offset */
	uint32_t nr_ids;
	struct pd_str name;
	uint64_t *ids;
	uint32_t ids_read; /* ids decoded (< nr_ids if cut short) */
	bool complete;	   /* name and all ids were read */
};

struct feat_event_desc {
	uint32_t nr, attr_sz; /* as stored */
	struct pd_event_desc *ev;
	uint32_t nr_read; /* entries (partly) decoded */
};

/* ---- PMU_MAPPINGS, GROUP_DESC, AUXTRACE ------------------------------ */

struct pd_pmu_mapping {
	uint32_t type;
	struct pd_str name;
};

struct feat_pmu_mappings {
	uint32_t nr;
	uint32_t nr_read;
	struct pd_pmu_mapping *v;
};

struct pd_group_desc {
	struct pd_str name;  /* "{anon_group}" when unnamed */
	uint32_t leader_idx; /* index into EVENT_DESC / attrs */
	uint32_t nr_members;
};

struct feat_group_desc {
	uint32_t nr;
	uint32_t nr_read;
	struct pd_group_desc *v;
};

struct pd_auxtrace_entry {
	uint64_t file_offset; /* an AUXTRACE (71) record */
	uint64_t sz;	      /* its header.size */
};

struct feat_auxtrace {
	uint64_t nr; /* as stored, or counted (no_nr) */
	bool no_nr;  /* simpleperf: pairs without the u64 nr */
	uint64_t nr_read;
	struct pd_auxtrace_entry *v;
};

/* ---- BPF_PROG_INFO (bpf-utils.h struct perf_bpil) -------------------- */

/* struct bpf_prog_info as of 2026: 228 bytes, padded to 232. */
#define PD_BPF_PROG_INFO_SIZE 232
#define PD_BPF_OBJ_NAME_LEN   16

enum pd_bpf_field_kind {
	PD_BPF_U32,
	PD_BPF_U64,
	PD_BPF_HEX,	  /* u64 address, or offset into data */
	PD_BPF_PROG_TYPE, /* u32 enum bpf_prog_type */
	PD_BPF_TAG,	  /* u8 tag[8]: see pd_bpf_prog.tag */
	PD_BPF_NAME,	  /* char name[16]: see pd_bpf_prog.name */
	PD_BPF_GPL,	  /* u32 gpl_compatible:1: see .gpl_compatible */
};

/* The fields of struct bpf_prog_info, in layout order. */
struct pd_bpf_field {
	const char *name; /* kernel field name */
	uint16_t off;
	uint8_t kind; /* enum pd_bpf_field_kind */
};

#define PD_BPF_MAX_FIELDS 48

extern const struct pd_bpf_field pd_bpf_fields[];
extern const size_t pd_bpf_nfields;

/* perf's bpf-utils.h enum perf_bpil_array_types: bits of `arrays`. */
enum {
	PD_BPIL_JITED_INSNS,
	PD_BPIL_XLATED_INSNS,
	PD_BPIL_MAP_IDS,
	PD_BPIL_JITED_KSYMS,
	PD_BPIL_JITED_FUNC_LENS,
	PD_BPIL_FUNC_INFO,
	PD_BPIL_LINE_INFO,
	PD_BPIL_JITED_LINE_INFO,
	PD_BPIL_PROG_TAGS,
	PD_BPIL_LAST,
};

/* One jited sub-program, as perf prints it (bpf_prog_<tag>_<name>). */
struct pd_bpf_subprog {
	uint64_t addr;	    /* jited_ksyms[i] */
	uint32_t len;	    /* jited_func_lens[i] */
	const uint8_t *tag; /* prog_tags[i], PD_BPF_TAG_SIZE bytes */
};

struct pd_bpf_prog {
	uint64_t offset; /* file offset of info_len */
	uint32_t info_len, data_len;
	uint64_t arrays;
	uint64_t info_offset, data_offset;
	const uint8_t *info; /* info_len bytes (NULL if cut short) */
	const uint8_t *data; /* data_len bytes (NULL if cut short) */
	/* decoded from info: a field exists only if inside info_len */
	uint64_t val[PD_BPF_MAX_FIELDS]; /* by index into pd_bpf_fields */
	uint64_t have; /* bit i: pd_bpf_fields[i] is present */
	const uint8_t *tag;
	struct pd_str name;
	bool gpl_compatible;
	struct pd_bpf_subprog *sub;
	uint32_t nsub;
};

struct feat_bpf_prog_info {
	uint32_t count;
	uint32_t nr_read;
	struct pd_bpf_prog *v;
};

/* ---- BPF_BTF --------------------------------------------------------- */

struct pd_bpf_btf {
	uint32_t id;
	uint32_t data_size;
	uint64_t offset; /* file offset of the data */
	const uint8_t *data;
};

struct feat_bpf_btf {
	uint32_t count;
	uint32_t nr_read;
	struct pd_bpf_btf *v;
};

/*
 * Grow an arena-backed array to hold `need` elements (old ones copied,
 * the old block left to the arena).  False on overflow or no memory.
 */
bool pd_arena_grow(struct arena *a, void **v, size_t *cap, size_t need,
		   size_t elem_size);

void parse_feat_tracing_data(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_build_id(struct pd_feat_ctx *x, struct pd_feature *f,
			 struct cursor *c);
void parse_feat_event_desc(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c);
void parse_feat_pmu_mappings(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c);
void parse_feat_group_desc(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c);

void parse_feat_auxtrace(struct pd_feat_ctx *x, struct pd_feature *f,
			 struct cursor *c);
void parse_feat_bpf_prog_info(struct pd_feat_ctx *x, struct pd_feature *f,
			      struct cursor *c);
void parse_feat_bpf_btf(struct pd_feat_ctx *x, struct pd_feature *f,
			struct cursor *c);

#endif
