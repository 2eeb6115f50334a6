/* SPDX-License-Identifier: MIT */
/* Shared by the record decoders (record.c, record_user.c, record_stat.c). */
#ifndef PD_RECORD_INT_H
#define PD_RECORD_INT_H

#include "record.h"
#include "session.h"

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

/* cpu_map_data (FORMAT.md §7.5) from the rest of c. */
void rec_parse_cpu_map(struct rec_ctx *x, struct cursor *c,
		       struct pd_cpu_map *m);

/* Decoders per group of types; each fills x->r->u for x->r->type. */
void rec_parse_user(struct rec_ctx *x);
void rec_parse_stat(struct rec_ctx *x);

#endif
