// SPDX-License-Identifier: MIT
/*
 * The print fmt of a tracepoint format, parsed by perfdump itself: a
 * bounded recursive-descent parser of the C expressions the kernel writes
 * after "print fmt:" (kernel/trace/trace_events.c f_show prints the
 * TP_printk arguments as text; include/trace/stages/stage7_class_define.h
 * turns __entry-> into REC->), into the nodes of tp_fast.h.  The language
 * and its meaning are libtraceevent's (event-parse.c: __read_token,
 * process_arg_token, process_op, process_paren, process_fields,
 * arg_num_eval), which perf uses to print the same samples; what it parses
 * that is not here (helpers such as __get_bitmask, char literals, '^',
 * sizeof) is refused with a reason, and the sample prints in perf's raw
 * form (tp_raw.c).
 *
 * Bounded by construction: every read is checked against the end of the
 * text, recursion stops at PD_TP_MAX_NEST levels and the tree at
 * PD_TP_MAX_NODES nodes; nothing is read past a NUL or a control byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tracepoint/tp_fast.h"
#include "lib/tracepoint/tracepoint_int.h"
#include "lib/base/util.h"

enum tok { T_END, T_NUM, T_NAME, T_STR, T_PUNCT, T_BAD };

struct lex {
	const char *p, *e; /* the text not read yet */
	enum tok t;	   /* the current token: */
	const char *s;	   /* its text (T_STR: inside the quotes) */
	size_t n;
	struct arena *a;
	const struct pd_tp_event *ev;
	unsigned depth, nodes;
	const char *err; /* the first reason it does not parse */
	char why[112];
};

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void fail(struct lex *x, const char *fmt, const char *s, size_t n)
{
	if (x->err)
		return;
	snprintf(x->why, sizeof(x->why), fmt, (int)(n < 40 ? n : 40), s);
	x->err = x->why;
}

