// SPDX-License-Identifier: MIT
/*
 * A sample's print output from its compiled print fmt (tp_fast.h), with
 * libtraceevent's semantics (event-parse.c: eval_num_arg, print_str_arg,
 * print_arg_number, print_arg_pointer, print_function); every read is
 * bounded by the RAW payload, and a read past it or a division by zero
 * gives no print (and says why) where libtraceevent would read on or
 * trap.  Where a %s printed a char array or a __data_loc string, the
 * output's bytes are noted as a span of that field (tracepoint.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tracepoint/tp_fast.h"
#include "lib/tracepoint/tracepoint_int.h"

/* ---- printing a sample ----------------------------------------------- */

#define NO_FIELD UINT32_MAX /* put_str() of what no field holds */

struct pctx {
	const uint8_t *raw;
	uint32_t size;
	bool be;
	char *b; /* the output */
	size_t n, cap;
	bool bad;
	enum pd_tp_fail why; /* bad: why */
	const struct pd_tp *tp;
	struct pd_tp_span *sp; /* the spans, room for nsp_cap */
	uint32_t nsp, nsp_cap;
	bool lost;   /* a span found no room: the spans are not known */
	char *local; /* b's first room, on the caller's stack (b == local:
		      * not malloc'd); so that samples decoded on several
		      * threads (walk.h, --jobs) share no buffer */
};

static void put(struct pctx *x, const char *s, size_t n)
{
	if (x->n + n + 1 > x->cap) {
		size_t cap = (x->n + n + 1) * 2;
		char *b = realloc(x->b == x->local ? NULL : x->b, cap);

		if (!b) {
			x->bad = true;
			x->why = PD_TP_NOMEM;
			return;
		}
		if (x->b == x->local)
			memcpy(b, x->local, x->n);
		x->b = b;
		x->cap = cap;
	}
	memcpy(x->b + x->n, s, n);
	x->n += n;
}

static void outside(struct pctx *x, enum pd_tp_fail why)
{
	if (!x->bad)
		x->why = why;
	x->bad = true;
}

/* Do n bytes at off lie inside the payload? */
static bool inside(struct pctx *x, uint64_t off, uint64_t n)
{
	if (off <= x->size && n <= x->size - off)
		return true;
	outside(x, PD_TP_OUTSIDE);
	return false;
}

/* tep_read_number(): 1, 2, 4 or 8 bytes unsigned, else 0 */
static uint64_t rd(struct pctx *x, uint64_t off, uint32_t n)
{
	uint64_t v = 0;

	if ((n != 1 && n != 2 && n != 4 && n != 8) || !inside(x, off, n))
		return 0;
	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)x->raw[off + i] << 8 * (x->be ? n - 1 - i : i);
	return v;
}

/* dynamic_offset_field(): where a __data_loc's data is, and its length */
static uint64_t dyn_off(struct pctx *x, const struct node *n, uint32_t *len)
{
	uint64_t loc = rd(x, n->off, 4), off = loc & 0xffff;

	if (len)
		*len = (uint32_t)(loc >> 16);
	return n->rel ? off + n->off + 4 : off;
}

static uint64_t eval(struct pctx *x, const struct node *n);

/* eval_num_arg()'s "[": an element of a field or a dynamic array (whose
 * index counts bytes there, as libtraceevent reads it) */
static uint64_t element(struct pctx *x, const struct node *n)
{
	uint64_t i = eval(x, n->b), off;
	const struct node *a = n->a;
	uint32_t w = a->elem;

	if (a->kind == N_DARR) {
		w = w ? w : (x->tp->long_size ? x->tp->long_size : 8);
		if (__builtin_add_overflow(rd(x, a->off, 4) & 0xffff, i,
					   &off)) {
			outside(x, PD_TP_OUTSIDE);
			return 0;
		}
	} else if (__builtin_mul_overflow(i, (uint64_t)w, &off) ||
		   __builtin_add_overflow(off, (uint64_t)a->off, &off)) {
		outside(x, PD_TP_OUTSIDE);
		return 0;
	}
	return rd(x, off, w);
}

static uint64_t eval(struct pctx *x, const struct node *n)
{
	uint64_t l, r;

	switch (n->kind) {
	case N_ATOM:
	case N_LIT: return n->v;
	case N_FIELD: return rd(x, n->off, n->size);
	case N_DLEN: return rd(x, n->off, 4) >> 16;
	case N_TERN: return eval(x, n->a) ? eval(x, n->b) : eval(x, n->c);
	case N_CAST: return eval(x, n->a) & n->v;
	case N_INDEX: return element(x, n);
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
	case '/':
	case '%':
		if (!r) {
			outside(x, PD_TP_DIV_ZERO);
			return 0;
		}
		return n->op[0] == '/' ? l / r : l % r;
	}
	return 0;
}

