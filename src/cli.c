// SPDX-License-Identifier: MIT
/*
 * What every command shares: option parsing, the set-up the command
 * table asks for (opening the recording, the torn-recording scan, feature
 * dependencies, the evlist), starting and finishing the output, and error
 * messages.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/session/evlist.h"
#include "lib/analysis/rootpath.h"
#include "lib/session/torn.h"
#include "perfdump.h"

/* The command whose options are parsed: usage errors point to its help. */
static const char *usage_cmd;

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("perfdump: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (usage_cmd)
		fprintf(stderr, "\nTry 'perfdump help %s'.\n", usage_cmd);
	else
		fputs("\nTry 'perfdump --help'.\n", stderr);
}

/* long-only global options: above every command's own (256...) */
enum { OPT_NO_PROGRESS = 1000, OPT_REDACT, OPT_REDACT_KEY };
/* -J/--jobs: more threads than this are not made */
#define JOBS_MAX 256

static const struct option global_long_opts[] = {
	{"json", no_argument, NULL, 'j'},
	{"pretty", no_argument, NULL, 'p'},
	{"hex", no_argument, NULL, 'x'},
	{"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{"redact", optional_argument, NULL, OPT_REDACT},
	{"redact-key", required_argument, NULL, OPT_REDACT_KEY},
	{"jobs", required_argument, NULL, 'J'},
	{NULL, 0, NULL, 0},
};
const struct option *const global_long = global_long_opts;

/* --redact and --redact-key: the run's one redactor. */
static int redact_opt(int c, const char *arg, struct opts *o)
{
	static const char *const values[] = {"comm"};
	static const struct choices redact = {
		.names = values, .n = 1, .what = "value"};

	if (c == OPT_REDACT && arg && choose(&redact, arg, "--redact") < 0)
		return -1;
	if (!o->red && !(o->red = redact_new())) {
		fprintf(stderr, "perfdump: out of memory\n");
		return -1;
	}
	if (c == OPT_REDACT && arg)
		redact_set_comm(o->red, true);
	if (c == OPT_REDACT_KEY)
		redact_set_key(o->red, arg);
	return 1;
}

unsigned opts_jobs(const struct opts *o)
{
	long n;

	if (o->jobs)
		return o->jobs;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (unsigned)n;
}

/* 1: handled (-j -p -x --no-progress --redact...), 0: not a global option,
 * -1: a usage error. */
int global_opt(int c, struct opts *o)
{
	switch (c) {
	case 'j':
		if (o->fmt == EMIT_TEXT)
			o->fmt = EMIT_JSON;
		return 1;
	case 'p': o->fmt = EMIT_JSON_PRETTY; return 1;
	case 'x': o->hex = true; return 1;
	case 'J': {
		uint64_t n;

		if (opt_number("--jobs", optarg, 10, JOBS_MAX,
			       "a thread count (1 or more)", &n) < 0)
			return -1;
		if (!n) {
			usage_error("--jobs: a thread count (1 or more)");
			return -1;
		}
		o->jobs = (unsigned)n;
		return 1;
	}
	case OPT_NO_PROGRESS: o->no_progress = true; return 1;
	case OPT_REDACT:
	case OPT_REDACT_KEY: return redact_opt(c, optarg, o);
	}
	return 0;
}

int parse_cmd_opts(const struct cmd *c, struct opts *o, int argc, char **argv,
		   const char *extra_short, const struct option *extra_long,
		   int (*handle)(int opt, const char *arg, void *ctx),
		   void *ctx, int *first)
{
	struct option longopts[64];
	char shortopts[64];
	size_t n = 0;
	int opt, rc;

	for (const struct option *l = global_long; l->name; l++)
		longopts[n++] = *l;
	for (const struct option *l = extra_long; l && l->name && n < 63; l++)
		longopts[n++] = *l;
	memset(&longopts[n], 0, sizeof(longopts[n]));
	/*
	 * no '+': options may follow FILE (perfdump header perf.data -j);
	 * ':' first: a missing value is told from an unknown option
	 */
	snprintf(shortopts, sizeof(shortopts), ":jpxhVJ:%s",
		 extra_short ? extra_short : "");

	usage_cmd = c->name;
	optind = 0; /* 0, not 1: glibc re-initialises (permutation) */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) !=
	       -1) {
		if ((rc = global_opt(opt, o)) < 0)
			return -1;
		if (rc)
			continue;
		if (opt == 'h') {
			fputs(c->help, stdout);
			return 1;
		}
		if (opt == 'V') {
			printf("perfdump %s\n", PERFDUMP_VERSION);
			return 1;
		}
		if (opt == ':') {
			usage_error("%s: option '%s' needs a value", c->name,
				    argv[optind - 1]);
			return -1;
		}
		if (opt == '?') {
			if (optopt)
				usage_error("%s: unknown option '-%c'", c->name,
					    optopt);
			else
				usage_error("%s: unknown option '%s'", c->name,
					    argv[optind - 1]);
			return -1;
		}
		if (!handle || handle(opt, optarg, ctx) < 0)
			return -1;
	}
	*first = optind;
	return 0;
}

