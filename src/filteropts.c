// SPDX-License-Identifier: MIT
/* The record filters of records, export and copy: --event, --pid,
 * --tid, --cpu, --time (perfdump.h filter_opt), and --event checked
 * against the recording's events (filter_check_event). */
#include <stdio.h>
#include <string.h>

#include "lib/session/evlist.h"
#include "lib/session/filter.h"
#include "perfdump.h"

/* A u32 value (a CPU, a pid), as opt_number takes a number. */
static int number_u32(const char *where, const char *arg, const char *want,
		      uint32_t *v)
{
	uint64_t x;

	if (opt_number(where, arg, 0, UINT32_MAX, want, &x) < 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* A pid or tid: a number, or -1 (perf's "none", e.g. in -a recordings) */
static int task_id(const char *where, const char *arg, const char *want,
		   uint32_t *v)
{
	if (!strcmp(arg, "-1")) {
		*v = UINT32_MAX;
		return 0;
	}
	return number_u32(where, arg, want, v);
}

int filter_opt(struct pd_filter *f, const char *cmd, int o, const char *arg)
{
	char where[64], err[512];

	switch ((enum filter_opt_id)o) {
	case FILTER_OPT_EVENT: f->event = arg; return 0;
	case FILTER_OPT_PID:
		f->has_pid = true;
		snprintf(where, sizeof(where), "%s: --pid", cmd);
		return task_id(where, arg, "a process id (a number, or -1)",
			       &f->pid);
	case FILTER_OPT_TID:
		f->has_tid = true;
		snprintf(where, sizeof(where), "%s: --tid", cmd);
		return task_id(where, arg, "a thread id (a number, or -1)",
			       &f->tid);
	case FILTER_OPT_CPU:
		f->has_cpu = true;
		snprintf(where, sizeof(where), "%s: --cpu", cmd);
		return number_u32(where, arg, "a CPU number", &f->cpu);
	case FILTER_OPT_TIME: /* filter.h pd_filter_parse_time */
		if (pd_filter_parse_time(f, arg, err, sizeof(err)) < 0) {
			usage_error("%s: --time: %s", cmd, err);
			return -1;
		}
		return 0;
	}
	return 1;
}

/* Into a message: names from the file pass the text output's escaping. */
struct sink {
	char *p;
	size_t len, cap;
};

static void put_sink(void *ctx, const char *p, size_t n)
{
	struct sink *k = ctx;

	if (k->len + n >= k->cap)
		n = k->cap - 1 - k->len;
	memcpy(k->p + k->len, p, n);
	k->len += n;
	k->p[k->len] = 0;
}

/*
 * --event that names no event of the recording is a usage error: say
 * which events there are.  A stream read as it arrives may name its
 * events later (EVENT_UPDATE): events it names nowhere yet, or only by
 * their attr, are given the benefit of the doubt; so is an unnamed
 * tracepoint, which tracing data met in the records may name
 * (simpleperf's).
 */
int filter_check_event(const char *cmd, const struct pd_filter *f,
		       const struct pd_session *s)
{
	const struct pd_evlist *l = &s->evlist;
	char list[1024] = "";
	struct sink k = {list, 0, sizeof(list)};

	if (!f->event)
		return 0;
	for (uint32_t i = 0; i < l->n; i++) {
		const struct pd_evsel *ev = &l->v[i];
		bool unsure = !ev->name[0] || !strcmp(ev->name_from, "attr");

		if (pd_event_matches(ev, f->event) ||
		    (unsure && s->pipe.live) ||
		    (!ev->name[0] && ev->attr.type == PD_TYPE_TRACEPOINT))
			return 0;
	}
	for (uint32_t i = 0; i < l->n && k.len < sizeof(list) - 300; i++) {
		char name[300];

		snprintf(name, sizeof(name), "%s%s%s (attr%u)", i ? ", " : "",
			 l->v[i].name, l->v[i].name[0] ? "" : "unnamed",
			 l->v[i].idx);
		text_escape(name, strlen(name), false, put_sink, &k);
	}
	usage_error("%s: --event '%s' names no event of the recording; %s%s",
		    cmd, f->event, l->n ? "its events are " : "it has none",
		    list);
	return EXIT_USAGE;
}
