// SPDX-License-Identifier: MIT
/*
 * perfdump: dump and inspect Linux perf.data files.
 * Option parsing, the command table, exit status, and the stdout check.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfdump.h"
#include "lib/base/util.h"

static const struct cmd *const commands[] = {
	&cmd_summary_def, &cmd_header_def, &cmd_features_def, &cmd_attrs_def,
	&cmd_records_def, &cmd_stats_def,  &cmd_check_def,    &cmd_buildids_def,
	&cmd_profile_def, &cmd_export_def, &cmd_copy_def,     &cmd_diff_def,
};
#define NCOMMANDS PD_NELEMS(commands)

static const char global_help[] =
	"Usage: perfdump [OPTIONS] COMMAND [COMMAND OPTIONS] [FILE...]\n"
	"       perfdump [OPTIONS] FILE...   (the summary)\n"
	"\n"
	"Dump and inspect Linux perf.data files.  FILE defaults to "
	"./perf.data;\n"
	"'-' reads standard input (pipe-mode data); a directory is read as "
	"one\n"
	"recording (perf record --threads); a FILE compressed with zstd, xz "
	"or\n"
	"gzip is read as the recording inside it.  Several FILEs are shown "
	"one\n"
	"after another (JSON: one document each, one per line with -j).  A "
	"first\n"
	"argument that is not a command (nor an unambiguous prefix of one) "
	"but an\n"
	"existing file, a directory or '-' is shown as 'perfdump summary "
	"FILE';\n"
	"a command name wins: write ./NAME for a file named like one.  An "
	"option\n"
	"value that is one of a few names (profile --by, records --type "
	"and\n"
	"--order, --redact=) may be an unambiguous prefix too (--by func).\n"
	"\n"
	"Commands:\n"
	"%s"
	"  help [COMMAND]  show this help, or a command's\n"
	"\n"
	"Options (before or after the command):\n"
	"  -j, --json      write JSON\n"
	"  -p, --pretty    write indented JSON (implies --json)\n"
	"  -x, --hex       add hex dumps of the raw bytes of each structure\n"
	"                  (header, features, attrs, records)\n"
	"      --redact[=comm]\n"
	"                  replace host names, private paths and arguments "
	"(and,\n"
	"                  with =comm, process names) by stable tokens, for "
	"bug\n"
	"                  reports; perfdump(1) REDACTION says what is "
	"replaced\n"
	"      --redact-key KEY\n"
	"                  --redact, with tokens from a keyed hash of KEY: "
	"the same\n"
	"                  string gets the same token in every run\n"
	"  -J, --jobs N    decode and format on N threads (default: the "
	"online\n"
	"                  CPUs; 1: one thread); the output is the same "
	"byte for\n"
	"                  byte.  records, copy, profile and export "
	"only, for now\n"
	"                  (see their --help)\n"
	"      --no-progress  no progress line on stderr (shown on a terminal\n"
	"                  after a second of reading)\n"
	"  -h, --help      show help\n"
	"  -V, --version   show the version\n"
	"\n"
	"Exit status: 0 the file is sound; 1 it is damaged (all that could be\n"
	"decoded was printed) or not a perf.data file (nothing is); 2 usage "
	"error;\n"
	"3 cannot read the input or write the output.  With several FILEs, "
	"the\n"
	"worst of them (3 over 1 over 0).\n"
	"A closed output pipe ends perfdump by SIGPIPE, as it does readelf.\n"
	"\n"
	"See perfdump(1).\n";

static void print_help(FILE *f)
{
	char list[2048] = "";
	size_t len = 0;

	for (size_t i = 0; i < NCOMMANDS; i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"  %-14s  %s\n", commands[i]->name,
					commands[i]->summary);
	fprintf(f, global_help, list);
}

/* The names a command word is looked up in: the commands, then "help". */
static const char *cmd_names[NCOMMANDS + 1];
static const struct choices cmd_choices = {
	.names = cmd_names,
	.n = NCOMMANDS + 1,
	.what = "command",
};

