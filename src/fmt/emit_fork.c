// SPDX-License-Identifier: MIT
/*
 * Forked emitters (emit.h emit_fork): the elements of one open array
 * rendered on other threads into memory, and written in order.
 */
#include <stdlib.h>

#include "fmt/emit_int.h"
#include "lib/base/strbuf.h"

struct emitter *emit_fork(const struct emitter *e)
{
	struct emitter *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = *e;
	c->mem = calloc(1, sizeof(*c->mem));
	if (!c->mem) {
		free(c);
		return NULL;
	}
	c->jw.mem = c->mem;
	c->jw.len = 0;
	c->nmarked = 0;
	/* as if an element came before: the comma, no array title; the
	 * join takes them back when none had */
	c->jw.first[c->jw.depth] = false;
	top(c)->started = true;
	top(c)->index = 0;
	return c;
}

void emit_join(struct emitter *e, struct emitter *c)
{
	struct strbuf *m = c->mem;
	const char *p;
	size_t n;

	jw_flush(&c->jw);
	p = m->p;
	n = m->len;
	if (m->oom || c->bad)
		e->bad = true;
	if (n && is_json(e) && !(e->jw.lines && e->jw.depth == 0) &&
	    e->jw.first[e->jw.depth]) {
		/* the array's first element: no comma before it */
		p += *p == ',';
		n -= m->p[0] == ',';
		e->jw.first[e->jw.depth] = false;
	}
	if (n && !is_json(e))
		text_arr_start(e);
	if (n)
		jw_raw(&e->jw, p, n);
	top(e)->index += top(c)->index;
	m->len = 0;
	m->oom = false;
	c->bad = false;
	top(c)->index = 0;
}

void emit_fork_free(struct emitter *c)
{
	if (!c)
		return;
	free(c->mem->p);
	free(c->mem);
	free(c);
}
