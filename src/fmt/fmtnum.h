/* SPDX-License-Identifier: MIT */
/*
 * Numbers and bounded copies without printf: records output formats
 * millions of them, and vfprintf was the largest cost.
 */
#ifndef PD_FMTNUM_H
#define PD_FMTNUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Decimal digits of v into buf (at least 21 bytes), NUL-terminated. */
static inline size_t fmt_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return n;
}

static inline size_t fmt_s64(char *buf, int64_t v)
{
	if (v >= 0)
		return fmt_u64(buf, (uint64_t)v);
	buf[0] = '-';
	return 1 + fmt_u64(buf + 1, -(uint64_t)v);
}

/* v / 10^decimals (decimals 1 to 9) exactly, with that many digits after
 * the point ("1952504587.123" of 1952504587123, 3), into buf (at least
 * 32 bytes). */
static inline size_t fmt_fixed(char *buf, uint64_t v, unsigned decimals)
{
	static const uint64_t scale[10] = {
		1,	10,	 100,	   1000,      10000,
		100000, 1000000, 10000000, 100000000, 1000000000};
	/* times in microseconds: a division by a constant, not a divide */
	uint64_t q = decimals == 3 ? v / 1000 : v / scale[decimals % 10];
	size_t n = fmt_u64(buf, q);

	buf[n++] = '.';
	v -= q * scale[decimals % 10];
	for (unsigned i = decimals; i-- > 0; v /= 10)
		buf[n + i] = (char)('0' + v % 10);
	n += decimals;
	buf[n] = 0;
	return n;
}

/* "0x" and lowercase hex digits of v into buf (at least 19 bytes). */
static inline size_t fmt_hex(char *buf, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	/* the digits v needs, written from the last */
	size_t n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	char *p = buf + 2 + n;

	buf[0] = '0';
	buf[1] = 'x';
	*p = 0;
	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	return 2 + n;
}

/*
 * s into dst (cap bytes, cap > 0), cut to fit, NUL-terminated; returns
 * the length written.  snprintf("%s") did the same at ten times the cost.
 */
static inline size_t fmt_copy(char *dst, size_t cap, const char *s)
{
	size_t n = strnlen(s, cap - 1);

	memcpy(dst, s, n);
	dst[n] = 0;
	return n;
}

#endif
