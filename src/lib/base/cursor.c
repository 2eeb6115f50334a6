// SPDX-License-Identifier: MIT
#include "lib/base/cursor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool in_feature(const struct cursor *c)
{
	return c->where.kind == PD_IN_FEATURE;
}

static bool in_record(const struct cursor *c)
{
	return c->where.kind == PD_IN_RECORD ||
	       c->where.kind == PD_IN_LEGACY_RECORD;
}

enum pd_code cur_short_code(const struct cursor *c)
{
	return in_feature(c)  ? PD_C_FEATURE_SHORT
	       : in_record(c) ? PD_C_RECORD_SHORT
			      : PD_C_MALFORMED;
}

enum pd_code cur_bad_code(const struct cursor *c)
{
	return in_feature(c)  ? PD_C_FEATURE_UNDECODABLE
	       : in_record(c) ? PD_C_RECORD_UNDECODABLE
			      : PD_C_MALFORMED;
}

void cur_init(struct cursor *c, const void *buf, size_t len, uint64_t base,
	      bool swap, struct pd_diags *diags, const char *ctx,
	      struct pd_where at)
{
	*c = (struct cursor){
		.buf = buf,
		.len = buf ? len : 0,
		.base = base,
		.swap = swap,
		.diags = diags,
		.ctx = ctx,
		.where = at,
	};
	c->need_code = cur_short_code(c);
}

static void vfail(struct cursor *c, enum pd_code code, const char *what,
		  const char *fmt, va_list ap)
{
	char whatbuf[160], detail[400];

	if (c->failed)
		return;
	c->failed = true;
	if (c->ctx)
		snprintf(whatbuf, sizeof(whatbuf), "%s: %s", c->ctx, what);
	else
		snprintf(whatbuf, sizeof(whatbuf), "%s", what);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	pd_diag_add(c->diags, code, c->where, PD_ERR, cur_off(c), whatbuf, "%s",
		    detail);
}

void cur_fail(struct cursor *c, enum pd_code code, const char *what,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(c, code, what, fmt, ap);
	va_end(ap);
}

const uint8_t *cur_take_short(struct cursor *c, const char *what, size_t n)
{
	if (c->failed)
		return NULL;
	if (c->len - c->pos < n) {
		cur_fail(c, c->need_code, what, "need %zu bytes, %zu left", n,
			 c->len - c->pos);
		return NULL;
	}
	/* not short after all (a caller's own check) */
	c->pos += n;
	return c->buf + c->pos - n;
}

bool cur_check_count(struct cursor *c, const char *what, uint64_t count,
		     size_t elem_size)
{
	size_t left = cur_left(c);

	if (c->failed)
		return false;
	if (elem_size == 0)
		elem_size = 1;
	if (count > left / elem_size) {
		cur_fail(c, PD_C_COUNT_TOO_LARGE, what,
			 "count %llu of at least %zu bytes each does not fit "
			 "in the %zu bytes left",
			 (unsigned long long)count, elem_size, left);
		return false;
	}
	return true;
}

struct cursor cur_sub(struct cursor *c, const char *what, size_t n)
{
	struct cursor sub;
	uint64_t off = cur_off(c);
	const uint8_t *p = cur_take(c, what, n);

	cur_init(&sub, p, p ? n : 0, off, c->swap, c->diags, c->ctx, c->where);
	sub.need_code = c->need_code;
	sub.failed = p == NULL;
	return sub;
}

static struct pd_str str_in(struct cursor *c, const char *what,
			    const uint8_t *p, size_t n, uint64_t off,
			    bool warn_unterminated)
{
	struct pd_str s = {.off = off};
	const uint8_t *nul;

	if (!p)
		return s;
	nul = memchr(p, 0, n);
	s.s = (const char *)p;
	s.len = nul ? (uint32_t)(nul - p) : (uint32_t)n;
	if (!nul && warn_unterminated && n) {
		char whatbuf[160];

		snprintf(whatbuf, sizeof(whatbuf), "%s%s%s",
			 c->ctx ? c->ctx : "", c->ctx ? ": " : "", what);
		pd_diag_add(c->diags, PD_C_STRING_NO_NUL, c->where, PD_WARN,
			    off, whatbuf,
			    "string of %zu bytes has no terminating NUL", n);
	}
	return s;
}

struct pd_str cur_hstring(struct cursor *c, const char *what)
{
	uint32_t len = cur_u32(c, what);
	uint64_t off = cur_off(c);
	const uint8_t *p;

	if (c->failed)
		return (struct pd_str){0};
	if (len > cur_left(c)) {
		cur_fail(c, cur_short_code(c), what,
			 "string length %u exceeds the %zu bytes left", len,
			 cur_left(c));
		return (struct pd_str){0};
	}
	p = cur_take(c, what, len);
	return str_in(c, what, p, len, off, true);
}

struct pd_str cur_fixed_string(struct cursor *c, const char *what, size_t n)
{
	uint64_t off = cur_off(c);

	return str_in(c, what, cur_take(c, what, n), n, off, false);
}

struct pd_str cur_cstring(struct cursor *c, const char *what)
{
	uint64_t off = cur_off(c);
	const uint8_t *p, *nul;
	size_t n;

	if (c->failed)
		return (struct pd_str){0};
	p = c->buf + c->pos;
	nul = memchr(p, 0, c->len - c->pos);
	if (!nul) {
		cur_fail(c, PD_C_STRING_NO_NUL, what,
			 "no terminating NUL in the %zu bytes left",
			 c->len - c->pos);
		return (struct pd_str){0};
	}
	n = (size_t)(nul - p);
	c->pos += n + 1;
	return (struct pd_str){
		.s = (const char *)p, .len = (uint32_t)n, .off = off};
}
