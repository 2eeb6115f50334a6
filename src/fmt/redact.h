/* SPDX-License-Identifier: MIT */
/*
 * --redact: the strings of a recording that identify a person or a
 * machine, replaced by stable tokens.  The emitter applies it where such
 * a string is written (emit_private(): formatters mark the kind of each
 * one), and to every other string the user-name rule; so a formatter
 * cannot show a path or a host name without going through it.  perfdump(1)
 * REDACTION lists what is and is not redacted.
 *
 * Tokens: without a key, "<KIND-N>", N counting the distinct strings of a
 * kind in the order they are first shown, for the whole run (every file
 * of it).  With --redact-key KEY, "<KIND-HHHHHHHHHHHH>": the first 48 bits
 * of SipHash-2-4 (siphash.h) of "KIND:string" under a 128-bit key made
 * from KEY, so the same string gets the same token in every run and file
 * redacted with the same key, and no one without the key can test a guess.
 */
#ifndef PD_REDACT_H
#define PD_REDACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a string from the file is, for --redact. */
enum pd_priv {
	/* not identifying itself: only the user-name rule applies
	 * (/home/NAME, /run/user/UID, user-UID.slice, user@UID.service) */
	PRIV_NONE,
	/* a file path: a directory that is not a system one -> <dir-N>,
	 * the basename kept */
	PRIV_PATH,
	/* a cgroup path: every directory but the root -> <cgroup-N> */
	PRIV_CGROUP,
	/* a host name -> <host-N> */
	PRIV_HOST,
	/* a command-line argument after argv[0] -> <arg-N> */
	PRIV_ARG,
	/* a comm (process name) -> <comm-N>, with --redact=comm only */
	PRIV_COMM,
	/* a string whose meaning perfdump does not know (a tracepoint's
	 * string field) -> <str-N>, whole */
	PRIV_STR,
};

struct redactor;

struct redactor *redact_new(void);
void redact_free(struct redactor *r);
/* --redact=comm: comm values are replaced too. */
void redact_set_comm(struct redactor *r, bool on);
/* --redact-key KEY: keyed tokens (see above). */
void redact_set_key(struct redactor *r, const char *key);

/*
 * s[0..n) as --redact shows it, of kind k: into *out, *outlen (s itself
 * when nothing changes; else a buffer valid until the next call).
 */
void redact_str(struct redactor *r, enum pd_priv k, const char *s, size_t n,
		const char **out, size_t *outlen);

/*
 * One argument of perf's recorded command line (CMDLINE) as --redact
 * shows it: its first keep bytes as they are ("-o", "--output="), the
 * rest by kind's rule.
 */
struct redact_arg {
	enum pd_priv kind;
	uint32_t keep;
};

/*
 * Which argument is which, walked in order (redact_argv.c): argv[0] is
 * the perf binary (a path); perf's subcommand and options and their
 * values are kept, file names given to an option follow the path rule;
 * the workload's program is a path and its arguments are tokens.  After a
 * subcommand perfdump does not know, every argument is a token.  Start
 * from a zeroed state.
 */
struct redact_argv {
	uint32_t i;		 /* arguments seen */
	int phase;		 /* redact_argv.c's enum */
	const void *opts;	 /* the subcommand's option table */
	enum pd_priv value_kind; /* the value owed to an option */
};
struct redact_arg redact_argv_next(struct redact_argv *st, const char *s,
				   size_t n);

/* redact_str of s[a.keep..n), after s[0..a.keep) kept. */
void redact_arg(struct redactor *r, struct redact_arg a, const char *s,
		size_t n, const char **out, size_t *outlen);
/* A run of a string that shows another string: s[off..off+len) shows
 * src[0..srclen), of kind kind. */
struct redact_run {
	size_t off, len;
	enum pd_priv kind;
	const char *src;
	size_t srclen;
};

/*
 * s[0..n) as --redact shows it when runs of it (in order, inside it, not
 * overlapping) show other strings (a tracepoint's print output and the
 * string fields it prints): each run becomes what redact_str() makes of
 * its src, so it reads as the string it shows reads elsewhere; the bytes
 * between the runs get the PRIV_NONE rule.  Into *out, *outlen as
 * redact_str() (runs that do not fit s: "<redacted>").
 */
void redact_runs(struct redactor *r, const char *s, size_t n,
		 const struct redact_run *runs, size_t nruns, const char **out,
		 size_t *outlen);

#endif
