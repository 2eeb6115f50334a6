/* SPDX-License-Identifier: MIT */
/*
 * One walk over a recording's records, the way perf's session reads them
 * (tools/perf/util/session.c: __perf_session__process_events,
 * __perf_session__process_pipe_events, perf_session__deliver_event):
 * every command's records come from here.  The walk does the per-record
 * work once:
 *
 *  - the streams: the data section (or pipe stream), then with
 *    PD_WALK_DATA_N a directory's data.N files; compressed records opened;
 *  - the update step, before any visitor sees a record: the metadata a
 *    stream read as it arrives brings (HEADER_ATTR, HEADER_FEATURE,
 *    HEADER_TRACING_DATA, HEADER_BUILD_ID: pd_session_pipe_event), and
 *    EVENT_UPDATE's names, applied to the event list as perf applies them
 *    (session.c perf_session__process_user_event, evlist__update);
 *  - file order, or time order as perf's ordered events (order.h);
 *  - for a visitor of decoded records: the record's evsel and its decoding
 *    (event.h), and the filters of filter.h.
 *
 * Visitors see the session const but for its diagnostics: only the walk's
 * update step changes the model.
 */
#ifndef PD_WALK_H
#define PD_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session/event.h"
#include "lib/session/filter.h"
#include "lib/io/walk_loop.h"

struct pd_session;
struct pd_diag;

enum {
	PD_WALK_DATA_N = 1 << 0,     /* a directory's data.N files too */
	PD_WALK_TIME_ORDER = 1 << 1, /* in time order, not file order */
	PD_WALK_PAYLOADS = 1 << 2,   /* keep 66/71 payload bytes (-x) */
	/*
	 * The visitor does little with each record (stats): compressed
	 * records are decompressed on the walk's thread, not ahead on a
	 * helper (reader.h PD_READ_INLINE_Z).
	 */
	PD_WALK_LIGHT = 1 << 3,
	/*
	 * A few records from the start and done (the ID_INDEX scan): no
	 * read-ahead, no update step (the model is not changed).
	 */
	PD_WALK_PREFIX = 1 << 4,
};

struct pd_walk_opts {
	unsigned flags;
	/* for pd_visitor.record: which records (NULL: all of them) ... */
	const struct pd_filter *filter;
	/* ... and what of a tracepoint sample is decoded (PD_TP_FIELDS,
	 * PD_TP_PRINT: tracepoint.h) */
	unsigned tp_want;
	/*
	 * > 1: decode on this many threads when the visitor has par and the
	 * walk allows it (pd_walk_par_ok in walk_par.c: one stream, no
	 * state but par's, no skip/limit, no -x payloads, a data section of
	 * more than two batches); 0 or 1: on the caller's thread, as
	 * always.  A stream read as it arrives has every batch written
	 * before the reader waits for its writer (pd_input before_read).
	 */
	unsigned jobs;
	size_t batch_bytes; /* a batch's records (0: 64 KiB; tests: 1) */
};

