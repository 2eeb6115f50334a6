// SPDX-License-Identifier: MIT
/*
 * The emitter's CSV rendering (EMIT_CSV): the tables opened with
 * emit_table_begin, one line per row, as RFC 4180 quotes them; everything
 * else is left out.  Cells are the text rendering's values, so strings
 * from the file pass through text_escape() first.
 */
#include <string.h>

#include "fmt/emit_int.h"

void emit_table_begin(struct emitter *e, const char *key,
		      const char *const *cols, unsigned ncols)
{
	if (e->fmt != EMIT_CSV) {
		emit_arr_begin(e, key);
		return;
	}
	if (e->text_skip || e->fr[e->depth].csv_row) {
		e->text_skip++; /* a table inside a row: not a cell */
		return;
	}
	for (unsigned i = 0; i < ncols; i++) {
		if (i)
			jw_rawc(&e->jw, ',');
		csv_bytes(e, cols[i], strlen(cols[i]));
	}
	jw_rawc(&e->jw, '\n');
	e->cols = cols;
	e->ncols = ncols;
	text_push(e, (struct tframe){.kind = T_ARR, .csv_table = true});
}

void emit_table_end(struct emitter *e)
{
	emit_arr_end(e);
}

/* A container in CSV: a row of a table is a line; anything else only
 * keeps the nesting (nothing is written), and inside a row it is left
 * out whole. */
void csv_open(struct emitter *e, enum tkind kind)
{
	struct tframe *f = top(e);

	if (e->text_skip || f->csv_row) {
		e->text_skip++;
		return;
	}
	if (f->csv_table && kind != T_ARR) {
		e->col = 0;
		text_push(e, (struct tframe){.kind = T_ROW,
					     .first = true,
					     .csv_row = true});
		return;
	}
	text_push(e, (struct tframe){.kind = kind});
}

void csv_close(struct emitter *e)
{
	struct tframe *f = top(e);

	if (e->depth == 0) {
		e->bad = true;
		return;
	}
	e->depth--;
	if (f->csv_row) {
		if (e->col != e->ncols)
			e->bad = true; /* a column left out */
		jw_rawc(&e->jw, '\n');
	}
	if (f->csv_table)
		e->cols = NULL;
}

void csv_lead(struct emitter *e, const char *key)
{
	struct tframe *f = top(e);

	if (!f->first)
		jw_rawc(&e->jw, ',');
	f->first = false;
	if (!e->cols || e->col >= e->ncols || !key ||
	    strcmp(key, e->cols[e->col]) != 0)
		e->bad = true; /* not the column that comes next */
	e->col++;
}

/* text_escape's output, with '"' doubled (inside a quoted field) */
static void put_quoted(void *ctx, const char *p, size_t n)
{
	struct json_writer *jw = ctx;
	const char *q;

	while ((q = memchr(p, '"', n))) {
		jw_raw(jw, p, (size_t)(q - p) + 1);
		jw_rawc(jw, '"');
		n -= (size_t)(q - p) + 1;
		p = q + 1;
	}
	jw_raw(jw, p, n);
}

void csv_bytes(struct emitter *e, const char *s, size_t n)
{
	/* RFC 4180 2.6, 2.7: a field holding a comma or a double quote is
	 * quoted, its quotes doubled; text_escape leaves no line break, and
	 * spaces at either end are kept by quoting them too */
	bool quote = n && (memchr(s, ',', n) || memchr(s, '"', n) ||
			   s[0] == ' ' || s[n - 1] == ' ');

	if (quote)
		jw_rawc(&e->jw, '"');
	text_escape(s, n, false, put_quoted, &e->jw);
	if (quote)
		jw_rawc(&e->jw, '"');
}
