// SPDX-License-Identifier: MIT
#include "emit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "fmtnum.h"

struct emitter *emit_new(FILE *out, enum emit_format fmt, bool hex)
{
	struct emitter *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->out = out;
	e->fmt = fmt;
	e->hex = hex;
	jw_init(&e->jw, out, fmt == EMIT_JSON_PRETTY);
	e->jw.lines = fmt == EMIT_JSON_LINES;
	e->fr[0] = (struct tframe){.kind = T_OBJ, .indent = 0};
	return e;
}

bool emit_free(struct emitter *e)
{
	bool ok;

	if (!e)
		return true;
	ok = !e->bad && e->depth == 0;
	if (e->fmt != EMIT_TEXT && !jw_finish(&e->jw)) /* flushes, always */
		ok = false;
	jw_flush(&e->jw); /* text goes through the same buffer */
	free(e);
	return ok;
}

bool emit_is_json(const struct emitter *e)
{
	return e->fmt != EMIT_TEXT;
}

bool emit_want_hex(const struct emitter *e)
{
	return e->hex;
}

/* ---- text helpers ---------------------------------------------------- */

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

/* Plain text out, without printf. */
static void out(struct emitter *e, const char *s)
{
	jw_raw(&e->jw, s, strlen(s));
}

/* Close an inline array row before anything else is printed under it. */
static void push(struct emitter *e, struct tframe f)
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
static void text_lead(struct emitter *e, const char *key)
{
	struct tframe *f = top(e);

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
			f->after_dump = false;
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
				jw_rawf(&e->jw, " %s=", f->key);
			} else {
				int used =
					f->indent - 2 + (int)strlen(f->key) + 1;

				indent(e, f->indent - 2);
				jw_rawf(&e->jw, "%s:", f->key);
				jw_rawf(&e->jw, "%*s",
					used < TEXT_VALUE_COL
						? TEXT_VALUE_COL - used
						: 1,
					"");
			}
		} else {
			jw_raws(&e->jw, parent->kind == T_ROW ? "," : ", ");
		}
		f->index++;
		break;
	}
	}
}

static void text_end_value(struct emitter *e)
{
	if (top(e)->kind == T_OBJ)
		jw_rawc(&e->jw, '\n');
}

void text_value(struct emitter *e, const char *key, const char *v)
{
	if (text_off(e))
		return;
	text_lead(e, key);
	out(e, v);
	text_end_value(e);
}

/* File bytes as text: printable ASCII and valid UTF-8 as is, rest \xNN. */
static void text_bytes(struct emitter *e, const char *s, size_t n, bool quote)
{
	const unsigned char *p = (const unsigned char *)s;

	if (quote)
		jw_rawc(&e->jw, '"');
	for (size_t i = 0; i < n;) {
		size_t len;

		if (p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\' ||
		    (quote && p[i] == '"')) {
			if (p[i] == '\\' || p[i] == '"')
				jw_rawf(&e->jw, "\\%c", p[i]);
			else if (p[i] == '\n')
				jw_raws(&e->jw, "\\n");
			else if (p[i] == '\t')
				jw_raws(&e->jw, "\\t");
			else
				jw_rawf(&e->jw, "\\x%02x", p[i]);
			i++;
			continue;
		}
		len = utf8_seq_len(p + i, n - i);
		if (len == 0) {
			jw_rawf(&e->jw, "\\x%02x", p[i]);
			i++;
			continue;
		}
		jw_raw(&e->jw, p + i, len);
		i += len;
	}
	if (quote)
		jw_rawc(&e->jw, '"');
}

/* Text for a container opened in the current frame. */
static void text_open(struct emitter *e, const char *key, const char *title,
		      enum tkind kind)
{
	struct tframe *f = top(e);
	char idx[32];
	int ind;

	if (text_off(e)) { /* hidden: the container and all it holds */
		e->text_skip++;
		return;
	}

