/* SPDX-License-Identifier: MIT */
/*
 * A JSON value as a tree: typed scalars (numbers stay numbers), objects
 * with their keys in order, arrays.  Read from JSON text by pd_jtree_parse
 * (perfdump's own output, captured: fmt/capture.h), compared path by path
 * by diff (lib/analysis/diff.h).  Nodes live in the caller's arena.
 */
#ifndef PD_JTREE_H
#define PD_JTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/arena.h"

enum pd_jkind {
	PD_J_NONE, /* no value (a side of a difference that has none) */
	PD_J_NULL,
	PD_J_BOOL,
	PD_J_U64,
	PD_J_S64, /* negative integers */
	PD_J_DOUBLE,
	PD_J_STR,
	PD_J_OBJ,
	PD_J_ARR,
};

/* A scalar (or, for PD_J_OBJ and PD_J_ARR, only the kind). */
struct pd_jval {
	enum pd_jkind kind;
	bool b;
	uint64_t u;
	int64_t i;
	double d;
	const char *s; /* PD_J_STR: len bytes (NUL-terminated) */
	size_t len;
};

struct pd_jnode {
	struct pd_jval v;
	const char *key;	/* in an object; NULL in an array */
	struct pd_jnode *child; /* first member or element */
	struct pd_jnode *next;	/* next sibling */
	uint32_t n;		/* members or elements */
};

/*
 * The JSON value in p[0..n) (one value, blanks around it), or NULL when
 * it is not JSON, nests deeper than 64, or memory ran out.
 */
struct pd_jnode *pd_jtree_parse(struct arena *a, const char *p, size_t n);

/* The member key of object o, or NULL. */
const struct pd_jnode *pd_jtree_get(const struct pd_jnode *o, const char *key);

/* Scalars equal in kind and value (numbers by value across kinds). */
bool pd_jval_eq(const struct pd_jval *a, const struct pd_jval *b);
/* A number as a double; false if v is none. */
bool pd_jval_num(const struct pd_jval *v, double *d);

static inline struct pd_jval pd_jval_u64(uint64_t u)
{
	return (struct pd_jval){.kind = PD_J_U64, .u = u};
}

static inline struct pd_jval pd_jval_str(const char *s, size_t len)
{
	return (struct pd_jval){.kind = PD_J_STR, .s = s, .len = len};
}

#endif
