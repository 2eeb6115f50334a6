// SPDX-License-Identifier: MIT
/*
 * The emitter's entry points: each call writes JSON through the JSON
 * writer, or hands the text rendering to emit_text.c.
 */
#include "fmt/emit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/emit_int.h"
#include "fmt/fmtnum.h"

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
	if (is_json(e) && !jw_finish(&e->jw)) /* flushes, always */
		ok = false;
	jw_flush(&e->jw); /* text goes through the same buffer */
	free(e);
	return ok;
}

int emit_flush(struct emitter *e)
{
	jw_flush(&e->jw);
	return fflush(e->jw.out);
}

bool emit_is_json(const struct emitter *e)
{
	return is_json(e);
}

bool emit_want_hex(const struct emitter *e)
{
	return e->hex;
}

void emit_set_redact(struct emitter *e, struct redactor *r)
{
	e->red = r;
}

bool emit_redacting(const struct emitter *e)
{
	return e->red != NULL;
}

/* ---- structure ------------------------------------------------------- */

/* The input's name as a document shows it: a path like any other. */
static const char *doc_file(const struct emitter *e, const char *file,
			    size_t *n)
{
	*n = strlen(file);
	if (e->red)
		redact_str(e->red, PRIV_PATH, file, *n, &file, n);
	return file;
}

void emit_doc_begin(struct emitter *e, const char *file)
{
	if (e->fmt == EMIT_CSV)
		return; /* the table is the document */
	size_t n;

	file = doc_file(e, file, &n);
	if (e->fmt == EMIT_TEXT) {
		jw_raws(&e->jw, "File: ");
		text_bytes(e, file, n, false);
		jw_rawc(&e->jw, '\n');
		return;
	}
	jw_begin_object(&e->jw);
	jw_key(&e->jw, "perfdump_json_version");
	jw_u64(&e->jw, 1);
	jw_key(&e->jw, "file");
	jw_string_n(&e->jw, file, n);
	if (e->fmt == EMIT_JSON_LINES) {
		/* the preamble line; each record is a line of its own */
		jw_key(&e->jw, "format");
		jw_string(&e->jw, "json-lines");
		jw_end_object(&e->jw);
	}
}

void emit_doc_begin_line(struct emitter *e, const char *file)
{
	if (e->fmt != EMIT_TEXT) {
		emit_doc_begin(e, file);
		return;
	}
	size_t n;

	file = doc_file(e, file, &n);
	text_bytes(e, file, n, false);
	jw_raws(&e->jw, ": ");
	e->one_line = e->line_owed = true;
}

