/* SPDX-License-Identifier: MIT */
/* What main.c and the subcommands share. */
#ifndef PERFDUMP_H
#define PERFDUMP_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/analysis/profile.h"
#include "lib/session/session.h"
#include "fmt/emit.h"

#define PERFDUMP_VERSION "0.1.0"

/* Exit status (DESIGN.md "Errors and exit status"). */
enum {
	EXIT_SOUND = 0,	  /* read, and sound */
	EXIT_DAMAGED = 1, /* damaged or partly unreadable; all else shown */
	EXIT_USAGE = 2,
	EXIT_IO = 3, /* cannot open the input or write the output */
};

/* Global options, passed to every command (no option globals). */
struct opts {
	enum emit_format fmt;
	bool hex;
	bool no_progress; /* --no-progress */
	const char *file; /* the FILE being read; default ./perf.data */
	char **files;	  /* the FILE operands (take_file_arg), or none */
	int nfiles;
	bool quiet; /* no messages on stderr (the fuzz target) */
	/* -J/--jobs N: decode on N threads (0: the online CPUs) */
	unsigned jobs;
	/* --redact (--redact=comm, --redact-key): one for the whole run,
	 * so a string gets the same token in every file; NULL: off */
	struct redactor *red;
	/* how the recordings are read: cmd_run fills it from the
	 * environment (read_env), the one place that reads it */
	struct pd_read_opts read;
};

/*
 * What a command needs set up before it runs, in this order (cmd_run()):
 * the recording is always opened; then these.
 */
enum cmd_setup {
	/* open without the stderr hook: the command prints its own errors
	 * once it has classified them (check) */
	CMD_NO_DIAG_HOOK = 1u << 0,
	/* data.size 0: where the records end, and why (pd_note_torn) */
	CMD_TORN = 1u << 1,
	/* the features others depend on (pd_decode_feature_deps) */
	CMD_FEATURE_DEPS = 1u << 2,
	/* attrs, ids and event names (pd_evlist_load) */
	CMD_EVLIST = 1u << 3,
	/* a pipe stream read as it arrives: read it to its end first, for
	 * the whole session (pd_session_read_all) */
	CMD_WHOLE_STREAM = 1u << 4,
	/* -x adds raw bytes to what it shows (without: -x is refused) */
	CMD_HEX = 1u << 5,
	/* runs on an input that is not a recording too (check: that is
	 * its finding); the others show no model of one (run_file) */
	CMD_NOT_PERF_DATA = 1u << 6,
	/*
	 * the command writes its own output (export: a file format, not a
	 * document): no emitter; errors go to stderr as they happen, the
	 * warnings after show, and show's rc joins the exit status
	 */
	CMD_OWN_OUTPUT = 1u << 7,
};

/* What cmd_run() hands a command's steps. */
struct cmd_run {
	const struct opts *o;
	struct pd_session *s;
	struct emitter *e; /* NULL in load: the output has not started */
	void *ctx;	   /* the command's options and model */
	/*
	 * The diagnostics the document ends with and whose errors make the
	 * exit status 1: s->diags, unless load points it elsewhere (check's
	 * findings).  text_diags false: JSON only (text listed them).
	 */
	const struct pd_diags *diags;
	bool text_diags;
	/* Set by load: the text document is one line, "FILE: value", the
	 * value being the first the command shows (check --brief). */
	bool text_one_line;
	/* CMD_OWN_OUTPUT: the exit status show says (0: as the diagnostics
	 * say) */
	int rc;
};

struct cmd {
	const char *name;
	/* Options into the command's own struct, then cmd_run(). */
	int (*fn)(struct opts *o, int argc, char **argv);
	const char *summary;
	const char *help; /* full text for `perfdump help CMD` */
	unsigned setup;	  /* enum cmd_setup */
	/* Features to decode after the dependencies (0 ends the list). */
	const unsigned *decode;
	/* Parser: build the model before the output starts (may be NULL).
	 * Returns 0, or an exit status to stop with (nothing written). */
	int (*load)(struct cmd_run *r);
	/* Formatters: write the model through r->e. */
	void (*show)(struct cmd_run *r);
	/* Free the model (may be NULL). */
	void (*done)(struct cmd_run *r);
};

/*
 * For each FILE (o->files, or o->file when there is none), as readelf
 * takes several: set up what c->setup asks for, run c's load and show
 * with ctx, and finish its document (text: under its own "File:" line;
 * JSON: one document each).  ctx is used again for each FILE: c's done
 * leaves it ready for the next.  Returns the worst exit status over the
 * FILEs: 3 (one could not be read) over 1 (damaged) over 0.
 */
int cmd_run(const struct cmd *c, const struct opts *o, void *ctx);

/*
 * What cmd_run() does before the FILEs: o with the environment's reading
 * choices (into fo), and the checks of -x and --redact.  0, or the exit
 * status of a usage error (said).
 */
int cmd_prepare(const struct cmd *c, const struct opts *o, struct opts *fo);

/* Where the output goes, for the hooks the session calls. */
struct cli_out {
	const struct opts *o;
	struct emitter *e; /* NULL until the output starts */
};