static void pad(struct pctx *x, size_t n, char c)
{
	static const char spaces[] = "                                ";
	static const char zeros[] = "00000000000000000000000000000000";

	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		put(x, c == '0' ? zeros : spaces, k);
		n -= k;
	}
}

/* The output from at on is what field printed: a span (none if empty). */
static void span(struct pctx *x, size_t at, uint32_t field)
{
	if (field == NO_FIELD || x->n == at)
		return;
	if (x->nsp >= x->nsp_cap) {
		x->lost = true;
		return;
	}
	x->sp[x->nsp++] = (struct pd_tp_span){.off = (uint32_t)at,
					      .len = (uint32_t)(x->n - at),
					      .field = field};
}

/* s (n bytes, from field) in a field of sg->width: - left-justifies */
static void put_padded(struct pctx *x, const struct seg *sg, const char *s,
		       size_t n, uint32_t field)
{
	size_t w = sg->width > n ? sg->width - n : 0, at;

	if (!sg->left)
		pad(x, w, ' ');
	at = x->n;
	put(x, s, n);
	span(x, at, field); /* the string's bytes, not the padding */
	if (sg->left)
		pad(x, w, ' ');
}

/* s (n bytes) by the %s of sg; field: where s is from, or NO_FIELD */
static void put_str(struct pctx *x, const struct seg *sg, const char *s,
		    size_t n, uint32_t field)
{
	char buf[512];
	char tmp[256];
	size_t at = x->n;
	int k;

	if (sg->plain) {
		put_padded(x, sg, s, n, field);
		return;
	}
	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	k = snprintf(buf, sizeof(buf), sg->spec, tmp);
	if (k < 0 || (size_t)k >= sizeof(buf)) {
		outside(x, PD_TP_NOMEM); /* libtraceevent: all of it */
		return;
	}
	put(x, buf, (size_t)k);
	span(x, at, field); /* a precision or padding: all of it */
}

