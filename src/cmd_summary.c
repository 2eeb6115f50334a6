// SPDX-License-Identifier: MIT
/* perfdump summary (and `perfdump FILE`): the essentials of a recording. */
#include <getopt.h>

#include "lib/format/features.h"
#include "lib/analysis/stats.h"
#include "fmt/fmt_summary.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);
static void done(struct cmd_run *r);

static const unsigned decode[] = {
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CMDLINE,
	0,
};

const struct cmd cmd_summary_def = {
	.name = "summary",
	.fn = cmd_summary,
	.summary = "the essentials: format, origin, events, samples, time, "
		   "problems",
	.help = "Usage: perfdump summary [OPTIONS] [FILE]\n"
		"       perfdump [OPTIONS] FILE\n"
		"\n"
		"What readelf -h is to an ELF file: how the recording is "
		"stored (mode,\n"
		"byte order, file and data size), what made it and where "
		"(perf version,\n"
		"host, OS release, arch, CPUs, command line), its events with "
		"their\n"
		"samples, the records and samples, the time span, what was "
		"lost, and\n"
		"the problems found on the way.  perfdump shows it when the "
		"first\n"
		"argument is not a command but an existing file, a directory "
		"or '-'.\n"
		"\n"
		"Options:\n"
		"  -j, --json      write JSON\n"
		"  -p, --pretty    write indented JSON\n"
		"  -h, --help      show this help\n",
	.setup = CMD_TORN | CMD_FEATURE_DEPS | CMD_EVLIST,
	.decode = decode,
	.load = load,
	.show = show,
	.done = done,
};

/* The counts: the stats walk (headers and a few sample fields). */
static int load(struct cmd_run *r)
{
	if (pd_stats_collect(r->s, r->ctx) < 0)
		pd_diag_add(&r->s->diags, PD_C_MALFORMED,
			    PD_AT_NAMED("summary"), PD_ERR, PD_NO_OFFSET,
			    "summary",
			    "out of memory; the counts are incomplete");
	return 0;
}

static void show(struct cmd_run *r)
{
	emit_summary(r->e, r->s, r->ctx);
}

static void done(struct cmd_run *r)
{
	pd_stats_free(r->ctx);
}

int cmd_summary(struct opts *o, int argc, char **argv)
{
	struct pd_stats st;
	int first, rc;

	rc = parse_cmd_opts(&cmd_summary_def, o, argc, argv, NULL, NULL, NULL,
			    NULL, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	return cmd_run(&cmd_summary_def, o, &st);
}
