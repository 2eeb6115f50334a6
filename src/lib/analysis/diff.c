// SPDX-License-Identifier: MIT
/* The list of differences, trees compared path by path, the headers. */
#include "lib/analysis/diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/session/session.h"

const char *const pd_diff_group_names[PD_DIFF_NGROUPS] = {
	"header", "features", "attrs", "stats", "profile",
};

/* A path's longest form; longer ones are cut (a name from the file). */
#define PATH_MAX_LEN 512

static bool grow(struct pd_diff *d)
{
	size_t cap = d->cap ? 2 * d->cap : 64;
	struct pd_diff_item *v;

	if (d->n >= PD_DIFF_MAX_ITEMS)
		return false;
	v = realloc(d->v, cap * sizeof(*v));
	if (!v)
		return false;
	d->v = v;
	d->cap = cap;
	return true;
}

/* A string value kept in the diff's arena (the tree's may be freed). */
static struct pd_jval keep(struct pd_diff *d, const struct pd_jval *v)
{
	struct pd_jval k = *v;

	if (v->kind == PD_J_STR) {
		char *s = arena_alloc(&d->arena, v->len + 1);

		if (s)
			memcpy(s, v->s, v->len);
		k.s = s ? s : "";
		k.len = s ? v->len : 0;
	}
	return k;
}

static struct pd_diff_item *add_item(struct pd_diff *d, const char *path,
				     const struct pd_jval *a,
				     const struct pd_jval *b)
{
	struct pd_diff_item *it;
	size_t n = strlen(path);
	char *p;

	if ((d->n == d->cap && !grow(d)) ||
	    !(p = arena_memdup(&d->arena, path, n + 1))) {
		d->dropped++;
		return NULL;
	}
	it = &d->v[d->n++];
	*it = (struct pd_diff_item){
		.group = d->group, .path = p, .a = keep(d, a), .b = keep(d, b)};
	d->count[d->group]++;
	return it;
}

void pd_diff_add(struct pd_diff *d, const char *path, const struct pd_jval *a,
		 const struct pd_jval *b)
{
	if (!pd_jval_eq(a, b))
		add_item(d, path, a, b);
}

void pd_diff_u64(struct pd_diff *d, const char *path, uint64_t a, uint64_t b)
{
	struct pd_jval x = pd_jval_u64(a), y = pd_jval_u64(b);

	pd_diff_add(d, path, &x, &y);
}

void pd_diff_str(struct pd_diff *d, const char *path, const char *a,
		 const char *b)
{
	struct pd_jval x = {.kind = PD_J_NONE}, y = {.kind = PD_J_NONE};

	if (a)
		x = pd_jval_str(a, strlen(a));
	if (b)
		y = pd_jval_str(b, strlen(b));
	pd_diff_add(d, path, &x, &y);
}

bool pd_diff_change(const struct pd_diff_item *it, double *change)
{
	double a, b;

	if (!pd_jval_num(&it->a, &a) || !pd_jval_num(&it->b, &b))
		return false;
	if (it->share) {
		*change = b - a;
		return true;
	}
	if (a == 0 || !isfinite(a) || !isfinite(b))
		return false;
	*change = (b - a) / fabs(a) * 100.0;
	return true;
}

void pd_diff_free(struct pd_diff *d)
{
	free(d->v);
	arena_free(&d->arena);
	memset(d, 0, sizeof(*d));
}

/* ---- trees ------------------------------------------------------------ */

struct tree_cmp {
	struct pd_diff *d;
	pd_diff_skip_fn *skip;
	void *arg;
};

static void tree(struct tree_cmp *t, char *path, size_t plen,
		 const struct pd_jnode *a, const struct pd_jnode *b, int depth);

static bool is_container(const struct pd_jnode *n)
{
	return n && (n->v.kind == PD_J_OBJ || n->v.kind == PD_J_ARR);
}

/* path + ".key" (or the label "[x]"), cut to fit; returns the new length */
static size_t extend(char *path, size_t plen, const char *fmt, const char *s,
		     unsigned k)
{
	int n = snprintf(path + plen, PATH_MAX_LEN - plen, fmt, s, k);

	if (n < 0)
		return plen;
	return plen + (size_t)n < PATH_MAX_LEN ? plen + (size_t)n
					       : PATH_MAX_LEN - 1;
}

