/* SPDX-License-Identifier: MIT */
/* Small helpers for every folder (src/lib, src/fmt, the commands). */
#ifndef PD_UTIL_H
#define PD_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The number of elements of an array (not a pointer). */
#define PD_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Room in *v (an array of *cap elements of size bytes, n of them used)
 * for one more: doubled from 64 when full.  false: out of memory, or
 * 2^31 elements (*v and *cap unchanged).
 */
static inline bool pd_grow(void **v, uint32_t n, uint32_t *cap, size_t size)
{
	uint32_t ncap;
	void *nv;

	if (n < *cap)
		return true;
	if (*cap >= UINT32_MAX / 2)
		return false;
	ncap = *cap ? *cap * 2 : 64;
	nv = realloc(*v, (size_t)ncap * size);
	if (!nv)
		return false;
	*v = nv;
	*cap = ncap;
	return true;
}

#endif
