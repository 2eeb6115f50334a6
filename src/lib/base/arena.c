// SPDX-License-Identifier: MIT
#include "lib/base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK (64 * 1024)

/* Under AddressSanitizer every allocation gets a block of its own. */
#define ARENA_EXACT PD_ASAN

void *arena_alloc(struct arena *a, size_t size)
{
	void *p = arena_alloc_dirty(a, size);

	if (p)
		memset(p, 0, size ? size : 1);
	return p;
}

void *arena_alloc_dirty(struct arena *a, size_t size)
{
	struct arena_block *b = a->head;

	if (!ARENA_EXACT)
		size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	if (a->limit && (size > a->limit || a->total > a->limit - size))
		return NULL;
	if (!b || b->size - b->used < size || ARENA_EXACT) {
		size_t bsize = size > ARENA_BLOCK / 4 || ARENA_EXACT
				       ? size
				       : ARENA_BLOCK;

		if (bsize > SIZE_MAX - sizeof(*b))
			return NULL;
		/* 16-byte aligned even where malloc only promises 8 (ASan) */
		if (posix_memalign((void **)&b, 16, sizeof(*b) + bsize))
			return NULL;
		b->size = bsize;
		b->used = 0;
		if (bsize > ARENA_BLOCK && a->head) {
			/* keep the current block for small allocations */
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	void *p = b->data + b->used;
	b->used += size;
	a->total += size;
	return p;
}

void *arena_calloc(struct arena *a, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return arena_alloc(a, bytes);
}

void *arena_memdup(struct arena *a, const void *p, size_t size)
{
	/* +1: a NUL after the bytes (a string's copy is one) */
	char *q = arena_alloc_dirty(a, size + 1);

	if (!q)
		return NULL;
	if (size)
		memcpy(q, p, size);
	q[size] = 0;
	return q;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}

void arena_reset(struct arena *a)
{
	struct arena_block *keep = a->head;

	if (!keep)
		return;
	/* the head is the block small allocations come from: keep it */
	struct arena_block *b = keep->next;

	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
	keep->next = NULL;
	keep->used = 0;
	a->total = 0;
	if (ARENA_EXACT) { /* one block per allocation: keep none */
		free(keep);
		a->head = NULL;
	}
}
