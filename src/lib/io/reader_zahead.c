// SPDX-License-Identifier: MIT
/*
 * The reader's fast mode on compressed recordings: the containers' zstd
 * data is decompressed on a helper thread, a few containers ahead of the
 * records the caller is being handed, so that decompression (most of a
 * walk's cost on a `perf record -z` file) and the caller's work run on two
 * CPUs.  The decoder is reader_z.c's (pd_z_inflate, the one zstd call),
 * one stream per source as perf's (tools/perf/util/session.c:
 * perf_session__process_compressed_event); the helper runs the containers
 * strictly in file order, and the caller takes their output in the same
 * order, so the records and every diagnostic are those of the plain mode
 * (tests/reader.bats compares the two).
 *
 * To know what comes next, the reader frames ahead in the bytes its
 * stream already holds (no read, so no diagnostic is raised early): the
 * containers it meets are handed to the helper, the records between them
 * are copied and queued.  It stops at anything that is not a whole plain
 * record or a container with sound sizes; the ordinary path then takes it
 * in turn.
 *
 * Memory: the containers' output buffers come out of one budget
 * (ZAHEAD_BUDGET).  The helper waits for room when it has used it up; the
 * caller, waiting for the oldest container, holds one buffer only, so the
 * oldest always gets ZOUT_MAX.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/io/reader_int.h"

#define NJOB  8	  /* containers in flight */
#define NITEM 128 /* records framed ahead (containers included) */
/* a buffer a job slot keeps for the next job: at most this much */
#define ZKEEP ((size_t)ZCARRY + ZOUT_START)
/*
 * All output buffers together, ZCARRY room included: the two the caller
 * may hold at their largest, and what the job slots keep.
 */
#define ZAHEAD_BUDGET (2 * ((size_t)ZCARRY + ZOUT_MAX) + NJOB * ZKEEP)

struct zjob {
	uint8_t *in; /* the container's zstd bytes, copied */
	size_t in_len, in_cap;
	struct zout out;
	const char *why; /* pd_z_inflate's answer */
	bool busy;	 /* submitted, not yet taken back */
	bool done;	 /* decompressed */
};

struct item {
	struct pd_rec rec; /* a plain record: p is `copy` */
	int job;	   /* a container: its job; -1 a plain record */
	uint8_t *copy;
	size_t cap;
};

struct zahead {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv_helper, cv_caller; /* either one waits on its own */
	bool helper_waits, caller_waits;
	bool stop;
	ZSTD_DStream *zd;
	struct zjob job[NJOB];
	int submit, run; /* job ring: the next to fill, to run */
	int pending;	 /* submitted, not yet run */
	int ready;	 /* run, not yet taken */
	size_t used;	 /* output bytes allocated, all buffers */
	struct item item[NITEM];
	int ihead, n; /* items framed ahead, the oldest first */
};

/*
 * Waking the other thread costs a system call, so each side wakes the
 * other only when it sleeps, and the caller sleeps until the helper is
 * well ahead (see caller_may_run): it then takes several containers
 * without a wait.  mu held.
 */
static void helper_wait(struct zahead *a)
{
	a->helper_waits = true;
	pthread_cond_wait(&a->cv_helper, &a->mu);
	a->helper_waits = false;
}

static void wake_helper(struct zahead *a)
{
	if (a->helper_waits)
		pthread_cond_signal(&a->cv_helper);
}

/* The caller may go on: the helper has nothing left, or is well ahead. */
static bool caller_may_run(const struct zahead *a)
{
	return a->stop || (a->ready && (!a->pending || a->ready >= NJOB / 2));
}

static void wake_caller(struct zahead *a)
{
	if (a->caller_waits && caller_may_run(a))
		pthread_cond_signal(&a->cv_caller);
}

