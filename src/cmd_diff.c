// SPDX-License-Identifier: MIT
/* perfdump diff: what differs between two recordings, structure by structure. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/diff.h"
#include "lib/analysis/profile.h"
#include "lib/analysis/stats.h"
#include "fmt/fmt_diff.h"
#include "perfdump.h"

const struct cmd cmd_diff_def = {
	.name = "diff",
	.fn = cmd_diff,
	.summary = "what differs between two recordings, structure by "
		   "structure",
	.help = "Usage: perfdump diff [OPTIONS] A B\n"
		"\n"
		"Compare two recordings by their decoded structures, not "
		"their bytes:\n"
		"  header    mode, byte order, version, header and attr sizes, "
		"number\n"
		"            of attrs, data files\n"
		"  features  every feature section by decoded value, as "
		"'features -j'\n"
		"            shows it (features.hostname.value, "
		"features.cmdline.argv[4])\n"
		"  attrs     every attr field, events matched by name and "
		"position\n"
		"            (attrs[cycles].sample_freq)\n"
		"  stats     records per type, samples per event, CPU and "
		"process (by\n"
		"            comm), lost counts, duration, compression\n"
		"  profile   with --profile: each function's share of its "
		"event's period\n"
		"            in A and B and the change in points, largest "
		"first, as\n"
		"            perf diff's Delta column "
		"(profile[EVENT][DSO:SYMBOL])\n"
		"Left out: file offsets (unless --offsets), ids, absolute "
		"times (the\n"
		"duration is compared), the file names, and the pipe-mode "
		"metadata\n"
		"records and compressed containers, which name the form of a "
		"recording.\n"
		"Text lists the differences by structure, 'PATH: A -> B "
		"(+12%)'; -j\n"
		"a list of {path, group, a, b, change}.  The last line is the "
		"verdict.\n"
		"Exit status as diff(1): 0 the same, 1 they differ (or an "
		"input is\n"
		"damaged: compared as far as it was read; or not a "
		"recording), 2\n"
		"usage error, 3 an input could not be read.\n"
		"\n"
		"Options:\n"
		"      --only LIST   compare only these: header, features, "
		"attrs, stats,\n"
		"                    profile (comma-separated)\n"
		"      --profile     compare the function profiles too\n"
		"      --offsets     compare file offsets too\n"
		"  -q, --brief       only the paths that differ\n"
		"      --symfs DIR, --debug-dir DIR, --vmlinux FILE, "
		"--kallsyms FILE,\n"
		"      --no-demangle, --strict-build-ids\n"
		"                    where --profile looks for symbols (see "
		"'perfdump\n"
		"                    profile')\n"
		"  -j, --json        write JSON\n"
		"  -p, --pretty      write indented JSON\n"
		"  -h, --help        show this help\n",
	.setup = CMD_TORN | CMD_FEATURE_DEPS | CMD_EVLIST,
};

enum {
	OPT_ONLY = 256,
	OPT_PROFILE,
	OPT_OFFSETS,
	SYM_WHERE_OPT_VALUES, /* sym_where_opt's */
};

#define DEFAULT_GROUPS                                                         \
	(1u << PD_DIFF_HEADER | 1u << PD_DIFF_FEATURES | 1u << PD_DIFF_ATTRS | \
	 1u << PD_DIFF_STATS)

struct diff_opts {
	unsigned only; /* --only's groups, 0: not given */
	bool profile, offsets, brief;
	unsigned jobs; /* -J: the profiles' threads */
	struct sym_where where;
};

/* One input and its models. */
struct diff_input {
	struct cmd_input in;
	struct pd_stats st;
	struct pd_profile p;
};

