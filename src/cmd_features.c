// SPDX-License-Identifier: MIT
/* perfdump features: every feature section, decoded. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/analysis/buildid.h"
#include "lib/format/feat_meta.h"
#include "lib/format/features.h"
#include "fmt/fmt_features.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);

const struct cmd cmd_features_def = {
	.name = "features",
	.fn = cmd_features,
	.summary = "feature sections, fully decoded",
	.help = "Usage: perfdump features [--list] [-j|-p] [-x] [FILE...] "
		"[NAME...]\n"
		"\n"
		"Decode every feature section present (HOSTNAME, NRCPUS, "
		"CMDLINE,\n"
		"EVENT_DESC, CPU_TOPOLOGY, TRACING_DATA, BUILD_ID, ... all the "
		"ids perf\n"
		"defines, simpleperf's 128-134 named).  Unknown features and "
		"bytes a\n"
		"decoder did not consume are hex-dumped.  In pipe mode the "
		"features come\n"
		"from HEADER_FEATURE, HEADER_TRACING_DATA and HEADER_BUILD_ID "
		"records.\n"
		"\n"
		"NAME selects features: case-insensitive, with or without "
		"HEADER_, or a\n"
		"bit number (e.g. hostname, HEADER_NRCPUS, cpu_topology, 13).  "
		"FILEs\n"
		"and NAMEs may come in any order: an argument that is an "
		"existing path\n"
		"(or '-', or has a '/' or '.') is a FILE, else a NAME; to ask "
		"for a\n"
		"feature whose name is also a file here, spell it another way "
		"(HEADER_\n"
		"prefix, other case, or its bit number).\n"
		"\n"
		"Options:\n"
		"  -l, --list      list every feature perf and simpleperf "
		"define, and\n"
		"                  whether this file has it\n"
		"      --resolve   add to each BUILD_ID entry its resolution "
		"against\n"
		"                  local files, as 'perfdump buildids' does "
		"(status,\n"
		"                  path, found_build_id, detail, tried)\n"
		"      --symfs DIR, --debug-dir DIR, --kernel\n"
		"                  where --resolve looks (see 'perfdump "
		"buildids')\n"
		"  -j, --json      write JSON\n"
		"  -p, --pretty    write indented JSON\n"
		"  -x, --hex       add a hex dump of each feature's bytes\n"
		"  -h, --help      show this help\n",
	.setup = CMD_WHOLE_STREAM | CMD_HEX,
	/* what is decoded depends on the options: load */
	.load = load,
	.show = show,
};

struct features_opts {
	bool list;
	bool resolve;
	struct pd_bid_where where;
	bool has_debug_dir;
	bool want[256], any; /* NAME operands: only these */
};

enum { OPT_RESOLVE = 256, OPT_SYMFS, OPT_DEBUG_DIR, OPT_KERNEL };

static int handle(int opt, const char *arg, void *ctx)
{
	struct features_opts *fo = ctx;

	switch (opt) {
	case 'l': fo->list = true; return 0;
	case OPT_RESOLVE: fo->resolve = true; return 0;
	case OPT_SYMFS: fo->where.symfs = arg; return 0;
	case OPT_DEBUG_DIR:
		fo->where.debug_dir = arg;
		fo->has_debug_dir = true;
		return 0;
	case OPT_KERNEL: fo->where.kernel = true; return 0;
	}
	return -1;
}

/* --resolve: each BUILD_ID entry against local files (lib/analysis/buildid.h). */
static void resolve_build_ids(struct pd_session *s, struct features_opts *fo)
{
	if (!fo->has_debug_dir) /* perf's default (cli.c) */
		fo->where.debug_dir = s->opts.buildid_dir;
	for (size_t i = 0; i < s->nfeat; i++) {
		struct feat_build_id *m = s->feat[i].model;
		struct pd_bid_res *res;

		if (s->feat[i].id != HEADER_BUILD_ID || !m || !m->nr)
			continue;
		res = arena_calloc(&s->arena, m->nr, sizeof(*res));
		if (!res)
			continue;
		for (size_t k = 0; k < m->nr; k++)
			pd_bid_resolve(&fo->where, m->v[k].build_id,
				       m->v[k].build_id ? m->v[k].build_id_size
							: 0,
				       m->v[k].filename.s, m->v[k].filename.len,
				       m->v[k].misc & PD_MISC_CPUMODE_MASK,
				       &s->arena, &res[k]);
		m->res = res;
	}
}

/* The parser: the features asked for, decoded (and resolved). */
static int load(struct cmd_run *r)
{
	struct features_opts *fo = r->ctx;
	struct pd_session *s = r->s;

	if (fo->list)
		return 0;
	if (fo->any) {
		/* only what was asked for (and what it depends on) */
		pd_decode_feature_deps(s);
		for (size_t i = 0; i < s->nfeat; i++)
			if (fo->want[s->feat[i].id])
				pd_decode_feature(s, &s->feat[i]);
	} else {
		pd_decode_features(s);
	}
	if (fo->resolve)
		resolve_build_ids(s, fo);
	return 0;
}

static void show(struct cmd_run *r)
{
	struct features_opts *fo = r->ctx;
	struct pd_session *s = r->s;
	struct emitter *e = r->e;

	if (fo->list) {
		emit_feature_list(e, s);
		return;
	}
	emit_arr_begin(e, "features");
	for (size_t i = 0; i < s->nfeat; i++)
		if (!fo->any || fo->want[s->feat[i].id])
			emit_feature(e, s, &s->feat[i]);
	emit_arr_end(e);
	if (!fo->any)
		return;
	emit_arr_begin(e, "missing");
	for (unsigned id = 0; id < 256; id++) {
		if (!fo->want[id] || pd_find_feature(s, id))
			continue;
		const char *n = pd_feat_name(id);

		if (n)
			emit_str(e, NULL, n);
		else
			emit_u64(e, NULL, id);
	}
	emit_arr_end(e);
}

/* An operand that names an existing file (or standard input). */
static bool is_file_arg(const char *a)
{
	struct stat st;

	return strcmp(a, "-") == 0 || stat(a, &st) == 0;
}

int cmd_features(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"list", no_argument, NULL, 'l'},
		{"resolve", no_argument, NULL, OPT_RESOLVE},
		{"symfs", required_argument, NULL, OPT_SYMFS},
		{"debug-dir", required_argument, NULL, OPT_DEBUG_DIR},
		{"kernel", no_argument, NULL, OPT_KERNEL},
		{NULL, 0, NULL, 0},
	};
	struct features_opts fo = {0};
	int first, rc;

	rc = parse_cmd_opts(&cmd_features_def, o, argc, argv, "l", longopts,
			    handle, &fo, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	/* the FILEs are moved to argv[first..nfiles), in their order */
	int nfiles = first;

	for (int i = first; i < argc; i++) {
		int id = is_file_arg(argv[i]) ? -1 : pd_feat_lookup(argv[i]);

		if (id >= 0) {
			fo.want[id] = fo.any = true;
		} else if (is_file_arg(argv[i]) || strpbrk(argv[i], "/.")) {
			argv[nfiles++] = argv[i];
		} else {
			usage_error("features: '%s' is neither a file nor a "
				    "feature name (see 'perfdump features "
				    "--list')",
				    argv[i]);
			return EXIT_USAGE;
		}
	}
	take_file_arg(o, nfiles, argv, first);
	return cmd_run(&cmd_features_def, o, &fo);
}
