// SPDX-License-Identifier: MIT
/*
 * The print_fmt output without libtraceevent's print path, for the print
 * formats most tracepoints use: libtraceevent formats every sample through
 * vsnprintf on a fresh trace_seq, and re-reads every number of the format
 * with strtoull, which is most of the time `records` spends on a
 * tracepoint recording.  The format's parsed args (libtraceevent's
 * tep_print_arg tree, which perf uses too) are compiled once per event
 * into a small program of literals and conversions; a sample is printed
 * by walking it.  The semantics are libtraceevent's (event-parse.c:
 * parse_args / parse_arg_format for the format string, eval_num_arg,
 * print_str_arg and print_arg_number for the args, eval_flag for
 * __print_flags / __print_symbolic values): numbers are read unsigned and
 * cast by the conversion's length (hh h - l ll), strings are read up to
 * their NUL.  A format using anything else (pointers %p, *-widths, casts,
 * [index], __print_hex/array, bitmasks, helper functions, bprint events)
 * is left to libtraceevent (tp_print.c).  tests/tracepoint.bats checks
 * both paths against perf's own output.
 */
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracepoint.h"

enum nkind {
	N_ATOM,
	N_FIELD,
	N_OP,
	N_TERN,
	N_DLEN,
	N_LIT,
	N_CHARS,
	N_STR,
	N_FLAGS,
	N_SYMBOL
};

struct flagsym {
	long long val; /* eval_flag(): -1 when not a number it knows */
	const char *str;
};

struct node {
	uint8_t kind;
	char op[3];
	uint64_t v;		/* N_ATOM */
	const char *s;		/* N_LIT; N_FLAGS delimiter */
	uint32_t off, size;	/* N_FIELD, N_CHARS, N_STR, N_DLEN */
	bool rel;		/* N_STR: __rel_loc */
	struct node *a, *b, *c; /* operands; N_TERN: cond, then, else */
	struct flagsym *fs;
	uint32_t nfs;
};

enum { S_LIT, S_NUM, S_STR };

struct seg {
	uint8_t kind;
	char conv;  /* d i u x X o s */
	int8_t ls;  /* -2 hh, -1 h, 0, 1 l, 2 ll */
	bool plain; /* no flags, width or precision */
	char spec[32];
	const char *lit;
	uint32_t litlen;
	struct node *arg;
};

struct prog {
	struct seg *v;
	uint32_t n;
};

/* libtraceevent's eval_flag(): softirq and hrtimer names it knows */
static long long flag_value(const char *f)
{
	static const char *const names[] = {
		"HI_SOFTIRQ",	   "TIMER_SOFTIRQ",	"NET_TX_SOFTIRQ",
		"NET_RX_SOFTIRQ",  "BLOCK_SOFTIRQ",	"IRQ_POLL_SOFTIRQ",
		"TASKLET_SOFTIRQ", "SCHED_SOFTIRQ",	"HRTIMER_SOFTIRQ",
		"RCU_SOFTIRQ",	   "HRTIMER_NORESTART", "HRTIMER_RESTART",
	};

	if (f[0] >= '0' && f[0] <= '9')
		return (long long)strtoull(f, NULL, 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i], f) == 0)
			return i < 10 ? (long long)i : (long long)(i - 10);
	return -1;
}

struct cctx {
	struct arena *a;
	struct tep_event *te;
	bool ok;
};

static struct node *new_node(struct cctx *x, uint8_t kind)
{
	struct node *n = arena_alloc(x->a, sizeof(*n));

	if (!n)
		x->ok = false;
	else
		n->kind = kind;
	return n;
}

static struct tep_format_field *field_of(struct cctx *x,
					 struct tep_print_arg *a)
{
	if (!a->field.field)
		a->field.field = tep_find_any_field(x->te, a->field.name);
	if (!a->field.field || a->field.field->offset < 0 ||
	    a->field.field->size < 0)
		x->ok = false;
	return a->field.field;
}

static struct node *num(struct cctx *x, struct tep_print_arg *a, int d);

