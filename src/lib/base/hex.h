/* SPDX-License-Identifier: MIT */
/* Bytes as hex digits: build-ids in paths, RAW payloads, -x dumps. */
#ifndef PD_HEX_H
#define PD_HEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Two lowercase hex digits for each byte of p[0..n) into out (2 * n + 1
 * bytes), NUL-terminated.  From a table: snprintf per byte was three
 * quarters of records' time where RAW payloads are printed as hex.
 */
static inline void pd_hex_bytes(char *out, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = 0;
}

#endif
