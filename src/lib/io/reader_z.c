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
#include <zstd_errors.h>

#include "lib/io/reader_int.h"

static void zerr(struct pd_reader *r, struct source *src, enum pd_code code,
		 uint64_t off, const char *fmt, const char *detail)
{
	src->z.broken = true;
	pd_diag_add(r->diags, code, PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR,
		    off, src->what, fmt, detail);
}

const char pd_z_window_too_large[] = "window too large";

ZSTD_DStream *pd_z_new(void)
{
	ZSTD_DStream *zd = ZSTD_createDStream();

	if (zd && (ZSTD_isError(ZSTD_initDStream(zd)) ||
		   ZSTD_isError(ZSTD_DCtx_setParameter(zd, ZSTD_d_windowLogMax,
						       ZWINDOW_LOG_MAX)))) {
		ZSTD_freeDStream(zd);
		zd = NULL;
	}
	return zd;
}

bool pd_z_data(bool swap, const struct pd_rec *rec, const uint8_t **zp,
	       size_t *zlen)
{
	*zp = rec->p + 8;
	*zlen = rec->size - 8u;
	if (rec->type == PD_REC_COMPRESSED2) {
		/* u64 data_size; zstd bytes[data_size]; zero padding */
		uint64_t dsize =
			rec->size >= 16 ? pd_get64(rec->p + 8, swap) : 0;

		if (rec->size < 16 || dsize > rec->size - 16u)
			return false;
		*zp = rec->p + 16;
		*zlen = (size_t)dsize;
	}
	return true;
}

size_t pd_z_room_size(const struct zout *o, size_t need)
{
	size_t have = o->cap ? o->cap - ZCARRY : 0;
	size_t want = have ? have : ZOUT_START;

	if (have && have - o->len >= need)
		return o->cap;
	while (want - o->len < need && want < ZOUT_MAX)
		want *= 2;
	if (want > ZOUT_MAX)
		want = ZOUT_MAX;
	if (want - o->len < need)
		return 0;
	return ZCARRY + want;
}

bool pd_z_room(struct zout *o, size_t need)
{
	size_t want = pd_z_room_size(o, need);
	uint8_t *nb;

	if (!want)
		return false;
	if (want == o->cap)
		return true;
	nb = realloc(o->buf, want);
	if (!nb)
		return false;
	o->buf = nb;
	o->cap = want;
	return true;
}

static bool room_here(void *arg, struct zout *o, size_t need)
{
	(void)arg;
	return pd_z_room(o, need);
}

const char *pd_z_inflate(ZSTD_DStream *zd, ZSTD_inBuffer *in, struct zout *o,
			 pd_z_room_fn room, void *arg)
{
	bool full = false;

	o->len = 0;
	/*
	 * Until the input is used up and zstd has nothing more to give: a
	 * call that fills the output may keep bytes back, and perf
	 * decompresses into a buffer big enough for all of them (session.c
	 * perf_session__process_compressed_event), so they are this
	 * container's.
	 */
	while (in->pos < in->size || full) {
		if (!room(arg, o, 1u << 16))
			return "";
		ZSTD_outBuffer out = {o->buf + ZCARRY, o->cap - ZCARRY, o->len};
		size_t ret = ZSTD_decompressStream(zd, &out, in);

		if (ZSTD_isError(ret))
			return ZSTD_getErrorCode(ret) ==
					       ZSTD_error_frameParameter_windowTooLarge
				       ? pd_z_window_too_large
				       : ZSTD_getErrorName(ret);
		size_t got = out.pos - o->len;

		o->len = out.pos;
		full = out.pos == out.size;
		if (got == 0 && in->pos < in->size && ret == 0)
			break; /* a frame ended and nothing moves: stop */
	}
	return NULL;
}

/* Note where this container's bytes begin in the decompressed stream. */
static void add_seg(struct zstate *z, uint64_t container)
{
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
	z->seg[z->nseg++] = (struct seg){start, container};
}

/*
 * The window a frame starting at zp declares (RFC 8878 3.1.1.1: magic,
 * Frame_Header_Descriptor, then, without Single_Segment_flag (bit 5),
 * Window_Descriptor: Exponent (5 bits), Mantissa (3 bits)); 0 if the
 * container does not start a frame that has one.
 */
static uint64_t frame_window(const uint8_t *zp, size_t zlen)
{
	uint64_t base;

	static const uint8_t magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

	if (zlen < 6 || memcmp(zp, magic, 4) != 0 || (zp[4] & 0x20))
		return 0;
	base = 1ull << (10 + (zp[5] >> 3));
	return base + base / 8 * (zp[5] & 7);
}

