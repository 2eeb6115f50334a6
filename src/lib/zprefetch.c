// SPDX-License-Identifier: MIT
/*
 * Decompression ahead on a helper thread (see zprefetch.h).  The zstd
 * output goes straight into the block the caller will read: complete
 * records stay where they were decompressed, a record split between two
 * containers waits at the block's end for the rest, and a plain record
 * that arrives meanwhile is put before it, which is the order the reader
 * gives them in.
 */
#include "zprefetch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cursor.h"
#include "record.h"

#define ZBLOCK	 (4u << 20)   /* records handed over at a time */
#define ZROOM	 (128u << 10) /* hand a block over below this much room */
#define ZNSEG	 4096u
#define ZNBUF	 3
#define IN_CHUNK (1u << 20)
#define REC_MAX	 65536u

/* a block is free, being filled by the thread, or handed over */
enum { B_FREE, B_FILLING, B_FULL, B_END, B_BAIL };

struct block {
	uint8_t *p;
	size_t len;  /* bytes written (whole records, then maybe a part) */
	size_t done; /* the end of the whole records */
	struct pd_zseg seg[ZNSEG];
	uint32_t nseg;
	int state;
};

struct pd_zprefetch {
	struct pd_input *in;
	uint64_t at, end;
	bool swap;
	struct block b[ZNBUF];
	int fill; /* the thread's block */
	int take; /* the caller's next block */
	int held; /* the block the caller reads, -1 none */
	bool stop;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* the thread's own */
	uint8_t *inbuf;
	ZSTD_DStream *zd;
	struct pd_reader_stats st;
};

/* Wait for block i to be free; false when told to stop. */
static bool wait_free(struct pd_zprefetch *zp, int i)
{
	bool ok;

	pthread_mutex_lock(&zp->mu);
	while (zp->b[i].state != B_FREE && !zp->stop)
		pthread_cond_wait(&zp->cv, &zp->mu);
	ok = !zp->stop;
	pthread_mutex_unlock(&zp->mu);
	return ok;
}

static void publish(struct pd_zprefetch *zp, int i, int state)
{
	pthread_mutex_lock(&zp->mu);
	zp->b[i].state = state;
	pthread_cond_broadcast(&zp->cv);
	pthread_mutex_unlock(&zp->mu);
}

/* The segment a byte of a block belongs to. */
static const struct pd_zseg *seg_at(const struct block *b, size_t pos)
{
	const struct pd_zseg *s = NULL;

	for (uint32_t i = 0; i < b->nseg && b->seg[i].pos <= pos; i++)
		s = &b->seg[i];
	return s;
}

static bool seg_add(struct block *b, size_t pos, uint64_t off, bool compressed)
{
	if (b->nseg) {
		const struct pd_zseg *l = &b->seg[b->nseg - 1];

		/* plain records one after the other in the file: one run */
		if (!compressed && !l->compressed &&
		    l->offset + (pos - l->pos) == off)
			return true;
		if (l->pos == pos)
			b->nseg--; /* nothing came of the one before */
	}
	if (b->nseg == ZNSEG)
		return false;
	b->seg[b->nseg++] = (struct pd_zseg){(uint32_t)pos, compressed, off};
	return true;
}

/*
 * Hand the whole records of the current block over and start the next
 * one with the part of a record that was left.  False: stop.
 */
static bool handoff(struct pd_zprefetch *zp)
{
	struct block *o = &zp->b[zp->fill];
	int ni = (zp->fill + 1) % ZNBUF;
	struct block *n = &zp->b[ni];
	size_t part = o->len - o->done;

	if (!wait_free(zp, ni))
		return false;
	n->len = n->done = 0;
	n->nseg = 0;
	/*
	 * What goes on in the new block (the part of a record, or the rest of
	 * the container being decompressed) comes from where the old one was.
	 */
	const struct pd_zseg *s = seg_at(o, o->done);

	if (s) {
		struct pd_zseg at0 = *s;

		if (!at0.compressed)
			at0.offset += o->done - at0.pos;
		seg_add(n, 0, at0.offset, at0.compressed);
	}
	if (part) {
		memcpy(n->p, o->p + o->done, part);
		n->len = part;
		/* containers that began inside the part */
		for (uint32_t i = 0; i < o->nseg; i++)
			if (o->seg[i].pos > o->done &&
			    !seg_add(n, o->seg[i].pos - o->done,
				     o->seg[i].offset, o->seg[i].compressed))
				return false;
	}
	/* the old block keeps only what lies before `done` */
	while (o->nseg && o->seg[o->nseg - 1].pos >= o->done && o->done)
		o->nseg--;
	o->len = o->done;
	publish(zp, zp->fill, B_FULL);
	zp->fill = ni;
	n->state = B_FILLING;
	return true;
}

