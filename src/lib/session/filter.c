// SPDX-License-Identifier: MIT
/* Which records a walk hands out (see filter.h). */
#include "lib/session/filter.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/session/evlist.h"

/*
 * Seconds as perf prints them, "2548.123456", to ns exactly (no floating
 * point): digits, then a point and at most 9 decimals, as perf's
 * parse_nsec_time (tools/perf/util/time-utils.c) takes them.
 */
static bool parse_seconds(const char *s, size_t n, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	size_t i = 0;
	bool digit = false;

	for (; i < n && s[i] != '.'; i++) {
		if (s[i] < '0' || s[i] > '9' || sec > UINT64_MAX / 10 / scale)
			return false;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
		digit = true;
	}
	if (i < n && n - i - 1 > 9)
		return false; /* finer than a nanosecond: perf refuses it */
	for (i++; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		scale /= 10;
		frac += (uint64_t)(s[i] - '0') * scale;
		digit = true;
	}
	*ns = sec * 1000000000ULL + frac;
	return digit;
}

/*
 * A value without a comma perf refuses (perf_time__parse_strs: "Invalid
 * time string"), and so does perfdump: "2548.5" could mean from 2548.5 on
 * or that instant.  perf's several ranges and percentages are not taken.
 */
int pd_filter_parse_time(struct pd_filter *f, const char *arg, char *err,
			 size_t errlen)
{
	const char *comma = strchr(arg, ',');
	const char *end = comma ? comma + 1 : NULL;
	static const char num[] = "a time in seconds as perf prints them "
				  "(at most 9 decimals, e.g. 2548.123456)";

	f->has_time = true;
	f->t_start = 0;
	f->t_end = UINT64_MAX;
	if (strchr(arg, '%')) {
		snprintf(err, errlen,
			 "'%s': perf's percentages (10%%/2, 0%%-10%%) are not "
			 "supported; give START,END in seconds",
			 arg);
		return -1;
	}
	if (!comma) {
		snprintf(err, errlen,
			 "'%s' has no comma: as perf's --time, it takes "
			 "START,END, or START, (from START on: '%s,'), or ,END "
			 "(up to END)",
			 arg, arg);
		return -1;
	}
	if (strchr(end, ',') || strchr(arg, ' ')) {
		snprintf(err, errlen,
			 "'%s': one START,END range only (perf's several "
			 "ranges are not supported)",
			 arg);
		return -1;
	}
	if (comma > arg &&
	    !parse_seconds(arg, (size_t)(comma - arg), &f->t_start)) {
		snprintf(err, errlen, "START '%.*s' is not %s",
			 (int)(comma - arg), arg, num);
		return -1;
	}
	if (*end && !parse_seconds(end, strlen(end), &f->t_end)) {
		snprintf(err, errlen, "END '%s' is not %s", end, num);
		return -1;
	}
	if (f->t_end < f->t_start) {
		snprintf(err, errlen, "END %s is before START %.*s", end,
			 (int)(comma - arg), arg);
		return -1;
	}
	return 0;
}

/*
 * An event name as perf record -e takes it and perf names the evsel:
 * [SYSTEM:]NAME[:MODIFIERS] (tools/perf/util/parse-events.l: the
 * modifier_event characters).
 */
struct ev_parts {
	const char *sys, *name, *mod;
	size_t nsys, nname, nmod;
};

static void split_event(const char *s, struct ev_parts *p)
{
	const char *colon = strrchr(s, ':');
	size_t n = strlen(s);

	*p = (struct ev_parts){.name = s, .nname = n, .mod = ""};
	if (colon && colon > s && colon[1] &&
	    strspn(colon + 1, "ukhIGHpPSDWebRB") == strlen(colon + 1)) {
		p->mod = colon + 1;
		p->nmod = strlen(colon + 1);
		n = (size_t)(colon - s);
		p->nname = n;
	}
	colon = memchr(s, ':', n);
	if (colon) {
		p->sys = s;
		p->nsys = (size_t)(colon - s);
		p->name = colon + 1;
		p->nname = n - p->nsys - 1;
	}
}

static bool part_eq(const char *a, size_t na, const char *b, size_t nb)
{
	return na == nb && strncasecmp(a, b, na) == 0;
}

bool pd_event_matches(const struct pd_evsel *ev, const char *want)
{
	struct ev_parts w, e;
	char idx[32];

	snprintf(idx, sizeof(idx), "attr%u", ev->idx);
	if (!strcmp(ev->name, want) || !strcmp(idx, want))
		return true;
	if (!ev->name[0])
		return false;
	split_event(want, &w);
	split_event(ev->name, &e);
	return part_eq(w.name, w.nname, e.name, e.nname) &&
	       (!w.sys || part_eq(w.sys, w.nsys, e.sys, e.sys ? e.nsys : 0)) &&
	       (!w.nmod || part_eq(w.mod, w.nmod, e.mod, e.nmod));
}

static bool type_wanted(const struct pd_filter *f, uint32_t type)
{
	if (!f->ntypes)
		return true;
	for (unsigned i = 0; i < f->ntypes; i++)
		if (f->types[i] == type)
			return true;
	return false;
}

bool pd_filter_passes(const struct pd_filter *f, const struct pd_sample_id *id,
		      const struct pd_evsel *ev, uint32_t type)
{
	if (!type_wanted(f, type))
		return false;
	if (f->event && (!ev || type >= PD_REC_USER_START ||
			 !pd_event_matches(ev, f->event)))
		return false;
	if ((f->has_pid || f->has_tid) && !id->has_tid)
		return false;
	if (f->has_pid && id->pid != f->pid)
		return false;
	if (f->has_tid && id->tid != f->tid)
		return false;
	if (f->has_cpu && (!id->has_cpu || id->cpu != f->cpu))
		return false;
	if (f->has_time &&
	    (!id->has_time || id->time < f->t_start || id->time > f->t_end))
		return false;
	return true;
}

bool pd_filter_keeps_every_sample(const struct pd_filter *f)
{
	return !f->event && !f->has_pid && !f->has_tid && !f->has_cpu &&
	       !f->has_time && !f->skip && f->limit == UINT64_MAX && !f->at;
}
