// SPDX-License-Identifier: MIT
/*
 * The fields of a tracepoint sample, read from its RAW payload by the
 * plain model of its format (tracepoint.h), each checked against the
 * payload's size.  __data_loc: a u32 whose low 16 bits are the offset of
 * the data in the payload and high 16 bits its length; __rel_loc: the
 * same, the offset counted from the end of the field
 * (include/trace/stages/stage*_*.h, __get_dynamic_array /
 * __get_rel_dynamic_array).
 */
#include <inttypes.h>
#include <string.h>

#include "lib/format/evsel.h"
#include "lib/tracepoint/tracepoint_int.h"

struct fctx {
	const uint8_t *raw;
	uint32_t size;
	bool be; /* the recording's byte order */
	struct arena *scratch;
};

/* n (1, 2, 4 or 8) bytes at p in the recording's byte order. */
static uint64_t get(const struct fctx *x, const uint8_t *p, uint32_t n,
		    bool is_signed)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << 8 * (x->be ? n - 1 - i : i);
	if (is_signed && n < 8 && (v >> (8 * n - 1) & 1))
		v |= ~(uint64_t)0 << 8 * n;
	return v;
}

static bool inside(const struct fctx *x, uint64_t off, uint64_t n)
{
	return off <= x->size && n <= x->size - off;
}

/* count integers of elem bytes at p, host order, into scratch */
static void elements(const struct fctx *x, const struct pd_tp_field *f,
		     const uint8_t *p, uint32_t count, uint32_t elem,
		     struct pd_tp_value *v)
{
	v->elems = arena_calloc(x->scratch, count ? count : 1, 8);
	if (!v->elems)
		return;
	for (uint32_t i = 0; i < count; i++)
		v->elems[i] = get(x, p + (size_t)i * elem, elem, f->is_signed);
	v->nelems = count;
}

static size_t text_len(const uint8_t *p, size_t n)
{
	const uint8_t *z = memchr(p, 0, n);

	return z ? (size_t)(z - p) : n;
}

/* A __data_loc / __rel_loc field: where its data is. */
static bool dyn_loc(const struct fctx *x, const struct pd_tp_field *f,
		    uint64_t *off, uint32_t *len)
{
	uint64_t loc = get(x, x->raw + f->offset, 4, false);

	*off = loc & 0xffff;
	*len = (uint32_t)(loc >> 16);
	if (f->rel_loc)
		*off += (uint64_t)f->offset + f->size;
	return inside(x, *off, *len);
}

static bool read_field(const struct fctx *x, const struct pd_tp_field *f,
		       struct pd_tp_value *v)
{
	const uint8_t *p;
	uint64_t off;
	uint32_t len;

	if (!inside(x, f->offset, f->size))
		return false;
	p = x->raw + f->offset;
	switch (f->kind) {
	case PD_TP_INT:
	case PD_TP_PTR:
	case PD_TP_HEX: v->u = get(x, p, f->size, f->is_signed); break;
	case PD_TP_STR:
		v->p = p;
		v->len = (uint32_t)text_len(p, f->size);
		break;
	case PD_TP_ARRAY: elements(x, f, p, f->count, f->elem_size, v); break;
	case PD_TP_DLOC_STR:
	case PD_TP_DLOC_ARRAY:
		if (!dyn_loc(x, f, &off, &len))
			return false;
		v->p = x->raw + off;
		if (f->kind == PD_TP_DLOC_STR)
			v->len = (uint32_t)text_len(v->p, len);
		else
			elements(x, f, v->p, len / f->elem_size, f->elem_size,
				 v);
		break;
	default:
		v->p = p;
		v->len = f->size;
		break;
	}
	return true;
}

/* Said once per evsel: a tracepoint whose ID no format of the file has. */
static void no_format(struct pd_diags *d, const struct pd_evsel *ev,
		      uint64_t off)
{
	struct pd_evsel *e = (struct pd_evsel *)ev;

	if (e->tp_missing_said)
		return;
	e->tp_missing_said = true;
	pd_diag_add(d, PD_C_TRACEPOINT_NO_FORMAT, PD_AT_RECORD(PD_REC_SAMPLE),
		    PD_WARN, off, "PERF_SAMPLE_RAW",
		    "attr %u is tracepoint ID %" PRIu64 ", which no format of "
		    "the tracing data has: its fields are not decoded "
		    "(said once per attr)",
		    ev->idx, ev->attr.config);
}

