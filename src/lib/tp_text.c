// SPDX-License-Identifier: MIT
/*
 * Tracepoint format texts, checked before libtraceevent parses them
 * (tp_int.h): libtraceevent parses untrusted text in C, recursively, and
 * the fuzzer found texts that crash it.  Format texts are what the kernel
 * writes in tracefs events/SYSTEM/EVENT/format (kernel/trace/trace_events.c
 * f_show): "name:", "ID:", "format:", the "field:TYPE NAME; offset:N;
 * size:N; signed:N;" lines, and "print fmt: ...".
 */
#include <stdbool.h>
#include <string.h>

#include "tp_int.h"

static bool ident_char(char c);

/* Past the blanks (spaces and tabs) at p, before e. */
static const char *skip_blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Where key starts a line of t at or after `from`, or n. */
static size_t line_with(const char *t, size_t n, size_t from, const char *key)
{
	size_t k = strlen(key);

	for (size_t i = from; i + k <= n; i++)
		if (memcmp(t + i, key, k) == 0 && (i == 0 || t[i - 1] == '\n'))
			return i;
	return n;
}

/* Skip the digits at *p (before e); false if there are none. */
static bool digits(const char **p, const char *e)
{
	const char *s = *p;

	while (*p < e && **p >= '0' && **p <= '9')
		(*p)++;
	return *p > s;
}

/* Skip `key` and then digits and ';' (blanks first); false if not there. */
static bool number_item(const char **p, const char *e, const char *key)
{
	size_t k = strlen(key);

	*p = skip_blanks(*p, e);
	if ((size_t)(e - *p) < k || memcmp(*p, key, k) != 0)
		return false;
	*p += k;
	if (*p < e && **p == '-')
		(*p)++;
	if (!digits(p, e) || *p >= e || **p != ';')
		return false;
	(*p)++;
	return true;
}

/*
 * Is the line [p, e) a whole field line as the kernel writes it
 * (trace_events.c f_show: "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;";
 * "field special:" and no signed on old kernels)?  DECL is C
 * declaration tokens ending in its name or an array bound, no name
 * starting with a digit.  A line cut short (a format text truncated in the
 * file) made libtraceevent compare a NULL token (found by the fuzzer).
 */
static bool field_line(const char *p, const char *e)
{
	const char *d;
	char last = 0;

	p = skip_blanks(p, e);
	if ((size_t)(e - p) >= 14 && memcmp(p, "field special:", 14) == 0)
		p += 14;
	else if ((size_t)(e - p) >= 6 && memcmp(p, "field:", 6) == 0)
		p += 6;
	else
		return false;
	for (d = p; p < e && *p != ';';) {
		const char *w = p;
		bool alpha = false;

		if (!ident_char(*p)) {
			if (!strchr(" *[]()+-", *p))
				return false;
			p++;
			continue;
		}
		for (; p < e && ident_char(*p); p++)
			alpha |= *p < '0' || *p > '9';
		if (alpha && *w >= '0' && *w <= '9')
			return false; /* 9int: a name starting with a digit */
	}
	for (const char *q = p; q > d; q--)
		if (q[-1] != ' ') {
			last = q[-1];
			break;
		}
	if (p >= e || !(ident_char(last) || last == ']'))
		return false;
	p++;
	if (!number_item(&p, e, "offset:") || !number_item(&p, e, "size:"))
		return false;
	number_item(&p, e, "signed:"); /* not in every kernel's formats */
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p == e;
}

/*
 * The lines between "format:" and "print fmt:": field lines and blank
 * ones only.  NULL when they are, else why not.
 */
static const char *check_field_lines(const char *t, size_t n)
{
	static const char key[] = "format:";
	size_t f = line_with(t, n, 0, key);
	const char *p, *e;

	if (f == n)
		return "the format text has no \"format:\" line";
	p = t + f + sizeof(key) - 1;
	e = t + line_with(t, n, (size_t)(p - t), "print fmt:");
	p = memchr(p, '\n', (size_t)(e - p));
	while (p && p < e) {
		const char *s = p + 1, *l = memchr(s, '\n', (size_t)(e - s));
		const char *end = l ? l : e, *q = s;

		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < end && !field_line(s, end))
			return "a field line of the format text is not whole "
			       "(\"field:TYPE NAME;\toffset:N;\tsize:N;...\")";
		p = l;
	}
	return NULL;
}

