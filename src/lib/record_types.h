/* SPDX-License-Identifier: MIT */
/*
 * The record-type registry: for each record type perfdump knows, its name,
 * perf's minimum size and its body decoder, in one table indexed by type
 * (record_types.c), as tools/perf/util/header.c keeps feat_ops[] for the
 * features.  The formatters keep their own table keyed by the same type
 * (src/fmt/fmt_record.c).
 */
#ifndef PD_RECORD_TYPES_H
#define PD_RECORD_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf_abi.h"

/* How a record's body is decoded. */
enum pd_rec_kind {
	PD_RK_NONE,   /* FINISHED_ROUND, FINISHED_INIT, SWITCH: no body */
	PD_RK_FIELDS, /* field by field, into the member of pd_record.u */
	PD_RK_RAW,    /* SAMPLE (sample.c), simpleperf's, unknown: bytes */
};

struct rec_ctx;

/* Decodes the body of the record in x into x->r->u (record_int.h). */
typedef void (*pd_rec_parse_fn)(struct rec_ctx *x);

struct pd_rec_ops {
	uint32_t type;
	const char *name; /* "MMAP": the kernel's name without PERF_RECORD_ */
	/*
	 * perf_event__min_size[] (tools/perf/util/session.c): a record
	 * shorter than this is skipped by perf; 0 if none.
	 */
	uint16_t min_size;
	enum pd_rec_kind kind;
	pd_rec_parse_fn parse; /* PD_RK_FIELDS */
};

/* The registry entry of a type, or NULL if the type is unknown. */
const struct pd_rec_ops *pd_rec_ops(uint32_t type);

/* "SAMPLE", "HEADER_ATTR", "SP_DSO", ... or NULL if unknown. */
const char *pd_record_type_name(uint32_t type);

/* perf's minimum header.size for a type, 0 if none. */
uint32_t pd_record_min_size(uint32_t type);

/*
 * Every type the registry names, in type order (for records --type): its
 * name into names[i] and its type into types[i], at most max of them.
 * Returns how many.
 */
size_t pd_record_types(const char **names, uint32_t *types, size_t max);

#endif