/* A frame whose window is larger than ZWINDOW_LOG_MAX: not decoded. */
static void window_too_large(struct pd_reader *r, struct source *src,
			     const struct pd_rec *rec, const uint8_t *zp,
			     size_t zlen)
{
	uint64_t w = frame_window(zp, zlen);
	char d[64] = "";

	if (w)
		snprintf(d, sizeof(d), "of %llu bytes ", (unsigned long long)w);
	src->z.broken = true;
	pd_diag_add(r->diags, PD_C_ZSTD_WINDOW_TOO_LARGE,
		    PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR, rec->off,
		    src->what,
		    "PERF_RECORD_COMPRESSED: the zstd frame needs a window "
		    "%slarger than the %u MiB perfdump keeps; the rest of "
		    "this stream is not decompressed",
		    d, (1u << ZWINDOW_LOG_MAX) >> 20);
}

/*
 * Feed one compressed record's payload to the stream's decompressor.  Its
 * output goes to the buffer not in use, after the start of a record the
 * container before cut short, which is copied there; then that buffer is
 * the one records are handed out from.
 */
void pd_z_decompress(struct pd_reader *r, struct source *src,
		     const struct pd_rec *rec)
{
	struct zstate *z = &src->z;
	struct zout *o = &z->out[z->cur ^ 1];
	size_t carry = z->tail - z->head, zlen;
	const uint8_t *zp;
	const char *why;

	if (z->broken)
		return;
	if (!pd_z_data(r->swap, rec, &zp, &zlen)) {
		pd_diag_add(r->diags, PD_C_DECOMPRESS_FAILED,
			    PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR,
			    rec->off + 8, src->what,
			    "PERF_RECORD_COMPRESSED2: data_size %llu "
			    "does not fit the record's %u bytes",
			    (unsigned long long)(rec->size >= 16
							 ? pd_get64(rec->p + 8,
								    r->swap)
							 : 0),
			    rec->size);
		return;
	}
	if (!pd_zahead_take(r, src, rec, zp, zlen, o, &why)) {
		ZSTD_inBuffer in = {zp, zlen, 0};

		if (!z->zd) {
			z->zd = pd_z_new();
			if (!z->zd) {
				zerr(r, src, PD_C_DECOMPRESS_FAILED, rec->off,
				     "%s", "cannot set up zstd");
				return;
			}
		}
		why = pd_z_inflate(z->zd, &in, o, room_here, NULL);
	}
	add_seg(z, rec->off);
	r->stats.compressed_records++;
	r->stats.compressed_bytes += zlen;
	r->stats.decompressed_bytes += o->len;
	if (why == pd_z_window_too_large) {
		window_too_large(r, src, rec, zp, zlen);
		return;
	}
	if (why && *why) {
		zerr(r, src, PD_C_DECOMPRESS_FAILED, rec->off,
		     "PERF_RECORD_COMPRESSED: zstd: %s", why);
		return;
	}
	if (why) { /* room refused: the output passed ZOUT_MAX */
		char d[128];

		snprintf(d, sizeof(d),
			 "more than %u MiB (%zu bytes so far) out of %zu "
			 "compressed bytes",
			 ZOUT_MAX >> 20, o->len, zlen);
		zerr(r, src, PD_C_DECOMPRESSED_TOO_LARGE, rec->off,
		     "PERF_RECORD_COMPRESSED: the container decompresses to "
		     "%s; the rest of the stream is not read",
		     d);
		return;
	}
	if (carry > ZCARRY) {
		char d[96];

		snprintf(d, sizeof(d), "%zu bytes", carry);
		zerr(r, src, PD_C_TORN_COMPRESSED_RECORD, rec->off,
		     "PERF_RECORD_COMPRESSED: %s decompressed before this "
		     "container are no whole record",
		     d);
		return;
	}
	if (carry)
		memcpy(o->buf + ZCARRY - carry, z->buf + z->head, carry);
	z->cur ^= 1;
	z->buf = o->buf;
	z->head = ZCARRY - carry;
	z->tail = ZCARRY + o->len;
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
	pd_zahead_free(z->ahead);
	z->ahead = NULL;
	if (z->zd)
		ZSTD_freeDStream(z->zd);
	free(z->out[0].buf);
	free(z->out[1].buf);
	z->zd = NULL;
	z->out[0] = z->out[1] = (struct zout){0};
	z->buf = NULL;
	z->head = z->tail = 0;
}
