// SPDX-License-Identifier: MIT
/* perfdump export: the samples in a format profile viewers open. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/stacks.h"
#include "lib/analysis/stacks_walk.h"
#include "lib/analysis/symbolize.h"
#include "lib/format/perf_abi.h"
#include "lib/io/outfile.h"
#include "lib/session/session.h"
#include "lib/session/walk.h"
#include "fmt/fmt_chrome.h"
#include "export_formats.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);
static void done(struct cmd_run *r);

/* pprof's time: the wall clock of the first sample */
static const unsigned export_decode[] = {HEADER_CLOCK_DATA, 0};

const struct cmd cmd_export_def = {
	.name = "export",
	.fn = cmd_export,
	.summary = "the samples as folded stacks, pprof or a Chrome trace, for "
		   "profile viewers",
	.help = "Usage: perfdump export --to FORMAT [-o OUT] [OPTIONS] [FILE]\n"
		"\n"
		"Read the records once, in time order, symbolize each "
		"sample's ip and\n"
		"callchain as records --symbols does (perf script's frames), "
		"and write\n"
		"the samples in a format that profile viewers open.  FORMAT:\n"
		"  folded   one line per distinct stack, "
		"\"comm;outer;...;leaf COUNT\",\n"
		"           as FlameGraph's stackcollapse-perf.pl writes it "
		"from perf\n"
		"           script's output (flamegraph.pl, inferno, "
		"speedscope):\n"
		"           perfdump export --to folded perf.data | "
		"flamegraph.pl >out.svg\n"
		"           COUNT is the samples of one event: the one "
		"--event names,\n"
		"           or the recording's first event with samples "
		"(others: said\n"
		"           on stderr), as the script counts the first it "
		"meets.\n"
		"  pprof    pprof's profile.proto, gzipped, for go tool pprof "
		"(binary:\n"
		"           -o OUT, or a standard output that is not a "
		"terminal):\n"
		"           perfdump export --to pprof -o cpu.pb.gz perf.data "
		"&&\n"
		"             go tool pprof -top cpu.pb.gz\n"
		"           sample types per event (samples, period), one "
		"sample per\n"
		"           stack and thread (labels comm, pid, tid), "
		"locations with\n"
		"           their lines and inlined calls, mappings with "
		"build-ids.\n"
		"  chrome   the Chrome Trace Event Format's JSON, for "
		"Perfetto UI\n"
		"           (https://ui.perfetto.dev), chrome://tracing and "
		"speedscope:\n"
		"           perfdump export --to chrome -o trace.json "
		"perf.data\n"
		"           each sample an instant event on its thread's "
		"track (ts in\n"
		"           microseconds of the recording's clock, to the "
		"nanosecond), its\n"
		"           stack outermost first in args; tracepoint samples "
		"with their\n"
		"           fields; sched:sched_switch's run slices (as perf "
		"sched\n"
		"           timehist); process and thread names.  A recording "
		"whose\n"
		"           samples have no time is refused (exit 2).\n"
		"Without -o the export goes to standard output.  -o writes a "
		"temporary\n"
		"file beside OUT, renamed over it once complete: a failed "
		"export leaves\n"
		"OUT as it was; OUT is never the input (by any name or link).\n"
		"A DSO without symbols gives [dso-name] frames (one warning "
		"each), an\n"
		"address without a map [unknown]; a recording without "
		"callchains\n"
		"one-frame stacks.\n"
		"\n"
		"Options:\n"
		"      --to FORMAT      folded, pprof or chrome (a prefix will "
		"do)\n"
		"  -o, --output OUT     write OUT, not standard output\n"
		"      --event NAME     only samples of this event (as "
		"records --event)\n"
		"      --pid PID        only samples of this process (-1 too)\n"
		"      --tid TID        only samples of this thread (-1 too)\n"
		"      --cpu CPU        only samples of this CPU\n"
		"      --time START,END only samples in this time span (as "
		"records)\n"
		"      --folded-pid     the first frame comm-PID (the "
		"script's --pid)\n"
		"      --folded-tid     comm-PID/TID (the script's --tid)\n"
		"      --kernel-suffix  kernel frames end in _[k] (the "
		"script's --kernel)\n"
		"      --jit-suffix     JIT frames (/tmp/perf-PID.map) end in "
		"_[j] (--jit)\n"
		"      --inline         the calls inlined at each frame as "
		"frames of\n"
		"                       their own, from the DSOs' DWARF (perf "
		"script\n"
		"                       --inline); by default those of a "
		"user stack\n"
		"                       unwound from its copy, as perf "
		"script shows them\n"
		"      --no-inline      none of them\n"
		"      --period         COUNT: the sum of the samples' "
		"periods\n"
		"      --symfs DIR      look for the DSOs under DIR (as "
		"perf's --symfs)\n"
		"      --debug-dir DIR  perf's build-id cache (default "
		"~/.debug)\n"
		"      --kallsyms FILE  the kernel's symbols from FILE\n"
		"      --vmlinux FILE   the kernel's symbols from this ELF\n"
		"      --no-demangle    C++ and Rust names as the symbol table "
		"has them\n"
		"      --strict-build-ids  no symbols for a DSO the recording "
		"has no\n"
		"                       build-id for\n"
		"  -J, --jobs N         decode and symbolize on N threads "
		"(default: the\n"
		"                       online CPUs; at most 4: each keeps its "
		"own symbol\n"
		"                       tables), the output the same byte for "
		"byte; one\n"
		"                       thread still for chrome with a filter "
		"or --redact,\n"
		"                       pipe streams, directories and a data "
		"section of a\n"
		"                       few hundred KiB or less\n"
		"  -h, --help           show this help\n",
	.setup = CMD_FEATURE_DEPS | CMD_EVLIST | CMD_OWN_OUTPUT,
	.decode = export_decode,
	.load = load,
	.show = show,
	.done = done,
};

