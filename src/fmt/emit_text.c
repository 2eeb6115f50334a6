// SPDX-License-Identifier: MIT
/*
 * The emitter's text rendering: aligned readelf-like rows, titled blocks,
 * inline arrays and rows (the text contract in emit.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fmt/emit_int.h"
#include "fmt/json.h"
#include "fmt/plain.h"

struct tframe *top(struct emitter *e)
{
	return &e->fr[e->depth];
}

void indent(struct emitter *e, int n)
{
	static const char spaces[] = "                                        ";

	while (n > 0) {
		int k = n < (int)sizeof(spaces) - 1 ? n
						    : (int)sizeof(spaces) - 1;

		jw_raw(&e->jw, spaces, (size_t)k);
		n -= k;
	}
}

/*
 * Text out: keys, titles and values all go through text_escape(), so a
 * string from the file embedded in any of them cannot reach the terminal
 * raw.  Only the layout (indentation, ':', '=', ',', newlines) is written
 * around it directly.
 */
static void out(struct emitter *e, const char *s)
{
	size_t n = 0;

	/* the usual key or value, printable ASCII, goes out as it is */
	while (s[n] >= 0x20 && s[n] < 0x7f && s[n] != '\\')
		n++;
	if (!s[n])
		jw_raw(&e->jw, s, n);
	else
		text_bytes(e, s, n + strlen(s + n), false);
}

/* Close an inline array row before anything else is printed under it. */
void text_push(struct emitter *e, struct tframe f)
{
	if (e->depth + 1 >= TEXT_MAX_DEPTH) {
		e->bad = true;
		return;
	}
	e->fr[++e->depth] = f;
}

/*
 * Print the lead-in for a scalar value with this key in the current
 * frame; the caller then prints the value text.
 */
void text_lead(struct emitter *e, const char *key)
{
	struct tframe *f = top(e);

	if (e->fmt == EMIT_CSV) {
		csv_lead(e, key);
		return;
	}
	switch (f->kind) {
	case T_OBJ: {
		int used = f->indent + (int)strlen(key ? key : "") + 1;

		indent(e, f->indent);
		out(e, key ? key : "");
		jw_rawc(&e->jw, ':');
		indent(e, used < TEXT_VALUE_COL ? TEXT_VALUE_COL - used : 1);
		break;
	}
	case T_ROW:
		if (f->after_dump) {
			indent(e, f->indent - 2);
			f->after_dump = f->after_line = false;
			f->first = true;
		}
		if (f->pad) {
			indent(e, f->pad);
			f->pad = 0;
		}
		if (!f->first)
			jw_rawc(&e->jw, ' ');
		out(e, key ? key : "");
		jw_rawc(&e->jw, '=');
		f->first = false;
		break;
	case T_ARR: {
		struct tframe *parent = &e->fr[e->depth - 1];

		if (!f->started) {
			f->started = true;
			f->inline_arr = true;
			if (parent->kind == T_ROW) {
				jw_rawc(&e->jw, ' ');
				out(e, f->key);
				jw_rawc(&e->jw, '=');
			} else {
				int used =
					f->indent - 2 + (int)strlen(f->key) + 1;

				indent(e, f->indent - 2);
				out(e, f->key);
				jw_rawc(&e->jw, ':');
				indent(e, used < TEXT_VALUE_COL
						  ? TEXT_VALUE_COL - used
						  : 1);
			}
		} else {
			jw_raws(&e->jw, parent->kind == T_ROW ? "," : ", ");
		}
		f->index++;
		break;
	}
	}
}

void text_end_value(struct emitter *e)
{
	if (top(e)->kind == T_OBJ)
		jw_rawc(&e->jw, '\n');
}

bool text_line_value(struct emitter *e, const char *s, size_t n)
{
	if (!e->line_owed)
		return false;
	e->line_owed = false; /* "NAME: " is out: the line's value */
	text_bytes(e, s, n, false);
	jw_rawc(&e->jw, '\n');
	return true;
}

