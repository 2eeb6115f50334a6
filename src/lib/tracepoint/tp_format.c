// SPDX-License-Identifier: MIT
/*
 * The field lines of a tracepoint format text, parsed by perfdump itself.
 * The kernel writes them in tracefs events/SYSTEM/EVENT/format
 * (kernel/trace/trace_events.c f_show): "format:", the common fields, a
 * blank line, the event's fields, a blank line, "print fmt: ...", each
 * field as "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;".  They are read
 * as libtraceevent's event_read_fields() reads them (event-parse.c), so
 * that the type, array length, element size and flags are the ones perf
 * sees: the declaration's tokens joined by spaces, the last one the name,
 * an array's brackets added to the type ("char[16]"), "TYPE[] NAME" for
 * __data_loc and __rel_loc; the array length is the bracket's last token.
 * Every read is bounded by the line.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/tracepoint/tracepoint_int.h"

#define MAX_TOKENS 32 /* of one declaration */

struct ftok {
	const char *s;
	size_t n;
	bool item; /* a name or a number */
};

struct fline {
	const char *p, *e; /* the line not read yet */
	bool ftrace;
	struct ftok t; /* the current token */
};

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* __read_token() on one line: a name, or one character; n 0 at its end */
static void tok(struct fline *l)
{
	const char *p = l->p;

	while (p < l->e && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	l->t.s = p;
	l->t.item = p < l->e && (ident_char(*p) || (l->ftrace && *p == '.'));
	if (l->t.item)
		while (p < l->e && (ident_char(*p) || (l->ftrace && *p == '.')))
			p++;
	else if (p < l->e)
		p++;
	l->t.n = (size_t)(p - l->t.s);
	l->p = p;
}

static bool tok_is(const struct fline *l, const char *s)
{
	return l->t.n == strlen(s) && memcmp(l->t.s, s, l->t.n) == 0;
}

/* "KEY:N;" with N a name or number (strtoul of it); false if not there */
static bool number_item(struct fline *l, const char *key, uint32_t *v)
{
	char buf[24];

	if (!tok_is(l, key))
		return false;
	tok(l);
	if (!tok_is(l, ":"))
		return false;
	tok(l);
	if (!l->t.item || l->t.n >= sizeof(buf))
		return false;
	memcpy(buf, l->t.s, l->t.n);
	buf[l->t.n] = 0;
	*v = (uint32_t)strtoul(buf, NULL, 0);
	tok(l);
	if (!tok_is(l, ";"))
		return false;
	tok(l);
	return true;
}

/* The element type of an array type: "char" of "__data_loc char[]". */
static bool char_elements(const char *type)
{
	const char *b = strchr(type, '[');
	size_t n = b ? (size_t)(b - type) : strlen(type);

	if (strncmp(type, "__data_loc ", 11) == 0 ||
	    strncmp(type, "__rel_loc ", 10) == 0) {
		size_t k = type[2] == 'd' ? 11 : 10;

		type += k;
		n -= k;
	}
	if (n >= 6 && strncmp(type, "const ", 6) == 0) {
		type += 6;
		n -= 6;
	}
	while (n && type[n - 1] == ' ')
		n--;
	return n == 4 && memcmp(type, "char", 4) == 0;
}

static bool int_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* How a field's bytes are shown (tracepoint.h enum pd_tp_kind). */
static uint8_t kind_of(const struct pd_tp_field *f)
{
	if (f->tflags & PD_TP_F_DYNAMIC) {
		if (f->size != 4) /* a data_loc is a u32 */
			return PD_TP_BYTES;
		return char_elements(f->type)	? PD_TP_DLOC_STR
		       : int_size(f->elem_size) ? PD_TP_DLOC_ARRAY
						: PD_TP_DLOC_STR;
	}
	if (f->tflags & PD_TP_F_ARRAY)
		return char_elements(f->type) ? PD_TP_STR
		       : int_size(f->elem_size) && f->elem_size &&
				       f->size / f->elem_size == f->count
			       ? PD_TP_ARRAY
			       : PD_TP_BYTES;
	if (!int_size(f->size))
		return PD_TP_BYTES;
	if (f->tflags & PD_TP_F_POINTER)
		return PD_TP_PTR;
	/* an unsigned type with "long" in it (TEP_FIELD_IS_LONG) is an
	 * address as often as not: perf shows it in hex (libtraceevent
	 * event-parse.c print_field_raw, its unsigned case; perf's
	 * util/data-convert-bt.c get_tracepoint_field_type, "unsigned long
	 * are mostly pointers").  Signed ones are numbers (print_field_raw's
	 * hex for a 4-byte signed long is not followed: a long would read
	 * differently in a 32- and a 64-bit recording). */
	return (f->tflags & PD_TP_F_LONG) && !f->is_signed ? PD_TP_HEX
							   : PD_TP_INT;
}

/* type_size(): the element size of "TYPE[] NAME" by TYPE */
static uint32_t type_size(const struct ftok *t)
{
	static const char *const names[] = {"u8",  "u16", "u32", "u64", "s8",
					    "s16", "s32", "s64", "char"};
	static const uint8_t sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 1};

	for (size_t i = 0; i < sizeof(sizes); i++)
		if (t->n == strlen(names[i]) && !memcmp(t->s, names[i], t->n))
			return sizes[i];
	return 0;
}