void emit_doc_end(struct emitter *e)
{
	if (is_json(e) && e->fmt != EMIT_JSON_LINES)
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

	if (is_json(e)) {
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
	if (is_json(e)) {
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
	if (is_json(e)) {
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
	if (is_json(e)) {
		jw_end_object(&e->jw);
		e->depth--;
		return;
	}
	text_close(e);
}

void emit_arr_begin(struct emitter *e, const char *key)
{
	if (is_json(e)) {
		json_key(e, key);
		jw_begin_array(&e->jw);
		e->depth++;
		return;
	}
	text_open(e, key, NULL, T_ARR);
}

void emit_arr_end(struct emitter *e)
{
	if (is_json(e)) {
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

	if (is_json(e)) {
		json_key(e, key);
		jw_u64(&e->jw, v);
		return;
	}
	text_number(e, key, buf, fmt_u64(buf, v));
}

void emit_s64(struct emitter *e, const char *key, int64_t v)
{
	char buf[32];

	if (is_json(e)) {
		json_key(e, key);
		jw_s64(&e->jw, v);
		return;
	}
	text_number(e, key, buf, fmt_s64(buf, v));
}

void emit_fixed(struct emitter *e, const char *key, uint64_t v,
		unsigned decimals)
{
	char buf[32];

	if (is_json(e)) {
		json_key(e, key);
		jw_fixed(&e->jw, v, decimals);
		return;
	}
	text_number(e, key, buf, fmt_fixed(buf, v, decimals));
}

void emit_double(struct emitter *e, const char *key, double v,
		 const char *text_fmt)
{
	char buf[320]; /* "%.2f" of the largest double */

	if (is_json(e)) {
		json_key(e, key);
		jw_double(&e->jw, v);
		return;
	}
	snprintf(buf, sizeof(buf), text_fmt ? text_fmt : "%g", v);
	text_number(e, key, buf, strlen(buf));
}

void emit_percent(struct emitter *e, const char *key, uint64_t part,
		  uint64_t whole, int decimals)
{
	double v = whole ? 100.0 * (double)part / (double)whole : 0.0;
	char buf[320];

	if (is_json(e)) {
		json_key(e, key);
		jw_double(&e->jw, v);
		return;
	}
	/* a CSV cell is a number: the column's name says the unit */
	snprintf(buf, sizeof(buf), e->fmt == EMIT_CSV ? "%.*f" : "%.*f%%",
		 decimals, v);
	text_number(e, key, buf, strlen(buf));
}

void emit_hex(struct emitter *e, const char *key, uint64_t v)
{
	char buf[32];

	if (is_json(e)) {
		json_key(e, key);
		jw_hex_u64(&e->jw, v);
		return;
	}
	text_number(e, key, buf, fmt_hex(buf, v));
}

void emit_offset(struct emitter *e, const char *key, uint64_t v)
{
	char buf[32];

	if (is_json(e)) {
		json_key(e, key);
		jw_u64(&e->jw, v);
		return;
	}
	text_number(e, key, buf, fmt_hex(buf, v));
}

void emit_bool(struct emitter *e, const char *key, bool v)
{
	if (is_json(e)) {
		json_key(e, key);
		jw_bool(&e->jw, v);
		return;
	}
	text_value(e, key, v ? "yes" : "no");
}

void emit_null(struct emitter *e, const char *key)
{
	if (is_json(e)) {
		json_key(e, key);
		jw_null(&e->jw);
		return;
	}
	text_value(e, key, e->fmt == EMIT_CSV ? "" : "-");
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

/* A string as it is shown: --redact has been applied. */
void write_str(struct emitter *e, const char *key, const char *s, size_t n)
{
	if (is_json(e)) {
		json_key(e, key);
		jw_string_n(&e->jw, s ? s : "", s ? n : 0);
		return;
	}
	if (text_line_value(e, s ? s : "", s ? n : 0) || text_off(e))
		return;
	text_lead(e, key);
	/* in rows and inline arrays, quote what would be ambiguous */
	bool quote = top(e)->kind != T_OBJ &&
		     (n == 0 || memchr(s, ' ', n) || memchr(s, ',', n) ||
		      memchr(s, '=', n));
	text_bytes(e, s ? s : "", s ? n : 0, quote);
	text_end_value(e);
}

void emit_private(struct emitter *e, const char *key, enum pd_priv kind,
		  const char *s, size_t n)
{
	if (e->red && s)
		redact_str(e->red, kind, s, n, &s, &n);
	write_str(e, key, s, n);
}

void emit_private_runs(struct emitter *e, const char *key, const char *s,
		       size_t n, const struct redact_run *runs, size_t nruns)
{
	if (e->red)
		redact_runs(e->red, s, n, runs, nruns, &s, &n);
	write_str(e, key, s, n);
}

void emit_bytes_str(struct emitter *e, const char *key, const char *s, size_t n)
{
	emit_private(e, key, PRIV_NONE, s, n);
}

void emit_pstr(struct emitter *e, const char *key, const struct pd_str *s)
{
	emit_private(e, key, PRIV_NONE, s->s, s->len);
}

void emit_private_pstr(struct emitter *e, const char *key, enum pd_priv kind,
		       const struct pd_str *s)
{
	emit_private(e, key, kind, s->s, s->len);
}

void emit_private_opt(struct emitter *e, const char *key, enum pd_priv kind,
		      const char *s)
{
	if (s) {
		emit_private(e, key, kind, s, strlen(s));
		return;
	}
	emit_text_hide(e, true);
	emit_null(e, key);
	emit_text_hide(e, false);
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

	if (is_json(e) || bytes < 10240 || top(e)->kind != T_OBJ) {
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

	if (is_json(e)) {
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
	emit_flags_in(e, key, v, UINT64_MAX, names, nnames);
}

void emit_flags_in(struct emitter *e, const char *key, uint64_t v,
		   uint64_t flag_bits, const char *const *names, size_t nnames)
{
	char buf[1024];
	size_t len;

	if (is_json(e)) {
		char nkey[96];

		json_key(e, key);
		jw_hex_u64(&e->jw, v);
		if (!key)
			return;
		suffixed(nkey, sizeof(nkey), key, "_names");
		jw_key(&e->jw, nkey);
		jw_begin_array(&e->jw);
		for (unsigned b = 0; b < 64; b++) {
			if (!((v & flag_bits) >> b & 1))
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
	if (v & flag_bits) {
		const char *sep = top(e)->kind == T_OBJ ? " (" : "(";

		for (unsigned b = 0; b < 64 && len < sizeof(buf) - 40; b++) {
			if (!((v & flag_bits) >> b & 1))
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
	text_bytes(e, buf, strlen(buf),
		   top(e)->kind != T_OBJ && strchr(buf, ' '));
	text_end_value(e);
}
