// SPDX-License-Identifier: MIT
/* perfdump copy: the recording written again as a sound perf.data. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fmt/fmt_copy.h"
#include "fmt/fmt_tracepoint.h"
#include "fmt/redact.h"
#include "lib/io/outfile.h"
#include "lib/session/filter.h"
#include "lib/write/copy.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);

const struct cmd cmd_copy_def = {
	.name = "copy",
	.fn = cmd_copy,
	.summary = "write the recording again as a sound perf.data, or a "
		   "slice of it",
	.help = "Usage: perfdump copy [OPTIONS] FILE -o OUT\n"
		"\n"
		"Write the recording FILE to OUT as a file-mode perf.data "
		"that perf\n"
		"reads: the header, the attrs with their ids, the records, "
		"and the\n"
		"feature sections, in FILE's byte order.  The copy is always "
		"repaired:\n"
		"only whole records that decode without an error are "
		"written, and the\n"
		"header's data size, feature bitmap and feature table match "
		"what is\n"
		"written, so a recording whose perf record was killed (data "
		"size 0, a\n"
		"torn last record, no feature table) becomes a file perf "
		"report reads\n"
		"without a warning.  Compressed records (perf record -z) are "
		"written\n"
		"decompressed (--compress: compressed anew); a pipe-mode "
		"recording is\n"
		"written as a file, its attrs and features (HEADER_ATTR, "
		"HEADER_FEATURE,\n"
		"tracing data, build-ids) in the header, as perf inject writes "
		"one.\n"
		"The features are copied as read, but for SAMPLE_TIME (the "
		"first and\n"
		"last sample written), and COMPRESSED, AUXTRACE (with AUX "
		"data: its\n"
		"file offsets) and damaged sections, left out.  With a filter, "
		"the\n"
		"samples that pass it are written, with what perf needs to "
		"read them:\n"
		"the attrs, perf's own records, and the MMAP, MMAP2, COMM, "
		"FORK, EXIT,\n"
		"NAMESPACES, KSYMBOL, BPF_EVENT, TEXT_POKE and CGROUP records "
		"of the\n"
		"process kept (--pid, --tid) and of the kernel, whatever their "
		"time.\n"
		"With --event, only the attrs of the events kept: the one "
		"named, "
		"those\n"
		"that ask for side-band records (perf record's tracking or "
		"dummy event)\n"
		"and the members of a group its samples read (:S), the named "
		"first;\n"
		"ID_INDEX, EVENT_UPDATE, STAT, EVENT_DESC and GROUP_DESC are "
		"written\n"
		"for them alone, and the notes name the events left out.\n"
		"A perf record --threads directory becomes one file, its "
		"records in\n"
		"time order.  With -o -, the copy is written in pipe mode (as "
		"perf\n"
		"record -o - writes it) on standard output, for perf report -i "
		"-;\n"
		"else the document on standard output tells what was written.\n"
		"With --redact (--redact-key, --redact=comm), the copy's "
		"strings are\n"
		"redacted where they lie: HOSTNAME, CMDLINE, an OSRELEASE "
		"that names\n"
		"the host, MMAP/MMAP2 and BUILD_ID file names, CGROUP paths, "
		"tracepoint\n"
		"string fields, and with --redact=comm the comms (COMM, "
		"saved cmdlines);\n"
		"build-ids, addresses and the samples' other bytes are "
		"kept (perfdump(1)).\n"
		"\n"
		"Exit status: 0 FILE was sound, 1 FILE was damaged and the "
		"copy\n"
		"repaired (what could be read is written), 2 usage error, 3 "
		"cannot\n"
		"read FILE or write OUT (OUT is then left as it was).  The "
		"copy "
		"goes to\n"
		"a temporary file beside OUT, renamed over it once complete; "
		"OUT is\n"
		"never FILE (by any name or link: exit status 2).\n"
		"\n"
		"Options:\n"
		"  -o, --output OUT     write the copy to OUT (required); -: "
		"pipe mode\n"
		"                       on standard output (not a terminal)\n"
		"      --force          replace OUT if it exists\n"
		"      --compress[=LEVEL]\n"
		"                       write the records compressed with "
		"zstd at LEVEL\n"
		"                       (1 to 22, default 1), as perf record "
		"-z does\n"
		"      --attr-size N    write every attr at N bytes (64, 72, "
		"80, 96, 104,\n"
		"                       112, 120, 128, 136 or 144), for an "
		"older perf\n"
		"                       that refuses larger ones (perf 6.1: "
		"128); refused\n"
		"                       when a field past N is "
		"set\n"
		"      --build-ids all|hit\n"
		"                       all (default): every HEADER_BUILD_ID "
		"entry; hit:\n"
		"                       only those of the DSOs a written "
		"sample hits\n"
		"  -J, --jobs N         decode and check the records on N "
		"threads (the\n"
		"                       same copy; --redact: one "
		"thread)\n" FILTER_OPTS_HELP
		"  -j, --json           write JSON\n"
		"  -p, --pretty         write indented JSON\n"
		"  -h, --help           show this help\n",
	.setup = CMD_TORN | CMD_FEATURE_DEPS | CMD_EVLIST,
	.load = load,
	.show = show,
};

enum {
	OPT_FORCE = 256,
	OPT_COMPRESS,
	OPT_ATTR_SIZE,
	OPT_BUILD_IDS,
	OPT_EVENT, /* in filter_opt's order */
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_TIME,
};

