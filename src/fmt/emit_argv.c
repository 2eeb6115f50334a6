// SPDX-License-Identifier: MIT
/*
 * emit_argv (emit.h): a command line, as JSON strings or as one line a
 * shell reads back into the same arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt/emit_int.h"
#include "lib/base/strbuf.h"

/* text_escape's put: into a strbuf */
static void put(void *ctx, const char *s, size_t n)
{
	strbuf_put(ctx, s, n);
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
static void sh_word(struct strbuf *l, const char *s, size_t n, bool token)
{
	struct strbuf esc = {0};
	size_t i;

	for (i = 0; i < n && sh_plain((unsigned char)s[i], token); i++)
		;
	if (n && i == n) {
		strbuf_put(l, s, n);
		return;
	}
	text_escape(s, n, false, put, &esc);
	if (esc.len == n && !esc.oom) {
		strbuf_put(l, "'", 1);
		for (i = 0; i < n; i++)
			strbuf_put(l, s[i] == '\'' ? "'\\''" : s + i,
				   s[i] == '\'' ? 4 : 1);
		strbuf_put(l, "'", 1);
	} else {
		strbuf_put(l, "$'", 2);
		for (i = 0; i < esc.len; i++)
			strbuf_put(l, esc.p[i] == '\'' ? "\\'" : esc.p + i,
				   esc.p[i] == '\'' ? 2 : 1);
		strbuf_put(l, "'", 1);
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
	struct strbuf l = {0};

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
			strbuf_put(&l, " ", 1);
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
