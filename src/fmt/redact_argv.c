// SPDX-License-Identifier: MIT
/*
 * --redact of perf's recorded command line (CMDLINE, written from perf's
 * own argv by tools/perf/perf.c main -> perf_env__set_cmdline): which
 * argument is perf's and which the workload's (redact.h).
 *
 * perf's subcommand and options say how the recording was made, which a
 * bug report needs; the workload's arguments may say anything.  perf
 * parses options with tools/lib/subcmd/parse-options.c, which stops at
 * the first argument that is not an option (PARSE_OPT_STOP_AT_NON_OPTION,
 * tools/perf/builtin-record.c cmd_record) or at "--"; to know where that
 * is, the options that take their value from the next argument must be
 * known: the tables below, from the option arrays of builtin-record.c
 * (__record_options) and builtin-stat.c (stat_options).  Options with an
 * optional value (-z, -I of record, --switch-output) take it only
 * attached, so they are not listed.  An option not in its table is taken
 * for a flag.
 */
#include <string.h>

#include "fmt/redact.h"
#include "lib/base/util.h"

/* An option that takes a value: short letter (0: none), long name. */
struct valopt {
	char s;
	const char *l;
	bool file; /* the value names a file: the path rule */
};

/* builtin-record.c __record_options: OPT_STRING, OPT_CALLBACK, OPT_U64,
 * OPT_INTEGER, OPT_UINTEGER with a required value */
static const struct valopt record_opts[] = {
	{'e', "event", false},
	{0, "filter", false},
	{'p', "pid", false},
	{'t', "tid", false},
	{'r', "realtime", false},
	{'C', "cpu", false},
	{'c', "count", false},
	{'o', "output", true},
	{'F', "freq", false},
	{'m', "mmap-pages", false},
	{0, "mmap-flush", false},
	{0, "call-graph", false},
	{'G', "cgroup", false},
	{'D', "delay", false},
	{'u', "uid", false},
	{'j', "branch-filter", false},
	{'k', "clockid", false},
	{0, "proc-map-timeout", false},
	{0, "clang-path", true},
	{0, "clang-opt", false},
	{0, "vmlinux", true},
	{0, "switch-output-event", false},
	{0, "switch-max-files", false},
	{0, "affinity", false},
	{0, "max-size", false},
	{0, "num-thread-synthesize", false},
	{0, "pfm-events", false},
	{0, "control", true},
	{0, "synth", false},
	{0, "setup-filter", false},
	{0, "off-cpu-thresh", false},
	{0, NULL, false},
};

/* builtin-stat.c stat_options (and stat record's) */
static const struct valopt stat_opts[] = {
	{'e', "event", false},
	{0, "filter", false},
	{'p', "pid", false},
	{'t', "tid", false},
	{'C', "cpu", false},
	{'G', "cgroup", false},
	{'r', "repeat", false},
	{'x', "field-separator", false},
	{'o', "output", true},
	{'D', "delay", false},
	{'I', "interval-print", false},
	{'M', "metrics", false},
	{0, "input", true}, /* stat report's; -i is --no-inherit */
	{'b', "bpf-prog", false},
	{0, "bpf-attr-map", true},
	{0, "log-fd", false},
	{0, "interval-count", false},
	{0, "timeout", false},
	{0, "td-level", false},
	{0, "for-each-cgroup", false},
	{0, "control", true},
	{0, "metric-groups", false},
	{0, "pfm-events", false},
	{0, NULL, false},
};

/*
 * perf's commands that write a perf.data, and the tables of their
 * options; "sched record" and the like pass record's options on.
 */
static const struct {
	const char *name;
	const struct valopt *opts;
} commands[] = {
	{"record", record_opts},    {"stat", stat_opts},
	{"sched", record_opts},	    {"lock", record_opts},
	{"kmem", record_opts},	    {"kwork", record_opts},
	{"mem", record_opts},	    {"c2c", record_opts},
	{"trace", record_opts},	    {"kvm", record_opts},
	{"timechart", record_opts}, {"inject", record_opts},
};

enum phase {
	PH_PERF,     /* argv[0] */
	PH_COMMAND,  /* argv[1]: perf's subcommand */
	PH_OPTIONS,  /* its options (after "record" of "sched record") */
	PH_VALUE,    /* the value of the option before */
	PH_PROGRAM,  /* the workload's program */
	PH_WORKLOAD, /* its arguments */
};