struct copy_cmd {
	struct redactor *red; /* --redact: the run's redactor */
	struct redact_argv argv;
	const char *out;
	bool force;
	bool pipe;	    /* -o -: pipe mode on standard output */
	int compress;	    /* --compress's level, 0: none */
	uint32_t attr_size; /* --attr-size, 0: the recording's */
	bool build_ids_hit; /* --build-ids hit */
	struct pd_filter f;
	bool filtered;
	struct pd_copy_result res;
};

/* --compress[=LEVEL]: perf record -z's default level is 1 */
static int compress_opt(struct copy_cmd *cc, const char *arg)
{
	char *end;
	long v;

	if (!arg) {
		cc->compress = 1;
		return 0;
	}
	v = strtol(arg, &end, 10);
	if (end == arg || *end || v < PD_COPY_ZLEVEL_MIN ||
	    v > PD_COPY_ZLEVEL_MAX) {
		usage_error("copy: --compress=%s: a zstd level from %d to %d",
			    arg, PD_COPY_ZLEVEL_MIN, PD_COPY_ZLEVEL_MAX);
		return -1;
	}
	cc->compress = (int)v;
	return 0;
}

/* --attr-size N: one of the published perf_event_attr sizes */
static int attr_size_opt(struct copy_cmd *cc, const char *arg)
{
	char list[128];
	size_t n = 0;
	char *end;
	long v = strtol(arg, &end, 10);

	for (const uint32_t *p = pd_copy_attr_sizes; *p; p++) {
		if (end != arg && !*end && v == (long)*p) {
			cc->attr_size = *p;
			return 0;
		}
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%u",
				      p == pd_copy_attr_sizes ? "" : ", ", *p);
	}
	usage_error("copy: --attr-size %s: the size of a perf_event_attr "
		    "layout: %s",
		    arg, list);
	return -1;
}

static int handle(int opt, const char *arg, void *ctx)
{
	struct copy_cmd *cc = ctx;

	switch (opt) {
	case 'o': cc->out = arg; return 0;
	case OPT_FORCE: cc->force = true; return 0;
	case OPT_COMPRESS: return compress_opt(cc, arg);
	case OPT_ATTR_SIZE: return attr_size_opt(cc, arg);
	case OPT_BUILD_IDS:
		if (strcmp(arg, "all") && strcmp(arg, "hit")) {
			usage_error("copy: --build-ids %s: all or hit", arg);
			return -1;
		}
		cc->build_ids_hit = !strcmp(arg, "hit");
		return 0;
	default:
		cc->filtered = true;
		return filter_opt(&cc->f, "copy", opt - OPT_EVENT, arg) ? -1
									: 0;
	}
}

/* The writer's strings through the run's redactor (pd_copy_redact). */
static void redact_cb(void *ctx, enum pd_copy_str k, unsigned argi,
		      const struct pd_tp_field *tp, const char *s, size_t n,
		      const char **out, size_t *outlen)
{
	static const enum pd_priv kind[] = {
		[PD_CSTR_PATH] = PRIV_PATH,
		[PD_CSTR_CGROUP] = PRIV_CGROUP,
		[PD_CSTR_HOST] = PRIV_HOST,
		[PD_CSTR_COMM] = PRIV_COMM,
	};
	struct copy_cmd *cc = ctx;

	if (k == PD_CSTR_TP) {
		redact_str(cc->red, tp_str_kind(tp), s, n, out, outlen);
		return;
	}
	if (k != PD_CSTR_ARG) {
		redact_str(cc->red, kind[k], s, n, out, outlen);
		return;
	}
	if (argi == 0)
		memset(&cc->argv, 0, sizeof(cc->argv));
	redact_arg(cc->red, redact_argv_next(&cc->argv, s, n), s, n, out,
		   outlen);
}

