/* SPDX-License-Identifier: MIT */
/*
 * Where the bytes come from: a regular file (read with pread, never mapped
 * whole), or a non-seekable stream (standard input, a FIFO).  A stream is
 * read forward as it arrives; the bytes of its start can be kept in
 * memory (a pipe-mode stream's metadata records, which the session walks
 * before the records are read again, session_pipe.c).  A file-mode
 * recording that arrives on a stream is spooled to an unlinked temporary
 * file first, so every reader can seek.
 */
#ifndef PD_INPUT_H
#define PD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The kept start of a stream: at most this many bytes. */
#define PD_INPUT_KEEP_MAX ((size_t)80 << 20)

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
};

/* "-" is standard input.  Returns 0, or -1 with errno set. */
int pd_input_open(struct pd_input *in, const char *path);
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
 * Copy a non-seekable input into an unlinked temporary file, `head` being
 * the bytes already consumed from it.  Returns 0, or -1 with errno set
 * (*written: the bytes the temporary file took, and *dir: where it was).
 */
int pd_input_spool(struct pd_input *in, const void *head, size_t nhead,
		   uint64_t *written, const char **dir);

#endif
