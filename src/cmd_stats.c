// SPDX-License-Identifier: MIT
/* perfdump stats: counts that explain a recording. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>

#include "lib/format/features.h"
#include "lib/analysis/stats.h"
#include "fmt/fmt_stats.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);
static void done(struct cmd_run *r);

/* Decoded besides the dependencies: the header's view of time and zstd. */
static const unsigned decode[] = {HEADER_SAMPLE_TIME, HEADER_COMPRESSED, 0};

const struct cmd cmd_stats_def = {
	.name = "stats",
	.fn = cmd_stats,
	.summary =
		"counts per record type, event, CPU and thread; data quality",
	.help = "Usage: perfdump stats [OPTIONS] [FILE...]\n"
		"\n"
		"Count what the recording holds, in one pass that reads only "
		"record\n"
		"headers and the few sample fields a count needs:\n"
		"  records      count, bytes and share per record type "
		"(records inside\n"
		"               COMPRESSED records as their own types, the "
		"containers\n"
		"               as COMPRESSED/COMPRESSED2); totals as perf "
		"report --stats\n"
		"  samples      per event, per CPU, and the top processes and "
		"threads\n"
		"               with their comm (from COMM records)\n"
		"  quality      LOST (records, events lost), LOST_SAMPLES (and "
		"those the\n"
		"               BPF filter dropped), THROTTLE/UNTHROTTLE, AUX "
		"flags\n"
		"               (truncated, partial, collision, overwrite), "
		"AUXTRACE_ERROR,\n"
		"               records of unknown types\n"
		"  time         first and last sample time, duration, samples "
		"per second,\n"
		"               against SAMPLE_TIME in the header; wall clock "
		"from\n"
		"               CLOCK_DATA\n"
		"  ordering     FINISHED_ROUND rounds, the largest one, "
		"samples older than\n"
		"               what perf had already flushed, backward time "
		"steps\n"
		"  compression  compressed and decompressed bytes, the ratio "
		"achieved and\n"
		"               the one the header (COMPRESSED) claims\n"
		"  bytes        every byte of the file: header, attrs, ids, "
		"data, feature\n"
		"               table and sections, and the bytes that belong "
		"to none\n"
		"\n"
		"Options:\n"
		"      --top N      processes and threads listed (default 10, "
		"0: all)\n"
		"  -j, --json       write JSON\n"
		"  -p, --pretty     write indented JSON\n"
		"  -h, --help       show this help\n",
	.setup = CMD_TORN | CMD_FEATURE_DEPS | CMD_EVLIST,
	.decode = decode,
	.load = load,
	.show = show,
	.done = done,
};

enum { OPT_TOP = 256 };

/* The options and the model. */
struct stats_cmd {
	uint64_t top;
	struct pd_stats st;
	struct pd_stats_pid *pids;
	struct pd_stats_thread *threads;
	struct pd_byte_account ba;
	struct stats_view v;
};

static int handle(int opt, const char *arg, void *ctx)
{
	struct stats_cmd *so = ctx;

	if (opt != OPT_TOP)
		return -1;
	return opt_number("stats: --top", arg, 10, UINT64_MAX, OPT_COUNT,
			  &so->top);
}

/* The parser: the counts, the top lists and the byte account. */
static int load(struct cmd_run *r)
{
	struct stats_cmd *c = r->ctx;
	struct stats_view *v = &c->v;

	if (pd_stats_collect(r->s, &c->st) < 0)
		pd_diag_add(&r->s->diags, PD_C_MALFORMED, PD_AT_NAMED("stats"),
			    PD_ERR, PD_NO_OFFSET, "stats",
			    "out of memory; the counts are incomplete");
	v->st = &c->st;
	v->top = c->top;
	/* pd_stats_pids() sorts the thread table by pid and points into it;
	 * the top threads are a copy */
	c->pids = pd_stats_pids(&c->st, &v->npids);
	v->pids = c->pids;
	c->threads = pd_stats_top_threads(&c->st, &v->nthreads);
	v->threads = c->threads;
	if (pd_byte_account(r->s, &c->st.ends, false, &c->ba) == 0)
		v->bytes = &c->ba;
	return 0;
}

static void show(struct cmd_run *r)
{
	struct stats_cmd *c = r->ctx;

	emit_stats(r->e, r->s, &c->v);
}

static void done(struct cmd_run *r)
{
	struct stats_cmd *c = r->ctx;

	if (c->v.bytes)
		pd_byte_account_free(&c->ba);
	free(c->threads);
	free(c->pids);
	pd_stats_free(&c->st);
	/* the options stay, for the next FILE */
	*c = (struct stats_cmd){.top = c->top};
}

int cmd_stats(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"top", required_argument, NULL, OPT_TOP},
		{NULL, 0, NULL, 0},
	};
	struct stats_cmd so = {.top = 10};
	int first, rc;

	rc = parse_cmd_opts(&cmd_stats_def, o, argc, argv, NULL, longopts,
			    handle, &so, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	return cmd_run(&cmd_stats_def, o, &so);
}
