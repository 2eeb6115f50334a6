// SPDX-License-Identifier: MIT
/* diff's counts: stats (pd_stats) and the function profile (pd_profile). */
#include "lib/analysis/diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/profile.h"
#include "lib/analysis/stats.h"
#include "lib/format/perf_abi.h"
#include "lib/format/record_types.h"
#include "lib/session/session.h"

const char *pd_diff_event_label(const struct pd_session *s, uint32_t idx,
				char *buf, size_t len)
{
	const struct pd_evsel *ev = &s->evlist.v[idx];
	unsigned k = 1;

	if (!ev->name[0]) {
		snprintf(buf, len, "attr %" PRIu32, idx);
		return buf;
	}
	for (uint32_t i = 0; i < idx; i++)
		k += strcmp(s->evlist.v[i].name, ev->name) == 0;
	if (k > 1)
		snprintf(buf, len, "%s#%u", ev->name, k);
	else
		snprintf(buf, len, "%s", ev->name);
	return buf;
}

int64_t pd_diff_match_event(const struct pd_session *sa, uint32_t idx,
			    const struct pd_session *sb)
{
	char x[300], y[300];

	pd_diff_event_label(sa, idx, x, sizeof(x));
	for (uint32_t i = 0; i < sb->evlist.n; i++)
		if (strcmp(x, pd_diff_event_label(sb, i, y, sizeof(y))) == 0)
			return i;
	return -1;
}

/*
 * Record types that name the form of a recording, not what it holds:
 * pipe mode's metadata records, and the compressed containers (the
 * records in them are counted as their own types; compression compares
 * the rest).
 */
static bool form_type(const struct pd_stats_type *t)
{
	switch (t->type) {
	case PD_REC_HEADER_ATTR:
	case PD_REC_HEADER_EVENT_TYPE:
	case PD_REC_HEADER_TRACING_DATA:
	case PD_REC_HEADER_BUILD_ID:
	case PD_REC_HEADER_FEATURE:
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2: return true;
	}
	return t->legacy_feature;
}

static const struct pd_stats_type *find_type(const struct pd_stats *st,
					     uint32_t type)
{
	for (uint32_t i = 0; i < st->ntypes; i++)
		if (st->types[i].type == type && !st->types[i].legacy_feature)
			return &st->types[i];
	return NULL;
}

static void type_path(char *p, size_t len, const struct pd_stats_type *t)
{
	if (t->name)
		snprintf(p, len, "stats.records[%s]", t->name);
	else
		snprintf(p, len, "stats.records[%" PRIu32 "]", t->type);
}

static void records(struct pd_diff *d, const struct pd_stats *a,
		    const struct pd_stats *b)
{
	uint64_t ta = 0, tb = 0;
	char p[128];

	for (uint32_t i = 0; i < a->ntypes; i++)
		if (!form_type(&a->types[i]))
			ta += a->types[i].count;
	for (uint32_t i = 0; i < b->ntypes; i++)
		if (!form_type(&b->types[i]))
			tb += b->types[i].count;
	pd_diff_u64(d, "stats.records", ta, tb);
	for (uint32_t i = 0; i < a->ntypes; i++) {
		const struct pd_stats_type *t = &a->types[i], *u;

		if (form_type(t))
			continue;
		u = find_type(b, t->type);
		type_path(p, sizeof(p), t);
		pd_diff_u64(d, p, t->count, u ? u->count : 0);
	}
	for (uint32_t i = 0; i < b->ntypes; i++) {
		const struct pd_stats_type *t = &b->types[i];

		if (form_type(t) || find_type(a, t->type))
			continue;
		type_path(p, sizeof(p), t);
		pd_diff_u64(d, p, 0, t->count);
	}
}

static void events(struct pd_diff *d, const struct pd_session *sa,
		   const struct pd_stats *a, const struct pd_session *sb,
		   const struct pd_stats *b)
{
	char p[400], l[300];

	for (uint32_t i = 0; i < a->nevents && i < sa->evlist.n; i++) {
		int64_t j = pd_diff_match_event(sa, i, sb);

		snprintf(p, sizeof(p), "stats.samples[%s]",
			 pd_diff_event_label(sa, i, l, sizeof(l)));
		pd_diff_u64(d, p, a->events[i].samples,
			    j >= 0 && j < b->nevents ? b->events[j].samples
						     : 0);
	}
	for (uint32_t j = 0; j < b->nevents && j < sb->evlist.n; j++) {
		if (pd_diff_match_event(sb, j, sa) >= 0)
			continue;
		snprintf(p, sizeof(p), "stats.samples[%s]",
			 pd_diff_event_label(sb, j, l, sizeof(l)));
		pd_diff_u64(d, p, 0, b->events[j].samples);
	}
}

