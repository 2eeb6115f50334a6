/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics: every problem the parser finds, with the file offset of the
 * bytes involved, what was being read and what is wrong.  The parser never
 * prints; callers decide how to show these (stderr, "errors" in JSON, ...).
 */
#ifndef PD_DIAG_H
#define PD_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/codes.h"

#define PD_NO_OFFSET UINT64_MAX

/* The structure a diagnostic concerns (check shows it as "structure"). */
enum pd_where_kind {
	PD_IN_FILE,	     /* "file": the input as a whole */
	PD_IN_HEADER,	     /* "header": the file header */
	PD_IN_ATTRS,	     /* "attrs": the attrs as a set */
	PD_IN_ATTR,	     /* "attrs[id]" */
	PD_IN_FEAT_TABLE,    /* "feature table" */
	PD_IN_FEATURE,	     /* "feature NAME": id is the feature bit */
	PD_IN_RECORD,	     /* "record NAME": id is the record type */
	PD_IN_LEGACY_RECORD, /* "record legacy feature id" (Google pipe) */
	PD_IN_FRAMING,	     /* "record": the framing of a record stream */
	PD_IN_DATA,	     /* "data": the data section */
	PD_IN_PIPE,	     /* "pipe": the pipe stream */
	PD_IN_NAMED,	     /* name: e.g. a data.N file of a directory */
};

struct pd_where {
	enum pd_where_kind kind;
	uint32_t id;
	const char *name; /* PD_IN_NAMED (copied) */
};

#define PD_WHERE(k, i)	   ((struct pd_where){.kind = (k), .id = (i)})
#define PD_AT_FILE	   PD_WHERE(PD_IN_FILE, 0)
#define PD_AT_HEADER	   PD_WHERE(PD_IN_HEADER, 0)
#define PD_AT_ATTRS	   PD_WHERE(PD_IN_ATTRS, 0)
#define PD_AT_ATTR(i)	   PD_WHERE(PD_IN_ATTR, (uint32_t)(i))
#define PD_AT_FEAT_TABLE   PD_WHERE(PD_IN_FEAT_TABLE, 0)
#define PD_AT_FEATURE(id)  PD_WHERE(PD_IN_FEATURE, (uint32_t)(id))
#define PD_AT_RECORD(type) PD_WHERE(PD_IN_RECORD, (uint32_t)(type))
#define PD_AT_FRAMING	   PD_WHERE(PD_IN_FRAMING, 0)
#define PD_AT_DATA	   PD_WHERE(PD_IN_DATA, 0)
#define PD_AT_PIPE	   PD_WHERE(PD_IN_PIPE, 0)
#define PD_AT_NAMED(n)	   ((struct pd_where){.kind = PD_IN_NAMED, .name = (n)})

struct pd_diag {
	enum pd_sev sev;
	enum pd_code code;     /* stable, given where the problem was found */
	struct pd_where where; /* the structure it concerns */
	uint64_t offset;       /* file offset, or PD_NO_OFFSET */
	char *what;	       /* what was being read */
	char *detail;	       /* what is wrong, with the values involved */
};

struct pd_diags;
typedef void (*pd_diag_hook)(const struct pd_diag *d, void *arg);

struct pd_diags {
	struct pd_diag *v;
	size_t n, cap;
	size_t nerr, nwarn; /* totals, including dropped ones */
	size_t dropped;	    /* not kept because the list was full */
	pd_diag_hook hook;  /* called for every diagnostic as it happens */
	void *hook_arg;
};

/* At most this many diagnostics are kept; the rest are only counted. */
#define PD_DIAG_MAX 10000

void pd_diag_add(struct pd_diags *d, enum pd_code code, struct pd_where at,
		 enum pd_sev sev, uint64_t offset, const char *what,
		 const char *fmt, ...) __attribute__((format(printf, 7, 8)));
void pd_diags_free(struct pd_diags *d);

/*
 * A look ahead that must not count (a walk done twice): where the list
 * stands, and back there, the diagnostics added since freed and
 * uncounted (the hook has seen them: unset it for the look ahead).
 */
struct pd_diags_mark {
	size_t n, nerr, nwarn, dropped;
};
struct pd_diags_mark pd_diags_mark(const struct pd_diags *d);
void pd_diags_rewind(struct pd_diags *d, struct pd_diags_mark m);

/*
 * The diagnostics of `from` added to `to` in their order, as if raised
 * there (its hook sees them; the same one twice is said once): a
 * worker's list of a parallel walk (walk.h).  `from` is left empty.
 */
void pd_diags_replay(struct pd_diags *to, struct pd_diags *from);
/* The same, but for those keep says false of: dropped, uncounted. */
typedef bool (*pd_diag_keep)(void *arg, const struct pd_diag *d);
void pd_diags_replay_keep(struct pd_diags *to, struct pd_diags *from,
			  pd_diag_keep keep, void *arg);

#endif
