/* SPDX-License-Identifier: MIT */
/* What main.c and the subcommands share. */
#ifndef PERFDUMP_H
#define PERFDUMP_H

#include <stdbool.h>

#include "lib/session.h"
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
	const char *file; /* default ./perf.data */
	bool quiet;	  /* no messages on stderr (the fuzz target) */
};

struct cmd {
	const char *name;
	int (*fn)(struct opts *o, int argc, char **argv);
	const char *summary;
	const char *help; /* full text for `perfdump help CMD` */
};

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
 * The FILE operand left in argv[first..argc) after the options: at most
 * one, into o->file.  Prints the usage error and returns -1 for more.
 */
int take_file_arg(const struct cmd *c, struct opts *o, int argc, char **argv,
		  int first);

/* Open the recording; prints the error and returns EXIT_IO if it fails. */
int open_session(struct pd_session *s, const struct opts *o);

/* Print errors to stderr as "perfdump: FILE: 0xOFF: what: detail". */
void print_diag(const struct pd_diag *d, void *opts);

struct emitter *start_output(const struct opts *o, const char *file);
/* Finish the document; returns the exit status for the session. */
int finish_output(struct emitter *e, const struct pd_session *s);

void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* -j -p -x -h -V, shared by main() and every command. */
extern const struct option *const global_long;
/* Apply -j, -p or -x to o: 1 if opt was one of them, else 0. */
int global_opt(int opt, struct opts *o);

int cmd_header(struct opts *o, int argc, char **argv);
int cmd_features(struct opts *o, int argc, char **argv);
int cmd_attrs(struct opts *o, int argc, char **argv);
int cmd_records(struct opts *o, int argc, char **argv);
int cmd_stats(struct opts *o, int argc, char **argv);
int cmd_check(struct opts *o, int argc, char **argv);
int cmd_buildids(struct opts *o, int argc, char **argv);

extern const struct cmd cmd_header_def, cmd_features_def, cmd_records_def;
extern const struct cmd cmd_attrs_def, cmd_stats_def, cmd_check_def;
extern const struct cmd cmd_buildids_def;

#endif
