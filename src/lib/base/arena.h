/* SPDX-License-Identifier: MIT */
/*
 * A simple arena: the decoded model of a recording lives until the session
 * is closed, so its pieces are allocated here and freed all at once.
 */
#ifndef PD_ARENA_H
#define PD_ARENA_H

#include <stddef.h>

/*
 * Under AddressSanitizer what is cut from blocks (this arena, the
 * time-order queue's copies) gets an allocation of its own, so that an
 * overflow past one hits a redzone instead of its neighbour.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PD_ASAN 1
#endif
#endif
#ifndef PD_ASAN
#define PD_ASAN 0
#endif

struct arena_block;

struct arena {
	struct arena_block *head;
	size_t total; /* bytes handed out, for tests and limits */
	size_t limit; /* 0: none; else allocations past total == limit fail */
};

/* Zeroed memory, 16-byte aligned; NULL on overflow, past the limit or out of memory. */
void *arena_alloc(struct arena *a, size_t size);
/* The same, not zeroed: for what the caller writes whole at once. */
void *arena_alloc_dirty(struct arena *a, size_t size);
/* n elements of size bytes, with the multiplication checked. */
void *arena_calloc(struct arena *a, size_t n, size_t size);
void *arena_memdup(struct arena *a, const void *p, size_t size);
void arena_free(struct arena *a);
/* Free everything but keep one block for reuse (per-record scratch). */
void arena_reset(struct arena *a);

#endif
