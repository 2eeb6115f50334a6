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

#include "lib/format/perf_abi.h"
#include "lib/format/record_model.h"

/*
 * One fixed field of a record body, as the kernel's or perf's struct
 * perf_record_* lays it out (include/uapi/linux/perf_event.h: enum
 * perf_event_type; tools/lib/perf/include/perf/event.h): its name there,
 * its offset from the body's start (the record + 8), its width, and where
 * its value goes in the type's model (record.h: offset `model` in
 * pd_record.u, a member as wide as the field).
 */
struct pd_rec_field {
	const char *name;
	uint8_t off;
	uint8_t width; /* 1, 2, 4 or 8 bytes */
	uint16_t model;
};

/* A run of fixed fields: the head of a type's body, or one array entry. */
struct pd_rec_layout {
	const struct pd_rec_field *f;
	uint8_t n;
};

/* The bytes a layout's fields take: the last one's offset + width. */
static inline uint32_t pd_rec_layout_end(const struct pd_rec_layout *l)
{
	return l->n ? l->f[l->n - 1].off + l->f[l->n - 1].width : 0;
}

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
	/*
	 * PD_RK_FIELDS: the fixed fields the body starts with (n 0: none),
	 * decoded from this layout by the record decoder and by the views
	 * that read a record in place (record.h); then parse, if any, for
	 * what follows them (strings, arrays, fields that depend on others).
	 */
	struct pd_rec_layout head;
	pd_rec_parse_fn parse;
};

/* The registry entry of a type, or NULL if the type is unknown. */
const struct pd_rec_ops *pd_rec_ops(uint32_t type);

/*
 * The fields of layout l read from p (at least l->end bytes, the caller
 * checked) into model, the struct the layout describes (record.h).
 */
void pd_rec_fields_get(const struct pd_rec_layout *l, const uint8_t *p,
		       bool swap, void *model);

/* One entry of STAT_CONFIG's array: u64 tag, val (pd_stat_config_ent) */
extern const struct pd_rec_layout pd_stat_config_entry_layout;

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