	if (f->kind == T_ARR) {
		struct tframe *parent = &e->fr[e->depth - 1];

		if (!f->started) {
			f->started = true;
			if (parent->kind != T_ROW) {
				indent(e, f->indent - 2);
				jw_rawf(&e->jw, "%s:\n", f->key);
			}
		}
		if (!title && kind != T_ROW) {
			snprintf(idx, sizeof(idx), "[%u]", f->index);
			title = idx;
		}
		f->index++;
		if (parent->kind == T_ROW) {
			/* an element of an array in a row: {k=v ...} on the line */
			jw_rawf(&e->jw, f->index == 1 ? " %s={" : ",{", f->key);
			push(e, (struct tframe){.kind = kind == T_ARR ? T_ARR
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
			jw_rawf(&e->jw, "%*s", f->pad, "");
			f->pad = 0;
		}
		if (kind != T_ARR)
			jw_rawf(&e->jw, "%s%s:", f->first ? "" : " ",
				title ? title : "");
		f->first = false;
		push(e, (struct tframe){.kind = kind == T_ARR ? T_ARR : T_ROW,
					.indent = f->indent,
					.key = key});
		return;
	}
	ind = f->indent;
	if (kind == T_ARR) {
		/* title printed lazily by the first element */
		push(e, (struct tframe){.kind = T_ARR,
					.indent = ind + 2,
					.key = key ? key : ""});
		return;
	}
	indent(e, ind);
	if (kind == T_OBJ) {
		jw_rawf(&e->jw, "%s:\n", title);
	} else if (title) {
		int used = ind + (int)strlen(title) + 1;

		jw_rawf(&e->jw, "%s:", title);
		/* the padding is printed with the first field, if any */
		push(e, (struct tframe){.kind = kind,
					.indent = ind + 2,
					.first = true,
					.pad = used < TEXT_VALUE_COL
						       ? TEXT_VALUE_COL - used
						       : 1});
		return;
	}
	push(e,
	     (struct tframe){.kind = kind, .indent = ind + 2, .first = true});
}

static void text_close(struct emitter *e)
{
	struct tframe *f = top(e);

	if (e->text_skip) {
		e->text_skip--;
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
				jw_rawf(&e->jw, " %s=-", f->key);
			} else {
				int used =
					f->indent - 2 + (int)strlen(f->key) + 1;

				indent(e, f->indent - 2);
				jw_rawf(&e->jw, "%s:%*s(none)\n", f->key,
					used < TEXT_VALUE_COL
						? TEXT_VALUE_COL - used
						: 1,
					"");
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

/* ---- structure ------------------------------------------------------- */

void emit_doc_begin(struct emitter *e, const char *file)
{
	if (e->fmt == EMIT_TEXT) {
		jw_raws(&e->jw, "File: ");
		text_bytes(e, file, strlen(file), false);
		jw_rawc(&e->jw, '\n');
		return;
	}
	jw_begin_object(&e->jw);
	jw_key(&e->jw, "perfdump_json_version");
	jw_u64(&e->jw, 1);
	jw_key(&e->jw, "file");
	jw_string(&e->jw, file);
	if (e->fmt == EMIT_JSON_LINES) {
		/* the preamble line; each record is a line of its own */
		jw_key(&e->jw, "format");
		jw_string(&e->jw, "json-lines");
		jw_end_object(&e->jw);
	}
}

void emit_doc_end(struct emitter *e)
{
	if (e->fmt != EMIT_TEXT && e->fmt != EMIT_JSON_LINES)
		jw_end_object(&e->jw);
}

void json_key(struct emitter *e, const char *key)
{
	if (key)
		jw_key(&e->jw, key);
}

static void vopen(struct emitter *e, const char *key, enum tkind kind,
		  const char *fmt, va_list ap)
{
	char title[256];

	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		if (kind == T_ARR)
			jw_begin_array(&e->jw);
		else
			jw_begin_object(&e->jw);
		e->depth++;
		return;
	}
	if (fmt)
		vsnprintf(title, sizeof(title), fmt, ap);
	text_open(e, key, fmt ? title : NULL, kind);
}

void emit_row_begin_title(struct emitter *e, const char *key, const char *title)
{
	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_begin_object(&e->jw);
		e->depth++;
		return;
	}
	text_open(e, key, title, T_ROW);
}

void emit_row_begin(struct emitter *e, const char *key)
{
	emit_row_begin_title(e, key, NULL);
}

void emit_obj_begin(struct emitter *e, const char *key)
{
	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_begin_object(&e->jw);
		e->depth++;
		return;
	}
	text_open(e, key, NULL, T_OBJ);
}

void emit_obj_begin_t(struct emitter *e, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vopen(e, key, T_OBJ, fmt, ap);
	va_end(ap);
}

void emit_row_begin_t(struct emitter *e, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vopen(e, key, T_ROW, fmt, ap);
	va_end(ap);
}

void emit_obj_end(struct emitter *e)
{
	if (e->fmt != EMIT_TEXT) {
		jw_end_object(&e->jw);
		e->depth--;
		return;
	}
	text_close(e);
}

void emit_arr_begin(struct emitter *e, const char *key)
{
	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_begin_array(&e->jw);
		e->depth++;
		return;
	}
	text_open(e, key, NULL, T_ARR);
}

