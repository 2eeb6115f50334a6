// SPDX-License-Identifier: MIT
/*
 * The decoders of a compressed input (see input_z.h): libzstd, liblzma
 * and zlib, each a stream decoder that takes concatenated streams (what
 * `cat a.zst b.zst`, pzstd, `xz` and `gzip` of several members write) as
 * its command-line tool does, and fails on anything else after them.
 */
#include "lib/io/input_z.h"

#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

struct pd_unz {
	enum pd_zfmt f;
	bool frame_end; /* zstd: a frame ended here; gzip: a member did */
	ZSTD_DStream *zs;
	lzma_stream xz;
	z_stream gz;
};

enum pd_zfmt pd_unz_sniff(const uint8_t *b, size_t n)
{
	/* zstd frame 0xFD2FB528, or a skippable frame 0x184D2A5? (pzstd) */
	if (n >= 4 &&
	    ((b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) ||
	     ((b[0] & 0xf0) == 0x50 && b[1] == 0x2a && b[2] == 0x4d &&
	      b[3] == 0x18)))
		return PD_Z_ZSTD;
	if (n >= 6 && memcmp(b,
			     "\xfd"
			     "7zXZ\0",
			     6) == 0)
		return PD_Z_XZ;
	/* RFC 1952: ID1 ID2, CM 8 (deflate) */
	if (n >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8)
		return PD_Z_GZIP;
	return PD_Z_NONE;
}

const char *pd_unz_name(enum pd_zfmt f)
{
	switch (f) {
	case PD_Z_ZSTD: return "zstd";
	case PD_Z_XZ: return "xz";
	case PD_Z_GZIP: return "gzip";
	case PD_Z_NONE: break;
	}
	return "none";
}

struct pd_unz *pd_unz_new(enum pd_zfmt f)
{
	struct pd_unz *z = calloc(1, sizeof(*z));
	bool ok = false;

	if (!z)
		return NULL;
	z->f = f;
	switch (f) {
	case PD_Z_ZSTD:
		z->zs = ZSTD_createDStream();
		ok = z->zs && !ZSTD_isError(ZSTD_DCtx_setParameter(
				      z->zs, ZSTD_d_windowLogMax,
				      PD_UNZ_ZSTD_WINDOWLOG));
		break;
	case PD_Z_XZ:
		z->xz = (lzma_stream)LZMA_STREAM_INIT;
		ok = lzma_stream_decoder(&z->xz, PD_UNZ_MEM_MAX,
					 LZMA_CONCATENATED) == LZMA_OK;
		break;
	case PD_Z_GZIP:
		/* 16 + window bits: the gzip wrapper only */
		ok = inflateInit2(&z->gz, 16 + MAX_WBITS) == Z_OK;
		if (!ok)
			z->f = PD_Z_NONE; /* nothing for inflateEnd */
		break;
	case PD_Z_NONE: break;
	}
	if (!ok) {
		pd_unz_free(z);
		return NULL;
	}
	return z;
}

void pd_unz_free(struct pd_unz *z)
{
	if (!z)
		return;
	if (z->zs)
		ZSTD_freeDStream(z->zs);
	if (z->f == PD_Z_XZ)
		lzma_end(&z->xz);
	if (z->f == PD_Z_GZIP)
		inflateEnd(&z->gz);
	free(z);
}

static enum pd_unz_rc cut_short(char *msg, size_t msglen)
{
	snprintf(msg, msglen, "the compressed stream is cut short");
	return PD_UNZ_ERR;
}

static enum pd_unz_rc zstd_step(struct pd_unz *z, const uint8_t *in,
				size_t ilen, size_t *ipos, uint8_t *out,
				size_t olen, size_t *opos, bool last, char *msg,
				size_t msglen)
{
	for (;;) {
		ZSTD_inBuffer ib = {in, ilen, *ipos};
		ZSTD_outBuffer ob = {out, olen, *opos};
		size_t r = ZSTD_decompressStream(z->zs, &ob, &ib);
		bool progress = ib.pos != *ipos || ob.pos != *opos;

		*ipos = ib.pos;
		*opos = ob.pos;
		if (ZSTD_isError(r)) {
			if (ZSTD_getErrorCode(r) ==
			    ZSTD_error_frameParameter_windowTooLarge)
				snprintf(msg, msglen,
					 "a frame's window is larger than the "
					 "%u MiB perfdump allows (zstd --long "
					 "or --ultra?): decompress it first",
					 (1u << PD_UNZ_ZSTD_WINDOWLOG) >> 20);
			else
				snprintf(msg, msglen, "corrupt data (%s)",
					 ZSTD_getErrorName(r));
			return PD_UNZ_ERR;
		}
		/* 0: a frame is complete, and all its output flushed */
		if (r == 0)
			z->frame_end = true;
		else if (progress)
			z->frame_end = false;
		if (ob.pos == olen || (!last && ib.pos == ilen))
			return PD_UNZ_OK;
		if (ib.pos == ilen && !progress)
			return z->frame_end ? PD_UNZ_END
					    : cut_short(msg, msglen);
	}
}

