// SPDX-License-Identifier: MIT
/* The loop of every walk (see walk_loop.h). */
#include "lib/io/walk_loop.h"

#include <stdlib.h>
#include <string.h>

static void loop_init(struct pd_walk_loop *l)
{
	*l = (struct pd_walk_loop){.step_from = UINT64_MAX};
}

int pd_walk_loop_open(struct pd_walk_loop *l, const struct pd_reader_src *src,
		      unsigned flags)
{
	loop_init(l);
	l->swap = src->swap;
	l->r = pd_reader_open(src, flags);
	return l->r ? 0 : -1;
}

int pd_walk_loop_open_stream(struct pd_walk_loop *l,
			     const struct pd_reader_src *src, unsigned flags,
			     int stream, uint64_t start, uint64_t skip)
{
	loop_init(l);
	l->swap = src->swap;
	l->r = pd_reader_open_stream(src, flags, stream, start, skip);
	return l->r ? 0 : -1;
}

void pd_walk_loop_close(struct pd_walk_loop *l)
{
	pd_reader_close(l->r);
	loop_init(l);
}

int pd_walk_loop_run(struct pd_walk_loop *l, pd_visit_fn fn, void *arg)
{
	return pd_walk_run(l, fn, arg, pd_walk_loop_swap(l));
}

bool pd_walk_loop_swap(const struct pd_walk_loop *l)
{
	return l->swap;
}

void pd_walk_keep_record(struct pd_walk_loop *l, struct pd_event *ev)
{
	pd_reader_keep_record(l->r, ev);
}

int pd_walk_read_payload(struct pd_walk_loop *l, uint8_t **buf, size_t *cap,
			 uint64_t *got)
{
	return pd_reader_read_payload(l->r, buf, cap, got);
}

void pd_walk_set_legacy_google(struct pd_walk_loop *l, bool legacy)
{
	pd_reader_set_legacy_google(l->r, legacy);
}

void pd_walk_loop_stats(const struct pd_walk_loop *l,
			struct pd_reader_stats *st)
{
	pd_reader_stats(l->r, st);
}

uint64_t pd_walk_loop_data_end(const struct pd_walk_loop *l, int stream)
{
	return pd_reader_data_end(l->r, stream);
}

void pd_data_ends_free(struct pd_data_ends *e)
{
	free(e->dir);
	*e = (struct pd_data_ends){0};
}
