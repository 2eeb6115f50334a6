/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint formats and the fields of tracepoint samples.  The format
 * texts of a tracing data blob (feat_tracing.c) are parsed by
 * libtraceevent, as perf does (tools/perf/util/trace-event-read.c
 * trace_report, trace-event-parse.c parse_event_file), in the recording's
 * own byte order, long size and page size; the result is copied into the
 * plain model below, and field values are read from the RAW payload by
 * perfdump itself (offset, size, signedness, __data_loc), each checked
 * against the payload's size.  libtraceevent is asked only for the
 * print_fmt output (what `perf script` prints after the event name), on a
 * copy of the payload whose every read it can make has been bounded first.
 *
 * Only tracepoint.c, tp_print.c and tp_fast.c include libtraceevent's
 * headers.
 */
#ifndef PD_TRACEPOINT_H
#define PD_TRACEPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"

struct pd_session;
struct pd_evsel;
struct feat_tracing_data;

/* How a field's bytes are shown. */
enum pd_tp_kind {
	PD_TP_INT,	  /* integer of 1, 2, 4 or 8 bytes */
	PD_TP_PTR,	  /* pointer ("0x...") */
	PD_TP_HEX,	  /* unsigned long, unsigned long long ("0x...") */
	PD_TP_STR,	  /* char[N]: text up to the first NUL */
	PD_TP_ARRAY,	  /* other fixed arrays of 1, 2, 4 or 8-byte integers */
	PD_TP_DLOC_STR,	  /* __data_loc / __rel_loc char[] */
	PD_TP_DLOC_ARRAY, /* __data_loc / __rel_loc of other integers */
	PD_TP_BYTES,	  /* anything else: the bytes in hex */
};

/* One field of a format ("field:TYPE NAME; offset:N; size:N; signed:N;"). */
struct pd_tp_field {
	const char *name;
	const char *type; /* as the format says, e.g. "__data_loc char[]" */
	uint32_t offset, size;
	uint32_t elem_size; /* arrays: bytes per element */
	uint32_t count;	    /* fixed arrays: elements */
	bool is_signed;
	bool is_common; /* common_type, common_flags, ... */
	bool rel_loc;	/* __rel_loc: offset from the end of the field */
	uint8_t kind;	/* enum pd_tp_kind */
};

/* One event format of the tracing data. */
struct pd_tp_event {
	uint64_t id;
	bool has_id; /* the text has an "ID:" line (else id is 0) */
	const char *system, *name;
	const char *full_name;	    /* "system:name" */
	struct pd_tp *owner;	    /* the blob it came from */
	uint64_t offset;	    /* file offset of the format text */
	bool parsed;		    /* libtraceevent parsed its fields */
	bool print_ok;		    /* ... and its print fmt */
	const char *print_fmt;	    /* the "print fmt:" line's text, or NULL */
	struct pd_tp_field *fields; /* common fields first */
	uint32_t nfields, ncommon;
	/* tp_print.c: the print args whose reads depend on the data */
	void *impl;
	void **bounded;
	uint32_t nbounded;
	bool print_refused; /* said once: a print could not be bounded */
	void *fast;	    /* tp_fast.c: the print fmt compiled, or NULL */
};

/* The formats of one tracing data blob, and libtraceevent's handle. */
struct pd_tp {
	uint64_t offset; /* file offset of the blob */
	bool big_endian;
	uint8_t long_size;
	struct pd_tp_event *events;
	uint32_t nevents;
	void *tep;    /* struct tep_handle */
	uint8_t *buf; /* tp_print.c: the payload copy libtraceevent reads */
	uint32_t buf_cap;
	void *seq; /* struct trace_seq, reused */
	char *out; /* tp_fast.c: the output, reused */
	size_t out_cap;
	struct pd_tp *next;
};

/* One field value of a sample. */
struct pd_tp_value {
	bool ok;	  /* the bytes lie inside the RAW payload */
	uint64_t u;	  /* INT, PTR (signed ones sign-extended) */
	const uint8_t *p; /* STR, BYTES: the bytes, in the record */
	uint32_t len;	  /* STR: up to the NUL; BYTES: size */
	uint64_t *elems;  /* arrays: host-order values (signed extended) */
	uint32_t nelems;
};

/*
 * A run of a print output that a string argument printed: the bytes
 * print[off, off + len) are what a %s made of field `field` (an index
 * into the event's fields: a char array or a __data_loc string).
 */
struct pd_tp_span {
	uint32_t off, len;
	uint32_t field;
};

/* The fields of one tracepoint sample (arrays in the caller's scratch). */
struct pd_tp_sample {
	const struct pd_tp_event *ev; /* NULL: no format for the sample */
	struct pd_tp_value *v;	      /* ev->nfields, or NULL */
	const char *print;	      /* print_fmt output, or NULL */
	uint32_t print_len;
	/* the runs of print that string arguments printed, in order;
	 * spans_known: every such byte is in one (tp_fast_print.c can
	 * tell; libtraceevent's print path cannot: false, no spans) */
	const struct pd_tp_span *spans;
	uint32_t nspans;
	bool spans_known;
	uint32_t nbad; /* fields outside the payload */
};

/*
 * The formats of a decoded tracing data blob, parsed once per blob (the
 * same blob seen again, e.g. a pipe record shown with -x, is the same
 * pd_tp).  Problems go to s->diags; freed with the session.
 */
const struct pd_tp *pd_tp_load(struct pd_session *s,
			       const struct feat_tracing_data *m);

/* The format of a tracepoint evsel (attr.config is its ID), or NULL. */
const struct pd_tp_event *pd_tp_event_of(struct pd_session *s,
					 const struct pd_evsel *ev);

/* What pd_tp_decode does. */
enum {
	PD_TP_FIELDS = 1u << 0,
	PD_TP_PRINT = 1u << 1,
};

/*
 * Decode the RAW payload (size bytes at file offset off) of a sample of
 * ev: every field, each checked against size (one diagnostic for those
 * outside), and with PD_TP_PRINT the print_fmt output (in scratch).
 */
void pd_tp_decode(struct pd_session *s, const struct pd_evsel *ev,
		  const uint8_t *raw, uint32_t size, uint64_t off,
		  unsigned what, struct arena *scratch,
		  struct pd_tp_sample *out);

/*
 * Name the tracepoint evsels the file names nowhere else "system:name"
 * from the formats loaded (name_from "TRACING_DATA").
 */
void pd_tp_name_evsels(struct pd_session *s);

/* Free every pd_tp of the session. */
void pd_tp_free_all(struct pd_session *s);

/* tp_print.c: the print_fmt output of a sample, and its spans, into smp
 * (print NULL if none) and scratch. */
void pd_tp_print(struct pd_session *s, struct pd_tp *tp, struct pd_tp_event *ev,
		 struct pd_tp_sample *smp, const uint8_t *raw, uint32_t size,
		 uint64_t off, struct arena *scratch);
/* tp_print.c: note the args of ev's print fmt whose reads need bounds. */
void pd_tp_print_prepare(struct pd_tp_event *ev);
/* tp_fast.c: compile ev's print fmt, if it can be printed without
 * libtraceevent (ev->fast); and print a sample with it, into smp as
 * pd_tp_print() (print NULL: cannot) */
void pd_tp_fast_prepare(struct arena *a, struct pd_tp_event *ev);
void pd_tp_fast_print(struct pd_tp *tp, const struct pd_tp_event *ev,
		      const uint8_t *raw, uint32_t size, struct arena *scratch,
		      struct pd_tp_sample *smp);

#endif
