/* SPDX-License-Identifier: MIT */
/*
 * PERF_RECORD_SAMPLE, every field in the order evsel.c
 * __evsel__parse_sample reads it, driven by the record's
 * attr: sample_type, read_format, branch_sample_type, the register masks.
 *
 * Arrays (read values, callchain, branch entries, counters, registers)
 * are copied into the caller's scratch arena as host-order values; the
 * opaque payloads (RAW, STACK_USER, AUX) point into the record bytes and
 * are never byte-swapped.
 */
#ifndef PD_SAMPLE_H
#define PD_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/base/cursor.h"
#include "lib/session/evlist.h"
#include "lib/io/reader.h"
#include "lib/format/perf_abi.h"
#include "lib/format/sample_pos.h"
#include "lib/format/regs.h"
#include "lib/tracepoint/tracepoint.h"

struct pd_session;

/* One value of PERF_SAMPLE_READ (struct read_format). */
struct pd_sample_read_value {
	uint64_t value;
	uint64_t id;		   /* if read_format has ID */
	uint64_t lost;		   /* if read_format has LOST */
	const struct pd_evsel *ev; /* the attr that id belongs to, or NULL */
};

struct pd_sample_read {
	uint64_t format;		     /* the attr's read_format */
	bool group;			     /* PERF_FORMAT_GROUP */
	uint64_t nr;			     /* group: as stored */
	uint64_t time_enabled, time_running; /* if their format bits */
	struct pd_sample_read_value *values; /* group: nvalues; else one */
	uint32_t nvalues;		     /* decoded (< nr when cut short) */
};

/* perf_branch_entry.flags, split (include/uapi/linux/perf_event.h) */
struct pd_branch_entry {
	uint64_t from, to;
	uint64_t flags; /* as stored, in the producer's bit layout */
	bool mispred, predicted, in_tx, abort;
	uint16_t cycles;
	uint8_t type, spec, new_type, priv;
	uint64_t reserved; /* the reserved bits, shifted down */
};

struct pd_branch_stack {
	uint64_t nr; /* as stored */
	bool has_hw_idx;
	uint64_t hw_idx;
	/* HW_INDEX set, nr 0 and no hw_idx: the kernel had no branch data */
	bool hw_idx_absent;
	struct pd_branch_entry *entries;
	uint32_t nentries; /* decoded */
	bool has_counters; /* branch_sample_type has COUNTERS */
	uint64_t *counters;
	uint32_t ncounters; /* decoded */
};

struct pd_sample_regs {
	uint64_t abi;
	uint64_t mask;	/* the attr's sample_regs_user / _intr */
	uint64_t *regs; /* one per mask bit, ascending bit order */
	uint32_t nregs; /* decoded */
	/* [pending] abi & PD_REGS_ABI_SIMD: x86 SIMD register block */
	bool has_simd;
	uint16_t nr_vectors, vector_qwords, nr_pred, pred_qwords;
	uint64_t *simd; /* nr_vectors * vector_qwords +
			     * nr_pred * pred_qwords values */
	uint32_t nsimd; /* decoded */
};

/* Opaque payload bytes inside the record (never swapped). */
struct pd_sample_bytes {
	uint64_t size;	  /* as stored */
	const uint8_t *p; /* into the record, NULL when cut short */
	uint64_t offset;  /* file offset of the first byte */
};

struct pd_sample {
	/* pid/tid, time, id, stream_id, cpu: also what filters look at */
	struct pd_sample_id common;
	uint64_t sample_type;  /* the attr's */
	uint64_t decoded_type; /* fields present in the model (possibly
				 * partly decoded, see `damaged`) */
	uint64_t identifier, ip, addr, period;
	struct pd_sample_read read;
	/* CALLCHAIN */
	uint64_t callchain_nr; /* as stored */
	uint64_t *callchain;
	uint32_t ncallchain;	  /* decoded */
	bool has_deferred_cookie; /* defer_callchain: USER_DEFERRED, cookie */
	uint64_t deferred_cookie;
	/* RAW: size counts the padding (the kernel aligns 4 + size to 8) */
	struct pd_sample_bytes raw;
	/* tracepoint attrs: the format, and the fields when asked for
	 * (pd_decode_event, session.tp_want) */
	struct pd_tp_sample tp;
	struct pd_branch_stack branch;
	struct pd_sample_regs regs_user, regs_intr;
	enum pd_arch arch; /* names the registers (HEADER_ARCH) */
	/* STACK_USER: dyn_size only when size != 0 */
	struct pd_sample_bytes stack;
	uint64_t stack_dyn_size;
	bool has_stack_dyn_size;
	uint64_t weight; /* WEIGHT, or the WEIGHT_STRUCT word */
	uint64_t data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	struct pd_sample_bytes aux;
	/* what is left after the last field decoded */
	uint64_t unknown_type; /* sample_type bits perfdump does not know */
	uint32_t left;	       /* bytes after the last known field */
	uint64_t left_offset;
	bool no_attr; /* no attr describes the record */
	bool damaged; /* a field was cut short */
};

/*
 * Decode the sample in e (described by ev) into out; arrays go into
 * `scratch` (reset by the caller after each record).  ev NULL: nothing is
 * decoded beyond the header (reported).  Problems go to s->diags with
 * the file offset.  Returns false when the sample is damaged (out holds
 * what was decoded before the damage).
 */
bool pd_parse_sample(struct pd_session *s, const struct pd_evsel *ev,
		     const struct pd_event *e, struct arena *scratch,
		     struct pd_sample *out);

/* Split a branch entry's flags word; big_endian: the producer's order. */
void pd_branch_flags_split(uint64_t flags, bool big_endian,
			   struct pd_branch_entry *be);

/* PERF_SAMPLE_DATA_SRC fields (union perf_mem_data_src) */
struct pd_data_src {
	uint8_t op;	   /* bits 0-4 */
	uint16_t lvl;	   /* 5-18 */
	uint8_t snoop;	   /* 19-23 */
	uint8_t lock;	   /* 24-25 */
	uint8_t dtlb;	   /* 26-32 */
	uint8_t lvl_num;   /* 33-36 */
	bool remote;	   /* 37 */
	uint8_t snoopx;	   /* 38-39 */
	uint8_t blk;	   /* 40-42 */
	uint8_t hops;	   /* 43-45 */
	uint32_t reserved; /* 46-63 */
};

void pd_data_src_split(uint64_t v, struct pd_data_src *d);

/*
 * Just the TIME field of a sample (for time ordering), without decoding
 * the rest: false if the attr has no TIME or the record is too short.
 */
bool pd_sample_time(const struct pd_session *s, const struct pd_evsel *ev,
		    const struct pd_event *e, uint64_t *t);

#endif