void emit_arr_end(struct emitter *e)
{
	if (e->fmt != EMIT_TEXT) {
		jw_end_array(&e->jw);
		e->depth--;
		return;
	}
	text_close(e);
}

/* ---- scalars --------------------------------------------------------- */

void emit_u64(struct emitter *e, const char *key, uint64_t v)
{
	char buf[32];

	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_u64(&e->jw, v);
		return;
	}
	fmt_u64(buf, v);
	text_value(e, key, buf);
}

void emit_s64(struct emitter *e, const char *key, int64_t v)
{
	char buf[32];

	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_s64(&e->jw, v);
		return;
	}
	fmt_s64(buf, v);
	text_value(e, key, buf);
}

void emit_double(struct emitter *e, const char *key, double v,
		 const char *text_fmt)
{
	char buf[64];

	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_double(&e->jw, v);
		return;
	}
	snprintf(buf, sizeof(buf), text_fmt ? text_fmt : "%g", v);
	text_value(e, key, buf);
}

void emit_hex(struct emitter *e, const char *key, uint64_t v)
{
	char buf[32];

	size_t n = fmt_hex(buf, v);

	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_string_n(&e->jw, buf, n);
		return;
	}
	text_value(e, key, buf);
}

void emit_offset(struct emitter *e, const char *key, uint64_t v)
{
	char buf[32];

	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_u64(&e->jw, v);
		return;
	}
	fmt_hex(buf, v);
	text_value(e, key, buf);
}

void emit_bool(struct emitter *e, const char *key, bool v)
{
	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_bool(&e->jw, v);
		return;
	}
	text_value(e, key, v ? "yes" : "no");
}

void emit_null(struct emitter *e, const char *key)
{
	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_null(&e->jw);
		return;
	}
	text_value(e, key, "-");
}

void emit_str(struct emitter *e, const char *key, const char *s)
{
	emit_bytes_str(e, key, s, strlen(s));
}

void emit_strf(struct emitter *e, const char *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	emit_str(e, key, buf);
}

void emit_bytes_str(struct emitter *e, const char *key, const char *s, size_t n)
{
	if (e->fmt != EMIT_TEXT) {
		json_key(e, key);
		jw_string_n(&e->jw, s ? s : "", s ? n : 0);
		return;
	}
	if (text_off(e))
		return;
	text_lead(e, key);
	/* in rows and inline arrays, quote what would be ambiguous */
	bool quote = top(e)->kind != T_OBJ &&
		     (n == 0 || memchr(s, ' ', n) || memchr(s, ',', n) ||
		      memchr(s, '=', n));
	text_bytes(e, s ? s : "", s ? n : 0, quote);
	text_end_value(e);
}