void text_value(struct emitter *e, const char *key, const char *v)
{
	if ((e->line_owed && text_line_value(e, v, strlen(v))) || text_off(e))
		return;
	text_lead(e, key);
	if (e->fmt == EMIT_CSV)
		csv_bytes(e, v, strlen(v));
	else
		out(e, v);
	text_end_value(e);
}

void text_number(struct emitter *e, const char *key, const char *digits,
		 size_t n)
{
	if (text_line_value(e, digits, n) || text_off(e))
		return;
	text_lead(e, key);
	jw_raw(&e->jw, digits, n);
	text_end_value(e);
}

/*
 * Does the text rule pass the bytes at p through unchanged, and how many?
 * Printable ASCII other than '\\' (and '"' when quoting) and valid UTF-8
 * other than the C1 controls U+0080..U+009F (C2 80..C2 9F) pass; 0 means
 * the byte at p is escaped.
 */
static size_t plain_len(const unsigned char *p, size_t n, bool quote)
{
	size_t len;

	if (p[0] >= 0x20 && p[0] < 0x7f)
		return p[0] == '\\' || (quote && p[0] == '"') ? 0 : 1;
	if (p[0] < 0x80)
		return 0; /* C0, DEL */
	len = utf8_seq_len(p, n);
	if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 0; /* C1 */
	return len;
}

void text_escape(const char *s, size_t n, bool quote, text_put_fn *put,
		 void *ctx)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t run = i, len;
		char esc[8];
		size_t k = 0;

		/* the bytes that pass go out in one piece: printable ASCII
		 * (nearly all text) in a tight loop, the rest by plain_len */
		for (;;) {
			run = plain_words(p, run, n, quote);
			while (run < n && p[run] >= 0x20 && p[run] < 0x7f &&
			       p[run] != '\\' && (!quote || p[run] != '"'))
				run++;
			if (run >= n ||
			    !(len = plain_len(p + run, n - run, quote)))
				break;
			run += len;
		}
		if (run > i) {
			put(ctx, s + i, run - i);
			i = run;
			continue;
		}
		esc[k++] = '\\';
		if (p[i] == '\\' || p[i] == '"') {
			esc[k++] = (char)p[i];
		} else if (p[i] == '\n') {
			esc[k++] = 'n';
		} else if (p[i] == '\t') {
			esc[k++] = 't';
		} else {
			esc[k++] = 'x';
			esc[k++] = hex[p[i] >> 4];
			esc[k++] = hex[p[i] & 15];
			if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 &&
			    p[i + 1] < 0xa0) { /* C1: both of its bytes */
				i++;
				esc[k++] = '\\';
				esc[k++] = 'x';
				esc[k++] = hex[p[i] >> 4];
				esc[k++] = hex[p[i] & 15];
			}
		}
		put(ctx, esc, k);
		i++;
	}
}

static void put_jw(void *ctx, const char *p, size_t n)
{
	jw_raw(ctx, p, n);
}

void text_bytes(struct emitter *e, const char *s, size_t n, bool quote)
{
	if (e->fmt == EMIT_CSV) {
		csv_bytes(e, s, n);
		return;
	}
	if (quote)
		jw_rawc(&e->jw, '"');
	text_escape(s, n, quote, put_jw, &e->jw);
	if (quote)
		jw_rawc(&e->jw, '"');
}

void text_arr_start(struct emitter *e)
{
	struct tframe *f = top(e);

	if (f->started)
		return;
	f->started = true;
	if (e->fr[e->depth - 1].kind != T_ROW) {
		indent(e, f->indent - 2);
		out(e, f->key);
		jw_raws(&e->jw, ":\n");
	}
}

/* Text for a container opened in the current frame. */
void text_open(struct emitter *e, const char *key, const char *title,
	       enum tkind kind)
{
	struct tframe *f = top(e);
	char idx[32];
	int ind;

	if (e->fmt == EMIT_CSV) {
		csv_open(e, kind);
		return;
	}
	if (text_off(e)) { /* hidden: the container and all it holds */
		e->text_skip++;
		return;
	}

