// SPDX-License-Identifier: MIT
/* The writer's output (see out.h). */
#include "lib/write/out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 MiB: a few system calls per MiB copied, not one per record */
#define OUT_BUF (1u << 20)

int pd_out_open(struct pd_out *o, int fd)
{
	*o = (struct pd_out){.fd = fd, .cap = OUT_BUF};
	o->buf = malloc(o->cap);
	return o->buf ? 0 : -1;
}

/* Write all of [p, p + n) at the descriptor's position. */
static void write_all(struct pd_out *o, const uint8_t *p, size_t n)
{
	while (n && !o->err) {
		ssize_t k = write(o->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			o->err = k < 0 ? errno : EIO;
			return;
		}
		p += k;
		n -= (size_t)k;
	}
}

void pd_out_flush(struct pd_out *o)
{
	write_all(o, o->buf, o->len);
	o->len = 0;
}

void pd_out_write(struct pd_out *o, const void *p, size_t n)
{
	if (o->err || !n) /* 0 bytes may come with no buffer (an empty part) */
		return;
	o->off += n;
	if (n >= o->cap) {
		pd_out_flush(o);
		write_all(o, p, n);
		return;
	}
	if (o->len + n > o->cap)
		pd_out_flush(o);
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void pd_out_zero(struct pd_out *o, size_t n)
{
	static const uint8_t zero[64];

	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		pd_out_write(o, zero, k);
		n -= k;
	}
}

void pd_out_patch(struct pd_out *o, uint64_t off, const void *p, size_t n)
{
	const uint8_t *b = p;

	pd_out_flush(o);
	while (n && !o->err) {
		ssize_t k = pwrite(o->fd, b, n, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			o->err = k < 0 ? errno : EIO;
			return;
		}
		b += k;
		off += (uint64_t)k;
		n -= (size_t)k;
	}
}

int pd_out_close(struct pd_out *o)
{
	pd_out_flush(o);
	free(o->buf);
	o->buf = NULL;
	if (o->err) {
		errno = o->err;
		return -1;
	}
	return 0;
}
