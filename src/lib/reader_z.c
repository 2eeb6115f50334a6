// SPDX-License-Identifier: MIT
/*
 * The reader's decompression, the one zstd decoder of perfdump.
 * It follows tools/perf/util/session.c perf_session__process_compressed_
 * event and tools/perf/util/zstd.c zstd_decompress_stream: the compressed
 * payloads of one input stream form a single zstd stream that is never
 * ended; the decompressed bytes are records, one of which may be split
 * across two compressed records, so undelivered bytes carry over to the
 * next one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_int.h"

/*
 * A decompressed backlog larger than this is refused (memory bound): perf
 * compresses at most mmap_len (about 512 KiB) into one record.
 */
#define ZBUF_MAX (32u << 20)

static void zerr(struct pd_reader *r, struct source *src, enum pd_code code,
		 uint64_t off, const char *fmt, const char *detail)
{
	src->z.broken = true;
	pd_diag_add(r->diags, code, PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR,
		    off, src->what, fmt, detail);
}

/* Room for at least `need` more bytes at buf[tail]. */
static bool zroom(struct zstate *z, size_t need)
{
	if (z->cap - z->tail >= need)
		return true;
	if (z->head) { /* drop what was delivered */
		memmove(z->buf, z->buf + z->head, z->tail - z->head);
		z->tail -= z->head;
		z->head = 0;
		if (z->cap - z->tail >= need)
			return true;
	}
	size_t ncap = z->cap ? z->cap : 1u << 20;

	while (ncap - z->tail < need && ncap <= ZBUF_MAX)
		ncap *= 2;
	if (ncap - z->tail < need || ncap > ZBUF_MAX)
		return false;
	uint8_t *nb = realloc(z->buf, ncap);

	if (!nb)
		return false;
	z->buf = nb;
	z->cap = ncap;
	return true;
}

/* The zstd bytes of a container; false when COMPRESSED2's size is bad. */
static bool zdata(struct pd_reader *r, struct source *src,
		  const struct pd_rec *rec, const uint8_t **data, size_t *len)
{
	*data = rec->p + 8;
	*len = rec->size - 8u;
	if (rec->type == PD_REC_COMPRESSED2) {
		/* u64 data_size; zstd bytes[data_size]; zero padding */
		uint64_t dsize =
			rec->size >= 16 ? pd_get64(rec->p + 8, r->swap) : 0;

		if (rec->size < 16 || dsize > rec->size - 16u) {
			pd_diag_add(r->diags, PD_C_DECOMPRESS_FAILED,
				    PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR,
				    rec->off + 8, src->what,
				    "PERF_RECORD_COMPRESSED2: data_size %llu "
				    "does not fit the record's %u bytes",
				    (unsigned long long)dsize, rec->size);
			return false;
		}
		*data = rec->p + 16;
		*len = (size_t)dsize;
	}
	return true;
}

/* Feed one compressed record's payload to the stream's decompressor. */
void pd_z_decompress(struct pd_reader *r, struct source *src,
		     const struct pd_rec *rec)
{
	struct zstate *z = &src->z;
	const uint8_t *data;
	size_t len;

	if (z->broken || !zdata(r, src, rec, &data, &len))
		return;
	if (!z->zd) {
		z->zd = ZSTD_createDStream();
		if (!z->zd || ZSTD_isError(ZSTD_initDStream(z->zd))) {
			zerr(r, src, PD_C_DECOMPRESS_FAILED, rec->off, "%s",
			     "cannot set up zstd");
			return;
		}
	}
	/*
	 * Bytes from here on came out of this container; one before it that
	 * gave none (zstd keeps what it read until a block is whole) is
	 * replaced, so that the containers of a record cut short are not
	 * pushed out of the list by empty ones.
	 */
	uint64_t start = z->inner_head + (z->tail - z->head);

	if (z->nseg && z->seg[z->nseg - 1].inner_start == start)
		z->nseg--;
	if (z->nseg == NSEG) {
		memmove(z->seg, z->seg + 1, (NSEG - 1) * sizeof(z->seg[0]));
		z->nseg--;
	}
	z->seg[z->nseg++] = (struct seg){start, rec->off};
	r->stats.compressed_records++;
	r->stats.compressed_bytes += len;

	ZSTD_inBuffer in = {data, len, 0};

	while (in.pos < in.size) {
		if (!zroom(z, 1u << 16)) {
			char d[96];

			snprintf(d, sizeof(d),
				 "%zu bytes decompressed and not yet delivered",
				 z->tail - z->head);
			zerr(r, src, PD_C_TORN_COMPRESSED_RECORD, rec->off,
			     "PERF_RECORD_COMPRESSED: too much data without a "
			     "whole record (%s)",
			     d);
			return;
		}
		ZSTD_outBuffer out = {z->buf + z->tail, z->cap - z->tail, 0};
		size_t ret = ZSTD_decompressStream(z->zd, &out, &in);

		if (ZSTD_isError(ret)) {
			zerr(r, src, PD_C_DECOMPRESS_FAILED, rec->off,
			     "PERF_RECORD_COMPRESSED: zstd: %s",
			     ZSTD_getErrorName(ret));
			return;
		}
		z->tail += out.pos;
		r->stats.decompressed_bytes += out.pos;
		if (out.pos == 0 && in.pos < in.size && ret == 0)
			break; /* a frame ended and nothing moves: stop */
	}
}

