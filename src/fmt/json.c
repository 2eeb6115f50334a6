// SPDX-License-Identifier: MIT
#include "fmt/json.h"

#include "fmt/fmtnum.h"
#include "lib/base/hex.h"
#include "fmt/plain.h"

#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <string.h>

void jw_init(struct json_writer *w, FILE *out, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->pretty = pretty;
	w->first[0] = true;
}

static void put_string(struct json_writer *w, const char *str, size_t n);

void jw_flush(struct json_writer *w)
{
	if (w->len)
		fwrite_unlocked(w->buf, 1, w->len, w->out);
	w->len = 0;
}

/* At least n bytes free at the end of the buffer: where to write them. */
static char *room(struct json_writer *w, size_t n)
{
	if (w->len + n > sizeof(w->buf))
		jw_flush(w);
	return w->buf + w->len;
}

static void wr(struct json_writer *w, const void *p, size_t n)
{
	if (n > sizeof(w->buf)) { /* past the buffer, in its place */
		jw_flush(w);
		fwrite_unlocked(p, 1, n, w->out);
		return;
	}
	memcpy(room(w, n), p, n);
	w->len += n;
}

static void wc(struct json_writer *w, char c)
{
	*room(w, 1) = c;
	w->len++;
}

static void ws(struct json_writer *w, const char *s)
{
	wr(w, s, strlen(s));
}

void jw_raw(struct json_writer *w, const void *p, size_t n)
{
	wr(w, p, n);
}

void jw_rawc(struct json_writer *w, char c)
{
	wc(w, c);
}

void jw_raws(struct json_writer *w, const char *s)
{
	ws(w, s);
}

void jw_rawf(struct json_writer *w, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		wr(w, buf,
		   (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void newline(struct json_writer *w)
{
	if (!w->pretty)
		return;
	wc(w, '\n');
	for (int i = 0; i < w->depth; i++)
		wr(w, "  ", 2);
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
		wc(w, ',');
	if (w->depth > 0)
		newline(w);
	w->first[w->depth] = false;
}

/*
 * The usual key (up to 64 bytes of printable ASCII without '"' or '\\'):
 * copied in quotes in one pass, without strlen.  False (nothing written)
 * for any other key.
 */
static bool put_plain_key(struct json_writer *w, const char *key)
{
	/* 1: a byte a plain key may not hold (control, non-ASCII, '"',
	 * '\\'); the NUL ends it */
	static const uint8_t stop[256] = {
		[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x7f ... 0xff] = 1};
	char *o = room(w, 66);
	size_t i;

	*o++ = '"';
	for (i = 0; i < 64; i++) {
		unsigned char c = (unsigned char)key[i];

		if (stop[c])
			break;
		o[i] = (char)c;
	}
	if (key[i])
		return false;
	o[i] = '"';
	w->len += i + 2;
	return true;
}

void jw_key(struct json_writer *w, const char *key)
{
	if (w->depth == 0 || !w->is_obj[w->depth] || w->after_key)
		w->bad = true;
	if (!w->first[w->depth])
		wc(w, ',');
	newline(w);
	w->first[w->depth] = false;
	if (!put_plain_key(w, key))
		put_string(w, key, strlen(key));
	if (w->pretty)
		wr(w, ": ", 2);
	else
		wc(w, ':');
	w->after_key = true;
}

static void open(struct json_writer *w, char c, bool obj)
{
	/* a key's string was written by jw_string with after_key cleared */
	sep(w);
	wc(w, c);
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
	wc(w, c);
}

void jw_begin_object(struct json_writer *w)
{
	open(w, '{', true);
}
void jw_end_object(struct json_writer *w)
{
	close(w, '}', true);
	if (w->depth == 0)
		wc(w, '\n'); /* one document per line */
}
void jw_begin_array(struct json_writer *w)
{
	open(w, '[', false);
}
void jw_end_array(struct json_writer *w)
{
	close(w, ']', false);
}

/* Numbers are formatted in place (fmt_u64 writes at most 21 bytes). */
void jw_u64(struct json_writer *w, uint64_t v)
{
	sep(w);
	w->len += fmt_u64(room(w, 24), v);
}

void jw_fixed(struct json_writer *w, uint64_t v, unsigned decimals)
{
	sep(w);
	w->len += fmt_fixed(room(w, 32), v, decimals);
}

void jw_s64(struct json_writer *w, int64_t v)
{
	sep(w);
	w->len += fmt_s64(room(w, 24), v);
}

void jw_hex_u64(struct json_writer *w, uint64_t v)
{
	char *o;
	size_t n;

	sep(w);
	o = room(w, 24);
	o[0] = '"';
	n = fmt_hex(o + 1, v);
	o[n + 1] = '"';
	w->len += n + 2;
}

void jw_double(struct json_writer *w, double v)
{
	sep(w);
	char buf[40];

	if (isfinite(v)) {
		snprintf(buf, sizeof(buf), "%.17g", v);
		ws(w, buf);
	} else {
		ws(w, "null");
	}
}

void jw_bool(struct json_writer *w, bool v)
{
	sep(w);
	ws(w, v ? "true" : "false");
}

void jw_null(struct json_writer *w)
{
	sep(w);
	ws(w, "null");
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

static void put_string(struct json_writer *w, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	wc(w, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len, run = plain_words(s, i, n, true);

		/* a run of plain ASCII goes out in one write */
		while (run < n && s[run] >= 0x20 && s[run] < 0x7f &&
		       s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {
			wr(w, s + i, run - i);
			i = run;
			continue;
		}
		switch (c) {
		case '"':
			ws(w, "\\\"");
			i++;
			continue;
		case '\\':
			ws(w, "\\\\");
			i++;
			continue;
		case '\n':
			ws(w, "\\n");
			i++;
			continue;
		case '\t':
			ws(w, "\\t");
			i++;
			continue;
		case '\r':
			ws(w, "\\r");
			i++;
			continue;
		case '\b':
			ws(w, "\\b");
			i++;
			continue;
		case '\f':
			ws(w, "\\f");
			i++;
			continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			char u[8];

			snprintf(u, sizeof(u), "\\u%04x", c);
			ws(w, u);
			i++;
			continue;
		}
		len = utf8_seq_len(s + i, n - i);
		if (len == 0) {
			ws(w, "\xef\xbf\xbd"); /* U+FFFD */
			i++;
			continue;
		}
		if (len == 2 && c == 0xc2 && s[i + 1] < 0xa0) {
			/* a C1 control (U+0080..U+009F): escaped like C0, so
			 * that -p on a terminal passes no control either */
			char u[8];

			snprintf(u, sizeof(u), "\\u%04x", s[i + 1]);
			ws(w, u);
			i += 2;
			continue;
		}
		wr(w, s + i, len);
		i += len;
	}
	wc(w, '"');
}

void jw_string_n(struct json_writer *w, const char *s, size_t n)
{
	sep(w);
	put_string(w, s, n);
}

void jw_string(struct json_writer *w, const char *s)
{
	jw_string_n(w, s, strlen(s));
}

void jw_hex(struct json_writer *w, const uint8_t *p, size_t n)
{
	sep(w);
	wc(w, '"');
	while (n) { /* in pieces that fit the buffer */
		size_t k = n < 4096 ? n : 4096;

		pd_hex_bytes(room(w, 2 * k + 1), p, k);
		w->len += 2 * k;
		p += k;
		n -= k;
	}
	wc(w, '"');
}

bool jw_finish(struct json_writer *w)
{
	jw_flush(w);
	return !w->bad && w->depth == 0 && !w->after_key;
}
