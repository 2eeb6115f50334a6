// SPDX-License-Identifier: MIT
/* Byte dumps (hex strings, canonical hex dumps) and the diagnostics list. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"

void emit_hexstr(struct emitter *e, const char *key, const uint8_t *p, size_t n)
{
	char *buf = malloc(2 * n + 1);

	if (!buf) {
		e->bad = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", p[i]);
	buf[2 * n] = 0;
	if (is_json(e)) {
		json_key(e, key);
		jw_string(&e->jw, buf);
	} else {
		text_value(e, key, buf);
	}
	free(buf);
}

void emit_hexbytes(struct emitter *e, const char *key, const uint8_t *p,
		   size_t n)
{
	if (e->red)
		emit_str(e, key, "<redacted>");
	else
		emit_hexstr(e, key, p, n);
}

void emit_hexdump(struct emitter *e, const char *key, const uint8_t *p,
		  size_t n, uint64_t off)
{
	if (is_json(e)) {
		json_key(e, key);
		jw_begin_object(&e->jw);
		jw_key(&e->jw, "offset");
		jw_u64(&e->jw, off);
		jw_key(&e->jw, "size");
		jw_u64(&e->jw, n);
		if (e->red) { /* the bytes may hold any string */
			jw_key(&e->jw, "redacted");
			jw_bool(&e->jw, true);
			jw_end_object(&e->jw);
			return;
		}
		jw_key(&e->jw, "hex");
		/* streamed: a section can be 64 MiB, its hex twice that */
		jw_hex(&e->jw, p, n);
		jw_end_object(&e->jw);
		return;
	}
	if (text_off(e) || e->fmt == EMIT_CSV) /* not a cell */
		return;

	struct tframe *f = top(e);
	int ind = f->indent;

	if (f->kind == T_ROW) {
		/* a dump never fits a row: finish the row's line first */
		jw_rawc(&e->jw, '\n');
	}
	indent(e, ind);
	key = key ? key : "raw";
	text_bytes(e, key, strlen(key), false);
	jw_rawf(&e->jw, ": %zu bytes at 0x%" PRIx64 "%s\n", n, off,
		e->red ? " (not shown: --redact)" : "");
	for (size_t i = 0; i < n && !e->red; i += 16) {
		indent(e, ind + 2);
		jw_rawf(&e->jw, "0x%08" PRIx64 " ", off + i);
		for (size_t j = 0; j < 16; j++) {
			if (j == 8)
				jw_rawc(&e->jw, ' ');
			if (i + j < n)
				jw_rawf(&e->jw, " %02x", p[i + j]);
			else
				jw_raws(&e->jw, "   ");
		}
		/* the ASCII column: printable ASCII, '.' for any other byte */
		jw_raws(&e->jw, "  |");
		for (size_t j = 0; j < 16 && i + j < n; j++) {
			unsigned char c = p[i + j];

			jw_rawc(&e->jw, c >= 0x20 && c < 0x7f ? c : '.');
		}
		jw_raws(&e->jw, "|\n");
	}
	if (f->kind == T_ROW)
		f->after_dump = true;
}

void emit_raw(struct emitter *e, const uint8_t *p, size_t n, uint64_t off)
{
	if (e->hex && p)
		emit_hexdump(e, "raw", p, n, off);
}

static void emit_diag_list(struct emitter *e, const struct pd_diags *d,
			   enum pd_sev sev, const char *key)
{
	emit_arr_begin(e, key);
	for (size_t i = 0; i < d->n; i++) {
		const struct pd_diag *g = &d->v[i];

		if (g->sev != sev)
			continue;
		emit_obj_begin(e, NULL);
		if (g->offset == PD_NO_OFFSET)
			emit_null(e, "offset");
		else
			emit_offset(e, "offset", g->offset);
		emit_str(e, "what", g->what ? g->what : "");
		emit_str(e, "detail", g->detail ? g->detail : "");
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* A diagnostic's text: the user-name rule under --redact, as any string. */
static void diag_text(struct emitter *e, const char *s)
{
	size_t n = strlen(s);

	if (e->red)
		redact_str(e->red, PRIV_NONE, s, n, &s, &n);
	text_bytes(e, s, n, false);
}

void emit_diags(struct emitter *e, const struct pd_diags *d)
{
	if (is_json(e)) {
		/* JSON lines: the diagnostics are the last line */
		if (e->fmt == EMIT_JSON_LINES)
			jw_begin_object(&e->jw);
		emit_diag_list(e, d, PD_ERR, "errors");
		emit_diag_list(e, d, PD_WARN, "warnings");
		if (d->dropped)
			emit_u64(e, "diagnostics_dropped", d->dropped);
		if (e->fmt == EMIT_JSON_LINES)
			jw_end_object(&e->jw);
		return;
	}
	if (d->n == 0 || text_off(e))
		return;
	jw_raws(&e->jw, "Problems:\n");
	for (size_t i = 0; i < d->n; i++) {
		const struct pd_diag *g = &d->v[i];

		jw_rawf(&e->jw,
			"  %s: ", g->sev == PD_ERR ? "error" : "warning");
		if (g->offset != PD_NO_OFFSET)
			jw_rawf(&e->jw, "0x%" PRIx64 ": ", g->offset);
		if (g->what)
			diag_text(e, g->what);
		jw_raws(&e->jw, ": ");
		if (g->detail)
			diag_text(e, g->detail);
		jw_rawc(&e->jw, '\n');
	}
	if (d->dropped)
		jw_rawf(&e->jw, "  (%zu more not shown)\n", d->dropped);
}
