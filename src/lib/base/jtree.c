// SPDX-License-Identifier: MIT
/* JSON text to a tree (jtree.h): a small recursive-descent reader. */
#include "lib/base/jtree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define JT_MAX_DEPTH 64

struct jp {
	struct arena *a;
	const char *p, *end;
	int depth;
};

static void blanks(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' ||
				 *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static bool lit(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return false;
	j->p += n;
	return true;
}

static int hex4(const char *p)
{
	int v = 0;

	for (int k = 0; k < 4; k++) {
		char c = p[k];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \u escape at j->p (after the 'u'): its code point, or -1. */
static long uescape(struct jp *j)
{
	long cp;

	if (j->end - j->p < 4 || (cp = hex4(j->p)) < 0)
		return -1;
	j->p += 4;
	if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->p >= 6 &&
	    j->p[0] == '\\' && j->p[1] == 'u') {
		int lo = hex4(j->p + 2);

		if (lo >= 0xdc00 && lo < 0xe000) {
			j->p += 6;
			return 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
	}
	return cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp;
}

/* A string at j->p (after its '"'), unescaped into the arena. */
static bool string(struct jp *j, const char **s, size_t *len)
{
	const char *q = j->p;
	char *o, *out;

	/* the closing quote; unescaped, a string is never longer */
	while (q < j->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= j->end)
		return false;
	out = o = arena_alloc(j->a, (size_t)(q - j->p) + 1);
	if (!o)
		return false;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;

		if (c != '\\') {
			*o++ = c;
			continue;
		}
		if (j->p >= j->end)
			return false;
		c = *j->p++;
		switch (c) {
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'r': *o++ = '\r'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'u': {
			long cp = uescape(j);

			if (cp < 0)
				return false;
			o += put_utf8(o, (unsigned)cp);
			break;
		}
		default: *o++ = c; /* \" \\ \/ */
		}
	}
	if (j->p >= j->end)
		return false;
	j->p++;
	*o = 0;
	*s = out;
	*len = (size_t)(o - out);
	return true;
}

static bool number(struct jp *j, struct pd_jval *v)
{
	const char *q = j->p;
	bool frac = false;
	char buf[64], *endp;
	size_t n;

	while (q < j->end && strchr("+-0123456789.eE", *q)) {
		frac |= *q == '.' || *q == 'e' || *q == 'E';
		q++;
	}
	n = (size_t)(q - j->p);
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, j->p, n);
	buf[n] = 0;
	errno = 0;
	if (frac) {
		v->kind = PD_J_DOUBLE;
		v->d = strtod(buf, &endp);
	} else if (buf[0] == '-') {
		v->kind = PD_J_S64;
		v->i = strtoll(buf, &endp, 10);
	} else {
		v->kind = PD_J_U64;
		v->u = strtoull(buf, &endp, 10);
	}
	if (*endp || errno)
		return false;
	j->p = q;
	return true;
}

static struct pd_jnode *value(struct jp *j);

/* The members of an object or elements of an array, after its bracket. */
static bool members(struct jp *j, struct pd_jnode *n, bool obj)
{
	struct pd_jnode **tail = &n->child;
	char close = obj ? '}' : ']';

	blanks(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		const char *key = NULL;
		size_t klen;
		struct pd_jnode *c;

		blanks(j);
		if (obj) {
			if (j->p >= j->end || *j->p++ != '"' ||
			    !string(j, &key, &klen))
				return false;
			blanks(j);
			if (j->p >= j->end || *j->p++ != ':')
				return false;
		}
		if (!(c = value(j)))
			return false;
		c->key = key;
		*tail = c;
		tail = &c->next;
		n->n++;
		blanks(j);
		if (j->p >= j->end)
			return false;
		if (*j->p == close) {
			j->p++;
			return true;
		}
		if (*j->p++ != ',')
			return false;
	}
}

static struct pd_jnode *value(struct jp *j)
{
	struct pd_jnode *n;
	bool ok = true;

	blanks(j);
	if (j->p >= j->end || !(n = arena_alloc(j->a, sizeof(*n))))
		return NULL;
	switch (*j->p) {
	case '{':
	case '[':
		if (++j->depth > JT_MAX_DEPTH)
			return NULL;
		n->v.kind = *j->p == '{' ? PD_J_OBJ : PD_J_ARR;
		j->p++;
		ok = members(j, n, n->v.kind == PD_J_OBJ);
		j->depth--;
		break;
	case '"':
		j->p++;
		n->v.kind = PD_J_STR;
		ok = string(j, &n->v.s, &n->v.len);
		break;
	case 't':
	case 'f':
		n->v.kind = PD_J_BOOL;
		n->v.b = *j->p == 't';
		ok = lit(j, n->v.b ? "true" : "false");
		break;
	case 'n':
		n->v.kind = PD_J_NULL;
		ok = lit(j, "null");
		break;
	default: ok = number(j, &n->v);
	}
	return ok ? n : NULL;
}

struct pd_jnode *pd_jtree_parse(struct arena *a, const char *p, size_t n)
{
	struct jp j = {.a = a, .p = p, .end = p + n};
	struct pd_jnode *v = value(&j);

	blanks(&j);
	return v && j.p == j.end ? v : NULL;
}

const struct pd_jnode *pd_jtree_get(const struct pd_jnode *o, const char *key)
{
	for (const struct pd_jnode *c = o ? o->child : NULL; c; c = c->next)
		if (c->key && strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

bool pd_jval_num(const struct pd_jval *v, double *d)
{
	switch (v->kind) {
	case PD_J_U64: *d = (double)v->u; return true;
	case PD_J_S64: *d = (double)v->i; return true;
	case PD_J_DOUBLE: *d = v->d; return true;
	default: return false;
	}
}

bool pd_jval_eq(const struct pd_jval *a, const struct pd_jval *b)
{
	if (a->kind != b->kind) {
		double x, y;

		return a->kind != PD_J_NONE && b->kind != PD_J_NONE &&
		       pd_jval_num(a, &x) && pd_jval_num(b, &y) && x == y;
	}
	switch (a->kind) {
	case PD_J_BOOL: return a->b == b->b;
	case PD_J_U64: return a->u == b->u;
	case PD_J_S64: return a->i == b->i;
	case PD_J_DOUBLE: return a->d == b->d;
	case PD_J_STR:
		return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
	default: return true;
	}
}
