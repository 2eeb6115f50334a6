// SPDX-License-Identifier: MIT
/* perfdump records: the record stream, every record decoded. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/event.h"
#include "lib/order.h"
#include "lib/record.h"
#include "lib/tracepoint.h"
#include "fmt/fmt_event.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);

const struct cmd cmd_records_def = {
	.name = "records",
	.fn = cmd_records,
	.summary = "the record stream, every record decoded",
	.help = "Usage: perfdump records [OPTIONS] [FILE...]\n"
		"\n"
		"Show every record of the recording with its file offset, "
		"size, type\n"
		"and misc flags, decoded field by field: samples by their "
		"attr's\n"
		"sample_type, other kernel records with their sample_id "
		"trailer, perf's\n"
		"user records.  Compressed records (81, 83) are decompressed: "
		"their\n"
		"records show the container's offset and their offset inside "
		"the\n"
		"decompressed stream.  Pipe mode, directories (data + data.N) "
		"and\n"
		"recordings whose perf record was killed (data.size 0) are "
		"read too.\n"
		"Tracepoint samples show their fields, typed as the format "
		"in the\n"
		"tracing data says, and the print output perf script shows "
		"(-x adds\n"
		"the RAW bytes); tracepoints are named system:name "
		"(sched:sched_switch).\n"
		"\n"
		"Options:\n"
		"      --type LIST      only these types: names (or their "
		"prefixes)\n"
		"                       or numbers (e.g. sample,mmap2,68)\n"
		"      --event NAME     only records of this event: its name "
		"as "
		"given\n"
		"                       to perf record -e, with or without "
		"modifiers\n"
		"                       (:u, :ppp) and system: (sched:), or "
		"attrN\n"
		"      --pid PID        only records of this process (-1 too)\n"
		"      --tid TID        only records of this thread (-1 too)\n"
		"      --cpu CPU        only records of this CPU\n"
		"      --time START,END only records in this time span, in "
		"seconds as\n"
		"                       perf prints them; as perf --time: "
		"START, from\n"
		"                       START on, ,END up to END\n"
		"      --skip N         leave out the first N records that "
		"match\n"
		"      --limit N        show at most N records\n"
		"      --at OFFSET      start at the record at or after this "
		"file offset\n"
		"      --order file|time  file order (default), or time order "
		"as perf\n"
		"                       processes it (rounds bounded by "
		"FINISHED_ROUND);\n"
		"                       a prefix will do (--order t)\n"
		"      --json-lines     one JSON object per record; the first "
		"line is a\n"
		"                       preamble, the last the errors and "
		"warnings\n"
		"  -j, --json           write JSON\n"
		"  -p, --pretty         write indented JSON\n"
		"  -x, --hex            add the raw bytes of each record\n"
		"  -h, --help           show this help\n",
	.setup = CMD_TORN | CMD_FEATURE_DEPS | CMD_EVLIST | CMD_HEX,
	.load = load,
	.show = show,
};

#define MAX_TYPES 64

struct rec_opts {
	uint32_t types[MAX_TYPES];
	unsigned ntypes;
	const char *event;
	bool has_pid, has_tid, has_cpu, has_time;
	uint32_t pid, tid, cpu;
	uint64_t t_start, t_end; /* ns */
	uint64_t skip, limit;
	uint64_t at;
	bool order_time;
	bool json_lines;
};