uint64_t pd_z_container(const struct zstate *z, uint64_t inner, uint64_t *bound)
{
	uint64_t c = 0;
	int i;

	for (i = 0; i < z->nseg && z->seg[i].inner_start <= inner; i++)
		c = z->seg[i].container;
	*bound = i < z->nseg ? z->seg[i].inner_start : UINT64_MAX;
	return c;
}

void pd_z_consume(struct zstate *z, size_t n)
{
	z->head += n;
	z->inner_head += n;
	while (z->nseg > 1 && z->seg[1].inner_start <= z->inner_head) {
		memmove(z->seg, z->seg + 1,
			(size_t)(z->nseg - 1) * sizeof(z->seg[0]));
		z->nseg--;
	}
}

/* A whole decompressed record, if there is one. */
bool pd_z_deliver(struct pd_reader *r, struct source *src, struct pd_event *ev)
{
	struct zstate *z = &src->z;
	struct pd_frame f;
	uint64_t bound;
	const uint8_t *p;

	if (z->skip) {
		size_t n = z->tail - z->head < z->skip ? z->tail - z->head
						       : (size_t)z->skip;
		pd_z_consume(z, n);
		z->skip -= n;
		if (z->skip)
			return false;
	}
	if (z->broken || !z->buf)
		return false;
	p = z->buf + z->head;
	switch (pd_frame(p, z->buf + z->tail, r->swap, &f)) {
	case PD_FRAME_MORE:
		return false; /* the rest comes with the next container */
	case PD_FRAME_BAD: {
		char d[64];

		snprintf(d, sizeof(d), "size %u, type %u", f.size, f.type);
		zerr(r, src, PD_C_TORN_COMPRESSED_RECORD,
		     pd_z_container(z, z->inner_head, &bound),
		     "decompressed record too small to be one (%s)", d);
		return false;
	}
	default: break;
	}
	*ev = (struct pd_event){
		.offset = pd_z_container(z, z->inner_head, &bound),
		.stream = src->index,
		.compressed = true,
		.inner_offset = z->inner_head,
		.type = f.type,
		.misc = f.misc,
		.size = f.size,
		.p = p,
		.payload = pd_record_payload(f.type, p, f.size, r->swap,
					     r->legacy_google),
	};
	pd_z_consume(z, f.size);
	/* payloads inside the decompressed stream are skipped, not kept */
	z->skip = ev->payload;
	return true;
}

void pd_z_end(struct pd_reader *r, struct source *src)
{
	struct zstate *z = &src->z;
	uint64_t bound;

	if (!z->broken && z->tail > z->head)
		pd_diag_add(r->diags, PD_C_TORN_COMPRESSED_RECORD,
			    PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR,
			    pd_z_container(z, z->inner_head, &bound), src->what,
			    "the compressed stream ends inside a record (%zu "
			    "bytes left over)",
			    z->tail - z->head);
}

void pd_z_free(struct zstate *z)
{
	if (z->zd)
		ZSTD_freeDStream(z->zd);
	free(z->buf);
	z->zd = NULL;
	z->buf = NULL;
	z->cap = z->head = z->tail = 0;
}