static void put_file(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, ctx);
}

/*
 * A message on stderr follows the text output's escaping rule too, and
 * --redact's rule for the kind of string (the input's name is a path).
 */
static void escaped_as(FILE *f, const struct opts *o, enum pd_priv kind,
		       const char *s)
{
	size_t n = strlen(s);

	if (o->red)
		redact_str(o->red, kind, s, n, &s, &n);
	text_escape(s, n, false, put_file, f);
}

void print_escaped(FILE *f, const struct opts *o, const char *s)
{
	escaped_as(f, o, PRIV_NONE, s);
}

void print_diag(const struct pd_diag *d, void *opts)
{
	const struct opts *o = opts;

	if (d->sev != PD_ERR || o->quiet)
		return;
	fflush(stdout); /* keep stdout and stderr in order on a terminal */
	progress_hold();
	fputs("perfdump: ", stderr);
	escaped_as(stderr, o, PRIV_PATH, o->file);
	fputs(": ", stderr);
	if (d->offset != PD_NO_OFFSET)
		fprintf(stderr, "0x%llx: ", (unsigned long long)d->offset);
	escaped_as(stderr, o, PRIV_NONE, d->what ? d->what : "");
	fputs(": ", stderr);
	escaped_as(stderr, o, PRIV_NONE, d->detail ? d->detail : "");
	fputc('\n', stderr);
	progress_release();
}

/* Flush the output; a write error ends the run (git's rule). */
static void flush_or_exit(struct cli_out *out)
{
	int rc = out->e ? emit_flush(out->e) : fflush(stdout);

	if (rc != 0 || ferror(stdout)) {
		int e = errno;

		progress_stop();
		if (e != EPIPE && !out->o->quiet)
			fprintf(stderr, "perfdump: cannot write output: %s\n",
				strerror(e));
		exit(EXIT_IO);
	}
}

/* A diagnostic on stderr, after the output written before it. */
static void diag_hook(const struct pd_diag *d, void *arg)
{
	struct cli_out *out = arg;

	if (d->sev == PD_ERR && !out->o->quiet && out->e)
		emit_flush(out->e);
	print_diag(d, (void *)out->o);
}

/*
 * Before a read from a stream (standard input, a FIFO): the output goes
 * out when the reader would wait for more input, so records show as they
 * arrive; and a closed output ends the run (an endless stream would else
 * be read for nothing).
 */
static void before_read(void *arg, bool wait)
{
	struct cli_out *out = arg;

	if (wait || ferror(stdout))
		flush_or_exit(out);
}

/* Open the recording; prints the error and returns EXIT_IO if it fails. */
static int open_session(struct pd_session *s, struct cli_out *out, bool hook,
			struct pd_input_count *count)
{
	const struct opts *o = out->o;
	char err[512];

	if (pd_session_open(s, o->file, &o->read, hook ? diag_hook : NULL,
			    hook ? (void *)out : NULL, count, err,
			    sizeof(err)) < 0) {
		if (!o->quiet) {
			progress_hold();
			fputs("perfdump: ", stderr);
			escaped_as(stderr, o, PRIV_PATH, o->file);
			fputs(": ", stderr);
			escaped_as(stderr, o, PRIV_NONE, err);
			fputc('\n', stderr);
			progress_release();
		}
		return EXIT_IO;
	}
	s->in.before_read = before_read;
	s->in.read_arg = out;
	return 0;
}

static struct emitter *start_output(const struct opts *o, const char *file,
				    bool one_line)
{
	struct emitter *e = emit_new(stdout, o->fmt, o->hex);

	if (!e) {
		fprintf(stderr, "perfdump: out of memory\n");
		exit(EXIT_IO);
	}
	emit_set_redact(e, o->red);
	if (one_line)
		emit_doc_begin_line(e, file);
	else
		emit_doc_begin(e, file);
	return e;
}

