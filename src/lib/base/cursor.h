/* SPDX-License-Identifier: MIT */
/*
 * The bounded, endian-aware reader every decoder uses.
 *
 * A cursor walks a buffer that holds bytes of the file starting at file
 * offset `base`, so it can say where every byte it hands out came from.
 * Reads never go past the end: a short read records one diagnostic
 * ("0xOFF: WHAT: need N bytes, M left"), marks the cursor failed and every
 * later read on it fails too (sticky), returning zeros.  Callers can thus
 * decode a structure straight through and check `cur_ok()` once.
 *
 * Counts read from the file are untrusted: check them with cur_check_count()
 * against the bytes that remain before allocating or looping on them.
 */
#ifndef PD_CURSOR_H
#define PD_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/base/diag.h"

struct cursor {
	const uint8_t *buf;
	size_t len;    /* bytes in buf */
	size_t pos;    /* next byte to read */
	uint64_t base; /* file offset of buf[0] */
	bool swap;     /* producer has the other byte order */
	bool failed;   /* a read failed; sticky */
	struct pd_diags *diags;
	const char *ctx;	/* prefix for messages, e.g. "HEADER_CMDLINE" */
	struct pd_where where;	/* the structure read (for the diagnostics) */
	enum pd_code need_code; /* a short read: "need N bytes, M left" */
};

/* A string as stored in the file: bytes up to the first NUL, not copied. */
struct pd_str {
	const char *s;
	uint32_t len;
	uint64_t off; /* file offset of the first byte */
};

/*
 * The codes of a short read (need_code) and of cur_short_code() /
 * cur_bad_code() follow from `at`: feature-short / feature-undecodable in a
 * feature, record-short / record-undecodable in a record, else malformed.
 */
void cur_init(struct cursor *c, const void *buf, size_t len, uint64_t base,
	      bool swap, struct pd_diags *diags, const char *ctx,
	      struct pd_where at);

static inline uint64_t cur_off(const struct cursor *c)
{
	return c->base + c->pos;
}
static inline size_t cur_left(const struct cursor *c)
{
	return c->failed ? 0 : c->len - c->pos;
}
static inline bool cur_ok(const struct cursor *c)
{
	return !c->failed;
}

/* The code of "fewer bytes than the fields need" in what c reads. */
enum pd_code cur_short_code(const struct cursor *c);
/* The code of "these bytes do not decode" in what c reads. */
enum pd_code cur_bad_code(const struct cursor *c);

/* Record an error at the current offset and fail the cursor. */
void cur_fail(struct cursor *c, enum pd_code code, const char *what,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* cur_take's failure: the short read said, the cursor failed; NULL. */
const uint8_t *cur_take_short(struct cursor *c, const char *what, size_t n);

/*
 * The next n bytes in place, the cursor past them; NULL (the cursor
 * failed, the short read said) when fewer are left.  Inline: every fixed
 * field of every record goes through it.
 */
static inline const uint8_t *cur_take(struct cursor *c, const char *what,
				      size_t n)
{
	const uint8_t *p;

	if (c->failed || c->len - c->pos < n)
		return cur_take_short(c, what, n);
	p = c->buf + c->pos;
	c->pos += n;
	return p;
}

/* n raw bytes, returned in place (never swapped); NULL on failure. */
static inline const uint8_t *cur_bytes(struct cursor *c, const char *what,
				       size_t n)
{
	return cur_take(c, what, n);
}

static inline bool cur_skip(struct cursor *c, const char *what, size_t n)
{
	return cur_take(c, what, n) != NULL;
}

/*
 * Check that `count` elements of at least `elem_size` bytes each can fit in
 * what remains.  Fails the cursor (with the values) if not.
 * The rule: no allocation or loop is sized by a count read from the file
 * until it has passed this check (tests/fuzz/mutate.c enforces the bound).
 */
bool cur_check_count(struct cursor *c, const char *what, uint64_t count,
		     size_t elem_size);

/*
 * Carve the next n bytes into a child cursor (same base, swap, diags) and
 * advance past them.  On failure the child is empty and failed.
 */
struct cursor cur_sub(struct cursor *c, const char *what, size_t n);

/*
 * perf's header string (tools/perf/util/header.c do_write_string):
 * u32 len; char str[len], len counting the NUL and padding to 64.
 * The text is the bytes before the first NUL; a string without a NUL
 * inside its length is reported (warning) and taken whole.
 */
struct pd_str cur_hstring(struct cursor *c, const char *what);

/* A fixed-size char array (comm[16], name[64]): text up to the first NUL. */
struct pd_str cur_fixed_string(struct cursor *c, const char *what, size_t n);

/* A NUL-terminated string of unknown length (tracing data). */
struct pd_str cur_cstring(struct cursor *c, const char *what);

/* Byte order helpers for code that reads in place. */
static inline uint16_t pd_get16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t pd_get32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t pd_get64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

/* The next field, in the producer's byte order (0 when short). */
static inline uint8_t cur_u8(struct cursor *c, const char *what)
{
	const uint8_t *p = cur_take(c, what, 1);

	return p ? *p : 0;
}

static inline uint16_t cur_u16(struct cursor *c, const char *what)
{
	const uint8_t *p = cur_take(c, what, 2);

	return p ? pd_get16(p, c->swap) : 0;
}

static inline uint32_t cur_u32(struct cursor *c, const char *what)
{
	const uint8_t *p = cur_take(c, what, 4);

	return p ? pd_get32(p, c->swap) : 0;
}

static inline uint64_t cur_u64(struct cursor *c, const char *what)
{
	const uint8_t *p = cur_take(c, what, 8);

	return p ? pd_get64(p, c->swap) : 0;
}

static inline int32_t cur_s32(struct cursor *c, const char *what)
{
	return (int32_t)cur_u32(c, what);
}

/* ... and for code that writes (the perf.data writer, src/lib/write). */
static inline void pd_put16(void *p, uint16_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void pd_put32(void *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void pd_put64(void *p, uint64_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

#endif
