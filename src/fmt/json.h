/* SPDX-License-Identifier: MIT */
/*
 * Streaming JSON writer: places commas, tracks depth, escapes strings.
 * Strings from the file are written as valid JSON: control characters
 * (C0, DEL and the C1 U+0080..U+009F) as \u00XX (\n, \t, \r, \b, \f
 * as such), invalid UTF-8 replaced with U+FFFD.  Unbalanced nesting is a
 * programming error and is caught by jw_finish().
 */
#ifndef PD_JSON_H
#define PD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 64

struct json_writer {
	FILE *out;
	bool pretty;
	bool lines; /* JSON lines: top-level values, no commas */
	int depth;
	bool first[JW_MAX_DEPTH]; /* no element written yet at this depth */
	bool is_obj[JW_MAX_DEPTH];
	bool after_key;	   /* a key was written; its value comes next */
	bool bad;	   /* misuse detected */
	size_t len;	   /* bytes waiting in buf */
	char buf[1 << 16]; /* our own buffer: stdio per call is slow */
};

void jw_init(struct json_writer *w, FILE *out, bool pretty);
void jw_key(struct json_writer *w, const char *key);
void jw_begin_object(struct json_writer *w);
void jw_end_object(struct json_writer *w);
void jw_begin_array(struct json_writer *w);
void jw_end_array(struct json_writer *w);
void jw_u64(struct json_writer *w, uint64_t v);
void jw_s64(struct json_writer *w, int64_t v);
/* v / 10^decimals (1 to 9), exactly: 1952504587.123 (fmtnum.h fmt_fixed) */
void jw_fixed(struct json_writer *w, uint64_t v, unsigned decimals);
/* v as the string "0x..." (lowercase hex digits, nothing to escape) */
void jw_hex_u64(struct json_writer *w, uint64_t v);
void jw_double(struct json_writer *w, double v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);
/* bytes from anywhere: escaped, invalid UTF-8 -> U+FFFD */
void jw_string_n(struct json_writer *w, const char *s, size_t n);
void jw_string(struct json_writer *w, const char *s);
/* n bytes as a string of 2n lowercase hex digits, streamed (no copy) */
void jw_hex(struct json_writer *w, const uint8_t *p, size_t n);
/* returns false if nesting was unbalanced or misused */
bool jw_finish(struct json_writer *w);
/* Hand the buffered bytes to the FILE (done by jw_finish too). */
void jw_flush(struct json_writer *w);
/* Raw bytes through the same buffer (the text renderer uses it too). */
void jw_raw(struct json_writer *w, const void *p, size_t n);
void jw_rawc(struct json_writer *w, char c);
void jw_raws(struct json_writer *w, const char *s);
void jw_rawf(struct json_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Length of the valid UTF-8 sequence at s (1-4), or 0 if the bytes there
 * are not valid UTF-8 (overlong, surrogate, out of range, truncated).
 */
size_t utf8_seq_len(const unsigned char *s, size_t n);

#endif
