// SPDX-License-Identifier: MIT
/*
 * Symbol names as people read them (see demangle.h): libstdc++'s
 * __cxa_demangle, then the parts perf does not print cut off, then
 * perf's legacy Rust rule.
 */
#include "lib/analysis/demangle.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * libstdc++'s <cxxabi.h>: abi::__cxa_demangle has C linkage.  The full
 * signature in a malloc'd string (output_buffer NULL), or NULL with
 * *status -1 (out of memory), -2 (not a mangled name), -3 (bad argument).
 */
char *__cxa_demangle(const char *mangled_name, char *output_buffer,
		     size_t *length, int *status);

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* " [clone .constprop.0]" groups at the end (libiberty's cp-demangle.c
 * d_clone_suffix prints them; without DMGL_PARAMS it reads none) */
static size_t cut_clones(const char *s, size_t n)
{
	while (n && s[n - 1] == ']') {
		size_t i = n - 1;

		while (i > 0 && s[i - 1] != '[' && s[i - 1] != ']')
			i--;
		if (i < 2 || s[i - 1] != '[' || s[i - 2] != ' ' ||
		    strncmp(s + i, "clone ", 6) != 0)
			break;
		n = i - 2;
	}
	return n;
}

/* The method's qualifiers after its parameters (cp-demangle.c
 * d_print_mod: CONST_THIS, VOLATILE_THIS, REFERENCE_THIS...). */
static const char *const quals[] = {
	" const", " volatile",	       " restrict", " &&",
	" &",	  " transaction_safe", " noexcept",
};

static size_t cut_quals(const char *s, size_t n)
{
	for (bool cut = true; cut;) {
		cut = false;
		for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++)
			if (ends_with(s, n, quals[q])) {
				n -= strlen(quals[q]);
				cut = true;
			}
	}
	return n;
}

/* The '(' that the ')' at s[close] closes, or SIZE_MAX. */
static size_t open_paren(const char *s, size_t close)
{
	int depth = 0;

	for (size_t i = close + 1; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return SIZE_MAX;
}

/* After "operator": the spelling of an operator that holds brackets. */
static size_t op_len(const char *s)
{
	static const char *const ops[] = {
		"()", "[]", "<=>", "<<=", ">>=", "->*", "<<",
		">>", "<=", ">=",  "->",  "<",	 ">"};

	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (strncmp(s, ops[k], strlen(ops[k])) == 0)
			return strlen(ops[k]);
	return 0;
}

static bool qual_word(const char *s)
{
	for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
		const char *w = quals[q] + 1;
		size_t k = strlen(w);

		if (strncmp(s, w, k) == 0 && !ident_char(s[k]))
			return true;
	}
	return false;
}

/*
 * Where the name starts in "RETURN-TYPE NAME" (a function template's,
 * without its parameters): after the last blank outside brackets that
 * is not before a qualifier ("int const& f<int>", "auto A::f() const::
 * {lambda(auto:1)#1}::operator()<int>") and comes before the name's
 * "operator", if any; 0 when there is none.
 */
static size_t name_start(const char *s, size_t n)
{
	size_t start = 0;
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == 'o' && strncmp(s + i, "operator", 8) == 0 &&
		    (i == 0 || !ident_char(s[i - 1])) &&
		    !ident_char(s[i + 8])) {
			if (depth == 0)
				break; /* the name's own: no return type after */
			i += 7 + op_len(s + i + 8);
		} else if (c == '-' && s[i + 1] == '>') {
			i++;
		} else if (c == '<' || c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == '>' || c == ')' || c == ']' || c == '}') {
			depth--;
		} else if (c == ' ' && depth == 0 && !qual_word(s + i + 1)) {
			start = i + 1;
		}
	}
	return start;
}

/*
 * A template returning a pointer to a function, "void (*A::f<int>(long)
 * const)" of "void (*A::f<int>(long) const)(int)": its name is inside
 * the parentheses, after the last '*' or '&' there; "void (*(*f<int>())
 * (int))" holds one more.  The name's end, its start in *from; 0 when s
 * is not that.
 */