/* Append n bytes of s to the string being built at b (cap bytes). */
static void cat(char *b, size_t cap, const char *s, size_t n)
{
	size_t k = strlen(b);

	if (k + n < cap) {
		memcpy(b + k, s, n);
		b[k + n] = 0;
	}
}

/* The declaration: type tokens and a name, an array's brackets. */
static bool decl(struct arena *a, struct fline *l, struct pd_tp_field *f,
		 uint32_t *size_dynamic, char *type, size_t cap)
{
	struct ftok v[MAX_TOKENS], name;
	size_t n = 0;

	for (tok(l); n < MAX_TOKENS && (l->t.item || tok_is(l, "*")); tok(l)) {
		f->tflags |= tok_is(l, "*") ? PD_TP_F_POINTER : 0;
		v[n++] = l->t;
	}
	if (n < 2 || !v[n - 1].item)
		return false;
	name = v[--n];
	for (size_t i = 0; i < n; i++) {
		if (i)
			cat(type, cap, " ", 1);
		cat(type, cap, v[i].s, v[i].n);
	}
	if (tok_is(l, "[")) {
		char br[128] = "[";
		bool last_item = false;

		f->tflags |= PD_TP_F_ARRAY;
		for (tok(l); l->t.n && !tok_is(l, "]"); tok(l)) {
			char num[24] = "";

			if (last_item && l->t.item)
				cat(br, sizeof(br), " ", 1);
			cat(br, sizeof(br), l->t.s, l->t.n);
			last_item = l->t.item;
			cat(num, sizeof(num), l->t.s, l->t.n);
			f->count = (uint32_t)strtoul(num, NULL, 0);
		}
		if (!l->t.n)
			return false;
		cat(br, sizeof(br), "]", 1);
		tok(l);
		if (l->t.item) { /* __data_loc char[] name */
			cat(type, cap, " ", 1);
			cat(type, cap, name.s, name.n);
			*size_dynamic = type_size(&name);
			name = l->t;
			tok(l);
		}
		cat(type, cap, br, strlen(br));
	}
	if ((f->name = arena_alloc(a, name.n + 1))) /* zeroed */
		memcpy((char *)f->name, name.s, name.n);
	return f->name && tok_is(l, ";");
}