static struct node *op_node(struct cctx *x, struct tep_print_arg *a, int d)
{
	static const char *const ops[] = {"!",	"!=", "~",  "|",  "||", "&",
					  "&&", "<",  "<<", "<=", ">",	">>",
					  ">=", "==", "-",  "+",  "*"};
	struct node *n;

	if (strcmp(a->op.op, "?") == 0) {
		if (!a->op.right || a->op.right->type != TEP_PRINT_OP)
			goto no;
		n = new_node(x, N_TERN);
		if (n) {
			n->a = num(x, a->op.left, d + 1);
			n->b = num(x, a->op.right->op.left, d + 1);
			n->c = num(x, a->op.right->op.right, d + 1);
		}
		return n;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(a->op.op, ops[i]) == 0) {
			n = new_node(x, N_OP);
			if (!n)
				return NULL;
			memcpy(n->op, ops[i], strlen(ops[i]) + 1);
			/* unary ! and ~ read only the right operand */
			n->a = a->op.left ? num(x, a->op.left, d + 1) : NULL;
			n->b = num(x, a->op.right, d + 1);
			if (!n->a && strcmp(n->op, "!") && strcmp(n->op, "~"))
				x->ok = false;
			return n;
		}
no: /* [ (reads at an index), / and % (by zero), ?: without : */
	x->ok = false;
	return NULL;
}

/* eval_num_arg() for the args it can evaluate here */
static struct node *num(struct cctx *x, struct tep_print_arg *a, int d)
{
	struct tep_format_field *f;
	struct node *n = NULL;

	if (!a || d > 32 || !x->ok) {
		x->ok = false;
		return NULL;
	}
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if ((n = new_node(x, N_ATOM)))
			n->v = strtoull(a->atom.atom, NULL, 0);
		return n;
	case TEP_PRINT_FIELD:
		f = field_of(x, a);
		if (f && (n = new_node(x, N_FIELD))) {
			n->off = (uint32_t)f->offset;
			n->size = (uint32_t)f->size;
		}
		return n;
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		f = a->dynarray.field;
		if (!f || f->offset < 0 || f->size != 4)
			break;
		if ((n = new_node(x, N_DLEN)))
			n->off = (uint32_t)f->offset;
		return n;
	case TEP_PRINT_OP: return op_node(x, a, d);
	default: break;
	}
	x->ok = false;
	return NULL;
}

static struct flagsym *flag_list(struct cctx *x, struct tep_print_flag_sym *f,
				 uint32_t *n)
{
	struct flagsym *v;
	uint32_t k = 0;

	for (struct tep_print_flag_sym *p = f; p; p = p->next)
		k++;
	v = arena_calloc(x->a, k ? k : 1, sizeof(*v));
	if (!v) {
		x->ok = false;
		return NULL;
	}
	for (k = 0; f; f = f->next, k++) {
		v[k].val = flag_value(f->value);
		v[k].str = f->str;
	}
	*n = k;
	return v;
}

/* print_str_arg() for the args it can print here */
static struct node *str(struct cctx *x, struct tep_print_arg *a, int d)
{
	struct tep_format_field *f;
	struct node *n = NULL;

	if (!a || d > 32 || !x->ok) {
		x->ok = false;
		return NULL;
	}
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if ((n = new_node(x, N_LIT)))
			n->s = a->atom.atom;
		return n;
	case TEP_PRINT_FIELD: /* a char array; a long would be a pointer */
		f = field_of(x, a);
		if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) || !f->size)
			break;
		if ((n = new_node(x, N_CHARS))) {
			n->off = (uint32_t)f->offset;
			n->size = (uint32_t)f->size;
		}
		return n;
	case TEP_PRINT_STRING:
		if (!a->string.field)
			a->string.field =
				tep_find_any_field(x->te, a->string.string);
		f = a->string.field;
		if (!f || f->offset < 0 || f->size != 4)
			break;
		if ((n = new_node(x, N_STR))) {
			n->off = (uint32_t)f->offset;
			n->rel = f->flags & TEP_FIELD_IS_RELATIVE;
		}
		return n;
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
		n = new_node(x,
			     a->type == TEP_PRINT_FLAGS ? N_FLAGS : N_SYMBOL);
		if (!n)
			return NULL;
		if (a->type == TEP_PRINT_FLAGS) {
			n->a = num(x, a->flags.field, d + 1);
			n->s = a->flags.delim;
			n->fs = flag_list(x, a->flags.flags, &n->nfs);
		} else {
			n->a = num(x, a->symbol.field, d + 1);
			n->fs = flag_list(x, a->symbol.symbols, &n->nfs);
		}
		return n;
	case TEP_PRINT_OP: /* only ?: prints a string */
		if (a->op.op[0] != '?' || !a->op.right ||
		    a->op.right->type != TEP_PRINT_OP)
			break;
		if ((n = new_node(x, N_TERN))) {
			n->a = num(x, a->op.left, d + 1);
			n->b = str(x, a->op.right->op.left, d + 1);
			n->c = str(x, a->op.right->op.right, d + 1);
		}
		return n;
	default: break;
	}
	x->ok = false;
	return NULL;
}