void emit_pstr(struct emitter *e, const char *key, const struct pd_str *s)
{
	emit_bytes_str(e, key, s->s, s->len);
}

void format_human_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = {"KiB", "MiB", "GiB",
					   "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	int u = -1;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
}

void emit_size(struct emitter *e, const char *key, uint64_t bytes)
{
	char buf[96], h[32];

	if (e->fmt != EMIT_TEXT || bytes < 10240 || top(e)->kind != T_OBJ) {
		emit_u64(e, key, bytes);
		return;
	}
	format_human_size(h, sizeof(h), bytes);
	snprintf(buf, sizeof(buf), "%" PRIu64 " (%s)", bytes, h);
	text_value(e, key, buf);
}

/* key + suffix into buf ("misc" + "_names"), cut to fit */
static const char *suffixed(char *buf, size_t len, const char *key,
			    const char *suffix)
{
	size_t k = strlen(key), n = strlen(suffix);

	if (k + n + 1 > len)
		k = len - n - 1;
	memcpy(buf, key, k);
	memcpy(buf + k, suffix, n + 1);
	return buf;
}

void emit_enum(struct emitter *e, const char *key, uint64_t v, const char *name)
{
	char buf[160];

	if (e->fmt != EMIT_TEXT) {
		char nkey[96];

		json_key(e, key);
		jw_u64(&e->jw, v);
		if (key) {
			suffixed(nkey, sizeof(nkey), key, "_name");
			jw_key(&e->jw, nkey);
			if (name)
				jw_string(&e->jw, name);
			else
				jw_null(&e->jw);
		}
		return;
	}
	if (name && top(e)->kind != T_OBJ) { /* rows: key=name */
		text_value(e, key, name);
		return;
	} else if (name)
		snprintf(buf, sizeof(buf), "%" PRIu64 " (%s)", v, name);
	else
		snprintf(buf, sizeof(buf), "<unknown: %" PRIu64 ">", v);
	text_value(e, key, buf);
}

void emit_flags(struct emitter *e, const char *key, uint64_t v,
		const char *const *names, size_t nnames)
{
	char buf[1024];
	size_t len;

	if (e->fmt != EMIT_TEXT) {
		char nkey[96];

		fmt_hex(buf, v);
		json_key(e, key);
		jw_string(&e->jw, buf);
		if (!key)
			return;
		suffixed(nkey, sizeof(nkey), key, "_names");
		jw_key(&e->jw, nkey);
		jw_begin_array(&e->jw);
		for (unsigned b = 0; b < 64; b++) {
			if (!(v >> b & 1))
				continue;
			if (b < nnames && names[b]) {
				jw_string(&e->jw, names[b]);
			} else {
				char bit[16];

				snprintf(bit, sizeof(bit), "bit %u", b);
				jw_string(&e->jw, bit);
			}
		}
		jw_end_array(&e->jw);
		return;
	}
	len = fmt_hex(buf, v);
	if (v) {
		const char *sep = top(e)->kind == T_OBJ ? " (" : "(";

		for (unsigned b = 0; b < 64 && len < sizeof(buf) - 40; b++) {
			if (!(v >> b & 1))
				continue;
			if (b < nnames && names[b])
				len += (size_t)snprintf(buf + len,
							sizeof(buf) - len,
							"%s%s", sep, names[b]);
			else
				len += (size_t)snprintf(buf + len,
							sizeof(buf) - len,
							"%sbit %u", sep, b);
			sep = "|";
		}
		snprintf(buf + len, sizeof(buf) - len, ")");
	}
	if (text_off(e))
		return;
	text_lead(e, key);
	/* names may contain spaces ("bit 40"): quote inside rows */
	if (top(e)->kind != T_OBJ && strchr(buf, ' '))
		jw_rawf(&e->jw, "\"%s\"", buf);
	else
		jw_raws(&e->jw, buf);
	text_end_value(e);
}