/* Walk the whole records that are now complete; false: not one to walk. */
static bool advance(struct pd_zprefetch *zp, struct block *b)
{
	while (b->len - b->done >= 8) {
		const uint8_t *p = b->p + b->done;
		uint32_t type = pd_get32(p, zp->swap);
		uint16_t size = pd_get16(p + 6, zp->swap);

		if (size < 8 || type == PD_REC_HEADER_TRACING_DATA ||
		    type == PD_REC_AUXTRACE || type == PD_REC_COMPRESSED ||
		    type == PD_REC_COMPRESSED2)
			return false;
		if (size > b->len - b->done)
			break;
		b->done += size;
	}
	return true;
}

static bool decompress(struct pd_zprefetch *zp, const uint8_t *rec,
		       uint16_t size, uint32_t type, uint64_t off)
{
	const uint8_t *data = rec + 8;
	size_t len = size - 8u;
	struct block *b = &zp->b[zp->fill];

	if (type == PD_REC_COMPRESSED2) {
		uint64_t dsize = size >= 16 ? pd_get64(rec + 8, zp->swap) : 0;

		if (size < 16 || dsize > size - 16u)
			return false;
		data = rec + 16;
		len = (size_t)dsize;
	}
	zp->st.compressed_records++;
	zp->st.compressed_bytes += len;
	if (b->nseg > ZNSEG - 4) {
		if (!handoff(zp))
			return false;
		b = &zp->b[zp->fill];
	}
	if (!seg_add(b, b->len, off, true))
		return false;

	ZSTD_inBuffer in = {data, len, 0};

	while (in.pos < in.size) {
		if (ZBLOCK - b->len < ZROOM) {
			if (!handoff(zp))
				return false;
			b = &zp->b[zp->fill];
		}
		ZSTD_outBuffer out = {b->p + b->len, ZBLOCK - b->len, 0};
		size_t ret = ZSTD_decompressStream(zp->zd, &out, &in);

		if (ZSTD_isError(ret))
			return false;
		b->len += out.pos;
		zp->st.decompressed_bytes += out.pos;
		if (!advance(zp, b))
			return false;
		if (out.pos == 0 && in.pos < in.size && ret == 0)
			break; /* a frame ended and nothing moves (as the reader) */
	}
	return true;
}

/* A record stored plainly: before any part of a record still pending. */
static bool plain(struct pd_zprefetch *zp, const uint8_t *rec, uint16_t size,
		  uint64_t off)
{
	struct block *b = &zp->b[zp->fill];
	uint8_t part[REC_MAX];
	size_t npart;
	const struct pd_zseg *s;
	struct pd_zseg ps = {0};

	if (ZBLOCK - b->len < (size_t)size + ZROOM || b->nseg > ZNSEG - 4) {
		if (!handoff(zp))
			return false;
		b = &zp->b[zp->fill];
	}
	npart = b->len - b->done;
	if (npart) {
		s = seg_at(b, b->done);
		if (!s)
			return false;
		ps = *s;
		/* containers that began inside the part: too rare to keep */
		if (b->seg[b->nseg - 1].pos > b->done)
			return false;
		memcpy(part, b->p + b->done, npart);
		while (b->nseg && b->seg[b->nseg - 1].pos >= b->done && b->done)
			b->nseg--;
		if (!b->done)
			b->nseg = 0;
		b->len = b->done;
	}
	if (!seg_add(b, b->len, off, false))
		return false;
	memcpy(b->p + b->len, rec, size);
	b->len += size;
	b->done = b->len;
	if (npart) {
		if (!seg_add(b, b->len, ps.offset, ps.compressed))
			return false;
		memcpy(b->p + b->len, part, npart);
		b->len += npart;
	}
	return true;
}