static enum pd_unz_rc xz_step(struct pd_unz *z, const uint8_t *in, size_t ilen,
			      size_t *ipos, uint8_t *out, size_t olen,
			      size_t *opos, bool last, char *msg, size_t msglen)
{
	for (;;) {
		lzma_ret r;

		z->xz.next_in = in + *ipos;
		z->xz.avail_in = ilen - *ipos;
		z->xz.next_out = out + *opos;
		z->xz.avail_out = olen - *opos;
		r = lzma_code(&z->xz, last ? LZMA_FINISH : LZMA_RUN);
		*ipos = ilen - z->xz.avail_in;
		*opos = olen - z->xz.avail_out;
		switch (r) {
		case LZMA_OK:
			if (*opos == olen || (!last && *ipos == ilen))
				return PD_UNZ_OK;
			continue;
		case LZMA_STREAM_END: return PD_UNZ_END;
		case LZMA_BUF_ERROR: /* no progress possible */
			if (*opos == olen || !last)
				return PD_UNZ_OK;
			return cut_short(msg, msglen);
		case LZMA_MEMLIMIT_ERROR:
			snprintf(
				msg, msglen,
				"its dictionary needs %llu MiB, more than the "
				"%llu MiB perfdump allows: decompress it first",
				(unsigned long long)(lzma_memusage(&z->xz) >>
						     20),
				(unsigned long long)(PD_UNZ_MEM_MAX >> 20));
			return PD_UNZ_ERR;
		case LZMA_MEM_ERROR:
			snprintf(msg, msglen, "out of memory");
			return PD_UNZ_ERR;
		case LZMA_FORMAT_ERROR:
			snprintf(msg, msglen,
				 "bytes after the end of the xz stream that "
				 "are not another xz stream");
			return PD_UNZ_ERR;
		case LZMA_OPTIONS_ERROR:
			snprintf(msg, msglen,
				 "unsupported options (a newer xz format?)");
			return PD_UNZ_ERR;
		default:
			snprintf(msg, msglen, "corrupt data (liblzma error %d)",
				 (int)r);
			return PD_UNZ_ERR;
		}
	}
}

/* gzip: after a member, another one, or the end. */
static enum pd_unz_rc gzip_next_member(struct pd_unz *z, const uint8_t *in,
				       size_t ilen, size_t ipos, bool last,
				       char *msg, size_t msglen)
{
	if (ipos == ilen)
		return last ? PD_UNZ_END : PD_UNZ_OK;
	if (ilen - ipos < 2 && !last)
		return PD_UNZ_OK; /* the caller reads more */
	if (ilen - ipos < 2 || in[ipos] != 0x1f || in[ipos + 1] != 0x8b) {
		snprintf(msg, msglen,
			 "bytes after the end of the gzip stream that are not "
			 "another gzip member");
		return PD_UNZ_ERR;
	}
	inflateReset(&z->gz);
	z->frame_end = false;
	return PD_UNZ_OK;
}

static enum pd_unz_rc gzip_step(struct pd_unz *z, const uint8_t *in,
				size_t ilen, size_t *ipos, uint8_t *out,
				size_t olen, size_t *opos, bool last, char *msg,
				size_t msglen)
{
	for (;;) {
		int r;

		if (z->frame_end) {
			enum pd_unz_rc rc = gzip_next_member(z, in, ilen, *ipos,
							     last, msg, msglen);

			if (rc != PD_UNZ_OK || z->frame_end)
				return rc;
		}
		z->gz.next_in = (uint8_t *)(uintptr_t)(in + *ipos);
		z->gz.avail_in = (uInt)(ilen - *ipos);
		z->gz.next_out = out + *opos;
		z->gz.avail_out = (uInt)(olen - *opos);
		r = inflate(&z->gz, Z_NO_FLUSH);
		*ipos = ilen - z->gz.avail_in;
		*opos = olen - z->gz.avail_out;
		switch (r) {
		case Z_STREAM_END: z->frame_end = true; continue;
		case Z_OK:
			if (*opos == olen || (!last && *ipos == ilen))
				return PD_UNZ_OK;
			continue;
		case Z_BUF_ERROR: /* no progress possible */
			if (*opos == olen || !last)
				return PD_UNZ_OK;
			return cut_short(msg, msglen);
		case Z_MEM_ERROR:
			snprintf(msg, msglen, "out of memory");
			return PD_UNZ_ERR;
		default:
			snprintf(msg, msglen, "corrupt data (%s)",
				 z->gz.msg ? z->gz.msg : "zlib error");
			return PD_UNZ_ERR;
		}
	}
}

enum pd_unz_rc pd_unz_step(struct pd_unz *z, const uint8_t *in, size_t ilen,
			   size_t *ipos, uint8_t *out, size_t olen,
			   size_t *opos, bool last, char *msg, size_t msglen)
{
	/* zlib counts in uInt (the callers' buffers are far smaller) */
	if (olen - *opos > UINT32_MAX)
		olen = *opos + UINT32_MAX;
	switch (z->f) {
	case PD_Z_ZSTD:
		return zstd_step(z, in, ilen, ipos, out, olen, opos, last, msg,
				 msglen);
	case PD_Z_XZ:
		return xz_step(z, in, ilen, ipos, out, olen, opos, last, msg,
			       msglen);
	case PD_Z_GZIP:
		return gzip_step(z, in, ilen, ipos, out, olen, opos, last, msg,
				 msglen);
	case PD_Z_NONE: break;
	}
	snprintf(msg, msglen, "no decoder");
	return PD_UNZ_ERR;
}
