/* SPDX-License-Identifier: MIT */
/*
 * The fuzz harness shared by every fuzz target (harness.c) and the table
 * of targets (targets.c).  One program, build-fuzz/perfdump-fuzz, holds
 * them all; --target=NAME picks one (libFuzzer leaves flags that start
 * with "--" to the program), and the default is the whole pipeline
 * ("perfdump"), which also runs every other target, so that
 * build-asan/perfdump-replay and the mutation test reproduce what any
 * target found.  See tests/fuzz/README.md.
 */
#ifndef PD_FUZZ_HARNESS_H
#define PD_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "perfdump.h"

struct fuzz_target {
	const char *name;
	const char *what; /* one line, for --list */
	void (*run)(const uint8_t *data, size_t size);
};

/* The table (targets.c), ended by a NULL name; the first is the default. */
extern const struct fuzz_target fuzz_targets[];

const struct fuzz_target *fuzz_find(const char *name);

/*
 * The input as a file: a memory file (memfd) holding data, reused from
 * one input to the next; returns its path (/proc/self/fd/N).
 */
const char *fuzz_file(const uint8_t *data, size_t size);

/* A whole file into malloc'ed memory (NULL: it cannot be opened). */
uint8_t *fuzz_slurp(const char *path, size_t *len);

/*
 * Run a command as `perfdump ARGS... FILE` would (cmd is one of the cmd_*
 * functions of perfdump.h, args its name and options, NULL-terminated),
 * with messages off and the output checked, then discarded: standard
 * output goes through a 1 MiB buffer to the oracle (oracle.h: text
 * without control bytes, valid JSON), no system call.  A violation, or
 * exit status 3 (the output's nesting unbalanced), aborts.
 */
void fuzz_cmd(int (*cmd)(struct opts *o, int argc, char **argv),
	      const char *path, ...) __attribute__((sentinel));

/*
 * A document written straight through the emitter, for a target that
 * calls the formatters itself: begun on standard output (checked as
 * fuzz_cmd's is), and ended (a nesting error aborts).
 */
struct emitter *fuzz_emit_begin(enum emit_format fmt, bool hex,
				const char *what);
void fuzz_emit_end(struct emitter *e);

/*
 * Open the input as a session and set up what the record commands set
 * up (cli.c cmd_run: the torn-record scan, the features other decoders
 * depend on, the evlist).  Returns 0, or -1 when it cannot be opened.
 */
int fuzz_session(struct pd_session *s, const char *path);

/* The pprof target (pprof.c): export --to pprof, its output decoded by
 * protobuf-c and checked. */
void fuzz_pprof(const uint8_t *data, size_t size);

#endif
