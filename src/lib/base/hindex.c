// SPDX-License-Identifier: MIT
/* A growing hash index of entry numbers (see hindex.h). */
#include "lib/base/hindex.h"

#include <stdlib.h>

#define FIRST_CAP 64u

/*
 * *pos counts the slots probed so far; the probe stops at an empty slot
 * (no later slot can hold the hash: nothing is ever removed).
 */
uint32_t pd_hindex_next(const struct pd_hindex *x, uint32_t hash, uint32_t *pos)
{
	if (!x->cap)
		return PD_HINDEX_NONE;
	while (*pos < x->cap) {
		const struct pd_hslot *s =
			&x->slot[(hash + *pos) & (x->cap - 1)];

		++*pos;
		if (s->id == PD_HINDEX_NONE)
			break;
		if (s->hash == hash)
			return s->id;
	}
	*pos = x->cap;
	return PD_HINDEX_NONE;
}

static void put(struct pd_hslot *slot, uint32_t cap, uint32_t hash, uint32_t id)
{
	uint32_t i = hash & (cap - 1);

	while (slot[i].id != PD_HINDEX_NONE)
		i = (i + 1) & (cap - 1);
	slot[i] = (struct pd_hslot){.hash = hash, .id = id};
}

int pd_hindex_add(struct pd_hindex *x, uint32_t hash, uint32_t id)
{
	if ((x->n + 1) * 2 > x->cap) {
		uint32_t ncap = x->cap ? x->cap * 2 : FIRST_CAP;
		struct pd_hslot *ns;

		if (ncap < x->cap) /* 2^32 slots: more than any table */
			return -1;
		ns = malloc((size_t)ncap * sizeof(*ns));
		if (!ns)
			return -1;
		for (uint32_t i = 0; i < ncap; i++)
			ns[i].id = PD_HINDEX_NONE;
		for (uint32_t i = 0; i < x->cap; i++)
			if (x->slot[i].id != PD_HINDEX_NONE)
				put(ns, ncap, x->slot[i].hash, x->slot[i].id);
		free(x->slot);
		x->slot = ns;
		x->cap = ncap;
	}
	put(x->slot, x->cap, hash, id);
	x->n++;
	return 0;
}

void pd_hindex_free(struct pd_hindex *x)
{
	free(x->slot);
	*x = (struct pd_hindex){0};
}

void pd_hindex_clear(struct pd_hindex *x)
{
	for (uint32_t i = 0; i < x->cap; i++)
		x->slot[i].id = PD_HINDEX_NONE;
	x->n = 0;
}