static void init_cmd_names(void)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		cmd_names[i] = commands[i]->name;
	cmd_names[NCOMMANDS] = "help";
}

/*
 * Could name be a recording to summarise: '-', a path that exists, or one
 * that cannot be looked up for another reason than its absence (EACCES:
 * the summary says why it cannot be read, exit status 3).
 */
static bool is_input(const char *name)
{
	struct stat st;

	return !strcmp(name, "-") || stat(name, &st) == 0 ||
	       (errno != ENOENT && errno != ENOTDIR);
}

/*
 * The first word after the global options: a command (or an unambiguous
 * prefix of one) wins; else an input names its summary (-2); else the
 * usage error says what is wrong and it is -1: a word near a command is
 * taken for a misspelt one, any other for a missing file too.  Returns
 * the index in cmd_names.
 */
static int first_word(const char *word)
{
	int i = choice_find(&cmd_choices, word);

	if (i >= 0)
		return i;
	if (is_input(word))
		return -2;
	if (i == CHOICE_NONE && !choice_near(&cmd_choices, word, NULL, 0))
		usage_error("'%s' is not a command, and no such file", word);
	else
		choice_usage_error(&cmd_choices, word, NULL);
	return -1;
}

/*
 * Flush stdout and turn a failed write into exit status 3 (git's rule).
 * A closed pipe kills the process with SIGPIPE before (as it does readelf
 * and perf); EPIPE comes only when SIGPIPE is ignored.
 */
static int check_stdout(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (errno == EPIPE)
		return EXIT_IO; /* the reader went away: say nothing */
	fprintf(stderr, "perfdump: cannot write output: %s\n", strerror(errno));
	return EXIT_IO;
}

/* The command line after the process is set up; o is the run's options. */
static int run(struct opts *o, int argc, char **argv)
{
	const struct cmd *c;
	int opt, i;

	opterr = 0;
	/* '+': the options before the command; ':' tells a missing value */
	while ((opt = getopt_long(argc, argv, "+:jpxhVJ:", global_long,
				  NULL)) != -1) {
		if ((i = global_opt(opt, o)) < 0)
			return EXIT_USAGE;
		if (i)
			continue;
		switch (opt) {
		case 'h': print_help(stdout); return check_stdout(EXIT_SOUND);
		case 'V':
			printf("perfdump %s\n", PERFDUMP_VERSION);
			return check_stdout(EXIT_SOUND);
		case ':':
			usage_error("option '%s' needs a value",
				    argv[optind - 1]);
			return EXIT_USAGE;
		default:
			usage_error("unknown option '%s'", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	/* a command name wins; else an existing file: its summary */
	i = first_word(argv[optind]);
	if (i == -2) /* argv[optind - 1]: argv[0] */
		return check_stdout(
			cmd_summary(o, argc - optind + 1, argv + optind - 1));
	if (i < 0)
		return EXIT_USAGE;
	if ((size_t)i == NCOMMANDS) { /* help [COMMAND] */
		if (optind + 1 >= argc) {
			print_help(stdout);
			return check_stdout(EXIT_SOUND);
		}
		i = choose(&cmd_choices, argv[optind + 1], NULL);
		if (i < 0)
			return EXIT_USAGE;
		if ((size_t)i == NCOMMANDS)
			print_help(stdout);
		else
			fputs(commands[i]->help, stdout);
		return check_stdout(EXIT_SOUND);
	}
	c = commands[i];
	return check_stdout(c->fn(o, argc - optind, argv + optind));
}

int main(int argc, char **argv)
{
	struct opts o = {.fmt = EMIT_TEXT, .file = "perf.data"};
	int rc;

	static char outbuf[1 << 16];

	init_cmd_names();
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/* one thread writes stdout: no per-call locking (glibc) */
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);

	rc = run(&o, argc, argv);
	redact_free(o.red);
	return rc;
}
