// SPDX-License-Identifier: MIT
/*
 * What every output must be, checked as the fuzz targets write it
 * (harness.c sends standard output here): beyond "no crash", the two
 * promises of the output contract (DESIGN.md) that bytes from a file
 * could break.
 *
 *  - Text passes no control byte to the terminal: no byte below 0x20 but
 *    the newline, no DEL, valid UTF-8 (RFC 3629: no overlong form, no
 *    surrogate, nothing past U+10FFFF) and no C1 control (U+0080-U+009F,
 *    a lone 0x9b is 8-bit CSI).  text_escape() (src/fmt/emit_text.c) is
 *    the one rule that keeps it so.
 *  - JSON is one valid document (RFC 8259), JSON lines one per line, and
 *    its strings are valid UTF-8 (json.c replaces what is not).
 *
 * A byte-at-a-time state machine, as the output comes in pieces.  On a
 * violation it prints the offset and the bytes around it, and aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/plain.h"
#include "oracle.h"

#define MAX_DEPTH 256

enum state {
	S_VALUE,     /* a value is due */
	S_ARR_FIRST, /* after '[': a value or ']' */
	S_OBJ_FIRST, /* after '{': a key or '}' */
	S_OBJ_KEY,   /* after ',' in an object: a key */
	S_COLON,     /* after a key */
	S_AFTER,     /* after a value: ',', a closing bracket, or the end */
	S_STRING,
	S_ESCAPE,
	S_HEX,
	S_NUMBER,
	S_LITERAL,
	S_DONE, /* a whole document: only white space may follow */
};

static struct {
	enum fuzz_out kind;
	const char *what;
	unsigned long long at;	/* bytes so far */
	unsigned char tail[64]; /* the last bytes (a ring), for the message */
	/* UTF-8: continuation bytes due, and the range of the next one */
	int cont;
	unsigned char lo, hi;
	bool c2; /* text: the lead byte was 0xc2 (U+0080-U+00BF) */
	/* JSON */
	enum state st;
	char stack[MAX_DEPTH]; /* '[' or '{' */
	int depth;
	bool key;      /* the string is a key */
	int hex;       /* \u digits left */
	unsigned uval; /* the \u value so far */
	char tok[40];  /* a number or a literal */
	size_t ntok;
	unsigned docs;
} o;

__attribute__((noreturn)) static void fail(const char *why)
{
	size_t n =
		o.at + 1 < sizeof(o.tail) ? (size_t)o.at + 1 : sizeof(o.tail);

	fprintf(stderr,
		"fuzz: %s: %s output, byte %llu: %s; the bytes before: ",
		o.what,
		o.kind == FUZZ_OUT_TEXT	  ? "text"
		: o.kind == FUZZ_OUT_JSON ? "JSON"
					  : "JSON lines",
		o.at, why);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%02x",
			o.tail[(o.at + 1 - n + i) % sizeof(o.tail)]);
	fputc('\n', stderr);
	abort();
}

void fuzz_oracle_begin(enum fuzz_out kind, const char *what)
{
	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.what = what;
	o.st = S_VALUE;
}