static void cpus(struct pd_diff *d, const struct pd_stats *a,
		 const struct pd_stats *b)
{
	uint32_t n = a->ncpus > b->ncpus ? a->ncpus : b->ncpus;
	char p[64];

	for (uint32_t c = 0; c < n; c++) {
		snprintf(p, sizeof(p), "stats.samples.cpu[%" PRIu32 "]", c);
		pd_diff_u64(d, p, c < a->ncpus ? a->cpu_samples[c] : 0,
			    c < b->ncpus ? b->cpu_samples[c] : 0);
	}
}

/* A process by its name: pids differ from one run to the next. */
struct comm_count {
	const char *comm;
	uint64_t samples;
};

static int cmp_comm(const void *x, const void *y)
{
	return strcmp(((const struct comm_count *)x)->comm,
		      ((const struct comm_count *)y)->comm);
}

/* The samples per comm, sorted by comm; NULL (n 0) when there are none. */
static struct comm_count *by_comm(const struct pd_stats *st, size_t *n)
{
	uint32_t np;
	struct pd_stats_pid *v = pd_stats_pids(st, &np);
	struct comm_count *c = np ? calloc(np, sizeof(*c)) : NULL;
	size_t k = 0;

	*n = 0;
	if (!c) {
		free(v);
		return NULL;
	}
	for (uint32_t i = 0; i < np; i++)
		c[i] = (struct comm_count){v[i].comm ? v[i].comm : "",
					   v[i].samples};
	free(v); /* the comms point into the thread table, not v */
	qsort(c, np, sizeof(*c), cmp_comm);
	for (uint32_t i = 0; i < np; i++) {
		if (k && strcmp(c[k - 1].comm, c[i].comm) == 0)
			c[k - 1].samples += c[i].samples;
		else
			c[k++] = c[i];
	}
	*n = k;
	return c;
}

static void processes(struct pd_diff *d, const struct pd_stats *a,
		      const struct pd_stats *b)
{
	size_t na, nb, i = 0, j = 0;
	struct comm_count *x = by_comm(a, &na), *y = by_comm(b, &nb);
	char p[128], buf[64];

	while (i < na || j < nb) {
		int c = i >= na	  ? 1
			: j >= nb ? -1
				  : strcmp(x[i].comm, y[j].comm);
		const char *comm = c <= 0 ? x[i].comm : y[j].comm;

		if (d->comm_name)
			comm = d->comm_name(d->comm_arg, comm, buf,
					    sizeof(buf));
		snprintf(p, sizeof(p), "stats.samples.process[%s]", comm);
		pd_diff_u64(d, p, c <= 0 ? x[i].samples : 0,
			    c >= 0 ? y[j].samples : 0);
		i += c <= 0;
		j += c >= 0;
	}
	free(x);
	free(y);
}

static uint64_t duration(const struct pd_stats *st)
{
	return st->timed_samples ? st->max_time - st->min_time : 0;
}

void pd_diff_stats(struct pd_diff *d, const struct pd_session *sa,
		   const struct pd_stats *a, const struct pd_session *sb,
		   const struct pd_stats *b)
{
	records(d, a, b);
	pd_diff_u64(d, "stats.samples", a->samples, b->samples);
	events(d, sa, a, sb, b);
	cpus(d, a, b);
	processes(d, a, b);
	pd_diff_u64(d, "stats.lost", a->lost, b->lost);
	pd_diff_u64(d, "stats.lost_samples", a->lost_samples, b->lost_samples);
	pd_diff_u64(d, "stats.lost_samples_bpf", a->lost_samples_bpf,
		    b->lost_samples_bpf);
	pd_diff_u64(d, "stats.throttle", a->throttle, b->throttle);
	pd_diff_u64(d, "stats.duration_ns", duration(a), duration(b));
	pd_diff_u64(d, "stats.compression.containers", a->containers,
		    b->containers);
	pd_diff_u64(d, "stats.compression.compressed_bytes",
		    a->compressed_bytes, b->compressed_bytes);
	pd_diff_u64(d, "stats.compression.decompressed_bytes",
		    a->decompressed_bytes, b->decompressed_bytes);
}
