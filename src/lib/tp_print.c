// SPDX-License-Identifier: MIT
/*
 * The print_fmt output of a tracepoint sample, as `perf script` prints it
 * after the event name (tools/perf/util/trace-event-parse.c
 * event_format__fprintf: tep_print_event(..., "%s", TEP_PRINT_INFO)).
 *
 * libtraceevent reads the payload as its print args say, trusting the
 * data: __print_hex/__print_array lengths and [index] reads are not
 * checked against the payload's size, strings are read up to their NUL,
 * and the event is chosen by the payload's common_type.  So before it is
 * asked: every field and __data_loc was checked by the caller; the
 * args whose reads depend on data values are evaluated here and bounded;
 * common_type must be the format's ID; and it reads a copy of the payload
 * followed by zeros, so a string without its NUL ends there.
 */
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

#include "session.h"
#include "tracepoint.h"

#define PAD 8 /* zeros after the payload copy */

/* ---- which args need bounds (once per format) ----------------------- */

static void note(struct pd_tp_event *ev, struct tep_print_arg *a)
{
	void **v = realloc(ev->bounded, (ev->nbounded + 1) * sizeof(*v));

	if (!v)
		return;
	ev->bounded = v;
	v[ev->nbounded++] = a;
}

static void resolve_field(struct tep_event *te, struct tep_print_arg *a)
{
	if (a && a->type == TEP_PRINT_FIELD && !a->field.field)
		a->field.field = tep_find_any_field(te, a->field.name);
}

static void walk(struct pd_tp_event *ev, struct tep_event *te,
		 struct tep_print_arg *a, unsigned depth)
{
	for (; a && depth < 64; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			resolve_field(te, a->hex.field);
			note(ev, a);
			walk(ev, te, a->hex.size, depth + 1);
			break;
		case TEP_PRINT_INT_ARRAY:
			resolve_field(te, a->int_array.field);
			note(ev, a);
			walk(ev, te, a->int_array.count, depth + 1);
			walk(ev, te, a->int_array.el_size, depth + 1);
			break;
		case TEP_PRINT_OP:
			if (a->op.op && (strcmp(a->op.op, "[") == 0 ||
					 strcmp(a->op.op, "/") == 0 ||
					 strcmp(a->op.op, "%") == 0)) {
				resolve_field(te, a->op.left);
				note(ev, a);
			}
			walk(ev, te, a->op.left, depth + 1);
			walk(ev, te, a->op.right, depth + 1);
			break;
		case TEP_PRINT_TYPE:
			walk(ev, te, a->typecast.item, depth + 1);
			break;
		case TEP_PRINT_FLAGS:
			walk(ev, te, a->flags.field, depth + 1);
			break;
		case TEP_PRINT_SYMBOL:
			walk(ev, te, a->symbol.field, depth + 1);
			break;
		case TEP_PRINT_FUNC:
			walk(ev, te, a->func.args, depth + 1);
			break;
		case TEP_PRINT_FIELD: resolve_field(te, a); break;
		default: break;
		}
	}
}

void pd_tp_print_prepare(struct pd_tp_event *ev)
{
	struct tep_event *te = ev->impl;

	walk(ev, te, te->print_fmt.args, 0);
}

/* ---- evaluating a bound --------------------------------------------- */

struct pctx {
	const struct pd_tp *tp;
	const uint8_t *raw;
	uint32_t size;
};

static uint64_t rd(const struct pctx *x, uint32_t off, uint32_t n, bool *ok)
{
	uint64_t v = 0;

	if ((uint64_t)off + n > x->size || !n || n > 8) {
		*ok = false;
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)x->raw[off + i]
		     << 8 * (x->tp->big_endian ? n - 1 - i : i);
	return v;
}

/* Where a field's bytes start: its offset, or its __data_loc's. */
static uint64_t base_of(const struct pctx *x, const struct tep_print_arg *a,
			uint32_t *elem, bool *ok)
{
	const struct tep_format_field *f = NULL;

	if (a && a->type == TEP_PRINT_FIELD)
		f = a->field.field;
	else if (a && a->type == TEP_PRINT_DYNAMIC_ARRAY)
		f = a->dynarray.field;
	if (!f || f->offset < 0 || f->size < 0) {
		*ok = false;
		return 0;
	}
	*elem = f->elementsize ? f->elementsize : 8;
	if (a->type == TEP_PRINT_FIELD)
		return (uint64_t)f->offset;
	/* libtraceevent takes the low 16 bits, without __rel_loc's base */
	return rd(x, (uint32_t)f->offset, (uint32_t)f->size, ok) & 0xffff;
}

static uint64_t eval(const struct pctx *x, const struct tep_print_arg *a,
		     unsigned depth, bool *ok)
{
	uint64_t l, r, v = 0;
	uint32_t elem;

	if (!a || depth > 32) {
		*ok = false;
		return 0;
	}
	switch (a->type) {
	case TEP_PRINT_ATOM: return strtoull(a->atom.atom, NULL, 0);
	case TEP_PRINT_FIELD:
		if (!a->field.field || a->field.field->offset < 0)
			break;
		return rd(x, (uint32_t)a->field.field->offset,
			  (uint32_t)a->field.field->size, ok);
	case TEP_PRINT_TYPE: return eval(x, a->typecast.item, depth + 1, ok);
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		if (!a->dynarray.field || a->dynarray.field->offset < 0)
			break;
		return rd(x, (uint32_t)a->dynarray.field->offset,
			  (uint32_t)a->dynarray.field->size, ok) >>
		       16;
	case TEP_PRINT_DYNAMIC_ARRAY: return base_of(x, a, &elem, ok);
	case TEP_PRINT_OP:
		if (!a->op.op || !a->op.left || !a->op.right)
			break;
		l = eval(x, a->op.left, depth + 1, ok);
		r = eval(x, a->op.right, depth + 1, ok);
		switch (a->op.op[0]) {
		case '+': *ok &= !__builtin_add_overflow(l, r, &v); return v;
		case '-': *ok &= l >= r; return l - r;
		case '*': *ok &= !__builtin_mul_overflow(l, r, &v); return v;
		case '/': *ok &= r != 0; return r ? l / r : 0;
		case '&': return a->op.op[1] ? (l && r) : l & r;
		case '|': return a->op.op[1] ? (l || r) : l | r;
		case '>':
			if (a->op.op[1] == '>' && r < 64)
				return l >> r;
			break;
		default: break;
		}
		break;
	default: break;
	}
	*ok = false;
	return 0;
}

