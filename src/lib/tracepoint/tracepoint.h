/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint formats and the fields of tracepoint samples.  The format
 * texts of a tracing data blob (feat_tracing.c) are parsed once, by
 * perfdump itself (tp_format.c: the field lines; tp_parse.c: the print
 * fmt), into the plain model below, with the meaning libtraceevent gives
 * them when perf reads the same blob (tools/perf/util/trace-event-read.c
 * trace_report, trace-event-parse.c parse_event_file), in the recording's
 * own byte order and long size.  Field values are read from the RAW
 * payload (offset, size, signedness, __data_loc), each checked against
 * the payload's size, and the print output (what `perf script` prints
 * after the event name) is made by tp_fast_print.c, every read bounded.
 * perfdump does not link libtraceevent: the tests use it as their oracle
 * (tests/oracle/tp_oracle.c).
 */
#ifndef PD_TRACEPOINT_H
#define PD_TRACEPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"

struct pd_diags;
struct pd_evsel;
struct feat_tracing_data;
struct pd_tp_ksym;
struct prog;

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
	uint8_t tflags; /* PD_TP_F_*: libtraceevent's TEP_FIELD_IS_* */
};

/* What the declaration says (event-parse.c event_read_fields). */
enum {
	PD_TP_F_ARRAY = 1u << 0,   /* NAME[...] */
	PD_TP_F_POINTER = 1u << 1, /* a '*' in the type */
	PD_TP_F_LONG = 1u << 2,	   /* "long" in the type */
	PD_TP_F_STRING = 1u << 3,  /* an array of char, u8 or s8 */
	PD_TP_F_DYNAMIC = 1u << 4, /* __data_loc, __rel_loc */
};

/* One event format of the tracing data. */
struct pd_tp_event {
	uint64_t id;
	bool has_id; /* the text has an "ID:" line (else id is 0) */
	const char *system, *name;
	const char *full_name;	    /* "system:name" */
	struct pd_tp *owner;	    /* the blob it came from */
	uint64_t offset;	    /* file offset of the format text */
	bool parsed;		    /* its field lines parsed */
	bool print_ok;		    /* ... and its print fmt */
	const char *print_fmt;	    /* the "print fmt:" line's text, or NULL */
	struct pd_tp_field *fields; /* common fields first */
	uint32_t nfields, ncommon;
	bool print_refused; /* said once: a sample printed nothing */
	struct prog *prog;  /* tp_fast.c: the print fmt compiled, or NULL */
};

/*
 * Where %ps, %pS, %pf and %pF find a kernel function when the blob has no
 * kallsyms: libtraceevent's function resolver (event-parse.c
 * tep_set_function_resolver, find_func), which perf script sets to the
 * machine's kernel maps (tools/perf/util/machine.c
 * machine__resolve_kernel_addr).  fn gives the name of the function
 * holding addr and sets *start to its first address, or gives NULL.  It
 * is called only when such a conversion prints an address, so that what
 * it reads (kernel symbols) is read only for recordings that need it.
 */
typedef const char *pd_tp_resolve_fn(void *ctx, uint64_t addr, uint64_t *start);
struct pd_tp_resolver {
	pd_tp_resolve_fn *fn; /* NULL: addresses print in hex */
	void *ctx;
};

/* The formats of one tracing data blob. */
struct pd_tp {
	uint64_t offset; /* file offset of the blob */
	bool big_endian;
	uint8_t long_size;
	struct pd_tp_event *events;
	uint32_t nevents;
	struct pd_tp_ksym *ksyms; /* kallsyms, by address (%ps) */
	uint32_t nksyms;
	/* without ksyms: the kernel's functions (the session's, may be
	 * NULL) */
	const struct pd_tp_resolver *resolver;
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
	 * spans_known: every such byte is in one (false when a field's
	 * bytes were printed in hex or as numbers of an array) */
	const struct pd_tp_span *spans;
	uint32_t nspans;
	bool spans_known;
	uint32_t nbad; /* fields outside the payload */
};

/*
 * The formats of a decoded tracing data blob (feat_meta.h), parsed into a
 * new pd_tp allocated from `a` (its next NULL); problems go to `d`.  NULL
 * when the blob did not get as far as its parameters, or no memory.
 * The session keeps one per blob (session_tp.c).
 */
struct pd_tp *pd_tp_parse(struct arena *a, struct pd_diags *d,
			  const struct feat_tracing_data *m);

/* Free what pd_tp_parse allocated outside the arena, for tp and its next. */
void pd_tp_free(struct pd_tp *tp);

/* Does ev's print fmt print a kernel function (%ps, %pS, %pf, %pF)? */
bool pd_tp_event_prints_functions(const struct pd_tp_event *ev);

/* What pd_tp_decode does. */
enum {
	PD_TP_FIELDS = 1u << 0,
	PD_TP_PRINT = 1u << 1,
};

/*
 * Decode the RAW payload (size bytes at file offset off) of a sample of
 * evsel, whose format is ev (NULL: none, said once per evsel): every
 * field, each checked against size (one diagnostic for those outside),
 * and with PD_TP_PRINT the print_fmt output (in scratch).  Problems go
 * to d.
 */
void pd_tp_decode(struct pd_diags *d, const struct pd_evsel *evsel,
		  const struct pd_tp_event *ev, const uint8_t *raw,
		  uint32_t size, uint64_t off, unsigned what,
		  struct arena *scratch, struct pd_tp_sample *out);

#endif