/*
 * The copy, written before the document starts: to a temporary file
 * beside OUT, renamed over it once complete (outfile.h), so a failed copy
 * leaves an existing OUT as it was.  OUT exists: --force replaces it.
 */
static int load(struct cmd_run *r)
{
	struct copy_cmd *cc = r->ctx;
	struct pd_copy_redact red = {.str = redact_cb, .ctx = cc};
	struct pd_copy_opts co = {.filter = cc->filtered ? &cc->f : NULL,
				  .pipe = cc->pipe,
				  .compress = cc->compress,
				  .attr_size = cc->attr_size,
				  .build_ids_hit = cc->build_ids_hit,
				  .jobs = opts_jobs(r->o),
				  .batch_bytes = r->o->read.batch_bytes,
				  .redact = r->o->red ? &red : NULL};
	const char *path = cc->pipe ? NULL : cc->out;
	struct pd_outfile out;
	struct stat st;
	char err[PATH_MAX + 200];
	int rc;

	cc->red = r->o->red;
	if (cc->filtered && (rc = filter_check_event("copy", &cc->f, r->s)))
		return rc;
	if (path && !cc->force && lstat(path, &st) == 0) {
		fprintf(stderr,
			"perfdump: copy: %s exists; --force replaces it\n",
			cc->out);
		return EXIT_IO;
	}
	rc = pd_outfile_open(&out, path, true, err, sizeof(err));
	if (rc != PD_OUT_OK) {
		fprintf(stderr, "perfdump: copy: %s\n", err);
		return rc == PD_OUT_IO ? EXIT_IO : EXIT_USAGE;
	}
	if (pd_copy(r->s, fileno(out.f), &co, &cc->res) < 0) {
		fprintf(stderr, "perfdump: copy: %s: %s\n",
			cc->res.err ? cc->out : r->o->file, cc->res.why);
		pd_outfile_abort(&out);
		return EXIT_IO;
	}
	if (pd_outfile_commit(&out, err, sizeof(err)) != PD_OUT_OK) {
		fprintf(stderr, "perfdump: copy: %s\n", err);
		return EXIT_IO;
	}
	return 0;
}

static void show(struct cmd_run *r)
{
	struct copy_cmd *cc = r->ctx;

	if (!cc->pipe) /* -o -: the copy is the output */
		emit_copy(r->e, cc->out, &cc->res);
}

int cmd_copy(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"force", no_argument, NULL, OPT_FORCE},
		{"compress", optional_argument, NULL, OPT_COMPRESS},
		{"attr-size", required_argument, NULL, OPT_ATTR_SIZE},
		{"build-ids", required_argument, NULL, OPT_BUILD_IDS},
		{"event", required_argument, NULL, OPT_EVENT},
		{"pid", required_argument, NULL, OPT_PID},
		{"tid", required_argument, NULL, OPT_TID},
		{"cpu", required_argument, NULL, OPT_CPU},
		{"time", required_argument, NULL, OPT_TIME},
		{NULL, 0, NULL, 0},
	};
	struct copy_cmd cc = {.f = PD_FILTER_ALL};
	char err[PATH_MAX + 200];
	int first, rc;

	rc = parse_cmd_opts(&cmd_copy_def, o, argc, argv, "o:", longopts,
			    handle, &cc, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	if (!cc.out) {
		usage_error(
			"copy: -o OUT: where to write the copy is required");
		return EXIT_USAGE;
	}
	if (argc - first != 1) {
		usage_error("copy: one FILE to copy, not %d", argc - first);
		return EXIT_USAGE;
	}
	take_file_arg(o, argc, argv, first);
	if (!strcmp(cc.out, "-")) {
		/* the copy is standard output: no document beside it */
		struct cmd def = cmd_copy_def;

		/* perfdump copy F -o - >> F would read what it writes */
		if (pd_outfile_check(NULL, (const char *const *)o->files, 1,
				     err, sizeof(err)) != PD_OUT_OK) {
			fprintf(stderr, "perfdump: copy: %s\n", err);
			return EXIT_USAGE;
		}

		def.setup |= CMD_OWN_OUTPUT;
		cc.pipe = true;
		return cmd_run(&def, o, &cc);
	}
	if (pd_outfile_check(cc.out, (const char *const *)o->files, 1, err,
			     sizeof(err)) != PD_OUT_OK) {
		fprintf(stderr, "perfdump: copy: %s\n", err);
		return EXIT_USAGE;
	}
	return cmd_run(&cmd_copy_def, o, &cc);
}
