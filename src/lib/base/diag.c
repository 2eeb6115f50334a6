// SPDX-License-Identifier: MIT
#include "lib/base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void pd_diag_add(struct pd_diags *d, enum pd_code code, struct pd_where at,
		 enum pd_sev sev, uint64_t offset, const char *what,
		 const char *fmt, ...)
{
	struct pd_diag diag = {
		.sev = sev, .code = code, .where = at, .offset = offset};
	char buf[512];
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);

	/*
	 * The same problem found twice (a metadata walk, then a record
	 * reader, over the same bytes) is reported once.
	 */
	for (size_t i = d->n > 16 ? d->n - 16 : 0; i < d->n; i++)
		if (d->v[i].offset == offset && d->v[i].sev == sev &&
		    strcmp(d->v[i].detail, buf) == 0 &&
		    strcmp(d->v[i].what ? d->v[i].what : "",
			   what ? what : "") == 0)
			return;
	if (sev == PD_ERR)
		d->nerr++;
	else
		d->nwarn++;

	diag.what = (char *)what;
	diag.detail = buf;
	if (d->hook)
		d->hook(&diag, d->hook_arg);

	if (d->n >= PD_DIAG_MAX) {
		d->dropped++;
		return;
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct pd_diag *v = realloc(d->v, cap * sizeof(*v));

		if (!v) {
			d->dropped++;
			return;
		}
		d->v = v;
		d->cap = cap;
	}
	diag.what = xstrdup_or_null(what);
	diag.detail = strdup(buf);
	diag.where.name = xstrdup_or_null(at.name);
	d->v[d->n++] = diag;
}

static void free_from(struct pd_diags *d, size_t from)
{
	for (size_t i = from; i < d->n; i++) {
		free(d->v[i].what);
		free(d->v[i].detail);
		free((char *)d->v[i].where.name);
	}
	if (d->n > from)
		d->n = from;
}

struct pd_diags_mark pd_diags_mark(const struct pd_diags *d)
{
	return (struct pd_diags_mark){d->n, d->nerr, d->nwarn, d->dropped};
}

void pd_diags_rewind(struct pd_diags *d, struct pd_diags_mark m)
{
	free_from(d, m.n);
	d->nerr = m.nerr;
	d->nwarn = m.nwarn;
	d->dropped = m.dropped;
}

void pd_diags_free(struct pd_diags *d)
{
	free_from(d, 0);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

void pd_diags_replay(struct pd_diags *to, struct pd_diags *from)
{
	pd_diags_replay_keep(to, from, NULL, NULL);
}

void pd_diags_replay_keep(struct pd_diags *to, struct pd_diags *from,
			  pd_diag_keep keep, void *arg)
{
	size_t nerr = 0, nwarn = 0;

	for (size_t i = 0; i < from->n; i++) {
		const struct pd_diag *g = &from->v[i];

		*(g->sev == PD_ERR ? &nerr : &nwarn) += 1;
		if (keep && !keep(arg, g))
			continue;
		pd_diag_add(to, g->code, g->where, g->sev, g->offset, g->what,
			    "%s", g->detail);
	}
	/* those the list had no room for: counted only, as they were */
	to->nerr += from->nerr - nerr;
	to->nwarn += from->nwarn - nwarn;
	to->dropped += from->dropped;
	free_from(from, 0);
	from->nerr = from->nwarn = from->dropped = 0;
}