/*
 * The parallel mode of the walk (jobs > 1): the caller's thread reads
 * and frames the records (the reader, its read-ahead and decompression
 * as ever), runs the update step, and hands batches of consecutive
 * records (their bytes copied) to jobs - 1 worker threads; when 4
 * batches per worker are out, it runs the next one itself rather than
 * wait (the caller's thread is the first worker).  A worker decodes
 * each record into its own diagnostics list, applies the filter, and
 * calls record with the batch's context; the caller's thread then, in
 * the batches' order, adds the batch's diagnostics to s->diags (their
 * hook sees them then, in the order one thread would have raised them)
 * and calls flush.
 * A user record (type 64 and up but FINISHED_ROUND: they may read
 * features lazily) and the update step wait for every batch before
 * them (a barrier), and go by the visitor's record on the caller's
 * thread: the model workers read is never changed while they run.
 * A visitor of events (pd_visitor.event, no filter) is shown the
 * records undecoded: record's d is NULL (state's records are decoded
 * for state), and user records go by its event on the caller's thread.
 *
 *  - fork: a batch slot's context (its output buffer), made once per
 *    slot on the caller's thread (NULL: out of memory: the walk is then
 *    serial);
 *  - record: on a worker, a record that passed the filter (ctx: the
 *    batch's); reads the session only; ev's bytes stay until the
 *    batch's flush returns;
 *  - flush: on the caller's thread, the batch's output, in order; ctx
 *    is then reused;
 *  - join: the context freed, at the end.
 *
 * A visitor with state (pd_visitor.state, or for a visitor of events
 * par's state alone: maps kept up to date by the records in time order)
 * runs in parallel with state here: each worker (the caller's thread
 * the first) keeps a replica of that state of its own, made by worker
 * on the caller's thread before the threads start.  A worker applies,
 * in the walk's order, every record of the types state_types names
 * (types below PD_REC_USER_START but SAMPLE; 0: all of those) to its
 * replica: those of its own batches where they are among the batch's
 * records, those of the batches other workers ran (the walk keeps a log
 * of them until every worker has applied them; the caller's thread,
 * which runs batches only now and then, applies them to its own as the
 * log grows) before its next batch's first record.
 * A sample is so seen by a replica in the state the one thread would
 * have had then.  User records go by the visitor's own state and record
 * on the caller's thread, as without par.
 *
 *  - worker: a worker's replica (NULL: the walk is serial);
 *  - bind: on a worker, the diagnostics of what follows go to ws's (a
 *    batch's session, or a throwaway one for another batch's records),
 *    and its records to ctx (NULL: another batch's);
 *  - state: on a worker, a record that may change the state;
 *  - unfork: on the caller's thread at the end, each replica in the
 *    workers' order, to merge what it gathered and free it; a replica
 *    whose worker ran has then applied every record of state_types the
 *    walk read (one that never ran: none);
 *  - keep: on the caller's thread, a batch's diagnostic as it is added
 *    to s->diags in order: false drops it (a warning given once by one
 *    thread, which each replica gives once).
 */
struct pd_par_visitor {
	void *(*fork)(void *arg);
	void (*record)(void *ctx, const struct pd_event *ev,
		       const struct pd_decoded *d);
	void (*flush)(void *arg, void *ctx);
	void (*join)(void *arg, void *ctx);
	/* with state (NULL without) */
	void *(*worker)(void *arg);
	void (*bind)(void *wctx, void *ctx, struct pd_session *ws);
	void (*state)(void *wctx, const struct pd_event *ev,
		      const struct pd_decoded *d);
	void (*unfork)(void *arg, void *wctx);
	bool (*keep)(void *arg, const struct pd_diag *g);
	uint64_t state_types; /* bit t: type t changes the state */
};

/* What a walk in file order read, for its visitor's end. */
struct pd_walk_end {
	struct pd_reader_stats rs;
	/* the ends of its streams; the visitor's to keep (and free): NULL
	 * dir when out of memory, ok false then */
	struct pd_data_ends ends;
	bool ends_ok;
};

/*
 * A visitor: one of event (each record as it is read: its bytes) or
 * record (each record that passes the filter, decoded; its arrays live
 * until the next record), and optionally:
 *  - loop: the walk's loop run by the visitor itself, with its event
 *    function compiled into it (pd_walk_run): for a visitor that does
 *    so little per record that a call through a pointer shows (stats);
 *  - end: after the last record of a walk in file order (a walk in
 *    time order does not call it).
 *  - state (with record): every record decoded, before the filter and
 *    --at: what the visitor keeps up to date whichever records it is
 *    shown (the maps of symbolize.h).
 * event, record and loop's function return false to end the walk; in
 * time order, the records read are then all still read (their
 * diagnostics said) but no more are handed out.
 */
struct pd_visitor {
	bool (*event)(void *arg, const struct pd_event *ev);
	bool (*record)(void *arg, const struct pd_event *ev,
		       const struct pd_decoded *d);
	void (*state)(void *arg, const struct pd_event *ev,
		      const struct pd_decoded *d);
	int (*loop)(void *arg, struct pd_walk_loop *l);
	void (*end)(void *arg, struct pd_walk_end *e);
	const struct pd_par_visitor *par; /* with record: jobs > 1 */
};

/*
 * Walk the records of an opened session.  Returns 0, or -1 when out of
 * memory.  Problems with the records go to s->diags.
 */
int pd_walk(struct pd_session *s, const struct pd_walk_opts *o,
	    const struct pd_visitor *v, void *arg);

#endif
