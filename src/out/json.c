// SPDX-License-Identifier: MIT
#include "json.h"

#include "fmtnum.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_init(struct json_writer *w, FILE *out, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->pretty = pretty;
	w->first[0] = true;
}

static void put_string(FILE *o, const char *str, size_t n);

static void newline(struct json_writer *w)
{
	if (!w->pretty)
		return;
	putc_unlocked('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fwrite_unlocked("  ", 1, 2, w->out);
}

/* Before any value or key: the comma and indentation. */
static void sep(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0 && w->is_obj[w->depth]) {
		/* a value in an object must follow a key */
		w->bad = true;
	}
	if (!w->first[w->depth] && !(w->lines && w->depth == 0))
		putc_unlocked(',', w->out);
	if (w->depth > 0)
		newline(w);
	w->first[w->depth] = false;
}

void jw_key(struct json_writer *w, const char *key)
{
	if (w->depth == 0 || !w->is_obj[w->depth] || w->after_key)
		w->bad = true;
	if (!w->first[w->depth])
		putc_unlocked(',', w->out);
	newline(w);
	w->first[w->depth] = false;
	put_string(w->out, key, strlen(key));
	if (w->pretty)
		fwrite_unlocked(": ", 1, 2, w->out);
	else
		putc_unlocked(':', w->out);
	w->after_key = true;
}

static void open(struct json_writer *w, char c, bool obj)
{
	/* a key's string was written by jw_string with after_key cleared */
	sep(w);
	fputc(c, w->out);
	if (w->depth + 1 >= JW_MAX_DEPTH) {
		w->bad = true;
		return;
	}
	w->depth++;
	w->first[w->depth] = true;
	w->is_obj[w->depth] = obj;
}

static void close(struct json_writer *w, char c, bool obj)
{
	if (w->depth == 0 || w->is_obj[w->depth] != obj || w->after_key) {
		w->bad = true;
		return;
	}
	bool empty = w->first[w->depth];

	w->depth--;
	if (!empty)
		newline(w);
	fputc(c, w->out);
}

void jw_begin_object(struct json_writer *w)
{
	open(w, '{', true);
}
void jw_end_object(struct json_writer *w)
{
	close(w, '}', true);
	if (w->depth == 0)
		fputc('\n', w->out); /* one document per line */
}
void jw_begin_array(struct json_writer *w)
{
	open(w, '[', false);
}
void jw_end_array(struct json_writer *w)
{
	close(w, ']', false);
}

void jw_u64(struct json_writer *w, uint64_t v)
{
	char buf[24];

	sep(w);
	fwrite_unlocked(buf, 1, fmt_u64(buf, v), w->out);
}

void jw_s64(struct json_writer *w, int64_t v)
{
	char buf[24];

	sep(w);
	fwrite_unlocked(buf, 1, fmt_s64(buf, v), w->out);
}

void jw_double(struct json_writer *w, double v)
{
	sep(w);
	if (isfinite(v))
		fprintf(w->out, "%.17g", v);
	else
		fputs("null", w->out);
}

void jw_bool(struct json_writer *w, bool v)
{
	sep(w);
	fputs(v ? "true" : "false", w->out);
}

void jw_null(struct json_writer *w)
{
	sep(w);
	fputs("null", w->out);
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void put_string(FILE *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	putc_unlocked('"', o);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len, run = i;

		/* a run of plain ASCII goes out in one write */
		while (run < n && s[run] >= 0x20 && s[run] < 0x7f &&
		       s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {
			fwrite_unlocked(s + i, 1, run - i, o);
			i = run;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", o); i++; continue;
		case '\\': fputs("\\\\", o); i++; continue;
		case '\n': fputs("\\n", o); i++; continue;
		case '\t': fputs("\\t", o); i++; continue;
		case '\r': fputs("\\r", o); i++; continue;
		case '\b': fputs("\\b", o); i++; continue;
		case '\f': fputs("\\f", o); i++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(o, "\\u%04x", c);
			i++;
			continue;
		}
		len = utf8_seq_len(s + i, n - i);
		if (len == 0) {
			fputs("\xef\xbf\xbd", o); /* U+FFFD */
			i++;
			continue;
		}
		fwrite_unlocked(s + i, 1, len, o);
		i += len;
	}
	putc_unlocked('"', o);
}

void jw_string_n(struct json_writer *w, const char *s, size_t n)
{
	sep(w);
	put_string(w->out, s, n);
}

void jw_string(struct json_writer *w, const char *s)
{
	jw_string_n(w, s, strlen(s));
}

bool jw_finish(struct json_writer *w)
{
	return !w->bad && w->depth == 0 && !w->after_key;
}
