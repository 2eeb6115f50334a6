/* SPDX-License-Identifier: MIT */
/*
 * A growable byte string (--redact's tokens, a command line as a shell
 * reads it, a tracepoint's raw print): appended to, always NUL-terminated,
 * and once out of memory it stays so (oom), appending nothing more.
 */
#ifndef PD_STRBUF_H
#define PD_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

void strbuf_put(struct strbuf *b, const char *s, size_t n);

#endif