/*
 * Why libtraceevent must not see a format text, or NULL: its field lines
 * are not whole, its print args (after "print fmt:") nest too deep or
 * chain too many operators (both recursions there), or the text is too
 * large.
 */
const char *pd_tp_text_refused(const char *t, size_t n)
{
	const char *p = NULL;
	unsigned depth = 0, ops = 0;
	char quote = 0;

	if (n > PD_TP_MAX_TEXT)
		return "the format text is larger than 64 KiB";
	/* libtraceevent's tokenizer takes a NUL, and bytes that are not
	 * ASCII, for the end of the text and then compares a NULL token
	 * (found by the fuzzer and the mutation test) */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
		    c >= 0x7f)
			return "the format text holds a byte that is not "
			       "printable ASCII (a NUL, a control, 0x7f or "
			       "above)";
	}
	if ((p = check_field_lines(t, n)))
		return p;
	for (size_t i = 0; i + 10 <= n; i++)
		if (memcmp(t + i, "print fmt:", 10) == 0) {
			p = t + i + 10;
			break;
		}
	for (; p && p < t + n; p++) {
		if (quote) {
			if (*p == '\\' && p + 1 < t + n)
				p++;
			else if (*p == quote)
				quote = 0;
			continue;
		}
		if (*p == '"' || *p == '\'')
			quote = *p;
		else if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if (*p == ')' || *p == ']' || *p == '}')
			depth -= depth > 0;
		else if (strchr("+-*/%<>&|^?:!~=", *p))
			ops++;
		if (depth > PD_TP_MAX_NEST)
			return "its print fmt nests deeper than 32 levels";
		if (ops > PD_TP_MAX_OPS)
			return "its print fmt has more than 1024 operators";
	}
	return NULL;
}

/* The text after "print fmt: " up to the end of its line, or NULL. */
const char *pd_tp_print_fmt_line(struct arena *a, const char *t, size_t n)
{
	static const char key[] = "print fmt: ";
	size_t i = line_with(t, n, 0, key);
	const char *p, *e;
	char *out;

	if (i == n)
		return NULL;
	p = t + i + sizeof(key) - 1;
	e = memchr(p, '\n', (size_t)(t + n - p));
	n = e ? (size_t)(e - p) : (size_t)(t + n - p);
	out = arena_alloc(a, n + 1); /* zeroed: NUL-terminated */
	if (out && n)
		memcpy(out, p, n);
	return out;
}

