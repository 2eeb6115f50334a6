// SPDX-License-Identifier: MIT
/* Read-ahead on a helper thread (see prefetch.h). */
#include "lib/io/prefetch.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct slot {
	uint8_t *mem; /* carry + chunk bytes */
	ssize_t len;  /* bytes read, 0 end, -1 error */
	int err;      /* errno of a failed read */
	bool full;    /* filled by the thread, not yet taken back */
};

struct pd_prefetch {
	struct pd_input *in;
	uint64_t at, end; /* the thread's next offset, the range's end */
	size_t chunk, carry;
	struct slot slot[PD_PREFETCH_NBUF];
	int take; /* the slot the caller reads next */
	int held; /* the slot the caller holds, -1 none */
	bool threaded, stop, inited;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* Fill one slot from the file (either thread). */
static void fill_slot(struct pd_prefetch *pf, struct slot *sl)
{
	size_t want = pf->end - pf->at < pf->chunk ? (size_t)(pf->end - pf->at)
						   : pf->chunk;
	ssize_t n =
		want ? pd_input_pread(pf->in, pf->at, sl->mem + pf->carry, want)
		     : 0;

	sl->err = n < 0 ? errno : 0;
	sl->len = n;
	if (n > 0)
		pf->at += (uint64_t)n;
}

static void *run(void *arg)
{
	struct pd_prefetch *pf = arg;
	int i = 0;

	for (;;) {
		struct slot *sl = &pf->slot[i];

		pthread_mutex_lock(&pf->mu);
		while (sl->full && !pf->stop)
			pthread_cond_wait(&pf->cv, &pf->mu);
		if (pf->stop) {
			pthread_mutex_unlock(&pf->mu);
			return NULL;
		}
		pthread_mutex_unlock(&pf->mu);
		fill_slot(pf, sl);
		pthread_mutex_lock(&pf->mu);
		sl->full = true;
		pthread_cond_broadcast(&pf->cv);
		pthread_mutex_unlock(&pf->mu);
		if (sl->len <= 0)
			return NULL; /* the end, or an error: nothing more */
		i = (i + 1) % PD_PREFETCH_NBUF;
	}
}

struct pd_prefetch *pd_prefetch_start(struct pd_input *in, uint64_t start,
				      uint64_t end, size_t chunk, size_t carry)
{
	struct pd_prefetch *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return NULL;
	*pf = (struct pd_prefetch){.in = in,
				   .at = start,
				   .end = end,
				   .chunk = chunk,
				   .carry = carry,
				   .held = -1};
	for (int i = 0; i < PD_PREFETCH_NBUF; i++) {
		pf->slot[i].mem = malloc(carry + chunk);
		if (!pf->slot[i].mem) {
			pd_prefetch_stop(pf);
			return NULL;
		}
	}
	if (end <= start)
		pf->end = start;
	pthread_mutex_init(&pf->mu, NULL);
	pthread_cond_init(&pf->cv, NULL);
	pf->inited = true;
	pf->threaded = pthread_create(&pf->th, NULL, run, pf) == 0;
	return pf;
}

ssize_t pd_prefetch_next(struct pd_prefetch *pf, uint8_t **p)
{
	struct slot *sl = &pf->slot[pf->take];

	if (!pf->threaded) {
		fill_slot(pf, sl);
	} else {
		pthread_mutex_lock(&pf->mu);
		if (pf->held >= 0) { /* give the chunk before back */
			pf->slot[pf->held].full = false;
			pf->held = -1;
			pthread_cond_broadcast(&pf->cv);
		}
		while (!sl->full)
			pthread_cond_wait(&pf->cv, &pf->mu);
		pthread_mutex_unlock(&pf->mu);
		if (sl->len > 0) {
			pf->held = pf->take;
			pf->take = (pf->take + 1) % PD_PREFETCH_NBUF;
		}
	}
	*p = sl->mem + pf->carry;
	if (sl->len < 0)
		errno = sl->err;
	return sl->len;
}

void pd_prefetch_stop(struct pd_prefetch *pf)
{
	if (!pf)
		return;
	if (pf->threaded) {
		pthread_mutex_lock(&pf->mu);
		pf->stop = true;
		pthread_cond_broadcast(&pf->cv);
		pthread_mutex_unlock(&pf->mu);
		pthread_join(pf->th, NULL);
	}
	if (pf->inited) {
		pthread_mutex_destroy(&pf->mu);
		pthread_cond_destroy(&pf->cv);
	}
	for (int i = 0; i < PD_PREFETCH_NBUF; i++)
		free(pf->slot[i].mem);
	free(pf);
}
