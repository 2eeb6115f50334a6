/* SPDX-License-Identifier: MIT */
/*
 * Where the bytes come from: a regular file (read with pread, never mapped
 * whole), or a non-seekable stream (standard input, a FIFO).  A file-mode
 * recording that arrives on a stream is spooled to an unlinked temporary
 * file first, so every reader can seek.
 */
#ifndef PD_INPUT_H
#define PD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pd_input {
	int fd;
	bool owned; /* close fd at the end */
	bool seekable;
	bool spooled;  /* a stream copied to a temporary file */
	uint64_t size; /* seekable: file size */
	uint64_t pos;  /* non-seekable: bytes consumed so far */
};

/* "-" is standard input.  Returns 0, or -1 with errno set. */
int pd_input_open(struct pd_input *in, const char *path);
int pd_input_open_fd(struct pd_input *in, int fd, bool owned);
void pd_input_close(struct pd_input *in);

/*
 * Read up to len bytes at file offset off.  Returns the number read (short
 * only at end of input), or -1 with errno set.  A non-seekable input can
 * only be read forward (skipped bytes are discarded).
 */
ssize_t pd_input_pread(struct pd_input *in, uint64_t off, void *buf,
		       size_t len);

/*
 * Copy a non-seekable input into an unlinked temporary file, `head` being
 * the bytes already consumed from it.  Returns 0, or -1 with errno set.
 */
int pd_input_spool(struct pd_input *in, const void *head, size_t nhead);

#endif
