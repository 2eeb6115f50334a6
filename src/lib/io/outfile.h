/* SPDX-License-Identifier: MIT */
/*
 * An output file written safely (export -o, copy): never the input, and
 * all or nothing.  Before anything is read, the output path is compared
 * with the inputs by what they resolve to (st_dev and st_ino: the same
 * file by another name, a hard link, a symbolic link); the output is
 * written to a temporary file in the output's directory and renamed over
 * it only once complete, so a failed run leaves no half file and an
 * existing output as it was.  An output that is a symbolic link is
 * written through: the file it names is replaced.  Without a path the
 * output is standard output.  No printing: errors come back as text.
 */
#ifndef PD_OUTFILE_H
#define PD_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pd_outfile {
	FILE *f;    /* where to write */
	char *dest; /* the path renamed over; NULL: standard output */
	char *tmp;  /* the temporary file, until committed */
};

enum {
	PD_OUT_OK = 0,
	PD_OUT_IO = -1,	   /* cannot create or write it (err says why) */
	PD_OUT_SAME = -2,  /* it is one of the inputs */
	PD_OUT_TTY = -3,   /* binary output to a terminal */
	PD_OUT_USAGE = -4, /* not a file that can be replaced (a directory) */
};

/*
 * Is path (the output; NULL: standard output, when it is a regular file)
 * one of the n inputs ("-": standard input)?  Only existing files are
 * compared.  Returns PD_OUT_OK or PD_OUT_SAME (err:
 * which input).
 */
int pd_outfile_check(const char *path, const char *const *inputs, int n,
		     char *err, size_t errlen);

/*
 * Start the output: path NULL is standard output (binary: refused when
 * it is a terminal, PD_OUT_TTY); else a temporary file beside path.
 * Returns a PD_OUT_ code; err says why it is not PD_OUT_OK.
 */
int pd_outfile_open(struct pd_outfile *o, const char *path, bool binary,
		    char *err, size_t errlen);

/*
 * Finish: flush, and rename the temporary file over the output (with
 * the mode a new file gets, or the replaced file's).  Returns PD_OUT_OK,
 * or PD_OUT_IO (err) after the temporary file is removed.
 */
int pd_outfile_commit(struct pd_outfile *o, char *err, size_t errlen);

/* Give up: the temporary file is removed, an existing output untouched. */
void pd_outfile_abort(struct pd_outfile *o);

#endif