static int parse_only(const char *arg, unsigned *groups)
{
	static const struct choices names = {
		.names = pd_diff_group_names,
		.n = PD_DIFF_NGROUPS,
		.what = "structure",
	};
	char buf[256], *save = NULL;

	if (strlen(arg) >= sizeof(buf)) {
		usage_error("diff: --only: '%s' is too long", arg);
		return -1;
	}
	strcpy(buf, arg);
	for (char *w = strtok_r(buf, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		int i = choose(&names, w, "diff: --only");

		if (i < 0)
			return -1;
		*groups |= 1u << i;
	}
	if (!*groups) {
		usage_error("diff: --only: no structure named");
		return -1;
	}
	return 0;
}

static int handle(int opt, const char *arg, void *ctx)
{
	struct diff_opts *o = ctx;

	switch (opt) {
	case OPT_ONLY: return parse_only(arg, &o->only);
	case OPT_PROFILE: o->profile = true; return 0;
	case OPT_OFFSETS: o->offsets = true; return 0;
	case 'q': o->brief = true; return 0;
	}
	return sym_where_opt(&o->where, opt - OPT_SYMFS, arg) ? 0 : -1;
}

/* The parser: the walks the structures compared need (stats, profile). */
static int load(struct diff_input *di, struct diff_opts *o, unsigned groups)
{
	struct pd_session *s = &di->in.s;
	bool st = groups >> PD_DIFF_STATS & 1;

	if (!s->in.seekable && st && groups >> PD_DIFF_PROFILE & 1) {
		usage_error("diff: %s is read as it arrives, once: give "
			    "--only without stats or profile",
			    di->in.o.file);
		return EXIT_USAGE;
	}
	if (st && pd_stats_collect(s, &di->st) < 0)
		return EXIT_IO;
	if (!st) /* a stream read as it arrives: its metadata */
		pd_session_read_all(s);
	if (groups >> PD_DIFF_PROFILE & 1) {
		sym_where_default(&o->where, s);
		if (pd_profile_collect(&di->p, s, PD_PROF_BY_FUNCTION, false,
				       &o->where.w, o->jobs) < 0)
			return EXIT_IO;
	}
	if (groups >> PD_DIFF_FEATURES & 1)
		pd_decode_features(s);
	return 0;
}

static void compare(struct pd_diff *d, const struct opts *o,
		    struct diff_input *a, struct diff_input *b, unsigned groups)
{
	const struct pd_session *sa = &a->in.s, *sb = &b->in.s;

	for (unsigned g = 0; g < PD_DIFF_NGROUPS; g++) {
		if (!(groups >> g & 1))
			continue;
		d->group = (enum pd_diff_group)g;
		switch ((enum pd_diff_group)g) {
		case PD_DIFF_HEADER: pd_diff_header(d, sa, sb); break;
		case PD_DIFF_FEATURES: diff_features(d, o->red, sa, sb); break;
		case PD_DIFF_ATTRS: diff_attrs(d, o->red, sa, sb); break;
		case PD_DIFF_STATS:
			pd_diff_stats(d, sa, &a->st, sb, &b->st);
			break;
		case PD_DIFF_PROFILE:
			pd_diff_profile(d, sa, &a->p, sb, &b->p);
			break;
		default: break;
		}
	}
}

/* Both inputs' diagnostics as one list (the document's errors). */
static struct pd_diags both_diags(const struct pd_diags *x,
				  const struct pd_diags *y)
{
	struct pd_diags all = {
		.nerr = x->nerr + y->nerr,
		.nwarn = x->nwarn + y->nwarn,
		.dropped = x->dropped + y->dropped,
	};

	all.v = calloc(x->n + y->n + 1, sizeof(*all.v));
	if (all.v) {
		if (x->n)
			memcpy(all.v, x->v, x->n * sizeof(*all.v));
		if (y->n)
			memcpy(all.v + x->n, y->v, y->n * sizeof(*all.v));
		all.n = x->n + y->n;
	}
	return all;
}

/* --redact=comm: a process's comm in a path as it is shown elsewhere. */
static const char *redacted_comm(void *arg, const char *comm, char *buf,
				 size_t len)
{
	const char *s;
	size_t n;

	redact_str(arg, PRIV_COMM, comm, strlen(comm), &s, &n);
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

static int show(const struct opts *o, struct diff_opts *dopt,
		struct diff_input *a, struct diff_input *b, unsigned groups)
{
	struct pd_diff d = {
		.offsets = dopt->offsets,
		.comm_name = o->red ? redacted_comm : NULL,
		.comm_arg = o->red,
	};
	struct pd_diags all = both_diags(&a->in.s.diags, &b->in.s.diags);
	struct diff_view v = {
		.a = a->in.o.file,
		.b = b->in.o.file,
		.d = &d,
		.da = &a->in.s.diags,
		.db = &b->in.s.diags,
		.brief = dopt->brief,
		.groups = groups,
		.not_recording = {a->in.s.not_perf_data, b->in.s.not_perf_data},
	};
	struct emitter *e = emit_new(stdout, o->fmt, false);
	bool differ;

	if (!e)
		return EXIT_IO;
	/* not a recording: nothing to compare (the open said why) */
	if (!v.not_recording[0] && !v.not_recording[1])
		compare(&d, o, a, b, groups);
	differ = d.n || d.dropped || all.nerr;
	emit_set_redact(e, o->red);
	emit_doc_begin(e, v.a);
	emit_diff(e, &v);
	emit_text_hide(e, true); /* the verdict said it; stderr listed them */
	emit_diags(e, &all);
	emit_text_hide(e, false);
	emit_doc_end(e);
	if (!emit_free(e) || fflush(stdout) != 0 || ferror(stdout)) {
		differ = false;
		free(all.v);
		pd_diff_free(&d);
		return EXIT_IO;
	}
	free(all.v);
	pd_diff_free(&d);
	return differ ? EXIT_DAMAGED : EXIT_SOUND;
}

static int run(const struct opts *o, struct diff_opts *dopt, char **files)
{
	struct diff_input *in = calloc(2, sizeof(*in));
	unsigned groups = dopt->only ? dopt->only : DEFAULT_GROUPS;
	int rc = 0;

	if (!in)
		return EXIT_IO;
	if (dopt->profile)
		groups |= 1u << PD_DIFF_PROFILE;
	dopt->jobs = opts_jobs(o);
	for (int i = 0; i < 2 && !rc; i++) {
		rc = cmd_input_open(&cmd_diff_def, o, files[i], &in[i].in);
		if (!rc && !in[i].in.s.not_perf_data)
			rc = load(&in[i], dopt, groups);
	}
	if (!rc)
		rc = show(o, dopt, &in[0], &in[1], groups);
	for (int i = 0; i < 2; i++) {
		if (groups >> PD_DIFF_STATS & 1)
			pd_stats_free(&in[i].st);
		pd_profile_free(&in[i].p);
		cmd_input_close(&in[i].in);
	}
	free(in);
	return rc;
}

int cmd_diff(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"only", required_argument, NULL, OPT_ONLY},
		{"profile", no_argument, NULL, OPT_PROFILE},
		{"offsets", no_argument, NULL, OPT_OFFSETS},
		{"brief", no_argument, NULL, 'q'},
		SYM_WHERE_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct diff_opts dopt = {0};
	struct opts fo;
	int first, rc;

	rc = parse_cmd_opts(&cmd_diff_def, o, argc, argv, "q", longopts, handle,
			    &dopt, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	if (argc - first != 2) {
		usage_error("diff: give two recordings, A and B (%d given)",
			    argc - first);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[first], "-") && !strcmp(argv[first + 1], "-")) {
		usage_error("diff: standard input can be only one of A and B");
		return EXIT_USAGE;
	}
	if (sym_where_check("diff", &dopt.where) < 0)
		return EXIT_USAGE;
	if (o->fmt == EMIT_JSON_LINES || o->fmt == EMIT_CSV)
		o->fmt = EMIT_JSON;
	if ((rc = cmd_prepare(&cmd_diff_def, o, &fo)))
		return rc;
	return run(&fo, &dopt, argv + first);
}