	if (f->kind == T_ARR) {
		struct tframe *parent = &e->fr[e->depth - 1];

		text_arr_start(e);
		if (!title && kind != T_ROW) {
			snprintf(idx, sizeof(idx), "[%u]", f->index);
			title = idx;
		}
		f->index++;
		if (parent->kind == T_ROW) {
			/* an element of an array in a row: {k=v ...} on the line */
			if (f->index == 1) {
				jw_rawc(&e->jw, ' ');
				out(e, f->key);
				jw_raws(&e->jw, "={");
			} else {
				jw_raws(&e->jw, ",{");
			}
			text_push(e,
				  (struct tframe){.kind = kind == T_ARR ? T_ARR
									: T_ROW,
						  .indent = f->indent,
						  .first = true,
						  .brace = true,
						  .key = key});
			return;
		}
	} else if (!title) {
		title = key ? key : "";
	}
	if (f->kind == T_ROW) {
		/* nested inside a row: stay on the line; an array's elements
		 * print its " key=" */
		if (f->pad && kind != T_ARR) { /* the row title's padding */
			indent(e, f->pad);
			f->pad = 0;
		}
		if (kind != T_ARR) {
			if (!f->first)
				jw_rawc(&e->jw, ' ');
			out(e, title ? title : "");
			jw_rawc(&e->jw, ':');
		}
		f->first = false;
		text_push(e,
			  (struct tframe){.kind = kind == T_ARR ? T_ARR : T_ROW,
					  .indent = f->indent,
					  .key = key});
		return;
	}
	ind = f->indent;
	if (kind == T_ARR) {
		/* title printed lazily by the first element */
		text_push(e, (struct tframe){.kind = T_ARR,
					     .indent = ind + 2,
					     .key = key ? key : ""});
		return;
	}
	indent(e, ind);
	if (kind == T_OBJ) {
		out(e, title);
		jw_raws(&e->jw, ":\n");
	} else if (title) {
		int used = ind + (int)strlen(title) + 1;

		out(e, title);
		jw_rawc(&e->jw, ':');
		/* the padding is printed with the first field, if any */
		text_push(e,
			  (struct tframe){.kind = kind,
					  .indent = ind + 2,
					  .first = true,
					  .pad = used < TEXT_VALUE_COL
							 ? TEXT_VALUE_COL - used
							 : 1});
		return;
	}
	text_push(e, (struct tframe){
			     .kind = kind, .indent = ind + 2, .first = true});
}

void text_close(struct emitter *e)
{
	struct tframe *f = top(e);

	if (e->text_skip) {
		e->text_skip--;
		return;
	}
	if (e->fmt == EMIT_CSV) {
		csv_close(e);
		return;
	}

	if (e->depth == 0) {
		e->bad = true;
		return;
	}
	e->depth--;
	struct tframe *parent = top(e);

	if (f->brace) {
		jw_rawc(&e->jw, '}');
		return;
	}
	if (f->kind == T_ARR) {
		if (!f->started) {
			if (parent->kind == T_ROW) {
				jw_rawc(&e->jw, ' ');
				out(e, f->key);
				jw_raws(&e->jw, "=-");
			} else {
				int used =
					f->indent - 2 + (int)strlen(f->key) + 1;

				indent(e, f->indent - 2);
				out(e, f->key);
				jw_rawc(&e->jw, ':');
				indent(e, used < TEXT_VALUE_COL
						  ? TEXT_VALUE_COL - used
						  : 1);
				jw_raws(&e->jw, "(none)\n");
			}
		} else if (f->inline_arr && parent->kind != T_ROW) {
			jw_rawc(&e->jw, '\n');
		}
	} else if (f->kind == T_ROW && parent->kind != T_ROW &&
		   !f->after_dump) {
		jw_rawc(&e->jw, '\n');
	}
}

void emit_text_hide(struct emitter *e, bool hide)
{
	e->text_hidden = hide;
}