static size_t pointer_return(const char *s, size_t n, size_t *from)
{
	while (n && s[n - 1] == ')') {
		size_t o = open_paren(s, n - 1), e, p;
		int depth = 0;

		if (o == SIZE_MAX)
			return 0;
		e = cut_quals(s, n - 1);
		if (e <= o + 1 || s[e - 1] != ')' ||
		    (p = open_paren(s, e - 1)) == SIZE_MAX || p <= o + 1)
			return 0;
		*from = o + 1;
		for (size_t i = o + 1; i < p; i++) {
			if (s[i] == '<' || s[i] == '(')
				depth++;
			else if (s[i] == '>' || s[i] == ')')
				depth--;
			else if (depth == 0 && (s[i] == '*' || s[i] == '&'))
				*from = i + 1;
		}
		n = p;
	}
	return n > *from ? n : 0;
}

/*
 * The full signature s[0..n) cut to what libiberty prints without
 * DMGL_PARAMS (cp-demangle.c d_encoding at the top level: the name
 * alone): the name is s[*from..returned end).
 */
static size_t cut_signature(char *s, size_t n, size_t *from)
{
	size_t full = n, open;

	*from = 0;
	n = cut_quals(s, n);
	if (!n || s[n - 1] != ')' || (open = open_paren(s, n - 1)) == SIZE_MAX)
		return full; /* not a function: a variable's name */
	n = open;
	if (!n)
		return full;
	/* a name ends in ')' as "operator()" does, or a conversion to a
	 * function's pointer ("operator void (A::*)()"); else a pointer to
	 * a function is returned */
	if (s[n - 1] == ')' && !ends_with(s, n, "operator()") &&
	    !strstr(s, "operator ")) {
		n = pointer_return(s, n, from);
		return n ? n : full;
	}
	/* only a template's return type is in its mangled name */
	if (s[n - 1] == '>')
		*from = name_start(s, n);
	return n;
}

/* ---- legacy Rust (perf's tools/perf/util/demangle-rust.c) ----------- */

#define RUST_HASH_LEN 19 /* "::h" and 16 lowercase hex digits */

/* The escapes of legacy Rust names, and what they stand for. */
static const struct {
	const char *seq;
	char c;
} rust_esc[] = {
	{"$C$", ','},	{"$SP$", '@'},	 {"$BP$", '*'},	 {"$RF$", '&'},
	{"$LT$", '<'},	{"$GT$", '>'},	 {"$LP$", '('},	 {"$RP$", ')'},
	{"$u20$", ' '}, {"$u27$", '\''}, {"$u5b$", '['}, {"$u5d$", ']'},
	{"$u7e$", '~'},
};

/* The length of the escape at s, 0 when there is none. */
static size_t rust_escape(const char *s, char *c)
{
	for (size_t k = 0; k < sizeof(rust_esc) / sizeof(rust_esc[0]); k++) {
		size_t len = strlen(rust_esc[k].seq);

		if (strncmp(s, rust_esc[k].seq, len) == 0) {
			*c = rust_esc[k].c;
			return len;
		}
	}
	return 0;
}

/* rust_is_mangled: "...::h" + 16 hex digits, 5 to 15 of them distinct,
 * before them only [a-zA-Z0-9_.:$] with known escapes and no "..." */
static bool rust_legacy(const char *s, size_t n)
{
	const char *h;
	unsigned seen = 0, distinct = 0;
	char c;

	if (n <= RUST_HASH_LEN)
		return false;
	h = s + n - RUST_HASH_LEN;
	if (strncmp(h, "::h", 3) != 0)
		return false;
	for (size_t i = 3; i < RUST_HASH_LEN; i++) {
		char d = h[i];
		int v = d >= '0' && d <= '9'   ? d - '0'
			: d >= 'a' && d <= 'f' ? d - 'a' + 10
					       : -1;

		if (v < 0)
			return false;
		seen |= 1u << v;
	}
	for (unsigned b = seen; b; b &= b - 1)
		distinct++;
	if (distinct < 5 || distinct > 15)
		return false;
	for (const char *p = s; p < h;) {
		size_t k;

		if (*p == '$') {
			if (!(k = rust_escape(p, &c)))
				return false;
			p += k;
		} else if (*p == '.' && strncmp(p, "...", 3) == 0) {
			return false;
		} else if (ident_char(*p) || *p == '.' || *p == ':') {
			p++;
		} else {
			return false;
		}
	}
	return true;
}