/* Finish the document; returns the exit status for the diagnostics d. */
static int finish_output(struct emitter *e, const struct pd_diags *d, bool text)
{
	if (!text) /* JSON only: the command's text listed them */
		emit_text_hide(e, true);
	emit_diags(e, d);
	if (!text)
		emit_text_hide(e, false);
	emit_doc_end(e);
	if (!emit_free(e)) {
		fprintf(stderr, "perfdump: internal error: unbalanced output "
				"nesting\n");
		return EXIT_IO;
	}
	return d->nerr ? EXIT_DAMAGED : EXIT_SOUND;
}

/*
 * An input that is not a recording (s->not_perf_data): the open said so
 * on stderr, and there is no model to show.  As readelf does with a file
 * that is not ELF, text writes nothing (nor CSV); JSON the document with
 * the command's key null and the error; JSON lines the preamble and the
 * error line.  Exit status 1.
 */
static int show_not_perf_data(const struct cmd *c, const struct opts *o,
			      const struct pd_session *s)
{
	struct emitter *e;

	if (o->fmt == EMIT_TEXT || o->fmt == EMIT_CSV)
		return EXIT_DAMAGED;
	e = start_output(o, o->file, false);
	if (o->fmt != EMIT_JSON_LINES)
		emit_null(e, c->name);
	return finish_output(e, &s->diags, false);
}

/* CMD_OWN_OUTPUT: the warnings on stderr after the output (the errors
 * were said as they happened), as print_diag says errors. */
static void print_warnings(const struct opts *o, const struct pd_diags *d)
{
	if (o->quiet)
		return;
	progress_hold();
	for (size_t i = 0; i < d->n; i++) {
		const struct pd_diag *g = &d->v[i];

		if (g->sev == PD_ERR)
			continue;
		fputs("perfdump: ", stderr);
		escaped_as(stderr, o, PRIV_PATH, o->file);
		fputs(": warning: ", stderr);
		if (g->offset != PD_NO_OFFSET)
			fprintf(stderr,
				"0x%llx: ", (unsigned long long)g->offset);
		escaped_as(stderr, o, PRIV_NONE, g->what ? g->what : "");
		fputs(": ", stderr);
		escaped_as(stderr, o, PRIV_NONE, g->detail ? g->detail : "");
		fputc('\n', stderr);
	}
	progress_release();
}

/* CMD_OWN_OUTPUT: show writes its output itself; the exit status is the
 * worst of its own and the diagnostics'. */
static int run_own_output(const struct cmd *c, struct cmd_run *r)
{
	int rc;

	c->show(r);
	progress_stop();
	print_warnings(r->o, r->diags);
	rc = r->diags->nerr ? EXIT_DAMAGED : EXIT_SOUND;
	return r->rc > rc ? r->rc : rc;
}

/* What c->setup asks for, after the open. */
static void setup_session(const struct cmd *c, struct pd_session *s)
{
	if (c->setup & CMD_WHOLE_STREAM)
		pd_session_read_all(s);
	if (c->setup & CMD_TORN)
		pd_note_torn(s);
	if (c->setup & CMD_FEATURE_DEPS)
		pd_decode_feature_deps(s);
	for (size_t i = 0; c->decode && i < s->nfeat; i++)
		for (const unsigned *id = c->decode; *id; id++)
			if (s->feat[i].id == *id)
				pd_decode_feature(s, &s->feat[i]);
	if (c->setup & CMD_EVLIST)
		pd_evlist_load(s);
}

int cmd_input_open(const struct cmd *c, const struct opts *o, const char *file,
		   struct cmd_input *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	in->o = *o;
	in->o.file = file;
	in->out.o = &in->o;
	rc = open_session(&in->s, &in->out, !(c->setup & CMD_NO_DIAG_HOOK),
			  NULL);
	if (rc)
		return rc;
	in->open = true;
	if (!in->s.not_perf_data)
		setup_session(c, &in->s);
	return 0;
}

void cmd_input_close(struct cmd_input *in)
{
	if (in->open)
		pd_session_close(&in->s);
	in->open = false;
}

/*
 * One FILE: open it, set up what c needs, load, show, finish.  Returns its
 * exit status; *sep: a text document was written before (a blank line
 * goes between two), and is now.
 */