/* __read_token(): names and numbers, "strings", C's operators */
static void next(struct lex *x)
{
	static const char *const two[] = {
		"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
	const char *p = x->p;

	while (p < x->e && blank(*p))
		p++;
	x->s = p;
	x->n = 0;
	if (p >= x->e) {
		x->t = T_END;
	} else if (ident_char(*p)) {
		while (p < x->e && ident_char(*p))
			p++;
		x->t = *x->s >= '0' && *x->s <= '9' ? T_NUM : T_NAME;
		x->n = (size_t)(p - x->s);
	} else if (*p == '"') {
		for (p++; p < x->e && *p != '"'; p++)
			if (*p == '\\' && p + 1 < x->e)
				p++;
		x->t = p < x->e ? T_STR : T_BAD;
		x->s++;
		x->n = (size_t)(p - x->s);
		p += p < x->e;
	} else {
		x->t = strchr("()[]{},?:+-*/%&|^!~<>=.", *p) ? T_PUNCT : T_BAD;
		x->n = *p ? 1 : 0;
		x->t = *p ? x->t : T_BAD;
		for (size_t i = 0; i < PD_NELEMS(two); i++)
			if (p + 1 < x->e && p[0] == two[i][0] &&
			    p[1] == two[i][1])
				x->n = 2;
		p += x->n;
	}
	x->p = p;
	if (x->t == T_BAD && !x->err) {
		snprintf(x->why, sizeof(x->why),
			 "it holds the byte 0x%02x, which no print fmt has "
			 "there",
			 (unsigned char)*x->s);
		x->err = x->why;
	}
}

static bool is(const struct lex *x, const char *op)
{
	return x->t == T_PUNCT && x->n == strlen(op) &&
	       memcmp(x->s, op, x->n) == 0;
}

static bool is_name(const struct lex *x, const char *name)
{
	return x->t == T_NAME && x->n == strlen(name) &&
	       memcmp(x->s, name, x->n) == 0;
}

static bool expect(struct lex *x, const char *op)
{
	if (!is(x, op)) {
		fail(x, "a %.*s is missing", op, strlen(op));
		return false;
	}
	next(x);
	return true;
}

static struct node *node(struct lex *x, uint8_t kind)
{
	struct node *n = NULL;

	if (++x->nodes > PD_TP_MAX_NODES)
		fail(x, "its print args have more than %.*s nodes", "4096", 4);
	else if (!(n = arena_calloc(x->a, 1, sizeof(*n))))
		fail(x, "%.*sno memory", "", 0);
	if (n)
		n->kind = kind;
	return x->err ? NULL : n;
}

static const char *copy(struct lex *x, const char *s, size_t n)
{
	char *c = arena_alloc(x->a, n + 1); /* zeroed */

	if (c && n)
		memcpy(c, s, n);
	return c;
}

/* The field the format declares by this name (tep_find_any_field). */
static const struct pd_tp_field *field(struct lex *x, uint32_t *idx)
{
	const struct pd_tp_event *ev = x->ev;

	if (x->t == T_NAME)
		for (uint32_t i = 0; i < ev->nfields; i++)
			if (strlen(ev->fields[i].name) == x->n &&
			    memcmp(ev->fields[i].name, x->s, x->n) == 0) {
				*idx = i;
				next(x);
				return &ev->fields[i];
			}
	fail(x, "REC->%.*s: no field line declares it", x->s, x->n);
	return NULL;
}

static struct node *field_node(struct lex *x, uint8_t kind)
{
	uint32_t i = 0;
	const struct pd_tp_field *f = field(x, &i);
	struct node *n;

	if (!f)
		return NULL;
	if (kind != N_FIELD &&
	    (f->kind != PD_TP_DLOC_STR && f->kind != PD_TP_DLOC_ARRAY)) {
		fail(x, "%.*s is not a __data_loc field", f->name,
		     strlen(f->name));
		return NULL;
	}
	if (!(n = node(x, kind)))
		return NULL;
	n->off = f->offset;
	n->size = f->size;
	n->elem = f->elem_size;
	n->field = i;
	n->rel = f->rel_loc;
	return n;
}

static struct node *ternary(struct lex *x);

/* { value, "name" }, ... of __print_flags / __print_symbolic */
static struct flagsym *symbols(struct lex *x, uint32_t *count)
{
	struct flagsym v[PD_TP_MAX_SYMS], *out;
	uint32_t n = 0;

	while (is(x, ",") && !x->err) {
		struct node *val, *str;
		const char *name;
		char buf[24];

		next(x);
		if (!expect(x, "{") || !(val = ternary(x)) || !expect(x, ",") ||
		    !(str = ternary(x)) || !expect(x, "}"))
			return NULL;
		/* the name as process_fields() takes it: arg_eval(), so the
		 * kernel's closing { 0, ((void *)0) } is named "0" */
		name = pd_tp_arg_eval(str, buf);
		if (n == PD_NELEMS(v) || !name) {
			fail(x, "a __print_flags / __print_symbolic %.*s",
			     "list", 4);
			return NULL;
		}
		v[n].str = name == buf ? copy(x, buf, strlen(buf)) : name;
		v[n++].val = pd_tp_flag_value(val, &x->err);
		if (x->err)
			return NULL;
	}
	out = arena_calloc(x->a, n ? n : 1, sizeof(*out));
	if (out && n)
		memcpy(out, v, n * sizeof(*out));
	*count = n;
	return out;
}

/* What helper NAME( is, and its arguments (process_func_handler's). */
static struct node *helper(struct lex *x)
{
	const char *s = x->s;
	size_t n = x->n;
	struct node *r = NULL;

#define NAMED(str) (n == sizeof(str) - 1 && memcmp(s, str, n) == 0)
	next(x); /* the name */
	next(x); /* ( */
	if (NAMED("__get_str") || NAMED("__get_rel_str"))
		r = field_node(x, N_STR);
	else if (NAMED("__get_dynamic_array") ||
		 NAMED("__get_rel_dynamic_array"))
		r = field_node(x, N_DARR);
	else if (NAMED("__get_dynamic_array_len") ||
		 NAMED("__get_rel_dynamic_array_len"))
		r = field_node(x, N_DLEN);
	else if (NAMED("__print_flags") || NAMED("__print_symbolic")) {
		bool fl = s[8] == 'f';

		if ((r = node(x, fl ? N_FLAGS : N_SYMBOL)) &&
		    (r->a = ternary(x)) && fl && expect(x, ",")) {
			if (x->t == T_STR || x->t == T_NAME) {
				r->s = copy(x, x->s, x->n);
				next(x);
			}
		}
		if (r && !x->err)
			r->fs = symbols(x, &r->nfs);
	} else if (NAMED("__print_hex") || NAMED("__print_hex_str") ||
		   NAMED("__print_array")) {
		if ((r = node(x, NAMED("__print_array") ? N_IARR : N_HEX))) {
			r->op[0] = NAMED("__print_hex_str") ? 's' : 0;
			if ((r->a = ternary(x)) && expect(x, ",") &&
			    (r->b = ternary(x)) && r->kind == N_IARR &&
			    expect(x, ","))
				r->c = ternary(x);
		}
		if (r && r->a && r->a->kind != N_FIELD && r->a->kind != N_DARR)
			fail(x, "%.*s: not a field", s, n);
	} else {
		fail(x, "it calls %.*s(), which perfdump does not evaluate", s,
		     n);
	}
#undef NAMED
	if (!x->err)
		expect(x, ")");
	return x->err ? NULL : r;
}

/* "a" "b": one literal (__read_token's concatenation) */
static struct node *literal(struct lex *x)
{
	size_t n = 0, cap = 0;
	char *b = NULL;
	struct node *r;

	while (x->t == T_STR) {
		if (n + x->n + 1 > cap) {
			char *c = arena_alloc(x->a, cap = (n + x->n + 1) * 2);

			if (!c) {
				fail(x, "%.*sno memory", "", 0);
				return NULL;
			}
			if (n)
				memcpy(c, b, n);
			b = c;
		}
		memcpy(b + n, x->s, x->n);
		b[n += x->n] = 0;
		next(x);
	}
	if ((r = node(x, N_LIT))) {
		r->s = b ? b : "";
		r->v = strtoull(r->s, NULL, 0);
	}
	return r;
}

static struct node *primary(struct lex *x)
{
	struct node *r;

	if (x->t == T_NUM) {
		if ((r = node(x, N_ATOM))) {
			r->s = copy(x, x->s, x->n);
			r->v = r->s ? strtoull(r->s, NULL, 0) : 0;
		}
		next(x);
		return r;
	}
	if (x->t == T_STR)
		return literal(x);
	if (is_name(x, "REC")) {
		next(x);
		if (!expect(x, "->"))
			return NULL;
		return field_node(x, N_FIELD);
	}
	if (x->t == T_NAME) {
		struct lex peek = *x;

		next(&peek);
		if (is(&peek, "("))
			return helper(x);
		/* names in a row are one atom (process_arg_token) */
		if ((r = node(x, N_ATOM))) {
			const char *s = x->s;

			while (x->t == T_NAME)
				next(x);
			r->s = copy(x, s, (size_t)(x->s - s));
			r->v = r->s ? strtoull(r->s, NULL, 0) : 0;
		}
		return r;
	}
	if (x->t == T_END)
		fail(x, "it ends where a value goes%.*s", "", 0);
	else
		fail(x, "%.*s where a value goes", x->s, x->n);
	return NULL;
}

static struct node *unary(struct lex *x);

/*
 * (type) value: a cast, when the parenthesis holds names and '*' only and
 * a value follows (process_paren); its value masked as eval_type_str()
 * casts: to 8, 16 or 32 bits for u8 s8 char, u16 s16 short, u32 s32 int
 * (signed or unsigned), else unchanged (long, pointers, structs, ...).
 */
static bool cast(struct lex *x, uint64_t *mask)
{
	struct lex p = *x;
	char t[64];
	size_t n = 0;

	for (next(&p); p.t == T_NAME || is(&p, "*"); next(&p)) {
		if (is_name(&p, "REC") || n + p.n + 2 > sizeof(t))
			return false;
		if (n)
			t[n++] = ' ';
		memcpy(t + n, p.s, p.n);
		n += p.n;
	}
	if (!n || !is(&p, ")"))
		return false;
	next(&p);
	if (p.t != T_NAME && p.t != T_NUM && p.t != T_STR && !is(&p, "("))
		return false;
	t[n] = 0;
	*mask = pd_tp_cast_mask(t);
	*x = p;
	return true;
}

static struct node *unary(struct lex *x)
{
	struct node *r = NULL;
	uint64_t mask;

	if (++x->depth > PD_TP_MAX_NEST) {
		fail(x, "its print args nest deeper than %.*s levels", "128",
		     3);
		return NULL;
	}
	if (is(x, "!") || is(x, "~") || is(x, "-") || is(x, "+")) {
		if ((r = node(x, N_OP))) {
			r->op[0] = *x->s;
			next(x);
			r->b = unary(x);
		}
	} else if (is(x, "(") && cast(x, &mask)) {
		if ((r = node(x, N_CAST))) {
			r->v = mask;
			r->a = unary(x);
		}
	} else if (is(x, "(")) {
		next(x);
		if ((r = ternary(x)))
			expect(x, ")");
	} else {
		r = primary(x);
	}
	while (r && !x->err && is(x, "[")) { /* process_array */
		struct node *i = node(x, N_INDEX);

		next(x);
		if (i && r->kind != N_FIELD && r->kind != N_DARR)
			fail(x, "%.*s[]: not a field", "", 0);
		if (i) {
			i->a = r;
			i->b = ternary(x);
			expect(x, "]");
		}
		r = i;
	}
	if (r && x->t == T_PUNCT && (is(x, "->") || is(x, ".")))
		fail(x, "a %.*s that does not follow REC", x->s, x->n);
	x->depth--;
	return x->err ? NULL : r;
}

/* C's binary operators, loosest first; '^' is not libtraceevent's */
static int level(const struct lex *x)
{
	static const char *const ops[][4] = {
		{"||"},	      {"&&"},	    {"|"},
		{"&"},	      {"==", "!="}, {"<", ">", "<=", ">="},
		{"<<", ">>"}, {"+", "-"},   {"*", "/", "%"},
	};

	for (size_t l = 0; l < PD_NELEMS(ops); l++)
		for (size_t i = 0; i < 4 && ops[l][i]; i++)
			if (is(x, ops[l][i]))
				return (int)l;
	return -1;
}

static struct node *binary(struct lex *x, int min)
{
	struct node *l = unary(x);
	int lv;

	while (l && !x->err && (lv = level(x)) >= min) {
		struct node *o = node(x, N_OP);

		if (!o)
			return NULL;
		memcpy(o->op, x->s, x->n);
		next(x);
		o->a = l;
		o->b = binary(x, lv + 1);
		l = o;
	}
	return x->err ? NULL : l;
}

static struct node *ternary(struct lex *x)
{
	struct node *c, *t;

	if (++x->depth > PD_TP_MAX_NEST) {
		fail(x, "its print args nest deeper than %.*s levels", "128",
		     3);
		return NULL;
	}
	c = binary(x, 0);
	if (c && is(x, "?") && (t = node(x, N_TERN))) {
		next(x);
		t->a = c;
		if ((t->b = ternary(x)) && expect(x, ":"))
			t->c = ternary(x);
		c = t;
	}
	x->depth--;
	return x->err ? NULL : c;
}

const char *pd_tp_parse_print(struct arena *a, const struct pd_tp_event *ev,
			      const char *t, size_t n, struct pd_tp_args *out)
{
	struct lex x = {.p = t, .e = t + n, .a = a, .ev = ev};
	struct node *fmt;

	memset(out, 0, sizeof(*out));
	next(&x);
	if (x.t != T_STR)
		return "it does not begin with a format string";
	fmt = literal(&x);
	while (!x.err && x.t != T_END) {
		if (!expect(&x, ","))
			break;
		if (out->n == PD_NELEMS(out->v)) {
			fail(&x, "it has more than %.*s args", "64", 2);
			break;
		}
		out->v[out->n++] = ternary(&x);
	}
	if (x.err)
		return arena_memdup(a, x.err, strlen(x.err) + 1);
	out->fmt = fmt ? fmt->s : "";
	return NULL;
}