/* Grow o for `need` more bytes within the budget (the helper; mu held). */
static bool budget_room(struct zahead *a, struct zout *o, size_t need)
{
	size_t before = o->cap;

	for (;;) {
		size_t want = pd_z_room_size(o, need);

		if (!want)
			return false; /* more than ZOUT_MAX */
		if (want <= o->cap)
			return true;
		if (a->used - before + want <= ZAHEAD_BUDGET || a->stop)
			break;
		helper_wait(a);
	}
	if (!pd_z_room(o, need))
		return false;
	a->used += o->cap - before;
	return true;
}

static bool room_cb(void *arg, struct zout *o, size_t need)
{
	struct zahead *a = arg;
	bool ok;

	pthread_mutex_lock(&a->mu);
	ok = !a->stop && budget_room(a, o, need);
	pthread_mutex_unlock(&a->mu);
	return ok;
}

static void *run(void *arg)
{
	struct zahead *a = arg;

	pthread_mutex_lock(&a->mu);
	for (;;) {
		struct zjob *j = &a->job[a->run];

		while (!a->stop && !a->pending)
			helper_wait(a);
		if (a->stop)
			break;
		pthread_mutex_unlock(&a->mu);
		ZSTD_inBuffer in = {j->in, j->in_len, 0};
		const char *why = pd_z_inflate(a->zd, &in, &j->out, room_cb, a);

		pthread_mutex_lock(&a->mu);
		j->why = why;
		j->done = true;
		a->run = (a->run + 1) % NJOB;
		a->pending--;
		a->ready++;
		wake_caller(a);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* Start the helper for a source (NULL: it could not be started). */
static struct zahead *zahead_start(void)
{
	struct zahead *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->zd = pd_z_new();
	if (!a->zd) {
		ZSTD_freeDStream(a->zd);
		free(a);
		return NULL;
	}
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv_helper, NULL);
	pthread_cond_init(&a->cv_caller, NULL);
	if (pthread_create(&a->th, NULL, run, a) != 0) {
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->cv_helper);
		pthread_cond_destroy(&a->cv_caller);
		ZSTD_freeDStream(a->zd);
		free(a);
		return NULL;
	}
	return a;
}

void pd_zahead_free(struct zahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = true;
	pthread_cond_signal(&a->cv_helper);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv_helper);
	pthread_cond_destroy(&a->cv_caller);
	ZSTD_freeDStream(a->zd);
	for (int i = 0; i < NJOB; i++) {
		free(a->job[i].in);
		free(a->job[i].out.buf);
	}
	for (int i = 0; i < NITEM; i++)
		free(a->item[i].copy);
	free(a);
}

bool pd_zahead_want(const struct pd_reader *r, const struct source *src)
{
	return (r->flags & PD_READ_FAST) && src->st.fast &&
	       !(r->flags & (PD_READ_NO_DECOMPRESS | PD_READ_INLINE_Z));
}

/* Hand a container's zstd bytes to the helper: its job, or -1 (full). */
static int submit(struct zahead *a, const uint8_t *p, size_t len)
{
	struct zjob *j = &a->job[a->submit];
	int k = a->submit;

	if (j->busy)
		return -1;
	if (j->in_cap < len) {
		uint8_t *nb = realloc(j->in, len);

		if (!nb)
			return -1;
		j->in = nb;
		j->in_cap = len;
	}
	if (len) /* an empty container: no buffer yet, nothing to copy */
		memcpy(j->in, p, len);
	pthread_mutex_lock(&a->mu);
	j->in_len = len;
	j->why = NULL;
	j->done = false;
	j->busy = true;
	a->submit = (a->submit + 1) % NJOB;
	a->pending++;
	wake_helper(a);
	pthread_mutex_unlock(&a->mu);
	return k;
}