/* ---- the format string, split as parse_args() splits it -------------- */

static bool add_seg(struct cctx *x, struct prog *p, uint32_t cap, struct seg sg)
{
	if (p->n >= cap) {
		x->ok = false;
		return false;
	}
	p->v[p->n++] = sg;
	return true;
}

/* Literal text up to the next conversion: \n \t \r \\ unescaped, %% -> % */
static const char *literal(struct cctx *x, struct prog *p, uint32_t cap,
			   const char *f)
{
	size_t n = strlen(f);
	char *t = arena_alloc(x->a, n + 1), *o = t;

	if (!t) {
		x->ok = false;
		return f + n;
	}
	for (; *f; f++) {
		if (*f == '\\') {
			f++;
			*o++ = *f == 'n'   ? '\n'
			       : *f == 't' ? '\t'
			       : *f == 'r' ? '\r'
					   : *f;
			if (!*f)
				break;
		} else if (*f == '%') {
			if (f[1] != '%')
				break;
			*o++ = '%';
			f++;
		} else {
			*o++ = *f;
		}
	}
	add_seg(x, p, cap,
		(struct seg){
			.kind = S_LIT, .lit = t, .litlen = (uint32_t)(o - t)});
	return f;
}

/* One conversion at f ('%'): its segment and argument. */
static const char *conversion(struct cctx *x, struct prog *p, uint32_t cap,
			      const char *f, struct tep_print_arg **arg)
{
	struct seg sg = {.kind = S_NUM, .plain = true};
	const char *start = f++;
	int ls = 0;

	for (; *f; f++) {
		if (*f == 'h' || *f == 'l' || *f == 'L')
			ls = *f == 'h' ? ls - 1 : *f == 'l' ? ls + 1 : 2;
		else if (*f == '.' || *f == '-' || (*f >= '0' && *f <= '9'))
			sg.plain = false;
		else if (*f == 'z' || *f == 'Z' || *f == '#')
			x->ok = false; /* a length libtraceevent ignores */
		else
			break;
	}
	if (!*f || !strchr("diuxXos", *f) || !*arg || ls < -2 || ls > 2 ||
	    (size_t)(f + 1 - start) >= sizeof(sg.spec)) {
		x->ok = false; /* %p, %*, %c ... : libtraceevent's */
		return *f ? f + 1 : f;
	}
	memcpy(sg.spec, start, (size_t)(f + 1 - start));
	sg.conv = *f;
	sg.ls = (int8_t)ls;
	if (*f == 's') {
		sg.kind = S_STR;
		sg.arg = str(x, *arg, 0);
	} else {
		sg.arg = num(x, *arg, 0);
	}
	*arg = (*arg)->next;
	add_seg(x, p, cap, sg);
	return f + 1;
}

void pd_tp_fast_prepare(struct arena *a, struct pd_tp_event *ev)
{
	struct tep_event *te = ev->impl;
	struct cctx x = {a, te, true};
	struct tep_print_arg *arg = te->print_fmt.args;
	const char *f = te->print_fmt.format;
	struct prog *p = arena_alloc(a, sizeof(*p));
	uint32_t cap = 64;

	if (!p || !f ||
	    (te->flags & (TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_ISPRINT |
			  TEP_EVENT_FL_FAILED)))
		return;
	p->v = arena_calloc(a, cap, sizeof(*p->v));
	if (!p->v)
		return;
	while (*f && x.ok)
		f = *f == '%' && f[1] != '%' ? conversion(&x, p, cap, f, &arg)
					     : literal(&x, p, cap, f);
	if (x.ok) /* args left over are not printed, as by libtraceevent */
		ev->fast = p;
}

