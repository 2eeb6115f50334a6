/* SPDX-License-Identifier: MIT */
/*
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * 2012): a keyed hash made for short inputs; --redact-key's tokens.
 */
#ifndef PD_SIPHASH_H
#define PD_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* The 64-bit SipHash-2-4 of p[0..n) under the 128-bit key k0 || k1. */
uint64_t pd_siphash24(uint64_t k0, uint64_t k1, const void *p, size_t n);

#endif