/* "field:" lines of a format text: what libtraceevent should have parsed */
uint32_t pd_tp_count_field_lines(const char *t, size_t n)
{
	uint32_t k = 0;
	bool bol = true;

	for (size_t i = 0; i < n; i++) {
		if (bol && i + 6 <= n && memcmp(t + i, "field:", 6) == 0)
			k++;
		if (t[i] == '\n')
			bol = true;
		else if (t[i] != ' ' && t[i] != '\t')
			bol = false;
	}
	return k;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Does a "field:TYPE NAME[N];" line before pf declare name (n bytes)? */
static bool declares(const char *t, size_t pf, const char *name, size_t n)
{
	for (size_t i = 0; i + 6 <= pf; i++) {
		const char *e, *b;

		if (memcmp(t + i, "field:", 6) != 0)
			continue;
		e = memchr(t + i, ';', pf - i);
		if (!e)
			return false;
		b = memchr(t + i, '[', (size_t)(e - (t + i)));
		e = b ? b : e;
		while (e > t + i && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		for (b = e; b > t + i && ident_char(b[-1]); b--)
			;
		if ((size_t)(e - b) == n && memcmp(b, name, n) == 0)
			return true;
	}
	return false;
}

/*
 * A REC->NAME of the print fmt (at pf) that no field line declares: its
 * length, and *name; 0 if none.  libtraceevent 1.7 dereferences the
 * missing field when such a name is the value of __print_symbolic or
 * __print_flags (found by the fuzzer).
 */
size_t pd_tp_unknown_rec_field(const char *t, size_t n, size_t pf,
			       const char **name)
{
	for (size_t i = pf; i + 5 <= n; i++) {
		size_t k = 0;

		size_t b = 0;

		if (memcmp(t + i, "REC->", 5) != 0)
			continue;
		/* libtraceevent's tokenizer skips blanks: "REC-> ecv" */
		while (i + 5 + b < n &&
		       (t[i + 5 + b] == ' ' || t[i + 5 + b] == '\t'))
			b++;
		while (i + 5 + b + k < n && ident_char(t[i + 5 + b + k]))
			k++;
		if (!k || !declares(t, pf, t + i + 5 + b, k)) {
			*name = t + i + 5 + b;
			return k ? k : 1;
		}
	}
	return 0;
}

/*
 * Quoted strings of the print args: true when t[*i] opens, closes or is
 * inside one (*i moved past an escaped byte), *quote the open quote.
 */
static bool quoted(const char *t, size_t n, size_t *i, char *quote)
{
	if (*quote) {
		if (t[*i] == '\\' && *i + 1 < n)
			(*i)++;
		else if (t[*i] == *quote)
			*quote = 0;
		return true;
	}
	if (t[*i] == '"' || t[*i] == '\'') {
		*quote = t[*i];
		return true;
	}
	return false;
}

/*
 * Does the print fmt (at pf) have a "->" outside a quoted string that does
 * not follow REC?  Kernel print fmts reach fields as REC->name only
 * (TP_printk's __entry->); libtraceevent 1.7 takes a string literal
 * followed by -> ("R"->state) as a field of a NULL struct (SEGV, found by
 * the fuzzer in a mutated print fmt).
 */
bool pd_tp_stray_arrow(const char *t, size_t n, size_t pf)
{
	char quote = 0;

	for (size_t i = pf; i + 1 < n; i++) {
		if (quoted(t, n, &i, &quote))
			continue;
		if (t[i] == '-' && t[i + 1] == '>' &&
		    (i < pf + 3 || memcmp(t + i - 3, "REC", 3) != 0 ||
		     (i > pf + 3 && ident_char(t[i - 4]))))
			return true;
	}
	return false;
}

/* Where the "print fmt:" line starts, or n. */
size_t pd_tp_print_fmt_at(const char *t, size_t n)
{
	return line_with(t, n, 0, "print fmt:");
}

/*
 * Is a divisor of the print args (after a '/' or '%' outside the quoted
 * format string) a constant zero, or a parenthesized expression that
 * could be one?  libtraceevent folds constant operands while it parses
 * and divides by a zero there (SIGFPE, found by the fuzzer); a divisor
 * read from the data is checked before each print (tp_print.c).
 */
bool pd_tp_divides_by_constant(const char *t, size_t n, size_t pf)
{
	char quote = 0;

	for (size_t i = pf; i < n; i++) {
		const char *q;

		if (quoted(t, n, &i, &quote))
			continue;
		if (t[i] != '/' && t[i] != '%')
			continue;
		q = skip_blanks(t + i + 1, t + n);
		if (q < t + n && *q == '(')
			return true;
		if (q < t + n && *q >= '0' && *q <= '9') {
			unsigned long long v = 0;

			if (q + 1 < t + n && q[0] == '0' &&
			    (q[1] == 'x' || q[1] == 'X'))
				q += 2;
			for (; q < t + n && ((*q >= '0' && *q <= '9') ||
					     (*q >= 'a' && *q <= 'f') ||
					     (*q >= 'A' && *q <= 'F'));
			     q++)
				v |= (unsigned long long)(*q != '0');
			if (!v)
				return true;
		}
	}
	return false;
}