enum {
	OPT_TYPE = 256,
	OPT_EVENT,
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_TIME,
	OPT_SKIP,
	OPT_LIMIT,
	OPT_AT,
	OPT_ORDER,
	OPT_JSON_LINES,
};

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
 * --time as perf takes it (time-utils.c perf_time__parse_str): START,END,
 * either side may be empty: "START," from START on, ",END" up to END.  A
 * value without a comma perf refuses (perf_time__parse_strs: "Invalid
 * time string"), and so does perfdump: "2548.5" could mean from 2548.5 on
 * or that instant.  perf's several ranges and percentages are not taken.
 */
static int parse_time(struct rec_opts *ro, const char *arg)
{
	const char *comma = strchr(arg, ',');
	const char *end = comma ? comma + 1 : NULL;
	static const char num[] = "a time in seconds as perf prints them "
				  "(at most 9 decimals, e.g. 2548.123456)";

	ro->has_time = true;
	ro->t_start = 0;
	ro->t_end = UINT64_MAX;
	if (strchr(arg, '%')) {
		usage_error(
			"records: --time: '%s': perf's percentages (10%%/2, "
			"0%%-10%%) are not supported; give START,END in "
			"seconds",
			arg);
		return -1;
	}
	if (!comma) {
		usage_error("records: --time: '%s' has no comma: as perf's "
			    "--time, it takes START,END, or START, (from START "
			    "on: '%s,'), or ,END (up to END)",
			    arg, arg);
		return -1;
	}
	if (strchr(end, ',') || strchr(arg, ' ')) {
		usage_error("records: --time: '%s': one START,END range only "
			    "(perf's several ranges are not supported)",
			    arg);
		return -1;
	}
	if (comma > arg &&
	    !parse_seconds(arg, (size_t)(comma - arg), &ro->t_start)) {
		usage_error("records: --time: START '%.*s' is not %s",
			    (int)(comma - arg), arg, num);
		return -1;
	}
	if (*end && !parse_seconds(end, strlen(end), &ro->t_end)) {
		usage_error("records: --time: END '%s' is not %s", end, num);
		return -1;
	}
	if (ro->t_end < ro->t_start) {
		usage_error("records: --time: END %s is before START %.*s", end,
			    (int)(comma - arg), arg);
		return -1;
	}
	return 0;
}

static int parse_type_list(struct rec_opts *ro, const char *arg)
{
	const char *names[CHOICES_MAX];
	uint32_t types[CHOICES_MAX];
	struct choices c = {.names = names,
			    .n = pd_record_types(names, types, CHOICES_MAX),
			    .icase = true,
			    .what = "record type",
			    .also = ", or a number"};
	char buf[64];
	const char *p = arg;

	while (*p) {
		size_t n = strcspn(p, ",");
		uint64_t t;
		int i;

		/* no name is that long: an unknown one, cut, to say so */
		snprintf(buf, sizeof(buf), "%.*s", (int)n, p);
		if (!opt_u64(buf, 0, UINT32_MAX, &t)) {
			const char *name = buf;

			if (strncasecmp(name, "PERF_RECORD_", 12) == 0)
				name += 12;
			if ((i = choose(&c, name, "records: --type")) < 0)
				return -1;
			t = types[i];
		}
		if (ro->ntypes == MAX_TYPES) {
			usage_error("records: --type: more than %d types",
				    MAX_TYPES);
			return -1;
		}
		ro->types[ro->ntypes++] = (uint32_t)t;
		p += n + (p[n] == ',');
	}
	return 0;
}

static int handle(int opt, const char *arg, void *ctx)
{
	struct rec_opts *ro = ctx;

	switch (opt) {
	case OPT_TYPE: return parse_type_list(ro, arg);
	case OPT_EVENT: ro->event = arg; return 0;
	case OPT_TIME: return parse_time(ro, arg);
	case OPT_JSON_LINES: ro->json_lines = true; return 0;
	case OPT_PID:
		ro->has_pid = true;
		return task_id("records: --pid", arg,
			       "a process id (a number, or -1)", &ro->pid);
	case OPT_TID:
		ro->has_tid = true;
		return task_id("records: --tid", arg,
			       "a thread id (a number, or -1)", &ro->tid);
	case OPT_CPU:
		ro->has_cpu = true;
		return number_u32("records: --cpu", arg, "a CPU number",
				  &ro->cpu);
	case OPT_SKIP:
		return opt_number("records: --skip", arg, 0, UINT64_MAX,
				  OPT_COUNT, &ro->skip);
	case OPT_LIMIT:
		return opt_number("records: --limit", arg, 0, UINT64_MAX,
				  OPT_COUNT, &ro->limit);
	case OPT_AT:
		return opt_number("records: --at", arg, 0, UINT64_MAX,
				  "a file offset (decimal, or hex with 0x)",
				  &ro->at);
	case OPT_ORDER: {
		static const char *const orders[] = {"file", "time"};
		static const struct choices values = {
			.names = orders, .n = 2, .what = "value"};
		int i = choose(&values, arg, "records: --order");

		ro->order_time = i == 1;
		return i < 0 ? -1 : 0;
	}
	default: return -1;
	}
}

/* The options, and where the walk is. */
struct rec_ctx {
	struct rec_opts ro;
	struct pd_session *s;
	struct emitter *e;
	struct arena scratch;
	uint64_t seen, matched, shown;
	bool done;
};

static bool type_wanted(const struct rec_opts *ro, uint32_t type)
{
	if (!ro->ntypes)
		return true;
	for (unsigned i = 0; i < ro->ntypes; i++)
		if (ro->types[i] == type)
			return true;
	return false;
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

/*
 * Does the event named `want` (as typed) name ev?  Its full name, or
 * "attrN"; or its name without what want leaves out: the system, the
 * modifiers ("cpu-clock" names "cpu-clock:ppp", "sched_switch" names
 * "sched:sched_switch").
 */
static bool event_matches(const struct pd_evsel *ev, const char *want)
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
static int load(struct cmd_run *r)
{
	const struct rec_ctx *c = r->ctx;
	const struct pd_evlist *l = &r->s->evlist;
	char list[1024] = "";
	struct sink k = {list, 0, sizeof(list)};

	if (!c->ro.event)
		return 0;
	for (uint32_t i = 0; i < l->n; i++) {
		const struct pd_evsel *ev = &l->v[i];
		bool unsure = !ev->name[0] || !strcmp(ev->name_from, "attr");

		if (event_matches(ev, c->ro.event) ||
		    (unsure && r->s->pipe.live) ||
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
	usage_error("records: --event '%s' names no event of the recording; "
		    "%s%s",
		    c->ro.event, l->n ? "its events are " : "it has none",
		    list);
	return EXIT_USAGE;
}

static bool passes(const struct rec_ctx *c, const struct pd_sample_id *id,
		   const struct pd_evsel *ev, uint32_t type)
{
	const struct rec_opts *ro = &c->ro;

	if (!type_wanted(ro, type))
		return false;
	if (ro->event &&
	    (!ev || type >= PD_REC_USER_START || !event_matches(ev, ro->event)))
		return false;
	if ((ro->has_pid || ro->has_tid) && !id->has_tid)
		return false;
	if (ro->has_pid && id->pid != ro->pid)
		return false;
	if (ro->has_tid && id->tid != ro->tid)
		return false;
	if (ro->has_cpu && (!id->has_cpu || id->cpu != ro->cpu))
		return false;
	if (ro->has_time &&
	    (!id->has_time || id->time < ro->t_start || id->time > ro->t_end))
		return false;
	return true;
}

/* Decode and show one record, if it passes the filters. */
static void show_record(struct rec_ctx *c, const struct pd_event *ev)
{
	struct pd_session *s = c->s;
	struct emitter *e = c->e;
	struct pd_decoded d;

	c->seen++;
	if (c->done)
		return;
	/* before --at, only the tracing data simpleperf writes into the
	 * data section is read (the formats of the samples after it) */
	if (ev->offset < c->ro.at && ev->type != PD_REC_HEADER_TRACING_DATA)
		return;
	arena_reset(&c->scratch);
	pd_decode_event(s, ev, &c->scratch, &d);
	if (ev->offset < c->ro.at)
		return;

	/* filters: a record's own pid/tid (COMM, MMAP, FORK...) comes first */
	struct pd_sample_id filt = d.id;

	if (ev->type != PD_REC_SAMPLE &&
	    pd_record_pid_tid(&d.rec, &filt.pid, &filt.tid))
		filt.has_tid = true;
	if (!passes(c, &filt, d.evsel, ev->type))
		return;
	if (c->matched++ < c->ro.skip)
		return;
	if (c->shown >= c->ro.limit) {
		c->done = true;
		return;
	}
	c->shown++;

	emit_event(e, s, ev, &d);
}

static void deliver(void *arg, const struct pd_event *ev)
{
	show_record(arg, ev);
}

static int run(struct rec_ctx *c, struct pd_session *s)
{
	bool dir = s->mode == PD_MODE_DIR;
	struct pd_reader *r;
	struct pd_event ev;
	int rc;

	if (c->ro.order_time)
		return pd_read_in_time_order(s, dir, pd_event_time, deliver, c);
	r = pd_reader_open(
		s, PD_READ_FAST | (dir ? PD_READ_DATA_N : 0) |
			   (emit_want_hex(c->e) ? PD_READ_PAYLOADS : 0));
	if (!r)
		return -1;
	while (!c->done && (rc = pd_reader_next(r, &ev)) == 1)
		show_record(c, &ev);
	pd_reader_close(r);
	return 0;
}

/* Records stream out as they are read: no model is kept. */
static void show(struct cmd_run *r)
{
	struct rec_ctx *c = r->ctx;

	c->s = r->s;
	c->e = r->e;
	/* tracepoint samples: their fields and print output */
	c->s->tp_want = PD_TP_FIELDS | PD_TP_PRINT;
	c->seen = c->matched = c->shown = 0; /* each FILE on its own */
	c->done = false;
	if (r->o->fmt != EMIT_JSON_LINES)
		emit_arr_begin(c->e, "records");
	run(c, r->s);
	if (r->o->fmt != EMIT_JSON_LINES)
		emit_arr_end(c->e);
	arena_free(&c->scratch);
}

int cmd_records(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"type", required_argument, NULL, OPT_TYPE},
		{"event", required_argument, NULL, OPT_EVENT},
		{"pid", required_argument, NULL, OPT_PID},
		{"tid", required_argument, NULL, OPT_TID},
		{"cpu", required_argument, NULL, OPT_CPU},
		{"time", required_argument, NULL, OPT_TIME},
		{"skip", required_argument, NULL, OPT_SKIP},
		{"limit", required_argument, NULL, OPT_LIMIT},
		{"at", required_argument, NULL, OPT_AT},
		{"order", required_argument, NULL, OPT_ORDER},
		{"json-lines", no_argument, NULL, OPT_JSON_LINES},
		{NULL, 0, NULL, 0},
	};
	struct rec_ctx c = {.ro = {.limit = UINT64_MAX}};
	int first, rc;

	rc = parse_cmd_opts(&cmd_records_def, o, argc, argv, NULL, longopts,
			    handle, &c.ro, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	if (c.ro.json_lines)
		o->fmt = EMIT_JSON_LINES;
	return cmd_run(&cmd_records_def, o, &c);
}
