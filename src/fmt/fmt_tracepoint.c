// SPDX-License-Identifier: MIT
/*
 * Tracepoints (model in lib/tracepoint/tracepoint.h): the fields of a sample, typed
 * as its format says, with the print_fmt output; and a format in full
 * for `features tracing_data`.
 */
#include "fmt/fmt_tracepoint.h"

#include <inttypes.h>
#include <string.h>

static void emit_elems(struct emitter *e, const char *key,
		       const struct pd_tp_field *f, const struct pd_tp_value *v)
{
	emit_arr_begin(e, key);
	for (uint32_t i = 0; i < v->nelems; i++) {
		if (f->is_signed)
			emit_s64(e, NULL, (int64_t)v->elems[i]);
		else
			emit_u64(e, NULL, v->elems[i]);
	}
	emit_arr_end(e);
}

/*
 * --redact: a string field named comm or ...comm (prev_comm, next_comm,
 * parent_comm) is a process name, shown as --redact=comm says; any other
 * string of a tracepoint can hold anything (a uprobe's argument, a file
 * name, a device name): replaced whole.
 */
enum pd_priv tp_str_kind(const struct pd_tp_field *f)
{
	size_t n = strlen(f->name);

	return n >= 4 && strcmp(f->name + n - 4, "comm") == 0 ? PRIV_COMM
							      : PRIV_STR;
}

/* One field: integers signed as the format says, strings, arrays. */
static void emit_value(struct emitter *e, const struct pd_tp_field *f,
		       const struct pd_tp_value *v)
{
	const char *k = f->name;

	if (!v->ok) {
		emit_null(e, k);
		return;
	}
	switch (f->kind) {
	case PD_TP_INT:
		if (f->is_signed)
			emit_s64(e, k, (int64_t)v->u);
		else
			emit_u64(e, k, v->u);
		break;
	case PD_TP_PTR:
	case PD_TP_HEX: emit_hex(e, k, v->u); break;
	case PD_TP_STR:
	case PD_TP_DLOC_STR:
		emit_private(e, k, tp_str_kind(f), (const char *)v->p, v->len);
		break;
	case PD_TP_ARRAY:
	case PD_TP_DLOC_ARRAY: emit_elems(e, k, f, v); break;
	default: emit_hexbytes(e, k, v->p, v->len); break;
	}
}

static bool has_strings(const struct pd_tp_event *ev)
{
	for (uint32_t i = 0; i < ev->nfields; i++)
		if (ev->fields[i].kind != PD_TP_INT &&
		    ev->fields[i].kind != PD_TP_PTR &&
		    ev->fields[i].kind != PD_TP_HEX)
			return true;
	return false;
}

#define MAX_RUNS 64 /* spans of one print (tp_fast.c: 64 conversions) */

/*
 * The print output.  Under --redact the bytes a string field printed (the
 * sample's spans) show what that field shows, the rest is kept: numbers,
 * the format's text and the names __print_symbolic / __print_flags give.
 * A print whose spans are not known (a field's bytes printed in hex or
 * as an array's numbers) is withheld if the event has any field that is
 * not a number.
 */
static void emit_print(struct emitter *e, const struct pd_tp_sample *t)
{
	const struct pd_tp_event *ev = t->ev;
	struct redact_run runs[MAX_RUNS];

	if (!t->print) {
		emit_null(e, "print");
		return;
	}
	if (!emit_redacting(e) || (!t->nspans && !has_strings(ev))) {
		emit_bytes_str(e, "print", t->print, t->print_len);
		return;
	}
	if (!t->spans_known || t->nspans > MAX_RUNS) {
		emit_str(e, "print", "<redacted>");
		return;
	}
	for (uint32_t i = 0; i < t->nspans; i++) {
		const struct pd_tp_span *sp = &t->spans[i];
		const struct pd_tp_field *f = &ev->fields[sp->field];
		const struct pd_tp_value *v = &t->v[sp->field];
		bool str =
			(f->kind == PD_TP_STR || f->kind == PD_TP_DLOC_STR) &&
			v->ok;

		/* the field's value, for the token its field shows; a
		 * char array of another kind: the bytes printed */
		runs[i] = (struct redact_run){
			.off = sp->off,
			.len = sp->len,
			.kind = tp_str_kind(f),
			.src = str ? (const char *)v->p : t->print + sp->off,
			.srclen = str ? v->len : sp->len,
		};
	}
	emit_private_runs(e, "print", t->print, t->print_len, runs, t->nspans);
}

void emit_tp_sample(struct emitter *e, const struct pd_tp_sample *t)
{
	const struct pd_tp_event *ev = t->ev;

	if (!ev || !t->v)
		return;
	emit_row_begin(e, "fields");
	for (uint32_t i = 0; i < ev->nfields; i++)
		emit_value(e, &ev->fields[i], &t->v[i]);
	emit_obj_end(e);
	emit_print(e, t);
}

static const char *const kind_names[] = {
	[PD_TP_INT] = "integer",      [PD_TP_PTR] = "pointer",
	[PD_TP_HEX] = "hex",	      [PD_TP_STR] = "string",
	[PD_TP_ARRAY] = "array",      [PD_TP_DLOC_STR] = "string",
	[PD_TP_DLOC_ARRAY] = "array", [PD_TP_BYTES] = "bytes",
};

void emit_tp_format(struct emitter *e, const struct pd_tp_event *ev)
{
	emit_bool(e, "parsed", ev->parsed);
	if (!ev->parsed)
		return;
	emit_arr_begin(e, "fields");
	for (uint32_t i = 0; i < ev->nfields; i++) {
		const struct pd_tp_field *f = &ev->fields[i];

		emit_row_begin(e, NULL);
		emit_str(e, "name", f->name);
		emit_str(e, "type", f->type);
		emit_u64(e, "offset", f->offset);
		emit_u64(e, "size", f->size);
		emit_bool(e, "signed", f->is_signed);
		emit_bool(e, "common", f->is_common);
		emit_str(e, "shown_as", kind_names[f->kind]);
		if (f->kind == PD_TP_DLOC_STR || f->kind == PD_TP_DLOC_ARRAY)
			emit_str(e, "location",
				 f->rel_loc ? "__rel_loc" : "__data_loc");
		emit_obj_end(e);
	}
	emit_arr_end(e);
	if (ev->print_fmt)
		emit_str(e, "print_fmt", ev->print_fmt);
	else
		emit_null(e, "print_fmt");
	emit_bool(e, "print_parsed", ev->print_ok);
}
