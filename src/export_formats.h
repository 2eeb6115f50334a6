/* SPDX-License-Identifier: MIT */
/*
 * export's formats (cmd_export.c wires their options and the walk):
 * folded and pprof write the stacks model (stacks.h) at the end, chrome
 * writes each sample as it comes (fmt_chrome.h).
 */
#ifndef PD_EXPORT_FORMATS_H
#define PD_EXPORT_FORMATS_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/analysis/stacks.h"
#include "lib/io/outfile.h"
#include "lib/session/filter.h"
#include "fmt/fmt_folded.h"
#include "perfdump.h"

struct fmt_chrome;
struct pd_event;
struct pd_decoded;
struct pd_frames;
struct pd_session;

struct export_ctx;

enum export_id { EXPORT_FOLDED, EXPORT_PPROF, EXPORT_CHROME };

/*
 * An export format: its name (--to), whether its output is binary
 * (refused on a terminal), and its visitors: init before the walk (may be
 * NULL), sample for each sample that passed the filters, with its frames
 * (NULL: a format of stacks, folded or pprof, whose samples go into the
 * stacks model: stacks_walk.h, on --jobs threads), finish to write the
 * output (0, or -1: out of memory, said).
 */
struct export_format {
	const char *name;
	enum export_id id;
	bool binary;
	int (*init)(struct export_ctx *x);
	void (*sample)(struct export_ctx *x, const struct pd_event *ev,
		       const struct pd_decoded *d, const struct pd_frames *f);
	int (*finish)(struct export_ctx *x, FILE *out);
	unsigned tp_want; /* what of tracepoint samples (walk.h) */
};

struct export_ctx {
	const struct export_format *fmt;
	const char *out_path; /* -o; NULL: standard output */
	struct pd_filter f;
	struct sym_where where;
	struct folded_opts folded;
	const char *folded_opt; /* an option of folded's, given */
	enum folded_inline inlines;
	/* the run */
	struct cmd_run *r;
	struct pd_symbolizer *z;
	struct pd_stacks st;
	struct fmt_chrome *chrome;
	struct pd_outfile out;
};

/*
 * --to chrome on several threads (walk.h pd_par_visitor, its arg the
 * export_ctx): without filters and --redact (fmt_chrome.h), a replica of
 * the symbolizer on each worker.
 */
struct pd_par_visitor;
extern const struct pd_par_visitor export_chrome_par;

/* The formats --to takes. */
#define EXPORT_NFORMATS 3
extern const struct export_format export_formats[EXPORT_NFORMATS];

/* Does the export show inlined calls (their source lines)?  By default
 * those of stacks unwound from a copy, where there are some (as perf
 * script), else as --inline and --no-inline say. */
bool export_wants_lines(const struct export_ctx *x, const struct pd_session *s);

#endif