/* ---- the walk --------------------------------------------------------- */

/* A sample that passed the filters (walk.h): symbolized, to the format */
static bool export_record(void *arg, const struct pd_event *ev,
			  const struct pd_decoded *d)
{
	struct export_ctx *x = arg;
	struct pd_frames f;

	if (pd_symbolizer_sample_frames(x->z, ev, d, &f))
		x->fmt->sample(x, ev, d, &f);
	return true;
}

/* The symbolizer's maps: every record keeps them up to date */
static void keep_state(void *arg, const struct pd_event *ev,
		       const struct pd_decoded *d)
{
	struct export_ctx *x = arg;

	pd_symbolizer_record(x->z, ev, d);
	if (x->chrome) /* and the run slices (fmt_chrome.h) */
		fmt_chrome_state(x->chrome, ev, d);
}

/* An error of the export itself, on stderr; the exit status */
static int fail(struct export_ctx *x, int rc, const char *what)
{
	if (!x->r->o->quiet)
		fprintf(stderr, "perfdump: export: %s\n", what);
	return rc;
}

/* A timeline needs the samples' times: does an event of the recording
 * that samples record them (or are its events still to come, in a
 * stream read live)?  perf stat record's counting events have no samples
 * to place. */
static bool has_time(const struct pd_session *s)
{
	bool samples = false;

	for (uint32_t i = 0; i < s->evlist.n; i++) {
		const struct pd_attr *a = &s->evlist.v[i].attr;

		if (a->sample_type & PD_SAMPLE_TIME)
			return true;
		samples |= a->sample_period != 0;
	}
	return !samples || s->pipe.live;
}

static int load(struct cmd_run *r)
{
	struct export_ctx *x = r->ctx;
	char err[PATH_MAX + 200];
	int rc;

	x->r = r;
	if ((rc = filter_check_event("export", &x->f, r->s)))
		return rc;
	if (x->fmt->id == EXPORT_CHROME && !has_time(r->s))
		return fail(x, EXIT_USAGE,
			    "--to chrome: the recording's events have no "
			    "sample time (PERF_SAMPLE_TIME), which a "
			    "timeline needs (--to folded and pprof need "
			    "none)");
	/* the output before the input is read: an unwritable one fails
	 * at once */
	rc = pd_outfile_open(&x->out, x->out_path, x->fmt->binary, err,
			     sizeof(err));
	if (rc == PD_OUT_OK)
		return 0;
	return fail(x, rc == PD_OUT_IO ? EXIT_IO : EXIT_USAGE, err);
}

