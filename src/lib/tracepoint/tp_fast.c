// SPDX-License-Identifier: MIT
/*
 * A parsed print fmt (tp_parse.c) compiled once per event into a program
 * of literals and conversions (tp_fast.h) that tp_fast_print.c walks for
 * each sample.  The format string is split as libtraceevent's
 * parse_args() / parse_arg_format() / parse_arg_string() split it
 * (event-parse.c), and each conversion's argument is checked for the
 * context it is printed in: a number (eval_num_arg), a string
 * (print_str_arg) or a pointer (print_arg_pointer: %p, %ps %pS %pf %pF).
 * What libtraceevent prints that is not here (%c, %*d, %pI4 and the other
 * pointer extensions, a %s of a pointer to a printk string, ...) makes
 * the compile fail with a reason: the samples then print in perf's raw
 * form (tp_raw.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tracepoint/tp_fast.h"
#include "lib/tracepoint/tracepoint_int.h"
#include "lib/base/util.h"

/* libtraceevent's eval_flag(): softirq and hrtimer names it knows */
static long long flag_name(const char *f)
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

/* arg_num_eval(): the constant operators it folds, signed */
static bool fold(const struct node *n, long long *v, unsigned depth)
{
	long long l = 0, r = 0;

	if (!n || depth > PD_TP_MAX_NEST)
		return false;
	if (n->kind == N_ATOM || n->kind == N_LIT) {
		*v = strtoll(n->s ? n->s : "", NULL, 0);
		return true;
	}
	if (n->kind == N_CAST && fold(n->a, v, depth + 1)) {
		*v = (long long)((uint64_t)*v & n->v);
		return true;
	}
	if (n->kind != N_OP || (n->a && !fold(n->a, &l, depth + 1)) ||
	    !fold(n->b, &r, depth + 1))
		return false;
	if (!n->a && !strchr("-+~", n->op[0]))
		return false;
	switch (n->op[0]) {
	case '|': *v = n->op[1] ? l || r : l | r; return true;
	case '&': *v = n->op[1] ? l && r : l & r; return true;
	case '<':
		*v = !n->op[1]	       ? l < r
		     : n->op[1] == '<' ? (long long)((uint64_t)l << (r & 63))
				       : l <= r;
		return true;
	case '>':
		*v = !n->op[1]	       ? l > r
		     : n->op[1] == '>' ? l >> (r & 63)
				       : l >= r;
		return true;
	case '=': *v = l == r; return true;
	case '!': *v = n->op[1] ? l != r : !r; return n->op[1] != 0;
	case '-': *v = (long long)((uint64_t)l - (uint64_t)r); return true;
	case '+': *v = (long long)((uint64_t)l + (uint64_t)r); return true;
	case '~': *v = ~r; return true;
	}
	return false;
}

const char *pd_tp_arg_eval(const struct node *n, char buf[24])
{
	long long v;

	/* a cast's item, the cast not applied (arg_eval's TEP_PRINT_TYPE) */
	for (unsigned d = 0; n && n->kind == N_CAST && d <= PD_TP_MAX_NEST; d++)
		n = n->a;
	if (n && (n->kind == N_ATOM || n->kind == N_LIT))
		return n->s ? n->s : "";
	if (!n || n->kind != N_OP || !fold(n, &v, 0))
		return NULL;
	snprintf(buf, 24, "%lld", v);
	return buf;
}

long long pd_tp_flag_value(const struct node *n, const char **err)
{
	char buf[24];
	const char *t = pd_tp_arg_eval(n, buf);

	if (!t) {
		*err = "a __print_flags / __print_symbolic value is not a "
		       "constant";
		return -1;
	}
	return flag_name(t);
}