static void objects(struct tree_cmp *t, char *path, size_t plen,
		    const struct pd_jnode *a, const struct pd_jnode *b,
		    int depth)
{
	/* a's keys in a's order, then those only b has */
	for (const struct pd_jnode *c = a ? a->child : NULL; c; c = c->next) {
		if (t->skip && t->skip(c->key, depth, t->arg))
			continue;
		size_t n = extend(path, plen, plen ? ".%s" : "%s", c->key, 0);

		tree(t, path, n, c, b ? pd_jtree_get(b, c->key) : NULL,
		     depth + 1);
		path[plen] = 0;
	}
	for (const struct pd_jnode *c = b ? b->child : NULL; c; c = c->next) {
		if ((a && pd_jtree_get(a, c->key)) ||
		    (t->skip && t->skip(c->key, depth, t->arg)))
			continue;
		size_t n = extend(path, plen, plen ? ".%s" : "%s", c->key, 0);

		tree(t, path, n, NULL, c, depth + 1);
		path[plen] = 0;
	}
}

/* An element's name: its string member "name" (or "filename"), or NULL. */
static const char *elem_name(const struct pd_jnode *e)
{
	const struct pd_jnode *n = pd_jtree_get(e, "name");

	if (!n)
		n = pd_jtree_get(e, "filename");
	return n && n->v.kind == PD_J_STR && n->v.len ? n->v.s : NULL;
}

/* The k-th element (from 1) named name in array r, or NULL. */
static const struct pd_jnode *named(const struct pd_jnode *r, const char *name,
				    unsigned k)
{
	for (const struct pd_jnode *c = r ? r->child : NULL; c; c = c->next) {
		const char *n = elem_name(c);

		if (n && strcmp(n, name) == 0 && --k == 0)
			return c;
	}
	return NULL;
}

/* Which of the elements named as e, e is (from 1). */
static unsigned occurrence(const struct pd_jnode *r, const struct pd_jnode *e,
			   const char *name)
{
	unsigned k = 0;

	for (const struct pd_jnode *c = r->child; c; c = c->next) {
		const char *n = elem_name(c);

		if (n && strcmp(n, name) == 0)
			k++;
		if (c == e)
			break;
	}
	return k;
}

/* Elements matched by name (and position among that name), or index. */
static void arrays(struct tree_cmp *t, char *path, size_t plen,
		   const struct pd_jnode *a, const struct pd_jnode *b,
		   int depth)
{
	/* by name when every element has one and the arrays are small
	 * enough for the quadratic matching */
	bool by_name = (uint64_t)(a ? a->n : 0) * (b ? b->n : 0) <= 1u << 16;

	for (int side = 0; side < 2 && by_name; side++)
		for (const struct pd_jnode *c =
			     (side ? b : a) ? (side ? b : a)->child : NULL;
		     c && by_name; c = c->next)
			by_name = elem_name(c) != NULL;
	if (!by_name) {
		const struct pd_jnode *x = a ? a->child : NULL;
		const struct pd_jnode *y = b ? b->child : NULL;

		for (unsigned i = 0; x || y; i++) {
			size_t n = extend(path, plen, "%s[%u]", "", i);

			tree(t, path, n, x, y, depth + 1);
			path[plen] = 0;
			x = x ? x->next : NULL;
			y = y ? y->next : NULL;
		}
		return;
	}
	for (int side = 0; side < 2; side++) {
		const struct pd_jnode *r = side ? b : a, *o = side ? a : b;

		for (const struct pd_jnode *c = r ? r->child : NULL; c;
		     c = c->next) {
			const char *nm = elem_name(c);
			unsigned k = occurrence(r, c, nm);
			const struct pd_jnode *m = named(o, nm, k);
			size_t n;

			if (side && m)
				continue; /* compared from a's side */
			n = k > 1 ? extend(path, plen, "[%s#%u]", nm, k)
				  : extend(path, plen, "[%s]", nm, 0);
			tree(t, path, n, side ? m : c, side ? c : m, depth + 1);
			path[plen] = 0;
		}
	}
}

/*
 * A flag word's names (the emitter's KEY_names, emit_flags) as one
 * string, "IP|TID|TIME": a flag set or cleared is one difference, not a
 * shift of every name after it.  Its path and KEY's say the same change
 * twice, once raw and once by name, as the JSON does.
 */
static bool flag_names(struct pd_diff *d, const char *key,
		       const struct pd_jnode *n, struct pd_jval *v)
{
	size_t k = key ? strlen(key) : 0, len = 0;
	char *s;

	if (!n)
		return true; /* none */
	if (n->v.kind != PD_J_ARR || k < 6 || strcmp(key + k - 6, "_names"))
		return false;
	for (const struct pd_jnode *c = n->child; c; c = c->next) {
		if (c->v.kind != PD_J_STR)
			return false;
		len += c->v.len + 1;
	}
	if (!(s = arena_alloc(&d->arena, len + 1)))
		return false;
	len = 0;
	for (const struct pd_jnode *c = n->child; c; c = c->next) {
		if (len)
			s[len++] = '|';
		memcpy(s + len, c->v.s, c->v.len);
		len += c->v.len;
	}
	*v = pd_jval_str(s, len);
	return true;
}