/* Walk, then write and commit the output (r->rc says when it failed) */
static void show(struct cmd_run *r)
{
	static const struct pd_visitor v = {.record = export_record,
					    .state = keep_state};
	static const struct pd_visitor chrome_par = {.record = export_record,
						     .state = keep_state,
						     .par = &export_chrome_par};
	struct export_ctx *x = r->ctx;
	/* stacks are gathered on several threads (stacks_walk.h); pprof's
	 * ids follow their order: batch by batch in order */
	bool stacks = !x->fmt->sample;
	bool pprof = x->fmt->id == EXPORT_PPROF;
	bool chrome = x->fmt->id == EXPORT_CHROME && !r->o->red &&
		      pd_filter_keeps_every_sample(&x->f);
	struct pd_stacks_walk sw = {.st = &x->st, .ordered = pprof};
	struct pd_walk_opts o = {
		.flags = PD_WALK_TIME_ORDER |
			 (r->s->mode == PD_MODE_DIR ? PD_WALK_DATA_N : 0),
		.filter = &x->f,
		.tp_want = x->fmt->tp_want,
		.jobs = stacks || chrome ? opts_jobs(r->o) : 1,
		.batch_bytes = r->o->read.batch_bytes,
	};
	char err[PATH_MAX + 200];

	x->r = r;
	pd_stacks_init(&x->st);
	sym_where_default(&x->where, r->s);
	x->z = pd_symbolizer_new(r->s, &x->where.w, false);
	if (!x->z || (x->fmt->init && x->fmt->init(x) < 0)) {
		r->rc = fail(x, EXIT_IO, "out of memory");
		return;
	}
	pd_symbolizer_lines(x->z, export_wants_lines(x, r->s));
	/* pprof's flat is perf report's: an empty callchain at its ip */
	pd_symbolizer_empty_ip(x->z, pprof);
	/* samples only: the maps follow every record (state) */
	x->f.types[0] = PD_REC_SAMPLE;
	x->f.ntypes = 1;
	sw.z = x->z;
	if (o.jobs > PD_STACKS_WALK_JOBS_MAX)
		o.jobs = PD_STACKS_WALK_JOBS_MAX;
	if ((stacks ? pd_walk(r->s, &o, &pd_stacks_walk_visitor, &sw)
		    : pd_walk(r->s, &o, chrome ? &chrome_par : &v, x)) < 0 ||
	    x->st.oom || x->fmt->finish(x, x->out.f) < 0) {
		r->rc = fail(x, EXIT_IO, "out of memory");
		return;
	}
	if (pd_outfile_commit(&x->out, err, sizeof(err)) != PD_OUT_OK)
		r->rc = fail(x, EXIT_IO, err);
}

static void done(struct cmd_run *r)
{
	struct export_ctx *x = r->ctx;

	pd_outfile_abort(&x->out); /* not committed: no half file */
	pd_stacks_free(&x->st);
	fmt_chrome_free(x->chrome);
	x->chrome = NULL;
	pd_symbolizer_free(x->z);
	x->z = NULL;
}

/* ---- options ---------------------------------------------------------- */

enum {
	OPT_TO = 256,
	OPT_EVENT, /* in filter_opt's order */
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_TIME,
	SYM_WHERE_OPT_VALUES, /* sym_where_opt's */
	OPT_FOLDED_PID,
	OPT_FOLDED_TID,
	OPT_KERNEL_SUFFIX,
	OPT_JIT_SUFFIX,
	OPT_PERIOD,
	OPT_INLINE,
	OPT_NO_INLINE,
};

static int parse_to(struct export_ctx *x, const char *arg)
{
	const char *names[EXPORT_NFORMATS];
	struct choices c = {
		.names = names, .n = EXPORT_NFORMATS, .what = "format"};
	int i;

	for (size_t k = 0; k < EXPORT_NFORMATS; k++)
		names[k] = export_formats[k].name;
	if ((i = choose(&c, arg, "export: --to")) < 0)
		return -1;
	x->fmt = &export_formats[i];
	return 0;
}