uint64_t pd_tp_cast_mask(const char *t)
{
	size_t n = strlen(t);

	if (n && t[n - 1] == '*')
		return UINT64_MAX;
	if (!strcmp(t, "u8") || !strcmp(t, "s8"))
		return 0xff;
	if (!strcmp(t, "u16") || !strcmp(t, "s16"))
		return 0xffff;
	if (!strcmp(t, "u32") || !strcmp(t, "s32"))
		return 0xffffffff;
	if (!strncmp(t, "unsigned ", 9))
		t += 9;
	return !strcmp(t, "char")    ? 0xff
	       : !strcmp(t, "short") ? 0xffff
	       : !strcmp(t, "int")   ? 0xffffffff
				     : UINT64_MAX;
}

struct cctx {
	struct arena *a;
	const struct pd_tp_event *ev;
	uint8_t long_size;
	const char *err;
};

static bool no(struct cctx *x, const char *why)
{
	if (!x->err)
		x->err = why;
	return false;
}

/* Can eval_num_arg() evaluate n here (tp_fast_print.c eval)? */
static bool num(struct cctx *x, const struct node *n, unsigned d)
{
	if (!n || d > PD_TP_MAX_NEST)
		return no(x, "an argument is missing");
	switch (n->kind) {
	case N_ATOM:
	case N_LIT:
	case N_FIELD:
	case N_DLEN: return true;
	case N_CAST: return num(x, n->a, d + 1);
	case N_TERN:
		return num(x, n->a, d + 1) && num(x, n->b, d + 1) &&
		       num(x, n->c, d + 1);
	case N_INDEX:
		return (n->a->kind == N_FIELD || n->a->kind == N_DARR) &&
		       num(x, n->b, d + 1);
	case N_OP:
		if (!n->a && !strchr("!~-+", n->op[0]))
			return no(x, "an operator misses its operand");
		return (!n->a || num(x, n->a, d + 1)) && num(x, n->b, d + 1);
	default: break;
	}
	return no(x, "a string or a print helper is printed as a number");
}

/* Can print_str_arg() print n here (tp_fast_print.c string)? */
static bool str(struct cctx *x, struct node *n, unsigned d)
{
	const struct pd_tp_field *f;

	if (!n || d > PD_TP_MAX_NEST)
		return no(x, "an argument is missing");
	switch (n->kind) {
	case N_ATOM:
	case N_LIT:
	case N_STR: return true;
	case N_FIELD:
		f = &x->ev->fields[n->field];
		if (f->kind != PD_TP_STR && f->kind != PD_TP_ARRAY &&
		    f->kind != PD_TP_BYTES && f->size == x->long_size)
			return no(x, "a %s prints a pointer to a printk "
				     "string, which perfdump does not look up");
		n->kind = N_CHARS; /* its bytes, up to a NUL */
		return true;
	case N_FLAGS:
	case N_SYMBOL: return num(x, n->a, d + 1);
	case N_TERN:
		return num(x, n->a, d + 1) && str(x, n->b, d + 1) &&
		       str(x, n->c, d + 1);
	case N_HEX: return num(x, n->b, d + 1);
	case N_IARR: return num(x, n->b, d + 1) && num(x, n->c, d + 1);
	default: break;
	}
	return no(x, "a %s prints what is not a string");
}

static bool add_seg(struct cctx *x, struct prog *p, struct seg sg)
{
	if (p->n >= PD_TP_MAX_SEGS)
		return no(x, "its format string has more than 64 conversions");
	p->v[p->n++] = sg;
	return true;
}