/* The thread: frame the section's records, decompress, hand over. */
static void *run(void *arg)
{
	struct pd_zprefetch *zp = arg;
	size_t have = 0, head = 0;
	uint64_t pos = zp->at;
	int last = B_BAIL;

	for (;;) {
		if (have - head < REC_MAX && pos + (have - head) < zp->end) {
			uint64_t at = pos + (have - head);
			size_t want = zp->end - at < IN_CHUNK
					      ? (size_t)(zp->end - at)
					      : IN_CHUNK;
			ssize_t n;

			memmove(zp->inbuf, zp->inbuf + head, have - head);
			have -= head;
			head = 0;
			n = pd_input_pread(zp->in, at, zp->inbuf + have, want);
			if (n <= 0)
				break;
			have += (size_t)n;
		}
		if (head == have) {
			struct block *b = &zp->b[zp->fill];

			if (pos != zp->end || b->len != b->done)
				break; /* short, or a record torn at the end */
			if (b->len) {
				int ni = (zp->fill + 1) % ZNBUF;

				if (!wait_free(zp, ni))
					return NULL;
				publish(zp, zp->fill, B_FULL);
				zp->fill = ni;
			}
			last = B_END;
			break;
		}
		if (have - head < 8)
			break;

		const uint8_t *p = zp->inbuf + head;
		uint32_t type = pd_get32(p, zp->swap);
		uint16_t size = pd_get16(p + 6, zp->swap);
		bool ok;

		if (size < 8 || size > have - head ||
		    type == PD_REC_HEADER_TRACING_DATA ||
		    type == PD_REC_AUXTRACE)
			break;
		if (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2) {
			zp->st.containers[type == PD_REC_COMPRESSED2]++;
			zp->st.container_bytes[type == PD_REC_COMPRESSED2] +=
				size;
			ok = decompress(zp, p, size, type, pos);
		} else {
			ok = plain(zp, p, size, pos);
		}
		if (!ok)
			break;
		head += size;
		pos += size;
		zp->st.data_end = pos;
	}
	/* after a bail the caller drops whatever it was given */
	publish(zp, zp->fill, last);
	return NULL;
}

struct pd_zprefetch *pd_zprefetch_start(struct pd_input *in, uint64_t start,
					uint64_t end, bool swap)
{
	struct pd_zprefetch *zp = calloc(1, sizeof(*zp));
	bool ok;

	if (!zp)
		return NULL;
	zp->in = in;
	zp->at = start;
	zp->end = end > start ? end : start;
	zp->swap = swap;
	zp->held = -1;
	ok = (zp->inbuf = malloc(IN_CHUNK + REC_MAX)) != NULL;
	for (int i = 0; i < ZNBUF && ok; i++)
		ok = (zp->b[i].p = malloc(ZBLOCK)) != NULL;
	zp->zd = ok ? ZSTD_createDStream() : NULL;
	if (!zp->zd || ZSTD_isError(ZSTD_initDStream(zp->zd))) {
		zp->stop = true;
		pd_zprefetch_stop(zp, NULL);
		return NULL;
	}
	pthread_mutex_init(&zp->mu, NULL);
	pthread_cond_init(&zp->cv, NULL);
	zp->b[0].state = B_FILLING;
	if (pthread_create(&zp->th, NULL, run, zp) != 0) {
		pthread_mutex_destroy(&zp->mu);
		pthread_cond_destroy(&zp->cv);
		zp->stop = true;
		pd_zprefetch_stop(zp, NULL);
		return NULL;
	}
	return zp;
}

int pd_zprefetch_next(struct pd_zprefetch *zp, struct pd_zblock *out)
{
	struct block *b = &zp->b[zp->take];
	int state;

	pthread_mutex_lock(&zp->mu);
	if (zp->held >= 0) {
		zp->b[zp->held].state = B_FREE;
		zp->held = -1;
		pthread_cond_broadcast(&zp->cv);
	}
	while (b->state != B_FULL && b->state != B_END && b->state != B_BAIL)
		pthread_cond_wait(&zp->cv, &zp->mu);
	state = b->state;
	pthread_mutex_unlock(&zp->mu);
	if (state == B_END)
		return 0;
	if (state == B_BAIL)
		return -1;
	*out = (struct pd_zblock){b->p, b->len, b->seg, b->nseg};
	zp->held = zp->take;
	zp->take = (zp->take + 1) % ZNBUF;
	return 1;
}

void pd_zprefetch_stop(struct pd_zprefetch *zp, struct pd_reader_stats *st)
{
	if (!zp)
		return;
	if (!zp->stop) {
		pthread_mutex_lock(&zp->mu);
		zp->stop = true;
		pthread_cond_broadcast(&zp->cv);
		pthread_mutex_unlock(&zp->mu);
		pthread_join(zp->th, NULL);
		pthread_mutex_destroy(&zp->mu);
		pthread_cond_destroy(&zp->cv);
	}
	if (st)
		*st = zp->st;
	ZSTD_freeDStream(zp->zd);
	for (int i = 0; i < ZNBUF; i++)
		free(zp->b[i].p);
	free(zp->inbuf);
	free(zp);
}
