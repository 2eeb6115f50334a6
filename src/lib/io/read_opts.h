/* SPDX-License-Identifier: MIT */
/*
 * Every choice about how a recording is read, made by the caller (the
 * command line, cli.c: the environment is read there and only there) and
 * handed to the parser, which reads no environment variable itself.  A
 * zeroed struct is the default of each.
 */
#ifndef PD_READ_OPTS_H
#define PD_READ_OPTS_H

#include <stdbool.h>

/* Read-ahead (reader.c): PERFDUMP_READER, a testing aid. */
enum pd_read_ahead_choice {
	/* a PD_READ_FAST walk reads ahead on sources of PD_AHEAD_MIN bytes
	 * or more only (stream.c) */
	PD_READAHEAD_AUTO,
	PD_READAHEAD_NEVER,  /* "plain": whatever the caller asked */
	PD_READAHEAD_ALWAYS, /* "fast": on every source of a PD_READ_FAST
			      * walk, however small (the tests compare) */
};

struct pd_read_opts {
	enum pd_read_ahead_choice ahead;
	/* PERFDUMP_PROFILE_ADDRS, a testing aid: a smaller address table
	 * for profile, to fold it often; 1..PD_PROF_MAX_ADDRS, else the
	 * default (profile.c) */
	unsigned long profile_addrs;
	/* PERFDUMP_NO_OPENAT2 set and not empty, a testing aid: paths under
	 * a root are always walked a component at a time (rootpath.c) */
	bool no_openat2;
	/* $TMPDIR: where a stream is spooled (input_spool.c); NULL or "":
	 * /tmp */
	const char *tmpdir;
	/* perf's build-id cache: $PERF_BUILDID_DIR, else $HOME/.debug;
	 * NULL: neither is set (buildid.h, --debug-dir's default) */
	const char *buildid_dir;
	/* PERFDUMP_KERNEL_NOTES, PERFDUMP_PROC_KALLSYMS, testing aids: the
	 * running kernel's notes and kallsyms, whose symbols are taken when
	 * its build-id is the recording's (profile_kernel.c); NULL:
	 * /sys/kernel/notes and /proc/kallsyms.  The tests point them at
	 * fixed files, so that no output depends on this machine's kernel. */
	const char *kernel_notes;
	const char *proc_kallsyms;
	/* PERFDUMP_BATCH_BYTES, a testing aid: a parallel walk's batch of
	 * records holds this many bytes (1: each record its own batch);
	 * 0: the default (walk_par.c) */
	unsigned long batch_bytes;
};

#endif
