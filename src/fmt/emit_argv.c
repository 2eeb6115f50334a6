// SPDX-License-Identifier: MIT
/*
 * emit_argv (emit.h): a command line, as JSON strings or as one line a
 * shell reads back into the same arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"

struct line {
	char *p;
	size_t len, cap;
	bool oom;
};

static void put(void *ctx, const char *s, size_t n)
{
	struct line *l = ctx;

	if (l->oom || !n)
		return;
	if (l->len + n > l->cap) {
		size_t cap = l->cap ? l->cap : 256;
		char *p;

		while (cap < l->len + n)
			cap *= 2;
		if (!(p = realloc(l->p, cap))) {
			l->oom = true;
			return;
		}
		l->p = p;
		l->cap = cap;
	}
	memcpy(l->p + l->len, s, n);
	l->len += n;
}

/* A byte a shell takes as itself anywhere in a word (and a token's). */
static bool sh_plain(unsigned char c, bool token)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("@%+=:,./_-", c)) ||
	       (token && (c == '<' || c == '>'));
}

/*
 * s[0..n) as a shell word: as it is when every byte is plain; in single
 * quotes ('\'' for a quote) when text_escape leaves it unchanged; else
 * in $'...' with text_escape's escapes (\xNN, \n, \t, \\), which bash,
 * ksh and zsh read back, and \' for a quote.
 */
static void sh_word(struct line *l, const char *s, size_t n, bool token)
{
	struct line esc = {0};
	size_t i;

	for (i = 0; i < n && sh_plain((unsigned char)s[i], token); i++)
		;
	if (n && i == n) {
		put(l, s, n);
		return;
	}
	text_escape(s, n, false, put, &esc);
	if (esc.len == n && !esc.oom) {
		put(l, "'", 1);
		for (i = 0; i < n; i++)
			put(l, s[i] == '\'' ? "'\\''" : s + i,
			    s[i] == '\'' ? 4 : 1);
		put(l, "'", 1);
	} else {
		put(l, "$'", 2);
		for (i = 0; i < esc.len; i++)
			put(l, esc.p[i] == '\'' ? "\\'" : esc.p + i,
			    esc.p[i] == '\'' ? 2 : 1);
		put(l, "'", 1);
		l->oom |= esc.oom;
	}
	free(esc.p);
}

/* Argument s[0..n) as shown: redacted by its place in the command line. */
static void shown(struct emitter *e, struct redact_argv *st, const char **s,
		  size_t *n)
{
	struct redact_arg a = redact_argv_next(st, *s, *n);

	if (e->red)
		redact_arg(e->red, a, *s, *n, s, n);
}

void emit_argv(struct emitter *e, const char *key, const struct pd_str *v,
	       uint32_t n)
{
	struct redact_argv st = {0};
	struct line l = {0};

	if (is_json(e) || text_off(e)) {
		emit_arr_begin(e, key);
		for (uint32_t i = 0; i < n; i++) {
			const char *s = v[i].s;
			size_t len = v[i].len;

			shown(e, &st, &s, &len);
			write_str(e, NULL, s, len);
		}
		emit_arr_end(e);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		const char *s = v[i].s;
		size_t len = v[i].len;

		shown(e, &st, &s, &len);
		if (i)
			put(&l, " ", 1);
		sh_word(&l, s, len, s != v[i].s);
	}
	if (l.oom)
		text_value(e, key, "<out of memory>");
	else if (!text_line_value(e, l.p ? l.p : "", l.len)) {
		text_lead(e, key);
		/* in a row of key=value pairs, one quoted value */
		if (top(e)->kind != T_OBJ)
			text_bytes(e, l.p ? l.p : "", l.len, true);
		else
			jw_raw(&e->jw, l.p ? l.p : "", l.len);
		text_end_value(e);
	}
	free(l.p);
}
