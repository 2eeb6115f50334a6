// SPDX-License-Identifier: MIT
/* perfdump buildids: every build-id of a recording, resolved locally. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/analysis/buildid_list.h"
#include "fmt/fmt_buildids.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);
static void done(struct cmd_run *r);

const struct cmd cmd_buildids_def = {
	.name = "buildids",
	.fn = cmd_buildids,
	.summary = "build-ids, resolved against local files with libelf",
	.help = "Usage: perfdump buildids [OPTIONS] [FILE...]\n"
		"\n"
		"List every build-id the recording holds, from the "
		"HEADER_BUILD_ID\n"
		"feature, HEADER_BUILD_ID records (67) and MMAP2 records in "
		"build-id\n"
		"form, one entry per build-id and filename, and resolve each "
		"against\n"
		"this machine: the NT_GNU_BUILD_ID note (read with libelf) of "
		"the file\n"
		"at its path, of perf's build-id cache "
		"(DIR/PATH/BUILD-ID/elf,\n"
		"DIR/.build-id/XX/REST) and of "
		"/usr/lib/debug/.build-id/XX/REST.debug.\n"
		"\n"
		"Status per entry: match (path: the file that matched), "
		"mismatch\n"
		"(found_build_id: what the file holds), missing, not-elf, "
		"unreadable\n"
		"(damaged, truncated or no permission), outside-root (the "
		"recorded\n"
		"path leaves the --symfs or build-id cache directory with "
		"..: not\n"
		"looked at), pseudo ([vdso], //anon ...), not-checked "
		"([kernel.kallsyms]\n"
		"without --kernel), no-build-id (a sampled DSO the recording "
		"has no\n"
		"build-id for; --hits only).  Symbolic links under those "
		"directories\n"
		"are resolved inside them, as if each were /.  The exit "
		"status is about\n"
		"the recording, not about the matches.  Without --hits every "
		"build-id\n"
		"the file holds is listed; perf buildid-list lists only the "
		"sampled\n"
		"DSOs of a file without the HEADER_BUILD_ID feature (pipe "
		"mode, -z).\n"
		"\n"
		"Options:\n"
		"  -H, --hits           only the DSOs that have samples, with "
		"their\n"
		"                       counts (like perf buildid-list -H)\n"
		"      --missing        only entries that do not match: "
		"mismatch,\n"
		"                       missing, not-elf, unreadable, "
		"outside-root\n"
		"      --no-resolve     list only, do not look at local files\n"
		"      --symfs DIR      look for files under DIR (as perf's "
		"--symfs)\n"
		"      --debug-dir DIR  perf's build-id cache (default\n"
		"                       $PERF_BUILDID_DIR, else ~/.debug)\n"
		"      --kernel         compare [kernel.kallsyms] with the "
		"running\n"
		"                       kernel (/sys/kernel/notes)\n"
		"  -j, --json           write JSON\n"
		"  -p, --pretty         write indented JSON\n"
		"  -h, --help           show this help\n",
	.setup = CMD_FEATURE_DEPS | CMD_EVLIST,
	.load = load,
	.show = show,
	.done = done,
};

/* The options and the model. */
struct bid_opts {
	bool hits, missing, no_resolve;
	struct pd_bid_where where;
	bool has_debug_dir;
	struct pd_bid_list l;
};

enum {
	OPT_MISSING = 256,
	OPT_NO_RESOLVE,
	OPT_SYMFS,
	OPT_DEBUG_DIR,
	OPT_KERNEL,
};

static int handle(int opt, const char *arg, void *ctx)
{
	struct bid_opts *bo = ctx;

	switch (opt) {
	case 'H': bo->hits = true; return 0;
	case OPT_MISSING: bo->missing = true; return 0;
	case OPT_NO_RESOLVE: bo->no_resolve = true; return 0;
	case OPT_SYMFS: bo->where.symfs = arg; return 0;
	case OPT_DEBUG_DIR:
		bo->where.debug_dir = arg;
		bo->has_debug_dir = true;
		return 0;
	case OPT_KERNEL: bo->where.kernel = true; return 0;
	}
	return -1;
}

/* --missing: what a bug report needs (not pseudo-DSOs, not unchecked). */
static bool is_problem(enum pd_bid_status st)
{
	return st == PD_BID_MISMATCH || st == PD_BID_MISSING ||
	       st == PD_BID_NOT_ELF || st == PD_BID_UNREADABLE ||
	       st == PD_BID_OUTSIDE_ROOT;
}

/* The parser: every build-id, resolved against local files. */
static int load(struct cmd_run *r)
{
	struct bid_opts *bo = r->ctx;

	if (!bo->has_debug_dir) /* perf's default (cli.c) */
		bo->where.debug_dir = r->s->opts.buildid_dir;
	pd_bid_list_build(&bo->l, r->s, true, bo->hits);
	if (!bo->no_resolve)
		pd_bid_list_resolve(&bo->l, &bo->where);
	return 0;
}

static void show(struct cmd_run *r)
{
	struct bid_opts *bo = r->ctx;
	struct emitter *e = r->e;
	size_t listed = 0;

	emit_arr_begin(e, "buildids");
	for (size_t i = 0; i < bo->l.n; i++) {
		const struct pd_bid_entry *b = &bo->l.v[i];

		if (bo->hits && !b->samples)
			continue;
		if (bo->missing && !is_problem(b->res.status))
			continue;
		emit_bid_entry(e, b, !bo->no_resolve, bo->hits);
		listed++;
	}
	emit_arr_end(e);
	emit_bid_summary(e, &bo->l, listed, !bo->no_resolve);
}

static void done(struct cmd_run *r)
{
	struct bid_opts *bo = r->ctx;

	pd_bid_list_free(&bo->l);
}

int cmd_buildids(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hits", no_argument, NULL, 'H'},
		{"missing", no_argument, NULL, OPT_MISSING},
		{"no-resolve", no_argument, NULL, OPT_NO_RESOLVE},
		{"symfs", required_argument, NULL, OPT_SYMFS},
		{"debug-dir", required_argument, NULL, OPT_DEBUG_DIR},
		{"kernel", no_argument, NULL, OPT_KERNEL},
		{NULL, 0, NULL, 0},
	};
	struct bid_opts bo = {0};
	int first, rc;

	rc = parse_cmd_opts(&cmd_buildids_def, o, argc, argv, "H", longopts,
			    handle, &bo, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	if (bo.missing && bo.no_resolve) {
		usage_error("buildids: --missing needs the resolution "
			    "(--no-resolve given)");
		return EXIT_USAGE;
	}
	return cmd_run(&cmd_buildids_def, o, &bo);
}