/*
 * A command that reads several FILEs at once (diff): each opened and set
 * up as c->setup asks, its messages naming it.  cmd_input_open returns 0,
 * or EXIT_IO (said) when it cannot be read; close it either way.  An
 * input that is not a recording is open, s.not_perf_data set (and said),
 * nothing set up.  in must stay where it is while open.
 */
struct cmd_input {
	struct opts o; /* the command's, with o.file this FILE */
	struct cli_out out;
	struct pd_session s;
	bool open;
};
int cmd_input_open(const struct cmd *c, const struct opts *o, const char *file,
		   struct cmd_input *in);
void cmd_input_close(struct cmd_input *in);

/*
 * Parse a command's options: the global ones (-j -p -x -h) are accepted
 * after the command too.  `extra` may add long options handled by
 * `handle`, which returns 0, or -1 for a usage error.  Leaves the
 * non-option arguments in argv[*first .. argc).
 */
struct option;
int parse_cmd_opts(const struct cmd *c, struct opts *o, int argc, char **argv,
		   const char *extra_short, const struct option *extra_long,
		   int (*handle)(int opt, const char *arg, void *ctx),
		   void *ctx, int *first);

/*
 * The FILE operands left in argv[first..argc) after the options, any
 * number, into o->files (none: o->file, ./perf.data).
 */
void take_file_arg(struct opts *o, int argc, char **argv, int first);

/*
 * Fixed choices (choice.c): the commands, and the option values that are
 * one of a few names.  A word is the name it equals, else the one name it
 * begins (an unambiguous prefix, "--by func"); one that begins several is
 * ambiguous; one that begins none is unknown, and the names at the least
 * edit distance from it, if near enough, are offered ("did you mean").
 */
#define CHOICES_MAX 128
struct choices {
	const char *const
		*names; /* n names (at most CHOICES_MAX); NULL: none */
	size_t n;
	bool icase;	  /* any case (record type names) */
	const char *what; /* in messages: "command", "value", "record type" */
	const char
		*also; /* after the list of all names, e.g. ", or a number" */
};
enum { CHOICE_NONE = -1, CHOICE_AMBIGUOUS = -2 };

/* The index of word's name, or CHOICE_NONE or CHOICE_AMBIGUOUS. */
int choice_find(const struct choices *c, const char *word);
/*
 * How many names are nearest word, if near enough (0: none is); the
 * indices of the first max of them into best (may be NULL).
 */
size_t choice_near(const struct choices *c, const char *word, size_t *best,
		   size_t max);
/*
 * The usage error for a word choice_find does not take: "CTX: ambiguous
 * WHAT 'w'; it could be: a b", "CTX: unknown WHAT 'w'; did you mean 'x'?"
 * or, with no name near, "CTX: unknown WHAT 'w'; WHATs are: a b cALSO".
 * ctx may be NULL.
 */
void choice_usage_error(const struct choices *c, const char *word,
			const char *ctx);
/* choice_find's index, or -1 after choice_usage_error. */
int choose(const struct choices *c, const char *word, const char *ctx);

/* A string from the recording in a message: escaped as the text output
 * escapes it (and redacted as --redact says). */
void print_escaped(FILE *f, const struct opts *o, const char *s);

/* Print errors to stderr as "perfdump: FILE: 0xOFF: what: detail". */
void print_diag(const struct pd_diag *d, void *opts);

/*
 * --symfs, --debug-dir, --vmlinux, --kallsyms, --no-demangle and
 * --strict-build-ids of records and profile (symopts.c): a command gives
 * them option values in this order from its first, and sym_where_opt()
 * takes each (o: the value - first; false: not one of them);
 * sym_where_check() says when both --vmlinux and --kallsyms are given
 * (-1, said); sym_where_default()
 * puts perf's build-id cache where no --debug-dir was given, and the
 * running kernel's files of the testing aids.
 */
enum sym_opt {
	SYM_OPT_SYMFS,
	SYM_OPT_DEBUG_DIR,
	SYM_OPT_VMLINUX,
	SYM_OPT_KALLSYMS,
	SYM_OPT_NO_DEMANGLE,
	SYM_OPT_STRICT_BUILD_IDS,
};
/* A command's option values for them: OPT_SYMFS and the five after it,
 * in enum sym_opt's order (in the command's enum of options) */
#define SYM_WHERE_OPT_VALUES \
	OPT_SYMFS, OPT_SYMFS_LAST = OPT_SYMFS + SYM_OPT_STRICT_BUILD_IDS
/* and their entries in its struct option table (getopt.h), one a line */
/* clang-format off */
#define SYM_WHERE_LONGOPTS \
	{"symfs", required_argument, NULL, OPT_SYMFS + SYM_OPT_SYMFS}, \
	{"debug-dir", required_argument, NULL, OPT_SYMFS + SYM_OPT_DEBUG_DIR}, \
	{"vmlinux", required_argument, NULL, OPT_SYMFS + SYM_OPT_VMLINUX}, \
	{"kallsyms", required_argument, NULL, OPT_SYMFS + SYM_OPT_KALLSYMS}, \
	{"no-demangle", no_argument, NULL, OPT_SYMFS + SYM_OPT_NO_DEMANGLE}, \
	{"strict-build-ids", no_argument, NULL, OPT_SYMFS + SYM_OPT_STRICT_BUILD_IDS}
