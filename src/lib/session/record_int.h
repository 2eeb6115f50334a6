/* SPDX-License-Identifier: MIT */
/* Shared by the record decoders (record.c, record_user.c, record_stat.c). */
#ifndef PD_RECORD_INT_H
#define PD_RECORD_INT_H

#include "lib/session/record.h"
#include "lib/format/record_types_int.h"
#include "lib/session/session.h"

/* The record being decoded. */
struct rec_ctx {
	struct pd_session *s;
	const struct pd_event *e;
	struct arena *scratch;
	struct pd_record *r;
	struct cursor c; /* the body: after the header, before the trailer */
	char name[64];	 /* "PERF_RECORD_MMAP", for messages */
};

/*
 * The rest of the body as a NUL-terminated string (filename, comm, path,
 * name): the text ends at the first NUL; no NUL inside the body is
 * reported (warning) and the text taken whole.
 */
struct pd_str rec_tail_string(struct rec_ctx *x, const char *what);

/* A fixed char array (comm[16], name[64]): warns when it has no NUL. */
struct pd_str rec_fixed_string(struct rec_ctx *x, const char *what, size_t n);

/*
 * Room for `count` elements of elem_size bytes, checked against the bytes
 * left in the body before allocating (an error with the values if they do
 * not fit).  NULL when they do not fit or count is 0.
 */
void *rec_array(struct rec_ctx *x, const char *what, uint64_t count,
		size_t elem_size, size_t model_size);

/* A problem in the record (x->c.where), with its code. */
void rec_warn(struct rec_ctx *x, enum pd_code code, uint64_t off,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void rec_err(struct rec_ctx *x, enum pd_code code, uint64_t off,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * perf_record_cpu_map_data (tools/lib/perf/include/perf/event.h) from the
 * rest of c: CPU_MAP records and EVENT_UPDATE's CPUS.
 */
void rec_parse_cpu_map_data(struct rec_ctx *x, struct cursor *c,
			    struct pd_cpu_map *m);

/*
 * A pre-upstream Google pipe stream's feature record (x->e->legacy_feature
 * set by the reader): the payload decoded as that feature into u.feature,
 * whatever the type number says.
 */
void rec_parse_legacy_feature(struct rec_ctx *x);

/*
 * The fields of layout l (record_types.h) from the cursor, each at its
 * offset from where the cursor stands, into model (x->r->u for a type's
 * head, an array entry).  A field that does not fit fails the cursor with
 * its name; the ones before it are kept.
 */
void rec_fields(struct rec_ctx *x, const struct pd_rec_layout *l, void *model);

#endif