static bool is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* The option whose long name is s[0..n), or NULL. */
static const struct valopt *long_opt(const struct valopt *t, const char *s,
				     size_t n)
{
	for (; t->l; t++)
		if (is(s, n, t->l))
			return t;
	return NULL;
}

static const struct valopt *short_opt(const struct valopt *t, char c)
{
	for (; t->l; t++)
		if (t->s && t->s == c)
			return t;
	return NULL;
}

static enum pd_priv value_kind(const struct valopt *o)
{
	return o->file ? PRIV_PATH : PRIV_NONE;
}

/*
 * "--name", "--name=value": kept, a file value by the path rule; a name
 * the table lacks is taken for a flag (an attached value of it follows
 * the path rule, in case it names a file).
 */
static struct redact_arg long_option(struct redact_argv *st, const char *s,
				     size_t n)
{
	const char *eq = memchr(s, '=', n);
	size_t nl = (eq ? (size_t)(eq - s) : n) - 2;
	const struct valopt *o = long_opt(st->opts, s + 2, nl);

	if (eq)
		return (struct redact_arg){o ? value_kind(o) : PRIV_PATH,
					   (uint32_t)(eq + 1 - s)};
	if (o) {
		st->phase = PH_VALUE;
		st->value_kind = value_kind(o);
	}
	return (struct redact_arg){PRIV_NONE, (uint32_t)n};
}

/*
 * "-ag", "-F99", "-e", "-ofile": short options grouped; the first one
 * that takes a value takes the rest of the argument, or the next one.
 */
static struct redact_arg short_options(struct redact_argv *st, const char *s,
				       size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const struct valopt *o = short_opt(st->opts, s[i]);

		if (!o)
			continue;
		if (i + 1 < n)
			return (struct redact_arg){value_kind(o),
						   (uint32_t)(i + 1)};
		st->phase = PH_VALUE;
		st->value_kind = value_kind(o);
		break;
	}
	return (struct redact_arg){PRIV_NONE, (uint32_t)n};
}

static struct redact_arg option(struct redact_argv *st, const char *s, size_t n)
{
	if (is(s, n, "--")) {
		st->phase = PH_PROGRAM;
		return (struct redact_arg){PRIV_NONE, (uint32_t)n};
	}
	if (n > 1 && s[0] == '-' && s[1] == '-')
		return long_option(st, s, n);
	if (n > 1 && s[0] == '-')
		return short_options(st, s, n);
	/* the first argument that is not an option: the workload */
	st->phase = PH_WORKLOAD;
	return (struct redact_arg){PRIV_PATH, 0};
}

static struct redact_arg command(struct redact_argv *st, const char *s,
				 size_t n)
{
	for (size_t i = 0; i < PD_NELEMS(commands); i++) {
		if (!is(s, n, commands[i].name))
			continue;
		st->opts = commands[i].opts;
		st->phase = PH_OPTIONS;
		return (struct redact_arg){PRIV_NONE, (uint32_t)n};
	}
	st->phase = PH_WORKLOAD; /* not a perf command perfdump knows */
	return (struct redact_arg){PRIV_ARG, 0};
}

struct redact_arg redact_argv_next(struct redact_argv *st, const char *s,
				   size_t n)
{
	bool first_option = st->i == 2;

	st->i++;
	switch ((enum phase)st->phase) {
	case PH_PERF:
		st->phase = PH_COMMAND;
		return (struct redact_arg){PRIV_PATH, 0};
	case PH_COMMAND: return command(st, s, n);
	case PH_OPTIONS:
		/* "sched record", "stat record": the second word is perf's */
		if (first_option && is(s, n, "record"))
			return (struct redact_arg){PRIV_NONE, (uint32_t)n};
		return option(st, s, n);
	case PH_VALUE:
		st->phase = PH_OPTIONS;
		return (struct redact_arg){st->value_kind, 0};
	case PH_PROGRAM:
		st->phase = PH_WORKLOAD;
		return (struct redact_arg){PRIV_PATH, 0};
	case PH_WORKLOAD: break;
	}
	return (struct redact_arg){PRIV_ARG, 0};
}
