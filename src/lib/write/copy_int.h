/* SPDX-License-Identifier: MIT */
/* The writer's insides, shared by copy*.c (see copy.h). */
#ifndef PD_COPY_INT_H
#define PD_COPY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session/event.h"
#include "lib/session/session.h"
#include "lib/write/copy.h"
#include "lib/write/out.h"

/* Which records go with the samples kept (copy_keep.c). */
struct copy_keep {
	const struct pd_filter *f; /* NULL: every record */
	/* --pid / --tid: the side-band records of these processes and of
	 * the kernel only; else every side-band record */
	bool by_task;
	uint32_t pid; /* the process kept (UINT32_MAX: not known yet) */
	uint32_t tid; /* with --tid: the thread kept */
};

struct copy {
	struct pd_session *s;
	const struct pd_copy_opts *o;
	struct pd_copy_result *r;
	struct pd_out out;
	bool swap;
	struct copy_keep keep;
	size_t nerr_seen;     /* s->diags.nerr after the last record */
	bool aux_data;	      /* an AUXTRACE record was written */
	uint8_t *chunk;	      /* payloads and sections read from the input */
	uint64_t features[4]; /* the bitmap written */
};

/* the bytes of c->chunk */
#define PD_COPY_CHUNK (256u << 10)

void copy_note(struct copy *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* copy_keep.c: set up for c->o->filter (a walk for --tid's process) */
void copy_keep_init(struct copy *c);
/* Is this record written? */
bool copy_keep_record(struct copy *c, const struct pd_event *ev,
		      const struct pd_decoded *d);

/* copy_head.c: the ids and attrs, then the file header (at the end). */
int copy_write_attrs(struct copy *c, uint64_t *attrs_off, uint64_t *attr_size);
/* The feature table and sections after the data section. */
void copy_write_features(struct copy *c);
void copy_write_header(struct copy *c, uint64_t attrs_off, uint64_t attr_size);

/* Append [off, off + len) of the input (a section, a payload). */
bool copy_input_range(struct copy *c, uint64_t off, uint64_t len);

#endif