/* clang-format on */
struct sym_where {
	struct pd_prof_where w;
	bool has_debug_dir;
};
bool sym_where_opt(struct sym_where *s, int o, const char *arg);
int sym_where_check(const char *cmd, const struct sym_where *s);
void sym_where_default(struct sym_where *s, const struct pd_session *ses);

/*
 * The record filters of records, export and copy (filteropts.c): --event,
 * --pid, --tid, --cpu and --time, given option values in this order from
 * a command's first, as the symbol options.  filter_opt() takes one into
 * f (o: the value - first): 0, -1 after a usage error ("CMD: --pid: ..."),
 * 1 when o is not one of them.  filter_check_event(): 0, or EXIT_USAGE
 * (said, with the recording's events) when --event names none of them.
 * FILTER_OPTS_HELP: their lines of --help in records and copy.
 */
enum filter_opt_id {
	FILTER_OPT_EVENT,
	FILTER_OPT_PID,
	FILTER_OPT_TID,
	FILTER_OPT_CPU,
	FILTER_OPT_TIME,
};
struct pd_filter;
int filter_opt(struct pd_filter *f, const char *cmd, int o, const char *arg);
int filter_check_event(const char *cmd, const struct pd_filter *f,
		       const struct pd_session *s);
#define FILTER_OPTS_HELP                                                     \
	"      --event NAME     only records of this event: its name as "    \
	"given\n"                                                            \
	"                       to perf record -e, with or without "         \
	"modifiers\n"                                                        \
	"                       (:u, :ppp) and system: (sched:), or attrN\n" \
	"      --pid PID        only records of this process (-1 too)\n"     \
	"      --tid TID        only records of this thread (-1 too)\n"      \
	"      --cpu CPU        only records of this CPU\n"                  \
	"      --time START,END only records in this time span, in "         \
	"seconds as\n"                                                       \
	"                       perf prints them; as perf --time: "          \
	"START, from\n"                                                      \
	"                       START on, ,END up to END\n"

/*
 * A number option's value (optnum.c): digits as strtoull reads them in
 * `base` (0: 0x hex as well), no sign or blank, at most max.  opt_number
 * says otherwise as a usage error, "WHERE: 'ARG' is not WANT" (WHERE:
 * "stats: --top"), and returns -1; 0 when *v is set.
 */
#define OPT_COUNT "a count (a number, 0 or more)"
bool opt_u64(const char *arg, int base, uint64_t max, uint64_t *v);
/* -J/--jobs, or the online CPUs when not given */
unsigned opts_jobs(const struct opts *o);
int opt_number(const char *where, const char *arg, int base, uint64_t max,
	       const char *want, uint64_t *v);

/*
 * "perfdump: MESSAGE" on stderr, then where to read more: the help of the
 * command whose options are parsed, or the global help.
 */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The progress line (progress.c): while o's FILE is read, on stderr if it
 * is a terminal, after a second of work; erased and stopped by
 * progress_stop.  Around any other write to stderr meanwhile:
 * progress_hold (erases the line) and progress_release.
 */
struct pd_input_count;
void progress_start(const struct opts *o, const char *file,
		    struct pd_input_count *count);
void progress_stop(void);
void progress_hold(void);
void progress_release(void);

/*
 * -j -p -x --no-progress -h -V --redact --redact-key, shared by main() and
 * every command.
 */
extern const struct option *const global_long;
/*
 * Apply -j, -p, -x, --no-progress, --redact[=comm] or --redact-key (optarg)
 * to o: 1 if opt was one of them, 0 if not, -1 after a usage error.
 */
int global_opt(int opt, struct opts *o);

int cmd_header(struct opts *o, int argc, char **argv);
int cmd_features(struct opts *o, int argc, char **argv);
int cmd_attrs(struct opts *o, int argc, char **argv);
int cmd_records(struct opts *o, int argc, char **argv);
int cmd_stats(struct opts *o, int argc, char **argv);
int cmd_check(struct opts *o, int argc, char **argv);
int cmd_buildids(struct opts *o, int argc, char **argv);
int cmd_profile(struct opts *o, int argc, char **argv);
int cmd_summary(struct opts *o, int argc, char **argv);
int cmd_export(struct opts *o, int argc, char **argv);
int cmd_copy(struct opts *o, int argc, char **argv);
int cmd_diff(struct opts *o, int argc, char **argv);

extern const struct cmd cmd_header_def, cmd_features_def, cmd_records_def;
extern const struct cmd cmd_attrs_def, cmd_stats_def, cmd_check_def;
extern const struct cmd cmd_buildids_def, cmd_profile_def, cmd_summary_def;
extern const struct cmd cmd_export_def, cmd_copy_def;
extern const struct cmd cmd_diff_def;

#endif