/* One byte of UTF-8 (RFC 3629 table 3-7); false: not valid. */
static bool utf8(unsigned char c)
{
	if (o.cont) {
		if (c < o.lo || c > o.hi)
			return false;
		if (o.c2 && o.kind == FUZZ_OUT_TEXT && c <= 0x9f)
			fail("a C1 control (U+0080-U+009F)");
		o.cont--;
		o.lo = 0x80;
		o.hi = 0xbf;
		o.c2 = false;
		return true;
	}
	o.lo = 0x80;
	o.hi = 0xbf;
	if (c < 0x80)
		return true;
	if (c >= 0xc2 && c <= 0xdf) {
		o.cont = 1;
		o.c2 = c == 0xc2;
	} else if (c >= 0xe0 && c <= 0xef) {
		o.cont = 2;
		if (c == 0xe0)
			o.lo = 0xa0;
		if (c == 0xed)
			o.hi = 0x9f; /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		o.cont = 3;
		if (c == 0xf0)
			o.lo = 0x90;
		if (c == 0xf4)
			o.hi = 0x8f;
	} else {
		return false;
	}
	return true;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* RFC 8259 number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? */
static bool number_ok(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		if (!(*++s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == 0;
}

static void push(char c)
{
	if (o.depth == MAX_DEPTH)
		fail("nested too deep");
	o.stack[o.depth++] = c;
}

/* A value ended: what follows it depends on where it is. */
static void value_done(void)
{
	o.st = o.depth ? S_AFTER : S_DONE;
	if (!o.depth)
		o.docs++;
}

static void close_bracket(char c)
{
	if (!o.depth || o.stack[o.depth - 1] != (c == ']' ? '[' : '{'))
		fail("a closing bracket that closes nothing open");
	o.depth--;
	value_done();
}

static void start_value(char c)
{
	switch (c) {
	case '{':
		push('{');
		o.st = S_OBJ_FIRST;
		return;
	case '[':
		push('[');
		o.st = S_ARR_FIRST;
		return;
	case '"':
		o.key = false;
		o.st = S_STRING;
		return;
	case 't':
	case 'f':
	case 'n': o.st = S_LITERAL; break;
	default:
		if (c != '-' && !(c >= '0' && c <= '9'))
			fail("not a value");
		o.st = S_NUMBER;
	}
	o.ntok = 0;
	o.tok[o.ntok++] = c;
}

/* The end of a number or literal token (c is the byte after it). */
static void end_token(void)
{
	o.tok[o.ntok] = 0;
	if (o.st == S_NUMBER
		    ? !number_ok(o.tok)
		    : strcmp(o.tok, "true") && strcmp(o.tok, "false") &&
			      strcmp(o.tok, "null"))
		fail("a malformed number or literal");
	value_done();
}

static void string_byte(unsigned char c)
{
	if (o.st == S_ESCAPE) {
		if (c == 'u') {
			o.st = S_HEX;
			o.hex = 4;
			o.uval = 0;
		} else if (strchr("\"\\/bfnrt", c) && c) {
			o.st = S_STRING;
		} else {
			fail("a bad escape");
		}
		return;
	}
	if (o.st == S_HEX) {
		const char *d = strchr("0123456789abcdef", c | 0x20);

		if (!d || !c)
			fail("a bad \\u escape");
		o.uval = o.uval * 16 + (unsigned)(d - "0123456789abcdef");
		if (--o.hex == 0) {
			if (o.uval >= 0xd800 && o.uval <= 0xdfff)
				fail("a \\u surrogate (perfdump writes UTF-8)");
			o.st = S_STRING;
		}
		return;
	}
	if (!o.cont && c == '"') {
		o.st = o.key ? S_COLON : S_AFTER;
		if (!o.key)
			value_done();
		return;
	}
	if (!o.cont && c == '\\') {
		o.st = S_ESCAPE;
		return;
	}
	if (c < 0x20)
		fail("a control byte in a string");
	if (!utf8(c))
		fail("a string that is not UTF-8");
}

static void json_byte(char ch)
{
	unsigned char c = (unsigned char)ch;

	switch (o.st) {
	case S_STRING:
	case S_ESCAPE:
	case S_HEX: string_byte(c); return;
	case S_NUMBER:
	case S_LITERAL:
		if (o.ntok < sizeof(o.tok) - 1 &&
		    (o.st == S_NUMBER ? strchr("+-.eE0123456789", ch) != NULL
				      : ch >= 'a' && ch <= 'z') &&
		    ch) {
			o.tok[o.ntok++] = ch;
			return;
		}
		end_token();
		break; /* then c as what follows the value */
	default: break;
	}
	if (is_ws(ch)) {
		/* JSON lines: a newline ends each document */
		if (ch == '\n' && o.st == S_DONE &&
		    o.kind == FUZZ_OUT_JSON_LINES)
			o.st = S_VALUE;
		return;
	}
	switch (o.st) {
	case S_VALUE: start_value(ch); return;
	case S_ARR_FIRST:
		if (ch == ']')
			close_bracket(ch);
		else
			start_value(ch);
		return;
	case S_OBJ_FIRST:
	case S_OBJ_KEY:
		if (ch == '}' && o.st == S_OBJ_FIRST)
			close_bracket(ch);
		else if (ch == '"')
			o.key = true, o.st = S_STRING;
		else
			fail("an object member without a string key");
		return;
	case S_COLON:
		if (ch != ':')
			fail("a key without ':'");
		o.st = S_VALUE;
		return;
	case S_AFTER:
		if (ch == ']' || ch == '}')
			close_bracket(ch);
		else if (ch == ',')
			o.st = o.stack[o.depth - 1] == '{' ? S_OBJ_KEY
							   : S_VALUE;
		else
			fail("a value not followed by ',' or a bracket");
		return;
	case S_DONE: fail("bytes after the document");
	default: fail("bad state");
	}
}

static void text_byte(char ch)
{
	unsigned char c = (unsigned char)ch;

	if ((c < 0x20 && c != '\n') || c == 0x7f)
		fail("a control byte in text");
	if (!utf8(c))
		fail("text that is not UTF-8");
}

void fuzz_oracle_write(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;

	for (size_t i = 0; i < n;) {
		/* printable ASCII in text or inside a string: 8 at a time */
		if (!o.cont && (o.kind == FUZZ_OUT_TEXT || o.st == S_STRING)) {
			size_t j =
				plain_words(u, i, n, o.kind != FUZZ_OUT_TEXT);

			for (size_t k = j - i > sizeof(o.tail)
						? j - sizeof(o.tail)
						: i;
			     k < j; k++)
				o.tail[(o.at + k - i) % sizeof(o.tail)] = u[k];
			o.at += j - i;
			if (j > i) {
				i = j;
				continue;
			}
		}
		o.tail[o.at % sizeof(o.tail)] = u[i];
		if (o.kind == FUZZ_OUT_TEXT)
			text_byte(p[i]);
		else
			json_byte(p[i]);
		o.at++;
		i++;
	}
}

void fuzz_oracle_end(void)
{
	if (o.cont)
		fail("the output ends inside a UTF-8 sequence");
	if (o.kind == FUZZ_OUT_TEXT)
		return;
	if (o.st == S_NUMBER || o.st == S_LITERAL)
		end_token();
	if (o.kind == FUZZ_OUT_JSON && (o.st != S_DONE || o.docs != 1))
		fail("not one whole JSON document");
	if (o.kind == FUZZ_OUT_JSON_LINES &&
	    (o.st != S_VALUE || o.depth || !o.docs))
		fail("not whole JSON lines");
}

void fuzz_oracle_end_or_nothing(void)
{
	if (o.at)
		fuzz_oracle_end();
}
