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

#include "tp_fast.h"
#include "tracepoint.h"
#include "util.h"

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
	for (size_t i = 0; i < PD_NELEMS(names); i++)
		if (strcmp(names[i], f) == 0)
			return i < 10 ? (long long)i : (long long)(i - 10);
	return -1;
}

struct cctx {
	struct arena *a;
	const struct pd_tp_event *ev;
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

/* The index of libtraceevent's field f in the model's fields. */
static uint32_t model_field(struct cctx *x, const struct tep_format_field *f)
{
	for (uint32_t i = 0; i < x->ev->nfields; i++)
		if (strcmp(x->ev->fields[i].name, f->name) == 0)
			return i;
	x->ok = false;
	return 0;
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
	for (size_t i = 0; i < PD_NELEMS(ops); i++)
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
			n->field = model_field(x, f);
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
			n->field = model_field(x, f);
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
	int ls = 0, width = 0, step = 0; /* 0 flags, 1 width, 2 length */

	for (; *f; f++) {
		if (*f == 'h' || *f == 'l' || *f == 'L') {
			ls = *f == 'h' ? ls - 1 : *f == 'l' ? ls + 1 : 2;
			step = 2;
		} else if ((*f == '-' || *f == '0') && step == 0) {
			sg.left |= *f == '-';
			sg.zero |= *f == '0';
		} else if (*f >= '0' && *f <= '9' && step <= 1) {
			width = width * 10 + (*f - '0');
			step = 1;
			sg.plain &= width <= 64;
		} else if (*f == '.' || *f == '-' || (*f >= '0' && *f <= '9')) {
			sg.plain = false; /* precision, or flags out of order:
					   * snprintf with the spec */
		} else if (*f == 'z' || *f == 'Z' || *f == '#') {
			x->ok = false; /* a length libtraceevent ignores */
		} else {
			break;
		}
	}
	sg.width = (uint8_t)(width <= 64 ? width : 0);
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
		p->nstr++;
		sg.plain &= !sg.zero; /* %0Ns: as the C library pads it */
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
	struct cctx x = {a, ev, te, true};
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
