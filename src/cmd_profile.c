// SPDX-License-Identifier: MIT
/* perfdump profile: where the samples land (readperf's overviews). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/analysis/profile.h"
#include "fmt/fmt_profile.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);
static void done(struct cmd_run *r);

const struct cmd cmd_profile_def = {
	.name = "profile",
	.fn = cmd_profile,
	.summary = "samples per function, DSO, process or thread, symbolized",
	.help = "Usage: perfdump profile [OPTIONS] [FILE]\n"
		"\n"
		"Read the records once, in time order as perf report does, "
		"and show\n"
		"where the samples landed: a flat self profile per function "
		"with its\n"
		"source file and the line of its hottest address (like perf "
		"report\n"
		"--sort dso,sym), per DSO, per source line (like --sort "
		"srcline), or\n"
		"the processes and threads with their COMMs, FORK and EXIT "
		"times, MMAP\n"
		"records and samples.  Rows are per event; percent is the "
		"share of the\n"
		"event's period (of all samples for processes and threads).  "
		"When the\n"
		"samples have callchains, functions and DSOs get an "
		"inclusive share\n"
		"too, children_percent: the samples whose ip or callchain "
		"holds them\n"
		"(like perf report --children), and sort by it; lines do "
		"not.\n"
		"\n"
		"Symbols come from a DSO's ELF .symtab, else its .dynsym "
		"(and its PLT),\n"
		"read with libelf, and source lines from its DWARF with "
		"libdw, from\n"
		"the file whose build-id is the recording's: at its path "
		"under --symfs,\n"
		"in perf's build-id cache, in /usr/lib/debug/.build-id; a "
		"separate\n"
		"debug file through .gnu_debuglink or the build-id.  A DSO "
		"the recording\n"
		"has no build-id for (pipe mode, -z, a killed perf record) "
		"comes from the\n"
		"file at its path, as perf does: unverified (unverified=yes, "
		"counted in\n"
		"the summary's unverified_samples).  A DSO that cannot be "
		"symbolized has\n"
		"one row per event named by its status: [mismatch], "
		"[missing],\n"
		"[unreadable], [outside-root], [no-build-id], [pseudo].\n"
		"Kernel symbols: --vmlinux, --kallsyms, perf's build-id "
		"cache, or this\n"
		"machine's /proc/kallsyms when the running kernel's build-id "
		"is the\n"
		"recording's (or, unverified, when it has none and no --symfs "
		"is given).\n"
		"JIT code: /tmp/perf-PID.map under --symfs.  C++ and Rust "
		"names are\n"
		"demangled as perf report shows them: the qualified name "
		"without its\n"
		"parameters (geo::Vec::operator+).\n"
		"\n"
		"Options:\n"
		"      --by WHAT        the table: function (default), dso, "
		"line,\n"
		"                       process, thread (or a prefix: --by "
		"func)\n"
		"      --no-children    no inclusive share, rows by their own "
		"period\n"
		"      --top N          the first N rows of each event (of "
		"the table\n"
		"                       for process and thread); 0: all "
		"(default)\n"
		"      --csv            write the table alone as CSV (RFC "
		"4180), like\n"
		"                       readperf's results.csv and "
		"processes.csv\n"
		"      --symfs DIR      look for files under DIR (as perf's "
		"--symfs)\n"
		"      --debug-dir DIR  perf's build-id cache (default\n"
		"                       $PERF_BUILDID_DIR, else ~/.debug)\n"
		"      --vmlinux FILE   kernel symbols from this vmlinux\n"
		"      --kallsyms FILE  kernel symbols from this kallsyms "
		"file\n"
		"      --no-demangle    C++ and Rust names as the symbol table "
		"has them\n"
		"      --strict-build-ids  no symbols for a DSO the recording "
		"has no\n"
		"                       build-id for ([no-build-id])\n"
		"  -J, --jobs N         by function, dso or line: count the "
		"samples on N\n"
		"                       threads (default: the online CPUs; at "
		"most 4)\n"
		"  -j, --json           write JSON\n"
		"  -p, --pretty         write indented JSON\n"
		"  -h, --help           show this help\n",
	.setup = CMD_FEATURE_DEPS | CMD_EVLIST,
	.load = load,
	.show = show,
	.done = done,
};

struct prof_opts {
	enum pd_prof_by by;
	uint64_t top;
	bool csv, no_children;
	struct sym_where where;
	struct pd_profile p;
};

enum {
	OPT_BY = 256,
	OPT_TOP,
	OPT_CSV,
	OPT_NO_CHILDREN,
	SYM_WHERE_OPT_VALUES, /* sym_where_opt's */
};

static int parse_by(const char *arg, enum pd_prof_by *by)
{
	static const struct choices values = {
		.names = profile_by_names,
		.n = PROFILE_NBY,
		.what = "value",
	};
	int i = choose(&values, arg, "profile: --by");

	if (i < 0)
		return -1;
	*by = (enum pd_prof_by)i;
	return 0;
}

static int handle(int opt, const char *arg, void *ctx)
{
	struct prof_opts *po = ctx;

	switch (opt) {
	case OPT_BY: return parse_by(arg, &po->by);
	case OPT_TOP:
		return opt_number("profile: --top", arg, 10, UINT64_MAX,
				  OPT_COUNT, &po->top);
	case OPT_CSV: po->csv = true; return 0;
	case OPT_NO_CHILDREN: po->no_children = true; return 0;
	}
	return sym_where_opt(&po->where, opt - OPT_SYMFS, arg) ? 0 : -1;
}

static int load(struct cmd_run *r)
{
	struct prof_opts *po = r->ctx;

	sym_where_default(&po->where, r->s);
	pd_profile_collect(&po->p, r->s, po->by, !po->no_children, &po->where.w,
			   opts_jobs(r->o));
	pd_profile_sort_rows(&po->p);
	return 0;
}

static void show(struct cmd_run *r)
{
	struct prof_opts *po = r->ctx;
	struct profile_view v = {.p = &po->p, .s = r->s, .top = po->top};

	emit_profile(r->e, &v);
}

static void done(struct cmd_run *r)
{
	struct prof_opts *po = r->ctx;

	pd_profile_free(&po->p);
}

int cmd_profile(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"by", required_argument, NULL, OPT_BY},
		{"top", required_argument, NULL, OPT_TOP},
		{"csv", no_argument, NULL, OPT_CSV},
		{"no-children", no_argument, NULL, OPT_NO_CHILDREN},
		SYM_WHERE_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct prof_opts po = {0};
	int first, rc;

	rc = parse_cmd_opts(&cmd_profile_def, o, argc, argv, "", longopts,
			    handle, &po, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	if (po.csv && o->fmt != EMIT_TEXT) {
		usage_error("profile: --csv writes CSV, -j and -p JSON: give "
			    "one");
		return EXIT_USAGE;
	}
	if (sym_where_check("profile", &po.where) < 0)
		return EXIT_USAGE;
	if (po.csv)
		o->fmt = EMIT_CSV;
	return cmd_run(&cmd_profile_def, o, &po);
}
