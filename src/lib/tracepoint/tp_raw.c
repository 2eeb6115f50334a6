// SPDX-License-Identifier: MIT
/*
 * The print of a sample whose format's print fmt does not parse, as perf
 * prints it then: libtraceevent's pretty_print() of a failed event writes
 * "[FAILED TO PARSE]" and tep_print_fields(): " NAME=VALUE" for each field
 * that is not a common one, VALUE as print_field_raw() writes it
 * (event-parse.c).  The fields were checked against the payload before
 * (tp_fields.c); a string's bytes are a span of its field (tracepoint.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base/strbuf.h"
#include "lib/tracepoint/tracepoint_int.h"

struct rctx {
	struct strbuf s;
	bool bad, lost;
	struct pd_tp_span *sp;
	uint32_t nsp, nsp_cap;
};

static void put(struct rctx *x, const char *s, size_t n)
{
	strbuf_put(&x->s, s, n);
}

static void putf(struct rctx *x, const char *fmt, unsigned long long v)
{
	char buf[32];
	int k = snprintf(buf, sizeof(buf), fmt, v);

	if (k > 0 && (size_t)k < sizeof(buf))
		put(x, buf, (size_t)k);
}

/* is_printable_array(): up to len bytes or a NUL, each isprint or
 * isspace in the C locale */
static bool printable(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len && p[i]; i++)
		if (!(p[i] >= 0x20 && p[i] < 0x7f) &&
		    !(p[i] == ' ' || (p[i] >= '\t' && p[i] <= '\r')))
			return false;
	return true;
}

/* An array field: a printable string, or ARRAY[xx, xx, ...]. */
static void array(struct rctx *x, const struct pd_tp_field *f,
		  const uint8_t *raw, uint32_t size, uint32_t idx, bool be)
{
	uint64_t off = f->offset, len = f->size, loc;
	const uint8_t *z;
	size_t at = x->s.len;

	if (f->tflags & PD_TP_F_DYNAMIC) { /* dynamic_offset_field() */
		if (f->size != 4 || (uint64_t)f->offset + 4 > size) {
			x->bad = true; /* not a u32 __data_loc: no raw form */
			return;
		}
		loc = 0;
		for (uint32_t i = 0; i < 4; i++)
			loc |= (uint64_t)raw[f->offset + i]
			       << 8 * (be ? 3 - i : i);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->rel_loc)
			off += (uint64_t)f->offset + f->size;
	}
	if (off > size || len > size - off) {
		x->bad = true; /* tp_fields.c said so */
		return;
	}
	if ((f->tflags & PD_TP_F_STRING) && printable(raw + off, len)) {
		/* "%s": up to its NUL, which may lie past len */
		z = memchr(raw + off, 0, size - off);
		put(x, (const char *)raw + off,
		    z ? (size_t)(z - (raw + off)) : size - off);
		if (x->nsp < x->nsp_cap && x->s.len > at)
			x->sp[x->nsp++] = (struct pd_tp_span){
				(uint32_t)at, (uint32_t)(x->s.len - at), idx};
		return;
	}
	x->lost = true; /* bytes of a field in hex: no span */
	put(x, "ARRAY[", 6);
	for (uint64_t i = 0; i < len; i++) {
		if (i)
			put(x, ", ", 2);
		putf(x, "%02llx", raw[off + i]);
	}
	put(x, "]", 1);
}

/* print_field_raw() of a field that is not an array */
static void scalar(struct rctx *x, const struct pd_tp_field *f, uint64_t v)
{
	if (f->tflags & PD_TP_F_POINTER)
		putf(x, "0x%llx", v);
	else if (f->is_signed && f->size == 4)
		putf(x, f->tflags & PD_TP_F_LONG ? "0x%llx" : "%lld",
		     f->tflags & PD_TP_F_LONG
			     ? (unsigned long long)(uint32_t)v
			     : (unsigned long long)(long long)(int32_t)v);
	else if (f->is_signed && f->size == 2)
		putf(x, "%2lld", (unsigned long long)(long long)(int16_t)v);
	else if (f->is_signed && f->size == 1)
		putf(x, "%1lld", (unsigned long long)(long long)(int8_t)v);
	else if (f->is_signed)
		putf(x, "%lld", v);
	else
		putf(x, f->tflags & PD_TP_F_LONG ? "0x%llx" : "%llu", v);
}

void pd_tp_raw_print(struct pd_tp *tp, const struct pd_tp_event *ev,
		     const uint8_t *raw, uint32_t size, struct arena *scratch,
		     struct pd_tp_sample *smp)
{
	/* its own buffer: samples may be decoded on several threads */
	struct rctx x = {0};
	char *out;

	if (ev->nfields &&
	    (x.sp = arena_calloc(scratch, ev->nfields, sizeof(*x.sp))))
		x.nsp_cap = ev->nfields;
	put(&x, "[FAILED TO PARSE]", 17);
	for (uint32_t i = ev->ncommon; i < ev->nfields && !x.bad; i++) {
		const struct pd_tp_field *f = &ev->fields[i];

		put(&x, " ", 1);
		put(&x, f->name, strlen(f->name));
		put(&x, "=", 1);
		if (f->tflags & PD_TP_F_ARRAY)
			array(&x, f, raw, size, i, tp->big_endian);
		else
			scalar(&x, f, smp->v[i].u);
	}
	if (x.bad || x.s.oom || !(out = arena_alloc(scratch, x.s.len + 1))) {
		free(x.s.p);
		return;
	}
	memcpy(out, x.s.p, x.s.len);
	free(x.s.p);
	smp->print = out;
	smp->print_len = (uint32_t)x.s.len;
	smp->spans = x.sp;
	smp->nspans = x.nsp;
	smp->spans_known = !x.lost;
}
