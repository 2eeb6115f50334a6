/* SPDX-License-Identifier: MIT */
/*
 * A hash index: entry numbers (an array's indices, kept by the caller)
 * found by a 32-bit hash of their key, open addressing with linear
 * probing.  It starts small and doubles when half full, so a walk over a
 * small recording pays for a few slots, not for the largest table it
 * could need.  The caller compares keys: lookups hand out every entry
 * whose hash matches, in probe order.
 */
#ifndef PD_HINDEX_H
#define PD_HINDEX_H

#include <stddef.h>
#include <stdint.h>

#define PD_HINDEX_NONE UINT32_MAX

struct pd_hslot {
	uint32_t hash;
	uint32_t id; /* PD_HINDEX_NONE: empty */
};

struct pd_hindex {
	struct pd_hslot *slot;
	uint32_t cap; /* 0, or a power of two */
	uint32_t n;
};

/* FNV-1a over n bytes, from h (PD_FNV_SEED to start). */
#define PD_FNV_SEED 2166136261u
static inline uint32_t pd_fnv1a(const void *p, size_t n, uint32_t h)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

/*
 * The entries whose hash is `hash`: start with *pos = 0, call until it
 * returns PD_HINDEX_NONE.
 */
uint32_t pd_hindex_next(const struct pd_hindex *x, uint32_t hash,
			uint32_t *pos);
/* Add id under hash.  Returns 0, or -1 when out of memory. */
int pd_hindex_add(struct pd_hindex *x, uint32_t hash, uint32_t id);
void pd_hindex_free(struct pd_hindex *x);
/* No entries, its slots kept. */
void pd_hindex_clear(struct pd_hindex *x);

#endif