/* common_type chooses the format perf prints a payload by
 * (tep_print_event: tep_find_event_by_record): it must be this one. */
static bool type_matches(const struct pd_tp_event *ev,
			 const struct pd_tp_sample *smp)
{
	for (uint32_t i = 0; i < ev->ncommon; i++)
		if (strcmp(ev->fields[i].name, "common_type") == 0)
			return smp->v[i].ok && smp->v[i].u == ev->id;
	return false;
}

static void refuse(struct pd_diags *d, struct pd_tp_event *ev, uint64_t off,
		   const char *why)
{
	if (ev->print_refused)
		return;
	ev->print_refused = true;
	pd_diag_add(d, PD_C_TRACEPOINT_PRINT_FAILED,
		    PD_AT_RECORD(PD_REC_SAMPLE), PD_WARN, off,
		    "PERF_SAMPLE_RAW",
		    "%s:%s: %s: no print output (said once per event)",
		    ev->system, ev->name, why);
}

/* The print output of a sample whose fields all lie in the payload. */
static void print(struct pd_diags *d, struct pd_tp_event *ev,
		  struct pd_tp_sample *smp, const uint8_t *raw, uint32_t size,
		  uint64_t off, struct arena *scratch)
{
	if (!type_matches(ev, smp)) {
		refuse(d, ev, off, "common_type is not the format's ID");
		return;
	}
	if (!ev->print_ok) {
		pd_tp_raw_print(ev->owner, ev, raw, size, scratch, smp);
		return;
	}
	switch (pd_tp_fast_print(ev->owner, ev, raw, size, scratch, smp)) {
	case PD_TP_OUTSIDE:
		refuse(d, ev, off,
		       "a length or index in its print args reaches past the "
		       "RAW payload");
		break;
	case PD_TP_DIV_ZERO:
		refuse(d, ev, off, "its print args divide by zero");
		break;
	case PD_TP_BAD_SIZE:
		refuse(d, ev, off,
		       "an element size in its print args is not 1, 2, 4 or "
		       "8");
		break;
	default: break;
	}
}

void pd_tp_decode(struct pd_diags *d, const struct pd_evsel *evsel,
		  const struct pd_tp_event *event, const uint8_t *raw,
		  uint32_t size, uint64_t off, unsigned what,
		  struct arena *scratch, struct pd_tp_sample *out)
{
	/* the print_refused flag is set once per event */
	struct pd_tp_event *ev = (struct pd_tp_event *)event;
	static const uint8_t none[1];
	struct fctx x = {raw ? raw : none, raw ? size : 0, false, scratch};
	const struct pd_tp_field *bad = NULL;

	memset(out, 0, sizeof(*out));
	if (!ev) {
		no_format(d, evsel, off);
		return;
	}
	out->ev = ev;
	if (!ev->parsed)
		return;
	x.be = ev->owner->big_endian;
	out->v = arena_calloc(scratch, ev->nfields ? ev->nfields : 1,
			      sizeof(*out->v));
	if (!out->v)
		return;
	for (uint32_t i = 0; i < ev->nfields; i++) {
		out->v[i].ok = read_field(&x, &ev->fields[i], &out->v[i]);
		if (!out->v[i].ok && !out->nbad++)
			bad = &ev->fields[i];
	}
	if (bad)
		pd_diag_add(d, PD_C_TRACEPOINT_FIELD_OUTSIDE_RAW,
			    PD_AT_RECORD(PD_REC_SAMPLE), PD_ERR, off,
			    "PERF_SAMPLE_RAW",
			    "%s:%s: field %s (offset %u, size %u%s) lies "
			    "outside the %u-byte RAW payload (%u field%s)",
			    ev->system, ev->name, bad->name, bad->offset,
			    bad->size,
			    bad->kind == PD_TP_DLOC_STR ||
					    bad->kind == PD_TP_DLOC_ARRAY
				    ? ", or the data its __data_loc points to"
				    : "",
			    size, out->nbad, out->nbad == 1 ? "" : "s in all");
	else if (what & PD_TP_PRINT)
		print(d, ev, out, x.raw, x.size, off, scratch);
}
