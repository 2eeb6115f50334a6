/* SPDX-License-Identifier: MIT */
/*
 * Where the bytes come from: a regular file (read with pread, never mapped
 * whole), or a non-seekable stream (standard input, a FIFO).  A stream is
 * read forward as it arrives; the bytes of its start can be kept in
 * memory (a pipe-mode stream's metadata records, which the session walks
 * before the records are read again, session_pipe.c).  A file-mode
 * recording that arrives on a stream is spooled to an unlinked temporary
 * file first, so every reader can seek.
 *
 * A FILE or standard input that is a zstd, xz or gzip stream (its magic
 * bytes, not its name) is read as the stream of its decompressed bytes
 * (input_z.c): a pipe-mode recording as it is decoded, a file-mode one
 * spooled decompressed like a stream.
 */
#ifndef PD_INPUT_H
#define PD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/base/diag.h"
#include "lib/io/input_z.h"

/* The kept start of a stream: at most this many bytes. */
#define PD_INPUT_KEEP_MAX ((size_t)80 << 20)

/*
 * The bytes the input layer has read (every read of a recording's files
 * and streams, by any thread), for a progress display that reads them on
 * another thread: read and written only through the functions below.
 */
struct pd_input_count {
	uint64_t done;	   /* bytes read since the phase began */
	uint64_t total;	   /* what they are read out of; 0: not known */
	const char *doing; /* the phase: NULL, or e.g. "decompressing" */
};

/* A new phase: done 0 of total. */
void pd_input_count_start(struct pd_input_count *c, uint64_t total,
			  const char *doing);
void pd_input_count_get(const struct pd_input_count *c, uint64_t *done,
			uint64_t *total, const char **doing);

/* A compressed input: its format and sizes. */
struct pd_input_z {
	enum pd_zfmt fmt;   /* PD_Z_NONE: not compressed */
	uint64_t in_bytes;  /* compressed bytes decoded so far */
	uint64_t out_bytes; /* the decompressed bytes they gave */
	uint64_t file_size; /* the compressed file's size; 0: a stream */
	bool failed;	    /* corrupt or cut short (reported) */
};

struct pd_unz_state;

struct pd_input {
	int fd;
	bool owned; /* close fd at the end */
	bool seekable;
	bool spooled;  /* a stream copied to a temporary file */
	uint64_t size; /* seekable: file size; a stream: bytes read so far */
	uint64_t pos;  /* non-seekable: bytes consumed so far */
	/*
	 * A stream: the bytes [keep_start, keep_start + keep_len) kept in
	 * memory, read again from there.  While `keeping`, every byte read
	 * from the stream is added; past PD_INPUT_KEEP_MAX the stream reads
	 * as ended (`keep_full`) until keeping stops.
	 */
	uint8_t *keep;
	size_t keep_len, keep_cap;
	uint64_t keep_start;
	bool keeping, keep_full;
	/*
	 * Called before each read from a stream, `wait` true when it would
	 * wait for the stream's writer (a caller flushes its output then).
	 * May be NULL.
	 */
	void (*before_read)(void *arg, bool wait);
	void *read_arg;
	/* A compressed input (non-seekable: its decompressed bytes). */
	struct pd_input_z z;
	struct pd_unz_state *unz; /* the decoder, while it reads */
	/* a stream's first bytes, read to look for a compression magic */
	uint8_t sniffed[PD_UNZ_SNIFF];
	uint8_t nsniffed, sniff_pos;
	/* where a decoding error is reported (may be NULL) */
	struct pd_diags *diags;
	struct pd_input_count *count; /* may be NULL */
};

/*
 * "-" is standard input.  A compressed file or stream is read through its
 * decoder.  Returns 0, or -1 with errno set.
 */
int pd_input_open(struct pd_input *in, const char *path);
/*
 * Count the reads in c from now on, and start its phase with what the
 * input is known to hold (its size, or its compressed size).
 */
void pd_input_set_count(struct pd_input *in, struct pd_input_count *c);
/*
 * A regular file only, opened without waiting (O_NONBLOCK: a FIFO does
 * not hang the open).  Returns 0, or -1 with errno set: EINVAL for what
 * is not a regular file (*mode tells its S_IFMT type, when known).
 */
int pd_input_open_regular(struct pd_input *in, const char *path,
			  unsigned *mode);
int pd_input_open_fd(struct pd_input *in, int fd, bool owned);
void pd_input_close(struct pd_input *in);

/* "a FIFO", "a directory", ...: what an S_IFMT type is, for messages. */
const char *pd_input_kind(unsigned mode);

/*
 * Read up to len bytes at file offset off.  Returns the number read (short
 * only at end of input), or -1 with errno set.  A non-seekable input can
 * only be read forward (skipped bytes are discarded), but for its kept
 * bytes.
 */
ssize_t pd_input_pread(struct pd_input *in, uint64_t off, void *buf,
		       size_t len);
/*
 * The same, but a stream gives what has arrived: at least one byte,
 * waiting only when none has (0 at its end).  A file reads len bytes.
 */
ssize_t pd_input_read_some(struct pd_input *in, uint64_t off, void *buf,
			   size_t len);

/*
 * Keep in memory the bytes read from a stream from its current position
 * on, until pd_input_keep_stop; they can then be read again (a read that
 * goes past them continues from the stream if nothing was read from it
 * since, else it ends there).  Nothing to do for a file.
 */
void pd_input_keep_start(struct pd_input *in);
void pd_input_keep_stop(struct pd_input *in);

/*
 * Copy a non-seekable input (decompressed, if it is compressed) into an
 * unlinked temporary file in `tmpdir` (the caller's $TMPDIR; NULL or "":
 * /tmp), `head` being the bytes
 * already consumed from it; the input then reads the file.  A decoding
 * error ends the copy where the decoded bytes end (reported, and in
 * in->z).  Returns 0, or -1 with errno set (*written: the bytes the
 * temporary file took, and *dir: where it was).
 */
int pd_input_spool(struct pd_input *in, const void *head, size_t nhead,
		   const char *tmpdir, uint64_t *written, const char **dir);

#endif