static void put_cstr(struct pctx *x, const struct seg *sg, const char *s)
{
	put_str(x, sg, s, strlen(s), NO_FIELD);
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

/* Where the bytes of __print_hex / __print_array's first arg start. */
static uint64_t base_of(struct pctx *x, const struct node *a)
{
	return a->kind == N_DARR ? dyn_off(x, a, NULL) : a->off;
}

/* print_str_arg(): __print_hex (" " between bytes), __print_hex_str */
static void hex(struct pctx *x, const struct node *n)
{
	uint64_t at = base_of(x, n->a), len = eval(x, n->b);
	char b[4];

	x->lost = true; /* a field's bytes, in hex: no span */
	if (x->bad || !inside(x, at, len))
		return;
	for (uint64_t i = 0; i < len; i++) {
		if (i && !n->op[0])
			put(x, " ", 1);
		snprintf(b, sizeof(b), "%02x", x->raw[at + i]);
		put(x, b, 2);
	}
}

/* print_str_arg(): __print_array, libtraceevent 1.7's way: the
 * elements in decimal, a space between, read in the host's order */
static void int_array(struct pctx *x, const struct node *n)
{
	uint64_t at = base_of(x, n->a), count = eval(x, n->b);
	uint64_t el = eval(x, n->c), len;
	char b[24];

	x->lost = true; /* numbers of a field: no span */
	if (x->bad)
		return;
	if (el != 1 && el != 2 && el != 4 && el != 8) {
		outside(x, PD_TP_BAD_SIZE);
		return;
	}
	if (__builtin_mul_overflow(count, el, &len) || !inside(x, at, len))
		return;
	for (uint64_t i = 0; i < count; i++) {
		const uint8_t *q = x->raw + at + i * el;
		uint64_t v = 0;
		uint32_t v32;
		uint16_t v16;

		if (el == 1)
			v = *q;
		else if (el == 2)
			v = (memcpy(&v16, q, 2), v16);
		else if (el == 4)
			v = (memcpy(&v32, q, 4), v32);
		else
			memcpy(&v, q, 8);
		if (i)
			put(x, " ", 1);
		put(x, b,
		    (size_t)snprintf(b, sizeof(b), "%llu",
				     (unsigned long long)v));
	}
}

static void string(struct pctx *x, const struct seg *sg, const struct node *n)
{
	const char *p, *z;
	uint64_t o, len;

	switch (n->kind) {
	case N_ATOM:
	case N_LIT: put_cstr(x, sg, n->s); return;
	case N_CHARS:
		/* a zero size: the rest of the payload */
		o = n->off;
		len = n->size ? n->size : (o < x->size ? x->size - o : 0);
		if (!inside(x, o, len))
			return;
		p = (const char *)x->raw + o;
		z = memchr(p, 0, len);
		put_str(x, sg, p, z ? (size_t)(z - p) : len, n->field);
		return;
	case N_STR:
		o = dyn_off(x, n, NULL);
		if (x->bad || !inside(x, o, 0))
			return;
		p = (const char *)x->raw + o;
		z = memchr(p, 0, x->size - o);
		put_str(x, sg, p, z ? (size_t)(z - p) : x->size - o, n->field);
		return;
	case N_TERN: string(x, sg, eval(x, n->a) ? n->b : n->c); return;
	case N_HEX: hex(x, n); return;
	case N_IARR: int_array(x, n); return;
	default: flags(x, sg, n); return;
	}
}

/* The function of kallsyms holding addr (func_bcmp()'s rule), or NULL. */
static const struct pd_tp_ksym *find_func(const struct pd_tp *tp, uint64_t addr)
{
	uint32_t lo = 0, hi = tp->nksyms;

	while (lo < hi) { /* the first symbol above addr */
		uint32_t mid = lo + (hi - lo) / 2;

		if (tp->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the one below it holds addr, if another follows it */
	if (!lo || (tp->ksyms[lo - 1].addr != addr && lo == tp->nksyms))
		return NULL;
	return &tp->ksyms[lo - 1];
}

/* The function holding addr and its start: the blob's kallsyms, else
 * the resolver's (find_func()); NULL: none. */
static const char *function(const struct pd_tp *tp, uint64_t addr,
			    uint64_t *start)
{
	const struct pd_tp_resolver *r = tp->resolver;
	const struct pd_tp_ksym *f;

	if (tp->nksyms) {
		f = find_func(tp, addr);
		*start = f ? f->addr : 0;
		return f ? f->name : NULL;
	}
	return r && r->fn ? r->fn(r->ctx, addr, start) : NULL;
}

/* print_arg_pointer(): %p as the C library prints it; %ps %pS %pf %pF:
 * print_function() */
static void pointer(struct pctx *x, const struct seg *sg, uint64_t v)
{
	const char *name;
	uint64_t start = 0;
	char buf[64];
	int k;

	if (sg->conv == 'p') {
		k = snprintf(buf, sizeof(buf), sg->spec, (void *)(uintptr_t)v);
		if (k < 0 || (size_t)k >= sizeof(buf))
			outside(x, PD_TP_NOMEM);
		else
			put(x, buf, (size_t)k);
		return;
	}
	if ((name = function(x->tp, v, &start))) {
		put(x, name, strlen(name));
		if (sg->conv == 'F' || sg->conv == 'S')
			put(x, buf,
			    (size_t)snprintf(buf, sizeof(buf), "+0x%llx",
					     (unsigned long long)(v - start)));
		return;
	}
	put(x, buf,
	    (size_t)snprintf(buf, sizeof(buf), "0x%llx",
			     (unsigned long long)v));
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
			outside(x, PD_TP_NOMEM);
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
	if (sg->zero && !sg->left && sg->width > (size_t)(e - q) + neg) {
		/* 0 pads between the sign and the digits */
		if (neg)
			put(x, "-", 1);
		pad(x, sg->width - (size_t)(e - q) - neg, '0');
		put(x, q, (size_t)(e - q));
		return;
	}
	if (neg)
		*--q = '-';
	put_padded(x, sg, q, (size_t)(e - q), NO_FIELD);
}

enum pd_tp_fail pd_tp_fast_print(struct pd_tp *tp, const struct pd_tp_event *ev,
				 const uint8_t *raw, uint32_t size,
				 struct arena *scratch,
				 struct pd_tp_sample *smp)
{
	const struct prog *p = ev->prog;
	char local[512];
	struct pctx x = {.raw = raw,
			 .size = size,
			 .be = tp->big_endian,
			 .tp = tp,
			 .b = local,
			 .cap = sizeof(local),
			 .local = local};
	char *out = NULL;

	/* one span a %s at most (a ?: prints one of its two) */
	if (p->nstr && (x.sp = arena_calloc(scratch, p->nstr, sizeof(*x.sp))))
		x.nsp_cap = p->nstr;

	for (uint32_t i = 0; i < p->n && !x.bad; i++) {
		const struct seg *sg = &p->v[i];

		if (sg->kind == S_LIT)
			put(&x, sg->lit, sg->litlen);
		else if (sg->kind == S_STR)
			string(&x, sg, sg->arg);
		else if (sg->kind == S_PTR)
			pointer(&x, sg, eval(&x, sg->arg));
		else
			number(&x, sg, eval(&x, sg->arg));
	}
	if (!x.bad && !(out = arena_alloc(scratch, x.n + 1)))
		outside(&x, PD_TP_NOMEM);
	if (!x.bad) {
		if (x.n)
			memcpy(out, x.b, x.n);
		smp->print = out;
		smp->print_len = (uint32_t)x.n;
		smp->spans = x.sp;
		smp->nspans = x.nsp;
		smp->spans_known = !x.lost;
	}
	if (x.b != local)
		free(x.b);
	return x.bad ? x.why : PD_TP_PRINTED;
}