/* Literal text up to the next conversion: \n \t \r \\ unescaped, %% -> % */
static const char *literal(struct cctx *x, struct prog *p, const char *f)
{
	size_t n = strlen(f);
	char *t = arena_alloc(x->a, n + 1), *o = t;

	if (!t) {
		no(x, "no memory");
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
	add_seg(x, p,
		(struct seg){
			.kind = S_LIT, .lit = t, .litlen = (uint32_t)(o - t)});
	return f;
}

/* The flags, width, precision and length of a conversion at f ('%'). */
static const char *spec(struct cctx *x, struct seg *sg, const char *f)
{
	int ls = 0, width = 0, step = 0; /* 0 flags, 1 width, 2 length */

	for (f++; *f; f++) {
		if (*f == 'h' || *f == 'l' || *f == 'L' || *f == 'z' ||
		    *f == 'Z') {
			ls = *f == 'h'	 ? ls - 1
			     : *f == 'l' ? ls + 1
			     : *f == 'L' ? 2
					 : 1;
			step = 2;
		} else if ((*f == '-' || *f == '0') && step == 0) {
			sg->left |= *f == '-';
			sg->zero |= *f == '0';
		} else if (*f >= '0' && *f <= '9' && step <= 1) {
			width = width * 10 + (*f - '0');
			step = 1;
			sg->plain &= width <= 64;
		} else if (*f == '.' || *f == '-' || *f == '+' || *f == '#' ||
			   (*f >= '0' && *f <= '9')) {
			sg->plain = false; /* snprintf with the spec */
		} else {
			break;
		}
	}
	if (ls < -2 || ls > 2)
		no(x, "a conversion's length is not hh, h, l or ll");
	sg->width = (uint8_t)(width <= 64 ? width : 0);
	sg->ls = (int8_t)ls;
	return f;
}

/* One conversion at f ('%'): its segment and argument. */
static const char *conversion(struct cctx *x, struct prog *p, const char *f,
			      const struct pd_tp_args *args, uint32_t *ai)
{
	struct seg sg = {.kind = S_NUM, .plain = true};
	const char *start = f, *e = spec(x, &sg, f);
	bool ok, ptr;

	if (!*e || !strchr("diuxXosp", *e))
		return no(x, "a conversion is not one of d i u x X o s p"),
		       e + (*e != 0);
	ptr = *e == 'p';
	sg.conv = *e;
	/* %pB is a plain %p and a literal B: parse_arg_format_pointer()
	 * takes no B, as perf 6.1 prints it */
	if (ptr && e[1] && strchr("sSfF", e[1]))
		sg.conv = *++e; /* %ps: print_function() */
	else if (ptr && e[1] && strchr("MmIiUh", e[1]))
		return no(x, "a %p extension other than s S f F"), e + 1;
	if ((size_t)(e + 1 - start) >= sizeof(sg.spec))
		return no(x, "a conversion is longer than 31 bytes"), e + 1;
	if (*ai >= args->n)
		return no(x, "a conversion has no argument"), e + 1;
	memcpy(sg.spec, start, (size_t)(e + 1 - start));
	sg.arg = args->v[(*ai)++];
	if (!ptr && sg.conv == 's') {
		sg.kind = S_STR;
		p->nstr++;
		sg.plain &= !sg.zero; /* %0Ns: as the C library pads it */
		ok = str(x, sg.arg, 0);
	} else {
		sg.kind = ptr ? S_PTR : S_NUM;
		ok = num(x, sg.arg, 0);
	}
	if (ok)
		add_seg(x, p, sg);
	return e + 1;
}

const char *pd_tp_compile(struct arena *a, struct pd_tp_event *ev,
			  uint8_t long_size, const struct pd_tp_args *args)
{
	struct cctx x = {a, ev, long_size, NULL};
	const char *f = args->fmt;
	struct prog *p = arena_alloc(a, sizeof(*p));
	uint32_t ai = 0;

	if (!p || !(p->v = arena_calloc(a, PD_TP_MAX_SEGS, sizeof(*p->v))))
		return "no memory";
	while (*f && !x.err)
		f = *f == '%' && f[1] != '%' ? conversion(&x, p, f, args, &ai)
					     : literal(&x, p, f);
	if (x.err)
		return x.err;
	/* args left over are not printed, as by libtraceevent */
	ev->prog = p;
	return NULL;
}

bool pd_tp_event_prints_functions(const struct pd_tp_event *ev)
{
	const struct prog *p = ev ? ev->prog : NULL;

	for (uint32_t i = 0; p && i < p->n; i++)
		if (p->v[i].kind == S_PTR && p->v[i].conv != 'p')
			return true;
	return false;
}