/* One field line [p, e) into f (event_read_fields' loop body). */
static bool field_line(struct arena *a, const char *p, const char *e,
		       bool ftrace, uint8_t long_size, struct pd_tp_field *f)
{
	struct fline l = {p, e, ftrace, {0}};
	uint32_t size_dynamic = 0, sgn = 0;
	char type[256] = "";

	tok(&l);
	if (!tok_is(&l, "field"))
		return false;
	tok(&l);
	if (ftrace && tok_is(&l, "special"))
		tok(&l);
	if (!tok_is(&l, ":") ||
	    !decl(a, &l, f, &size_dynamic, type, sizeof(type)))
		return false;
	if (((f->tflags & PD_TP_F_ARRAY) &&
	     (strstr(type, "char") || strstr(type, "u8") ||
	      strstr(type, "s8"))))
		f->tflags |= PD_TP_F_STRING;
	if (!strncmp(type, "__data_loc", 10))
		f->tflags |= PD_TP_F_DYNAMIC;
	if (!strncmp(type, "__rel_loc", 9)) {
		f->tflags |= PD_TP_F_DYNAMIC;
		f->rel_loc = true;
	}
	if (strstr(type, "long"))
		f->tflags |= PD_TP_F_LONG;
	tok(&l);
	if (!number_item(&l, "offset", &f->offset) ||
	    !number_item(&l, "size", &f->size))
		return false;
	if ((f->tflags & PD_TP_F_DYNAMIC) && f->size == 2)
		f->tflags |= PD_TP_F_STRING | PD_TP_F_ARRAY;
	if (l.t.n && !number_item(&l, "signed", &sgn))
		return false; /* "signed" is not in every kernel's formats */
	if (l.t.n)
		return false;
	f->is_signed = sgn != 0;
	if (f->tflags & (PD_TP_F_ARRAY | PD_TP_F_DYNAMIC))
		f->elem_size = f->count ? f->size / f->count
			       : f->tflags & PD_TP_F_DYNAMIC ? size_dynamic
			       : f->tflags & PD_TP_F_STRING  ? 1
			       : f->tflags & PD_TP_F_LONG    ? long_size
							     : 0;
	else
		f->elem_size = f->size;
	f->type = arena_memdup(a, type, strlen(type) + 1);
	f->kind = kind_of(f);
	return f->type != NULL;
}

/* Where a line starting with key begins in t, from `from` on; n if none. */
static size_t line_with(const char *t, size_t n, size_t from, const char *key)
{
	size_t k = strlen(key);

	for (size_t i = from; i + k <= n; i++)
		if ((i == 0 || t[i - 1] == '\n') && memcmp(t + i, key, k) == 0)
			return i;
	return n;
}

size_t pd_tp_print_fmt_at(const char *t, size_t n)
{
	size_t i = line_with(t, n, 0, "print fmt:");

	return i < n ? i + 10 : n;
}

const char *pd_tp_print_fmt_line(struct arena *a, const char *t, size_t n)
{
	size_t i = line_with(t, n, 0, "print fmt: ");
	const char *p, *e;
	char *out;

	if (i == n)
		return NULL;
	p = t + i + 11;
	e = memchr(p, '\n', (size_t)(t + n - p));
	n = e ? (size_t)(e - p) : (size_t)(t + n - p);
	out = arena_alloc(a, n + 1); /* zeroed: NUL-terminated */
	if (out && n)
		memcpy(out, p, n);
	return out;
}

/* Is [p, e) blank (spaces, tabs, a CR)? */
static bool blank_line(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p == e;
}

const char *pd_tp_parse_fields(struct arena *a, const char *t, size_t n,
			       bool ftrace, uint8_t long_size,
			       struct pd_tp_event *ev)
{
	size_t f = line_with(t, n, 0, "format:"), pf, k = 0, cap = 0;
	const char *p, *e;
	bool common = true;

	if (f == n)
		return "the format text has no \"format:\" line";
	pf = line_with(t, n, f, "print fmt:");
	p = memchr(t + f, '\n', pf - f);
	for (const char *q = p; q && q < t + pf;
	     q = memchr(q + 1, '\n', (size_t)(t + pf - q - 1)))
		cap++;
	ev->fields = arena_calloc(a, cap ? cap : 1, sizeof(*ev->fields));
	if (!ev->fields)
		return "no memory";
	for (; p && p + 1 < t + pf; p = e) {
		const char *s = p + 1;

		e = memchr(s, '\n', (size_t)(t + pf - s));
		if (!e)
			e = t + pf;
		if (blank_line(s, e)) {
			common = false; /* the common fields end */
			continue;
		}
		if (k == cap ||
		    !field_line(a, s, e, ftrace, long_size, &ev->fields[k]))
			return "a field line of the format text is not whole "
			       "(\"field:TYPE NAME;\toffset:N;\tsize:N;...\")";
		ev->fields[k].is_common = common;
		ev->ncommon += common;
		k++;
	}
	ev->nfields = (uint32_t)k;
	return NULL;
}