/* rust_demangle_sym: the hash dropped, escapes undone ("..": "::",
 * ".": "-"), a component's leading '_' before an escape dropped; in
 * place, the length returned */
static size_t rust_unescape(char *s, size_t n)
{
	const char *in = s, *end = s + n - RUST_HASH_LEN;
	char *out = s, c;
	size_t k;

	while (in < end) {
		if (*in == '$' && (k = rust_escape(in, &c))) {
			*out++ = c;
			in += k;
		} else if (*in == '_' && (in == s || in[-1] == ':') &&
			   in[1] == '$') {
			in++;
		} else if (*in == '.' && in[1] == '.') {
			*out++ = ':';
			*out++ = ':';
			in += 2;
		} else if (*in == '.') {
			*out++ = '-';
			in++;
		} else {
			*out++ = *in++;
		}
	}
	*out = 0;
	return (size_t)(out - s);
}

/* ---- the whole ---------------------------------------------------- */

/*
 * The length of m without the clone suffixes at its end (".cold",
 * ".llvm.1234", ".isra.0": cp-demangle.c d_clone_suffix's form), which
 * __cxa_demangle takes after a function's name only, and libiberty
 * without DMGL_PARAMS ignores after any.
 */
static size_t cut_suffixes(const char *m, size_t n)
{
	for (size_t was = 0; was != n;) {
		size_t i = n;

		was = n;
		while (i && m[i - 1] >= '0' && m[i - 1] <= '9')
			i--;
		if (i < n && i && m[i - 1] == '.') {
			n = i - 1; /* ".1234" */
			continue;
		}
		i = n;
		while (i && ((m[i - 1] >= 'a' && m[i - 1] <= 'z') ||
			     (m[i - 1] >= '0' && m[i - 1] <= '9') ||
			     m[i - 1] == '_'))
			i--;
		if (i < n && i && m[i - 1] == '.' &&
		    !(m[i] >= '0' && m[i] <= '9'))
			n = i - 1; /* ".llvm", ".cold" */
	}
	return n;
}

char *pd_demangle(const char *name)
{
	const char *at = strchr(name, '@');
	size_t mlen = at ? (size_t)(at - name) : strlen(name), n, from;
	bool plt = at && strcmp(at, "@plt") == 0;
	char mangled[PD_DEMANGLE_MAX + 1], *s, *r;
	int status;

	if (mlen < 3 || mlen > PD_DEMANGLE_MAX || name[0] != '_' ||
	    name[1] != 'Z')
		return NULL;
	/* "@@VERSION" and "@plt" are not the mangled name's */
	memcpy(mangled, name, mlen);
	mangled[mlen] = 0;
	s = __cxa_demangle(mangled, NULL, NULL, &status);
	if (!s && status == -2 && (n = cut_suffixes(mangled, mlen)) < mlen) {
		mangled[n] = 0;
		s = __cxa_demangle(mangled, NULL, NULL, &status);
	}
	if (!s)
		return NULL;
	n = cut_clones(s, strlen(s));
	from = 0;
	/* special names (_ZT: vtables, typeinfo, thunks; _ZG: guard
	 * variables...) keep their parameters, as libiberty prints them */
	if (mangled[2] != 'T' && mangled[2] != 'G')
		n = cut_signature(s, n, &from);
	memmove(s, s + from, n - from);
	n -= from;
	s[n] = 0;
	if (rust_legacy(s, n))
		n = rust_unescape(s, n);
	if (plt) {
		r = realloc(s, n + sizeof("@plt"));
		if (!r) {
			free(s);
			return NULL;
		}
		s = r;
		memcpy(s + n, "@plt", sizeof("@plt"));
	}
	return s;
}