/* ---- printing a sample ----------------------------------------------- */

struct pctx {
	const uint8_t *raw;
	uint32_t size;
	bool be;
	char *b; /* the output */
	size_t n, cap;
	bool bad;
};

static void put(struct pctx *x, const char *s, size_t n)
{
	if (x->n + n + 1 > x->cap) {
		size_t cap = (x->n + n + 1) * 2;
		char *b = realloc(x->b, cap);

		if (!b) {
			x->bad = true;
			return;
		}
		x->b = b;
		x->cap = cap;
	}
	memcpy(x->b + x->n, s, n);
	x->n += n;
}

/* tep_read_number(): 1, 2, 4 or 8 bytes unsigned, else 0 */
static uint64_t rd(struct pctx *x, uint32_t off, uint32_t n)
{
	uint64_t v = 0;

	if ((n != 1 && n != 2 && n != 4 && n != 8) ||
	    (uint64_t)off + n > x->size) {
		if (n == 1 || n == 2 || n == 4 || n == 8)
			x->bad = true;
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)x->raw[off + i] << 8 * (x->be ? n - 1 - i : i);
	return v;
}

static uint64_t eval(struct pctx *x, const struct node *n)
{
	uint64_t l, r;

	switch (n->kind) {
	case N_ATOM: return n->v;
	case N_FIELD: return rd(x, n->off, n->size);
	case N_DLEN: return rd(x, n->off, 4) >> 16;
	case N_TERN: return eval(x, n->a) ? eval(x, n->b) : eval(x, n->c);
	default: break;
	}
	l = n->a ? eval(x, n->a) : 0;
	r = eval(x, n->b);
	switch (n->op[0]) {
	case '!': return n->op[1] ? l != r : !r;
	case '~': return ~r;
	case '|': return n->op[1] ? l || r : l | r;
	case '&': return n->op[1] ? l && r : l & r;
	case '<':
		return n->op[1] == '<' ? (r < 64 ? l << r : 0)
		       : n->op[1]      ? l <= r
				       : l < r;
	case '>':
		return n->op[1] == '>' ? (r < 64 ? l >> r : 0)
		       : n->op[1]      ? l >= r
				       : l > r;
	case '=': return l == r;
	case '-': return l - r;
	case '+': return l + r;
	case '*': return l * r;
	}
	return 0;
}

static void put_str(struct pctx *x, const struct seg *sg, const char *s,
		    size_t n)
{
	char buf[512];
	char tmp[256];
	int k;

	if (sg->plain) {
		put(x, s, n);
		return;
	}
	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	k = snprintf(buf, sizeof(buf), sg->spec, tmp);
	if (k < 0 || (size_t)k >= sizeof(buf))
		x->bad = true; /* libtraceevent would print it all */
	else
		put(x, buf, (size_t)k);
}

static void put_cstr(struct pctx *x, const struct seg *sg, const char *s)
{
	put_str(x, sg, s, strlen(s));
}

/* print_str_arg(): FLAGS and SYMBOL */
static void flags(struct pctx *x, const struct seg *sg, const struct node *n)
{
	uint64_t v = eval(x, n->a);
	bool printed = false;

	for (uint32_t i = 0; i < n->nfs; i++) {
		long long f = n->fs[i].val;

		if (n->kind == N_SYMBOL) {
			if ((long long)v == f) {
				put_cstr(x, sg, n->fs[i].str);
				return;
			}
			continue;
		}
		if (!v && f < 0) {
			put_cstr(x, sg, n->fs[i].str);
			return;
		}
		if (f > 0 && (v & (uint64_t)f) == (uint64_t)f) {
			if (printed && n->s)
				put(x, n->s, strlen(n->s));
			put_cstr(x, sg, n->fs[i].str);
			printed = true;
			v &= ~(uint64_t)f;
		}
	}
	if (n->kind == N_SYMBOL || v) {
		char buf[24];

		if (printed && n->s)
			put(x, n->s, strlen(n->s));
		put(x, buf,
		    (size_t)snprintf(buf, sizeof(buf), "0x%llx",
				     (unsigned long long)v));
	}
}

