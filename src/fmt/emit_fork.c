// SPDX-License-Identifier: MIT
/*
 * Forked emitters (emit.h emit_fork): the elements of one open array
 * rendered on other threads into memory, and written in order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fmt/emit_int.h"

struct emitter *emit_fork(const struct emitter *e)
{
	struct emitter *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = *e;
	c->mbuf = NULL;
	c->msize = 0;
	c->out = open_memstream(&c->mbuf, &c->msize);
	if (!c->out) {
		free(c);
		return NULL;
	}
	c->jw.out = c->out;
	c->jw.len = 0;
	c->nmarked = 0;
	c->joined = 0;
	/* as if an element came before: the comma, no array title; the
	 * join takes them back when none had */
	c->jw.first[c->jw.depth] = false;
	top(c)->started = true;
	top(c)->index = 0;
	return c;
}

size_t emit_fork_pos(struct emitter *c)
{
	off_t at = ftello(c->out);

	return (at < 0 ? 0 : (size_t)at) + c->jw.len;
}

/* The fork's bytes from where the last join stopped up to pos, into e */
static void join_bytes(struct emitter *e, struct emitter *c, size_t pos)
{
	const char *p;
	size_t n;

	jw_flush(&c->jw);
	if (fflush(c->out) != 0 || c->bad)
		e->bad = true;
	if (pos > c->msize)
		pos = c->msize;
	if (pos <= c->joined)
		return;
	p = c->mbuf + c->joined;
	n = pos - c->joined;
	c->joined = pos;
	if (is_json(e) && !(e->jw.lines && e->jw.depth == 0) &&
	    e->jw.first[e->jw.depth]) {
		/* the array's first element: no comma before it */
		n -= *p == ',';
		p += *p == ',';
		e->jw.first[e->jw.depth] = false;
	}
	if (n && !is_json(e))
		text_arr_start(e);
	if (n)
		jw_raw(&e->jw, p, n);
}

void emit_join_upto(struct emitter *e, struct emitter *c, size_t pos)
{
	join_bytes(e, c, pos);
}

void emit_join(struct emitter *e, struct emitter *c)
{
	join_bytes(e, c, SIZE_MAX);
	top(e)->index += top(c)->index;
	/* empty again: the size is the position (open_memstream) */
	rewind(c->out);
	c->joined = 0;
	c->bad = false;
	top(c)->index = 0;
}

void emit_fork_free(struct emitter *c)
{
	if (!c)
		return;
	fclose(c->out);
	free(c->mbuf);
	free(c);
}