static int folded_opt(struct export_ctx *x, int opt)
{
	static const char *const names[] = {"--folded-pid", "--folded-tid",
					    "--kernel-suffix", "--jit-suffix",
					    "--period"};

	switch (opt) {
	case OPT_FOLDED_PID:
		if (x->folded.first != FOLDED_TID)
			x->folded.first = FOLDED_PID;
		break;
	case OPT_FOLDED_TID: x->folded.first = FOLDED_TID; break;
	case OPT_KERNEL_SUFFIX: x->folded.kernel_suffix = true; break;
	case OPT_JIT_SUFFIX: x->folded.jit_suffix = true; break;
	case OPT_PERIOD: x->folded.period = true; break;
	default: return -1;
	}
	x->folded_opt = names[opt - OPT_FOLDED_PID];
	return 0;
}

static int handle(int opt, const char *arg, void *ctx)
{
	struct export_ctx *x = ctx;

	switch (opt) {
	case OPT_TO: return parse_to(x, arg);
	case 'o': x->out_path = arg; return 0;
	case OPT_INLINE: x->inlines = FOLDED_INL_ALL; return 0;
	case OPT_NO_INLINE: x->inlines = FOLDED_INL_NONE; return 0;
	case OPT_EVENT:
	case OPT_PID:
	case OPT_TID:
	case OPT_CPU:
	case OPT_TIME: return filter_opt(&x->f, "export", opt - OPT_EVENT, arg);
	}
	if (opt >= OPT_FOLDED_PID && opt <= OPT_PERIOD)
		return folded_opt(x, opt);
	return sym_where_opt(&x->where, opt - OPT_SYMFS, arg) ? 0 : -1;
}

/* What cmd_run cannot tell: the options that go together, one FILE,
 * and the output not the input. */
static int check(struct export_ctx *x, struct opts *o)
{
	char err[PATH_MAX * 2 + 100];

	if (!x->fmt) {
		usage_error("export: give the format: --to folded, pprof or "
			    "chrome");
		return EXIT_USAGE;
	}
	if (o->fmt != EMIT_TEXT) {
		usage_error("export: -j and -p: the export's format is "
			    "--to's");
		return EXIT_USAGE;
	}
	if (x->folded_opt && x->fmt->id != EXPORT_FOLDED) {
		usage_error("export: %s goes with --to folded", x->folded_opt);
		return EXIT_USAGE;
	}
	if (o->nfiles > 1) {
		usage_error("export: one FILE at a time");
		return EXIT_USAGE;
	}
	if (sym_where_check("export", &x->where) < 0)
		return EXIT_USAGE;
	if (x->out_path &&
	    pd_outfile_check(x->out_path,
			     o->nfiles ? (const char *const *)o->files
				       : &o->file,
			     1, err, sizeof(err)) != PD_OUT_OK) {
		fprintf(stderr, "perfdump: export: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_export(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"to", required_argument, NULL, OPT_TO},
		{"output", required_argument, NULL, 'o'},
		{"event", required_argument, NULL, OPT_EVENT},
		{"pid", required_argument, NULL, OPT_PID},
		{"tid", required_argument, NULL, OPT_TID},
		{"cpu", required_argument, NULL, OPT_CPU},
		{"time", required_argument, NULL, OPT_TIME},
		SYM_WHERE_LONGOPTS,
		{"folded-pid", no_argument, NULL, OPT_FOLDED_PID},
		{"folded-tid", no_argument, NULL, OPT_FOLDED_TID},
		{"kernel-suffix", no_argument, NULL, OPT_KERNEL_SUFFIX},
		{"jit-suffix", no_argument, NULL, OPT_JIT_SUFFIX},
		{"inline", no_argument, NULL, OPT_INLINE},
		{"no-inline", no_argument, NULL, OPT_NO_INLINE},
		{"period", no_argument, NULL, OPT_PERIOD},
		{NULL, 0, NULL, 0},
	};
	struct export_ctx x = {.f = PD_FILTER_ALL};
	int first, rc;

	rc = parse_cmd_opts(&cmd_export_def, o, argc, argv, "o:", longopts,
			    handle, &x, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	if ((rc = check(&x, o)))
		return rc;
	return cmd_run(&cmd_export_def, o, &x);
}
