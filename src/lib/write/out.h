/* SPDX-License-Identifier: MIT */
/*
 * Where the perf.data writer's bytes go: a file descriptor written in
 * order through a buffer, with the bytes written so far counted (the
 * file offsets the header and the tables point at), and earlier bytes
 * patched in place (the file header, written last: its data size and
 * sections are known only then).  A write error is kept, and every later
 * write is a no-op: the caller checks once, at the end.
 */
#ifndef PD_OUT_H
#define PD_OUT_H

#include <stddef.h>
#include <stdint.h>

struct pd_out {
	int fd;
	uint64_t off; /* bytes written so far, the buffer's included */
	uint8_t *buf;
	size_t len, cap;
	int err; /* errno of the first failure, 0: none */
};

/* Start writing at offset 0 of fd.  Returns 0, or -1 when out of memory. */
int pd_out_open(struct pd_out *o, int fd);
/* Append n bytes. */
void pd_out_write(struct pd_out *o, const void *p, size_t n);
/* Append n zero bytes (n small: a padding). */
void pd_out_zero(struct pd_out *o, size_t n);
/* Write out the buffer. */
void pd_out_flush(struct pd_out *o);
/* Flush, then overwrite n bytes at an offset already written. */
void pd_out_patch(struct pd_out *o, uint64_t off, const void *p, size_t n);
/* Flush and free the buffer; returns 0, or -1 with errno of the first
 * failure. */
int pd_out_close(struct pd_out *o);

#endif
