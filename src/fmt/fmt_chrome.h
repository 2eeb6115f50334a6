/* SPDX-License-Identifier: MIT */
/*
 * The Chrome Trace Event Format (perfdump export --to chrome), its "JSON
 * Object Format", which Perfetto UI, chrome://tracing (catapult's trace
 * viewer) and speedscope open.  The format is Google's "Trace Event
 * Format" document (docs.google.com/document/d/
 * 1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU, linked from catapult's
 * docs/trace-event-format.md):
 *
 *   {"displayTimeUnit":"ns","traceEvents":[EVENT,...],
 *    "otherData":{"exporter":"perfdump","file":FILE}}
 *
 * Each sample that passed the filters is an instant event, ph "i", scope
 * "s":"t" (its thread's track), in the order of a walk in time order:
 *   ts    the sample's time in microseconds ("ts" is in µs, whatever
 *         displayTimeUnit says), exactly: perf's seconds * 1e6, the
 *         nanoseconds as 3 decimals (1952504587.123), in the recording's
 *         clock (perf's sample time);
 *   pid, tid  the sample's (-1 without TID: perf's -1);
 *   name  its leaf frame's symbol ([DSO base name] without one, as
 *         folded names it; [unknown] without a map), or a tracepoint's
 *         event name (sched:sched_switch);
 *   cat   the event's name (cpu-clock, sched:sched_switch);
 *   args  cpu (with CPU), period, a tracepoint's decoded "fields" and
 *         "print" (records' own, fmt_tracepoint.h), and "stack": the
 *         frames outermost first, as folded orders them, each "SYM+0xOFF
 *         (DSO)" as perf script prints it ("[unknown] (DSO)",
 *         "[unknown] ([unknown])"), the calls inlined at a frame after it
 *         as "SYM (inlined)" (which frames show them: folded_inline).
 * The stack is in args, not the format's compact stackFrames + "sf":
 * Perfetto's JSON importer reads no stackFrames (it shows args), and an
 * event's keys carry no array (Perfetto's tokenizer refuses an event
 * whose own values include an array: json_trace_tokenizer.cc
 * ExtractValueForJsonKey); "ts" comes first in each event, as it looks
 * for it first, and displayTimeUnit first in the file, where older
 * versions look for it.
 * A sched:sched_switch sample (with TID and CPU) also ends a complete
 * event, ph "X", ts and dur, of its thread's run on its CPU (timeline.h:
 * perf sched timehist's run time), name the thread's name, cat "sched",
 * args cpu.  The output is in the order the walk hands out the samples
 * (time order; a slice where it ends), so the same input gives the same
 * bytes; viewers do not need the events sorted.
 * After the samples, metadata events (ph "M"): process_name of each pid
 * (its main thread's latest name, else its first thread's), thread_name
 * of each thread (its latest name), sorted by pid and tid.  Strings pass
 * through the emitter: JSON escaping, and --redact (DSO paths as paths,
 * thread names as comms).
 */
#ifndef PD_FMT_CHROME_H
#define PD_FMT_CHROME_H

#include <stdint.h>
#include <stdio.h>

#include "lib/analysis/symbolize.h"
#include "lib/session/event.h"
#include "fmt/fmt_folded.h"
#include "fmt/redact.h"

struct fmt_chrome;

struct chrome_opts {
	const char *file;	    /* the input, for otherData */
	struct redactor *red;	    /* --redact, or NULL */
	enum folded_inline inlines; /* which frames show inlined calls */
};

/* The writer, its head written to out; NULL: out of memory. */
struct fmt_chrome *fmt_chrome_new(FILE *out, const struct chrome_opts *o);

/*
 * Every record of the walk, before the filters (walk.h's state): the
 * sched_switch samples of every thread and CPU keep the timeline, so
 * that a slice's switch in counts when the filters leave it out
 * (--pid: the switch to the thread is another thread's sample).
 */
void fmt_chrome_state(struct fmt_chrome *c, const struct pd_event *ev,
		      const struct pd_decoded *d);

/* A sample that passed the filters, with its frames (f->n 0: none), and
 * the slice its sched_switch ended (fmt_chrome_state).  A sample without
 * time is left out (counted: fmt_chrome_untimed). */
void fmt_chrome_sample(struct fmt_chrome *c, const struct pd_event *ev,
		       const struct pd_decoded *d, const struct pd_frames *f);

/* The samples left out for want of a time. */
uint64_t fmt_chrome_untimed(const struct fmt_chrome *c);

/* The metadata events and the end.  Returns 0, or -1 when out of memory
 * (the output is then not whole). */
int fmt_chrome_finish(struct fmt_chrome *c);

void fmt_chrome_free(struct fmt_chrome *c);

/*
 * On several threads (export --jobs), without filters (every sample of
 * the walk is one of the export's: each feeds the timeline) and without
 * --redact (a redactor's state is one thread's):
 *  - a worker renders the samples of a batch (fmt_chrome_batch_sample:
 *    each sample, in the walk's order, with its frames) into the batch's
 *    own output, with a memo of the frames' strings of its own
 *    (fmt_chrome_worker), and notes each sched_switch and where its
 *    event ends;
 *  - the caller's thread, batch after batch in the walk's order
 *    (fmt_chrome_batch_flush), applies those switches to the timeline
 *    and writes the batch's events with the slices they ended among
 *    them, where one thread writes them, and names the batch's threads.
 * The output is one thread's byte for byte.  The worker and batch are
 * made on the caller's thread before the workers start.
 */
struct fmt_chrome_worker;
struct fmt_chrome_batch;
struct fmt_chrome_worker *fmt_chrome_worker_new(const struct fmt_chrome *c);
/* (what it ran out of memory for said in c) */
void fmt_chrome_worker_free(struct fmt_chrome *c, struct fmt_chrome_worker *w);
struct fmt_chrome_batch *fmt_chrome_batch_new(const struct fmt_chrome *c);
void fmt_chrome_batch_free(struct fmt_chrome_batch *b);
void fmt_chrome_batch_sample(struct fmt_chrome_batch *b,
			     struct fmt_chrome_worker *w,
			     const struct pd_event *ev,
			     const struct pd_decoded *d,
			     const struct pd_frames *f);
void fmt_chrome_batch_flush(struct fmt_chrome *c, struct fmt_chrome_batch *b);

#endif