static void string(struct pctx *x, const struct seg *sg, const struct node *n)
{
	const char *p, *z;
	uint64_t o;

	switch (n->kind) {
	case N_LIT: put_cstr(x, sg, n->s); return;
	case N_CHARS:
		if ((uint64_t)n->off + n->size > x->size) {
			x->bad = true;
			return;
		}
		p = (const char *)x->raw + n->off;
		z = memchr(p, 0, n->size);
		put_str(x, sg, p, z ? (size_t)(z - p) : n->size);
		return;
	case N_STR:
		o = rd(x, n->off, 4) & 0xffff;
		if (n->rel)
			o += (uint64_t)n->off + 4;
		if (o > x->size) {
			x->bad = true;
			return;
		}
		p = (const char *)x->raw + o;
		z = memchr(p, 0, x->size - o);
		put_str(x, sg, p, z ? (size_t)(z - p) : x->size - o);
		return;
	case N_TERN: string(x, sg, eval(x, n->a) ? n->b : n->c); return;
	default: flags(x, sg, n); return;
	}
}

/* print_arg_number(): cast by the length, then the conversion */
static void number(struct pctx *x, const struct seg *sg, uint64_t v)
{
	static const char digits[] = "0123456789abcdef0123456789ABCDEF";
	int64_t sv = sg->ls == -2   ? (int64_t)(signed char)v
		     : sg->ls == -1 ? (int64_t)(int16_t)v
		     : sg->ls == 0  ? (int64_t)(int32_t)v
				    : (int64_t)v;
	uint64_t u = sg->ls <= 0 ? (uint64_t)(uint32_t)sv : (uint64_t)sv;
	char buf[64], *e = buf + sizeof(buf), *q = e;
	unsigned base = 10, hi = 0;
	bool neg = false;

	if (!sg->plain || sg->conv == 'o') {
		int k = sg->ls <= 0
				? snprintf(buf, sizeof(buf), sg->spec, (int)sv)
			: sg->ls == 1
				? snprintf(buf, sizeof(buf), sg->spec, (long)sv)
				: snprintf(buf, sizeof(buf), sg->spec,
					   (long long)sv);

		if (k < 0 || (size_t)k >= sizeof(buf))
			x->bad = true;
		else
			put(x, buf, (size_t)k);
		return;
	}
	if (sg->conv == 'd' || sg->conv == 'i') {
		neg = sv < 0;
		u = neg ? 0 - (uint64_t)sv : (uint64_t)sv;
	} else if (sg->conv != 'u') {
		base = 16;
		hi = sg->conv == 'X' ? 16 : 0;
	}
	do {
		*--q = digits[hi + u % base];
		u /= base;
	} while (u);
	if (neg)
		*--q = '-';
	put(x, q, (size_t)(e - q));
}

const char *pd_tp_fast_print(struct pd_tp *tp, const struct pd_tp_event *ev,
			     const uint8_t *raw, uint32_t size,
			     struct arena *scratch, uint32_t *len)
{
	const struct prog *p = ev->fast;
	struct pctx x = {.raw = raw,
			 .size = size,
			 .be = tp->big_endian,
			 .b = tp->out,
			 .cap = tp->out_cap};
	char *out = NULL;

	for (uint32_t i = 0; i < p->n && !x.bad; i++) {
		const struct seg *sg = &p->v[i];

		if (sg->kind == S_LIT)
			put(&x, sg->lit, sg->litlen);
		else if (sg->kind == S_STR)
			string(&x, sg, sg->arg);
		else
			number(&x, sg, eval(&x, sg->arg));
	}
	if (!x.bad && (out = arena_alloc(scratch, x.n + 1))) {
		if (x.n)
			memcpy(out, x.b, x.n);
		*len = (uint32_t)x.n;
	}
	tp->out = x.b; /* kept for the next sample */
	tp->out_cap = x.cap;
	return out;
}
