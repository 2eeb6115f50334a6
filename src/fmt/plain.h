/* SPDX-License-Identifier: MIT */
/*
 * Bytes that pass the escaping of text (text_escape, emit_text.c) and of
 * JSON strings (json.c) unchanged, found 8 at a time: nearly all output
 * is printable ASCII, and a test per byte was the cost of writing it.
 */
#ifndef PD_PLAIN_H
#define PD_PLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Is some byte of x below n (n <= 128)?  Exact as a yes or no. */
static inline uint64_t byte_below(uint64_t x, unsigned n)
{
	const uint64_t ones = 0x0101010101010101ull;

	return (x - ones * n) & ~x & (ones * 0x80);
}

/* Is some byte of x equal to c? */
static inline uint64_t byte_is(uint64_t x, unsigned c)
{
	return byte_below(x ^ (0x0101010101010101ull * c), 1);
}

/*
 * From p[i], skip whole 8-byte words of printable ASCII that pass
 * unchanged (no control, DEL, byte >= 0x80, '\\', or '"' when quoting);
 * the index of the first word that holds anything else.
 */
static inline size_t plain_words(const unsigned char *p, size_t i, size_t n,
				 bool quote)
{
	uint64_t x;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, p + i, 8);
		if ((x & 0x8080808080808080ull) || byte_below(x, 0x20) ||
		    byte_is(x, 0x7f) || byte_is(x, '\\') ||
		    (quote && byte_is(x, '"')))
			break;
	}
	return i;
}

#endif
