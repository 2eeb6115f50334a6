/* SPDX-License-Identifier: MIT */
/*
 * The decoders of a compressed input: a perf.data file (or stream) inside
 * a zstd, xz or gzip stream, recognised by its magic bytes (input.c reads
 * through them).  Only the transform is here: bytes in, bytes out.
 */
#ifndef PD_INPUT_Z_H
#define PD_INPUT_Z_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pd_zfmt { PD_Z_NONE, PD_Z_ZSTD, PD_Z_XZ, PD_Z_GZIP };

/*
 * The memory a decoder may take for its window or dictionary: what `xz -9`
 * needs (65 MiB), as much as a stream's kept bytes (PD_INPUT_KEEP_MAX);
 * zstd gets the largest window under it, 64 MiB (`zstd --long`, 128 MiB,
 * is refused).  A decompression bomb takes no more: its output is
 * streamed, or spooled to a temporary file.
 */
#define PD_UNZ_MEM_MAX	      ((uint64_t)80 << 20)
#define PD_UNZ_ZSTD_WINDOWLOG 26

/* The format whose magic the n bytes at b start with (6 are enough). */
enum pd_zfmt pd_unz_sniff(const uint8_t *b, size_t n);
#define PD_UNZ_SNIFF 6

/* "zstd", "xz", "gzip" */
const char *pd_unz_name(enum pd_zfmt f);

struct pd_unz;

/* NULL when out of memory. */
struct pd_unz *pd_unz_new(enum pd_zfmt f);
void pd_unz_free(struct pd_unz *z);

enum pd_unz_rc {
	PD_UNZ_OK,  /* went on: more output to come, or more input needed */
	PD_UNZ_END, /* the compressed stream ended where the input ends */
	PD_UNZ_ERR, /* corrupt or cut short: see msg */
};

/*
 * Decode in[*ipos..ilen) into out[*opos..olen), advancing both.  `last`:
 * no input follows in[ilen].  Returns PD_UNZ_OK when the output is full
 * or all the input is used; at the end of the input, PD_UNZ_END or
 * PD_UNZ_ERR (a stream cut short).  On PD_UNZ_ERR, msg says what is
 * wrong, and the output stops there for good.
 */
enum pd_unz_rc pd_unz_step(struct pd_unz *z, const uint8_t *in, size_t ilen,
			   size_t *ipos, uint8_t *out, size_t olen,
			   size_t *opos, bool last, char *msg, size_t msglen);

#endif