/* A structure present on one side only: one difference, not its fields. */
static bool one_side(struct tree_cmp *t, const char *path,
		     const struct pd_jnode *a, const struct pd_jnode *b)
{
	static const struct pd_jval none = {.kind = PD_J_NONE};
	const struct pd_jval present = pd_jval_str("present", 7);

	if ((a && b) || !(is_container(a) || is_container(b)))
		return false;
	pd_diff_add(t->d, path, a ? &present : &none, b ? &present : &none);
	return true;
}

static void tree(struct tree_cmp *t, char *path, size_t plen,
		 const struct pd_jnode *a, const struct pd_jnode *b, int depth)
{
	static const struct pd_jval none = {.kind = PD_J_NONE};
	enum pd_jkind ka = a ? a->v.kind : PD_J_NONE;
	enum pd_jkind kb = b ? b->v.kind : PD_J_NONE;
	const char *key = a ? a->key : b ? b->key : NULL;
	struct pd_jval x = none, y = none;

	if (flag_names(t->d, key, a, &x) && flag_names(t->d, key, b, &y)) {
		pd_diff_add(t->d, path, &x, &y);
		return;
	}
	if (one_side(t, path, a, b))
		return;

	if ((is_container(a) || is_container(b)) && ka != kb &&
	    ka != PD_J_NONE && kb != PD_J_NONE) {
		/* an object on one side, something else on the other */
		x = a->v;
		y = b->v;
		if (is_container(a))
			x = pd_jval_str(ka == PD_J_OBJ ? "{...}" : "[...]", 5);
		if (is_container(b))
			y = pd_jval_str(kb == PD_J_OBJ ? "{...}" : "[...]", 5);
		pd_diff_add(t->d, path, &x, &y);
		return;
	}
	if (ka == PD_J_OBJ || kb == PD_J_OBJ)
		objects(t, path, plen, a, b, depth);
	else if (ka == PD_J_ARR || kb == PD_J_ARR)
		arrays(t, path, plen, a, b, depth);
	else
		pd_diff_add(t->d, path, a ? &a->v : &none, b ? &b->v : &none);
}

void pd_diff_tree(struct pd_diff *d, const char *prefix,
		  const struct pd_jnode *a, const struct pd_jnode *b,
		  pd_diff_skip_fn *skip, void *arg)
{
	struct tree_cmp t = {.d = d, .skip = skip, .arg = arg};
	char path[PATH_MAX_LEN];
	size_t plen = extend(path, 0, "%s", prefix, 0);

	tree(&t, path, plen, a, b, 0);
}

/* ---- the header ------------------------------------------------------- */

static const char *mode_name(enum pd_mode m)
{
	return m == PD_MODE_PIPE  ? "pipe"
	       : m == PD_MODE_DIR ? "directory"
				  : "file";
}

void pd_diff_header(struct pd_diff *d, const struct pd_session *a,
		    const struct pd_session *b)
{
	const struct pd_header *x = &a->hdr, *y = &b->hdr;

	pd_diff_str(d, "header.mode", mode_name(a->mode), mode_name(b->mode));
	pd_diff_str(d, "header.endianness", a->big_endian ? "big" : "little",
		    b->big_endian ? "big" : "little");
	pd_diff_u64(d, "header.version", (uint64_t)x->version,
		    (uint64_t)y->version);
	/* the layout's sizes follow from the mode: pipe mode has no attrs
	 * section and a 16-byte header */
	if (a->mode == b->mode) {
		pd_diff_u64(d, "header.header_size", x->size, y->size);
		pd_diff_u64(d, "header.attr_size", x->attr_size, y->attr_size);
	}
	pd_diff_u64(d, "header.nr_attrs", a->evlist.n, b->evlist.n);
	pd_diff_u64(d, "header.data_files", a->ndir, b->ndir);
	if (!d->offsets)
		return;
	pd_diff_u64(d, "header.attrs.offset", x->attrs.offset, y->attrs.offset);
	pd_diff_u64(d, "header.data.offset", x->data.offset, y->data.offset);
	pd_diff_u64(d, "header.data.size", x->data.size, y->data.size);
	pd_diff_u64(d, "header.event_types.offset", x->event_types.offset,
		    y->event_types.offset);
	pd_diff_u64(d, "header.feature_table_offset", x->feat_table_off,
		    y->feat_table_off);
}