/* Queue the record at the stream's head; false when it cannot be. */
static bool queue(struct zahead *a, struct pd_rec *rec, const uint8_t *zp,
		  size_t zlen)
{
	struct item *it = &a->item[(a->ihead + a->n) % NITEM];

	it->job = -1;
	if (zp) {
		it->job = submit(a, zp, zlen);
		if (it->job < 0)
			return false;
	} else {
		if (it->cap < rec->size) {
			uint8_t *nb = realloc(it->copy, 65536);

			if (!nb)
				return false;
			it->copy = nb;
			it->cap = 65536;
		}
		memcpy(it->copy, rec->p, rec->size);
		rec->p = it->copy;
	}
	it->rec = *rec;
	a->n++;
	return true;
}

/*
 * Frame ahead in what the source's stream holds: containers to the
 * helper, plain records copied, up to anything the ordinary path must
 * see in turn.
 */
void pd_zahead_fill(struct pd_reader *r, struct source *src)
{
	struct pd_stream *st = &src->st;
	struct zahead *a = src->z.ahead;

	if (!a || src->z.broken)
		return;
	while (a->n < NITEM && !st->skip && st->buf) {
		const uint8_t *p = st->buf + st->head, *zp = NULL;
		struct pd_frame f;
		struct pd_rec rec;
		size_t zlen = 0;

		if (pd_frame(p, st->buf + st->tail, r->swap, &f) !=
			    PD_FRAME_WHOLE ||
		    pd_record_payload(f.type, p, f.size, r->swap,
				      r->legacy_google))
			return;
		rec = (struct pd_rec){.off = st->pos,
				      .type = f.type,
				      .misc = f.misc,
				      .size = f.size,
				      .p = p};
		if (is_container(f.type)) {
			if (!pd_z_data(r->swap, &rec, &zp, &zlen))
				return; /* its diagnostic comes in turn */
		}
		if (!queue(a, &rec, zp, zlen))
			return;
		pd_stream_consume(st, f.size);
	}
}

bool pd_zahead_pop(struct source *src, struct pd_rec *rec)
{
	struct zahead *a = src->z.ahead;
	struct item *it;

	if (!a || !a->n)
		return false;
	it = &a->item[a->ihead];
	*rec = it->rec;
	rec->job = it->job;
	a->ihead = (a->ihead + 1) % NITEM;
	a->n--;
	return true;
}

bool pd_zahead_pending(const struct source *src)
{
	return src->z.ahead && src->z.ahead->n;
}

/*
 * A buffer the caller gives back: kept for a later job when small, else
 * freed, so that what the slots keep stays small (mu held).
 */
static void give_back(struct zahead *a, struct zout *o)
{
	if (o->cap > ZKEEP) {
		a->used -= o->cap;
		free(o->buf);
		*o = (struct zout){0};
	}
	o->len = 0;
}

bool pd_zahead_take(struct pd_reader *r, struct source *src,
		    const struct pd_rec *rec, const uint8_t *zp, size_t zlen,
		    struct zout *o, const char **why)
{
	struct zahead *a = src->z.ahead;
	int k = rec->job;
	struct zjob *j;

	if (!a && !src->z.zd && pd_zahead_want(r, src))
		a = src->z.ahead = zahead_start();
	if (!a)
		return false;
	if (k < 0) {
		k = submit(a, zp, zlen);
		if (k < 0) /* cannot be: the caller took every job before */
			return false;
	}
	pd_zahead_fill(r, src); /* keep the helper busy meanwhile */
	j = &a->job[k];
	pthread_mutex_lock(&a->mu);
	/*
	 * While it waits the caller holds the buffer it hands records out
	 * of, and o, given back first: the oldest job always has room.
	 */
	give_back(a, o);
	wake_helper(a); /* room may be what it waits for */
	while (!j->done || !caller_may_run(a)) {
		a->caller_waits = true;
		pthread_cond_wait(&a->cv_caller, &a->mu);
		a->caller_waits = false;
	}
	*why = j->why;
	struct zout t = *o;

	*o = j->out;
	j->out = t;
	j->busy = false;
	a->ready--;
	wake_helper(a);
	pthread_mutex_unlock(&a->mu);
	return true;
}
