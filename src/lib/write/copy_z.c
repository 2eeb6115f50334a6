// SPDX-License-Identifier: MIT
/*
 * --compress: the data records written as perf record -z writes them
 * (tools/perf/builtin-record.c record__pushfn, record__zstd_compress;
 * tools/perf/util/zstd.c zstd_compress_stream_to_records): the kernel's
 * records go through one zstd stream, never ended, in batches, each
 * flushed into one PERF_RECORD_COMPRESSED record (81: header, zstd
 * bytes).  perf's own records (FINISHED_ROUND and the
 * other user types) are written as they are between batches, as perf
 * record writes them beside its ring buffers' data; so are AUXTRACE's
 * payloads.
 *
 * perf 6.1 reads COMPRESSED, not COMPRESSED2 (83, a later perf's), so 81
 * is written.  Its reader decompresses each COMPRESSED record into a buffer
 * of HEADER_COMPRESSED's mmap_len bytes, the records of the one before it
 * that were cut carried over (session.c
 * perf_session__process_compressed_event): a batch is kept well under
 * that, so no record's bytes can overflow it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
/* ZSTD_getCParams: a level's parameters, to cap (exported by libzstd
 * since 1.0, under the static-linking API all the same) */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "lib/io/reader.h"
#include "lib/write/copy_int.h"

/* HEADER_COMPRESSED's mmap_len: perf record's default ring buffer,
 * (512 KiB + a page) (evlist.c evlist__mmap_size, 129 pages of 4 KiB) */
#define MMAP_LEN 528384u
/* the zstd bytes one record holds: its size is a u16 */
#define ZREC_MAX (PD_REC_SIZE_MAX - 8u)
/*
 * The records compressed together, into one COMPRESSED record, flushed
 * whole.  perf 6.1 stops at a COMPRESSED record that decompresses to
 * nothing ("Couldn't decompress data"), as one that holds only a part of
 * a zstd block does, so each record ends its blocks: a batch is at most
 * what compresses into one record whatever its bytes (and far under
 * MMAP_LEN).  A record larger than a batch is written as it is.
 */
#define BATCH (60u << 10)
_Static_assert(ZSTD_COMPRESSBOUND(BATCH) <= ZREC_MAX, "a batch fits");

/* the match tables' caps: 4 Mi entries of 4 bytes for the chain, 2 Mi
 * for the hash (levels 1 to 9 stay under them) */
#define CHAIN_LOG_MAX 22
#define HASH_LOG_MAX  21

struct copy_z {
	ZSTD_CCtx *cc;
	uint8_t *in; /* the batch */
	size_t len;
	uint8_t *rec; /* a COMPRESSED record being made */
};

/*
 * The level's parameters, its tables capped: a window that perfdump's
 * reader (and perf's) takes, where levels 20 to 22 ask for more, and
 * match tables that keep the memory under the 64 MiB perfdump stays in
 * (level 19's own, 2^24 and 2^22 entries of 4 bytes, take 80 MiB).
 */
static int set_params(ZSTD_CCtx *cc, int level)
{
	ZSTD_compressionParameters p =
		ZSTD_getCParams(level, ZSTD_CONTENTSIZE_UNKNOWN, 0);
	const struct {
		ZSTD_cParameter k;
		int v;
	} set[] = {
		{ZSTD_c_compressionLevel, level},
		{ZSTD_c_windowLog, p.windowLog < PD_ZSTD_WINDOW_LOG_MAX
					   ? (int)p.windowLog
					   : PD_ZSTD_WINDOW_LOG_MAX},
		{ZSTD_c_chainLog,
		 p.chainLog < CHAIN_LOG_MAX ? (int)p.chainLog : CHAIN_LOG_MAX},
		{ZSTD_c_hashLog,
		 p.hashLog < HASH_LOG_MAX ? (int)p.hashLog : HASH_LOG_MAX},
	};

	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		if (ZSTD_isError(
			    ZSTD_CCtx_setParameter(cc, set[i].k, set[i].v)))
			return -1;
	return 0;
}

int copy_z_open(struct copy *c)
{
	struct copy_z *z;

	if (!c->o->compress)
		return 0;
	z = calloc(1, sizeof(*z));
	if (!z)
		return -1;
	c->z = z;
	z->cc = ZSTD_createCCtx();
	z->in = malloc(BATCH);
	z->rec = malloc(8 + ZREC_MAX);
	if (!z->cc || !z->in || !z->rec)
		return -1;
	return set_params(z->cc, c->o->compress);
}

void copy_z_close(struct copy *c)
{
	struct copy_z *z = c->z;

	if (!z)
		return;
	ZSTD_freeCCtx(z->cc);
	free(z->in);
	free(z->rec);
	free(z);
	c->z = NULL;
}

/* One COMPRESSED record of the n zstd bytes at z->rec + 8. */
static void write_zrec(struct copy *c, size_t n)
{
	struct copy_z *z = c->z;

	pd_put32(z->rec, PD_REC_COMPRESSED, c->swap);
	pd_put16(z->rec + 4, 0, c->swap);
	pd_put16(z->rec + 6, (uint16_t)(8 + n), c->swap);
	pd_out_write(&c->out, z->rec, 8 + n);
	c->r->z_out += 8 + n;
}

void copy_z_flush(struct copy *c)
{
	struct copy_z *z = c->z;
	ZSTD_inBuffer in;
	size_t left;

	if (!z || !z->len || c->out.err)
		return;
	c->r->z_in += z->len;
	in = (ZSTD_inBuffer){z->in, z->len, 0};
	do {
		ZSTD_outBuffer out = {z->rec + 8, ZREC_MAX, 0};

		left = ZSTD_compressStream2(z->cc, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left)) {
			/* out of memory in zstd: the copy fails */
			c->out.err = ENOMEM;
			break;
		}
		if (out.pos)
			write_zrec(c, out.pos);
	} while (left || in.pos < in.size);
	z->len = 0;
}

void copy_data(struct copy *c, const void *p, size_t n)
{
	struct copy_z *z = c->z;

	if (!z) {
		pd_out_write(&c->out, p, n);
		return;
	}
	if (z->len + n > BATCH)
		copy_z_flush(c);
	if (n > BATCH) {
		pd_out_write(&c->out, p, n);
		return;
	}
	memcpy(z->in + z->len, p, n);
	z->len += n;
}

void copy_z_feature(struct copy *c)
{
	const struct pd_copy_result *r = c->r;
	uint8_t b[20];
	/* perf record: bytes transferred over bytes compressed, rounded
	 * (record__finish_output's comp_ratio); 0 when unknown (a pipe's
	 * head is written before the data) */
	uint32_t ratio =
		r->z_out ? (uint32_t)((r->z_in + r->z_out / 2) / r->z_out) : 0;

	pd_put32(b, 0, c->swap); /* version */
	pd_put32(b + 4, PD_COMP_ZSTD, c->swap);
	pd_put32(b + 8, (uint32_t)c->o->compress, c->swap);
	pd_put32(b + 12, ratio, c->swap);
	pd_put32(b + 16, MMAP_LEN, c->swap);
	pd_out_write(&c->out, b, sizeof(b));
}