static int run_file(const struct cmd *c, const struct opts *o, void *ctx,
		    bool *sep)
{
	struct pd_session s;
	struct pd_input_count count = {0};
	struct cmd_run r = {.o = o, .s = &s, .ctx = ctx, .text_diags = true};
	struct cli_out out = {.o = o};
	int rc;

	progress_start(o, o->file, &count);
	rc = open_session(&s, &out, !(c->setup & CMD_NO_DIAG_HOOK), &count);
	if (rc) {
		progress_stop();
		return rc;
	}
	if (s.not_perf_data && !(c->setup & CMD_NOT_PERF_DATA)) {
		progress_stop();
		rc = show_not_perf_data(c, o, &s);
		pd_session_close(&s);
		return rc;
	}
	setup_session(c, &s);
	r.diags = &s.diags;
	if (c->load && (rc = c->load(&r))) {
		progress_stop();
		pd_session_close(&s);
		return rc;
	}
	if (c->setup & CMD_OWN_OUTPUT) {
		rc = run_own_output(c, &r);
		if (c->done)
			c->done(&r);
		pd_session_close(&s);
		return rc;
	}
	/* the output shows how far a command is on the terminal */
	if (isatty(STDOUT_FILENO))
		progress_stop();
	if (*sep && o->fmt == EMIT_TEXT && !r.text_one_line)
		putchar('\n');
	*sep = o->fmt == EMIT_TEXT && !r.text_one_line;
	r.e = out.e = start_output(o, o->file, r.text_one_line);
	c->show(&r);
	out.e = NULL;
	rc = finish_output(r.e, r.diags, r.text_diags);
	progress_stop();
	if (c->done)
		c->done(&r);
	pd_session_close(&s);
	return rc;
}

/*
 * The reading choices the environment makes: the one place perfdump reads
 * it (the parser reads none).  $TMPDIR, perf's $PERF_BUILDID_DIR and
 * $HOME (tools/perf/util/config.c: perf_buildid_dir's default
 * "$HOME/.debug"), and the PERFDUMP_* testing aids.  Read at each run, as
 * the fuzz targets change them between runs.
 */
static void read_env(struct pd_read_opts *ro)
{
	static char home_debug[PATH_MAX];
	const char *v;

	memset(ro, 0, sizeof(*ro));
	v = getenv("PERFDUMP_READER");
	if (v && strcmp(v, "plain") == 0)
		ro->ahead = PD_READAHEAD_NEVER;
	else if (v && strcmp(v, "fast") == 0)
		ro->ahead = PD_READAHEAD_ALWAYS;
	v = getenv("PERFDUMP_PROFILE_ADDRS");
	ro->profile_addrs = v && *v ? strtoul(v, NULL, 10) : 0;
	v = getenv("PERFDUMP_NO_OPENAT2");
	ro->no_openat2 = v && *v;
	ro->tmpdir = getenv("TMPDIR");
	v = getenv("PERFDUMP_KERNEL_NOTES");
	ro->kernel_notes = v && *v ? v : NULL;
	v = getenv("PERFDUMP_PROC_KALLSYMS");
	ro->proc_kallsyms = v && *v ? v : NULL;
	v = getenv("PERFDUMP_BATCH_BYTES");
	ro->batch_bytes = v && *v ? strtoul(v, NULL, 10) : 0;
	v = getenv("PERF_BUILDID_DIR");
	if (v && *v)
		ro->buildid_dir = v;
	else if ((v = getenv("HOME")) && *v &&
		 (size_t)snprintf(home_debug, sizeof(home_debug), "%s/.debug",
				  v) < sizeof(home_debug))
		ro->buildid_dir = home_debug;
}

int cmd_prepare(const struct cmd *c, const struct opts *o, struct opts *fo)
{
	*fo = *o;
	read_env(&fo->read);
	/* a choice for the whole process (rootpath.h) */
	pd_root_use_openat2(!fo->read.no_openat2);

	if (o->hex && o->red) {
		usage_error("%s: -x cannot be used with --redact: hex dumps "
			    "show the bytes --redact replaces",
			    c->name);
		return EXIT_USAGE;
	}
	if (o->hex && !(c->setup & CMD_HEX)) {
		usage_error("%s: -x: %s shows no structure's raw bytes, so "
			    "there is nothing to dump (header, features, "
			    "attrs and records have -x)",
			    c->name, c->name);
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_run(const struct cmd *c, const struct opts *o, void *ctx)
{
	struct opts fo;
	int worst = cmd_prepare(c, o, &fo);
	bool sep = false;

	if (worst)
		return worst;
	for (int i = 0; i < (o->nfiles ? o->nfiles : 1); i++) {
		if (o->nfiles)
			fo.file = o->files[i];
		int rc = run_file(c, &fo, ctx, &sep);

		/* the worst status: 3 (unreadable) > 1 (damaged) > 0 */
		if (rc > worst)
			worst = rc;
	}
	return worst;
}

void take_file_arg(struct opts *o, int argc, char **argv, int first)
{
	o->files = argv + first;
	o->nfiles = argc - first;
}