/* Do the reads of this arg stay inside the payload? */
static bool bounded(const struct pctx *x, const struct tep_print_arg *a)
{
	uint64_t base, n = 0, k;
	uint32_t elem = 1;
	bool ok = true;

	switch (a->type) {
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		base = base_of(x, a->hex.field, &elem, &ok);
		n = eval(x, a->hex.size, 0, &ok);
		break;
	case TEP_PRINT_INT_ARRAY:
		base = base_of(x, a->int_array.field, &elem, &ok);
		k = eval(x, a->int_array.el_size, 0, &ok);
		n = eval(x, a->int_array.count, 0, &ok);
		ok &= !__builtin_mul_overflow(n, k, &n);
		break;
	default:
		if (a->op.op[0] != '[') /* / and %: libtraceevent divides */
			return eval(x, a->op.right, 0, &ok) != 0 && ok;
		/* [: one element at the index */
		base = base_of(x, a->op.left, &elem, &ok);
		k = eval(x, a->op.right, 0, &ok);
		ok &= !__builtin_mul_overflow(k + 1, elem, &n) && k + 1 > k;
		break;
	}
	return ok && base <= x->size && n <= x->size - base;
}

/* ---- the output ------------------------------------------------------ */

/* common_type chooses the event libtraceevent prints: it must be ours. */
static bool type_matches(const struct pd_tp_event *ev,
			 const struct pd_tp_sample *smp)
{
	for (uint32_t i = 0; i < ev->ncommon; i++)
		if (strcmp(ev->fields[i].name, "common_type") == 0)
			return smp->v[i].ok && smp->v[i].u == ev->id;
	return false;
}

static void refuse(struct pd_session *s, struct pd_tp_event *ev, uint64_t off,
		   const char *why)
{
	if (ev->print_refused)
		return;
	ev->print_refused = true;
	pd_diag_add(&s->diags, PD_C_TRACEPOINT_PRINT_FAILED,
		    PD_AT_RECORD(PD_REC_SAMPLE), PD_WARN, off,
		    "PERF_SAMPLE_RAW",
		    "%s:%s: %s: no print output (said once per event)",
		    ev->system, ev->name, why);
}

/*
 * libtraceevent's print output of a sample (its bounds checked), into
 * scratch, or NULL.  Which bytes of it a string field printed is not
 * known here: no spans.
 */
static const char *tep_output(struct pd_session *s, struct pd_tp *tp,
			      struct pd_tp_event *ev, const uint8_t *raw,
			      uint32_t size, uint64_t off,
			      struct arena *scratch, uint32_t *len)
{
	struct tep_record rec = {0};
	struct trace_seq *seq = tp->seq;
	char *out;

	if (size + PAD > tp->buf_cap) {
		uint8_t *b = realloc(tp->buf, size + PAD);

		if (!b)
			return NULL;
		tp->buf = b;
		tp->buf_cap = size + PAD;
	}
	memcpy(tp->buf, raw, size);
	memset(tp->buf + size, 0, PAD);
	if (!seq) {
		seq = tp->seq = malloc(sizeof(*seq));
		if (!seq)
			return NULL;
		trace_seq_init(seq);
	}
	trace_seq_reset(seq);
	rec.data = tp->buf;
	rec.size = (int)size;
	/* libtraceevent reads the type where the blob's first format has
	 * common_type: it must find this format, whose reads were bounded */
	if (tep_find_event_by_record(tp->tep, &rec) != ev->impl) {
		refuse(s, ev, off,
		       "libtraceevent takes the payload for another format");
		return NULL;
	}
	tep_print_event(tp->tep, seq, &rec, "%s", TEP_PRINT_INFO);
	if (seq->state != TRACE_SEQ__GOOD)
		return NULL;
	out = arena_alloc(scratch, seq->len + 1);
	if (!out)
		return NULL;
	memcpy(out, seq->buffer, seq->len);
	*len = seq->len;
	return out;
}

void pd_tp_print(struct pd_session *s, struct pd_tp *tp, struct pd_tp_event *ev,
		 struct pd_tp_sample *smp, const uint8_t *raw, uint32_t size,
		 uint64_t off, struct arena *scratch)
{
	struct pctx x = {tp, raw, size};

	if (!type_matches(ev, smp)) {
		refuse(s, ev, off, "common_type is not the format's ID");
		return;
	}
	for (uint32_t i = 0; i < ev->nbounded; i++)
		if (!bounded(&x, ev->bounded[i])) {
			refuse(s, ev, off,
			       "a length or index in its print args reaches "
			       "past the RAW payload");
			return;
		}
	if (ev->fast)
		pd_tp_fast_print(tp, ev, raw, size, scratch, smp);
	else
		smp->print = tep_output(s, tp, ev, raw, size, off, scratch,
					&smp->print_len);
}
