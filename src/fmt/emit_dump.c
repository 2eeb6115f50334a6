// SPDX-License-Identifier: MIT
/* Byte dumps (hex strings, canonical hex dumps) and the diagnostics list. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/emit_int.h"
#include "lib/base/hex.h"

/*
 * Bytes as hex digits (build-ids, RAW payloads, -x): the digits from a
 * table (snprintf per byte was three quarters of records' time on a
 * tracepoint recording without its formats); JSON streams them, text
 * formats them on the stack when they fit.
 */
void emit_hexstr(struct emitter *e, const char *key, const uint8_t *p, size_t n)
{
	char small[513], *buf;

	if (is_json(e)) {
		json_key(e, key);
		jw_hex(&e->jw, p, n);
		return;
	}
	buf = n < sizeof(small) / 2 ? small : malloc(2 * n + 1);
	if (!buf) {
		e->bad = true;
		return;
	}
	pd_hex_bytes(buf, p, n);
	text_value(e, key, buf);
	if (buf != small)
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

/*
 * One line of a text dump, "0x%08x  xx xx ...  xx xx  |ascii|\n", of the
 * n (1 to 16) bytes at p, at file offset off; returns its length.  Built
 * by hand: a dump is a megabyte of these, and printf per byte is slow.
 */
static size_t dump_line(char *b, const uint8_t *p, size_t n, uint64_t off)
{
	static const char digits[] = "0123456789abcdef";
	size_t k = 0;
	int nd = 8;

	while (nd < 16 && off >> (4 * nd))
		nd++;
	b[k++] = '0';
	b[k++] = 'x';
	for (int d = nd - 1; d >= 0; d--)
		b[k++] = digits[(off >> (4 * d)) & 15];
	b[k++] = ' ';
	for (size_t j = 0; j < 16; j++) {
		if (j == 8)
			b[k++] = ' ';
		b[k++] = ' ';
		b[k++] = j < n ? digits[p[j] >> 4] : ' ';
		b[k++] = j < n ? digits[p[j] & 15] : ' ';
	}
	/* the ASCII column: printable ASCII, '.' for any other byte */
	memcpy(b + k, "  |", 3);
	k += 3;
	for (size_t j = 0; j < n; j++)
		b[k++] = p[j] >= 0x20 && p[j] < 0x7f ? (char)p[j] : '.';
	b[k++] = '|';
	b[k++] = '\n';
	return k;
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

	if (f->kind == T_ROW && !f->after_line) {
		/* a dump never fits a row: finish the row's line first */
		jw_rawc(&e->jw, '\n');
	}
	f->after_line = false;
	indent(e, ind);
	key = key ? key : "raw";
	text_bytes(e, key, strlen(key), false);
	jw_rawf(&e->jw, ": %zu bytes at 0x%" PRIx64 "%s\n", n, off,
		e->red ? " (not shown: --redact)" : "");
	for (size_t i = 0; i < n && !e->red; i += 16) {
		char line[96];

		indent(e, ind + 2);
		jw_raw(&e->jw, line,
		       dump_line(line, p + i, n - i < 16 ? n - i : 16,
				 off + i));
	}
	if (f->kind == T_ROW)
		f->after_dump = true;
}

void emit_raw(struct emitter *e, const uint8_t *p, size_t n, uint64_t off)
{
	if (e->hex && p)
		emit_hexdump(e, "raw", p, n, off);
}

bool emit_dump_repeats(const struct emitter *e, uint64_t off, uint64_t n)
{
	uint64_t end = off + n < off ? UINT64_MAX : off + n;

	for (unsigned i = 0; n && i < e->nmarked; i++)
		if (off < e->marked[i].end && e->marked[i].off < end)
			return true;
	return false;
}

void emit_dump_mark(struct emitter *e, uint64_t off, uint64_t n)
{
	if (!n || e->nmarked == EMIT_MAX_MARKS)
		return;
	e->marked[e->nmarked].off = off;
	e->marked[e->nmarked].end = off + n < off ? UINT64_MAX : off + n;
	e->nmarked++;
}

void emit_hexdump_repeat(struct emitter *e, const char *key, size_t n,
			 uint64_t off)
{
	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_begin_object(&e->jw);
		jw_key(&e->jw, "offset");
		jw_u64(&e->jw, off);
		jw_key(&e->jw, "size");
		jw_u64(&e->jw, n);
		jw_key(&e->jw, "repeat");
		jw_bool(&e->jw, true);
		jw_end_object(&e->jw);
		return;
	}
	if (text_off(e))
		return;

	struct tframe *f = top(e);

	if (f->kind == T_ROW && !f->after_line)
		jw_rawc(&e->jw, '\n');
	f->after_line = false;
	indent(e, f->indent);
	text_bytes(e, key, strlen(key), false);
	jw_rawf(&e->jw,
		": %zu bytes at 0x%" PRIx64 ": overlap bytes dumped above, "
		"not repeated\n",
		n, off);
	if (f->kind == T_ROW)
		f->after_dump = true;
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

/* ---- lines under a row (text only) ----------------------------------- */

static bool line_on(const struct emitter *e)
{
	return e->fmt == EMIT_TEXT && !text_off(e);
}

void emit_line_begin(struct emitter *e)
{
	struct tframe *f;

	if (!line_on(e))
		return;
	f = top(e);
	if (f->kind == T_ROW && !f->after_dump)
		jw_rawc(&e->jw, '\n'); /* the row's line ends first */
	if (f->kind == T_ROW)
		f->after_dump = f->after_line = true;
	indent(e, f->indent + 2);
}

void emit_line_put(struct emitter *e, const char *s)
{
	if (line_on(e))
		jw_raw(&e->jw, s, strlen(s));
}

void emit_line_put_str(struct emitter *e, enum pd_priv kind, const char *s)
{
	size_t n = strlen(s);

	if (!line_on(e))
		return;
	if (e->red)
		redact_str(e->red, kind, s, n, &s, &n);
	text_bytes(e, s, n, false);
}

void emit_line_end(struct emitter *e)
{
	if (line_on(e))
		jw_rawc(&e->jw, '\n');
}
