// SPDX-License-Identifier: MIT
/*
 * diff --profile: each function's share of its event's period in A and B
 * and the change, as perf diff's Baseline and Delta columns
 * (tools/perf/builtin-diff.c: compute_delta, the period's share of the
 * event's total; entries paired by hists__match on DSO and symbol name,
 * a DSO's addresses without a symbol as one entry).
 */
#include "lib/analysis/diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/profile.h"
#include "lib/session/session.h"

struct fn_share {
	char key[600]; /* "EVENT][DSO:SYMBOL" */
	double share;
};

static int cmp_key(const void *x, const void *y)
{
	return strcmp(((const struct fn_share *)x)->key,
		      ((const struct fn_share *)y)->key);
}

/* The rows of p as shares, sorted by key; NULL (n 0) when none. */
static struct fn_share *shares(const struct pd_session *s,
			       const struct pd_profile *p, size_t *n)
{
	struct fn_share *v = p->nrows ? calloc(p->nrows, sizeof(*v)) : NULL;
	size_t k = 0;
	char ev[300];

	*n = 0;
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < p->nrows; i++) {
		const struct pd_prof_row *r = &p->rows[i];
		const char *dso = "[unknown]", *sym = r->symbol;
		uint64_t total;

		if (r->event >= p->nevents || r->event >= s->evlist.n)
			continue;
		total = p->events[r->event].period;
		if (r->dso != PD_PROF_NONE && r->dso < p->ndsos)
			dso = p->dsos[r->dso].short_name
				      ? p->dsos[r->dso].short_name
				      : p->dsos[r->dso].name;
		if (!sym && r->label)
			sym = r->label;
		/* addresses no symbol holds: one entry per DSO, as perf
		 * diff pairs them (its delta is of their sum) */
		if (!sym)
			sym = "[unknown]";
		snprintf(v[k].key, sizeof(v[k].key), "%s][%s:%s",
			 pd_diff_event_label(s, r->event, ev, sizeof(ev)),
			 dso ? dso : "", sym);
		v[k].share =
			total ? 100.0 * (double)r->period / (double)total : 0;
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_key);
	/* rows that are one function for diff (the same name twice) */
	size_t m = 0;

	for (size_t i = 0; i < k; i++) {
		if (m && strcmp(v[m - 1].key, v[i].key) == 0)
			v[m - 1].share += v[i].share;
		else
			v[m++] = v[i];
	}
	*n = m;
	return v;
}

static void add_share(struct pd_diff *d, const char *key, double a, double b)
{
	char path[640];
	struct pd_jval x = {.kind = PD_J_DOUBLE, .d = a};
	struct pd_jval y = {.kind = PD_J_DOUBLE, .d = b};
	size_t n0 = d->n;

	snprintf(path, sizeof(path), "profile[%s]", key);
	pd_diff_add(d, path, &x, &y);
	if (d->n > n0)
		d->v[d->n - 1].share = true;
}

static int cmp_change(const void *x, const void *y)
{
	const struct pd_diff_item *p = x, *q = y;
	double a = fabs(p->b.d - p->a.d), b = fabs(q->b.d - q->a.d);

	if (a != b)
		return a < b ? 1 : -1;
	return strcmp(p->path, q->path);
}

void pd_diff_profile(struct pd_diff *d, const struct pd_session *sa,
		     const struct pd_profile *a, const struct pd_session *sb,
		     const struct pd_profile *b)
{
	size_t na, nb, i = 0, j = 0, first = d->n;
	struct fn_share *x = shares(sa, a, &na), *y = shares(sb, b, &nb);

	while (i < na || j < nb) {
		int c = i >= na ? 1 : j >= nb ? -1 : strcmp(x[i].key, y[j].key);

		add_share(d, c <= 0 ? x[i].key : y[j].key,
			  c <= 0 ? x[i].share : 0, c >= 0 ? y[j].share : 0);
		i += c <= 0;
		j += c >= 0;
	}
	free(x);
	free(y);
	if (d->n > first)
		qsort(d->v + first, d->n - first, sizeof(*d->v), cmp_change);
}
