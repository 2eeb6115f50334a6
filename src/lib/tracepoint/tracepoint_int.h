/* SPDX-License-Identifier: MIT */
/*
 * Inside the tracepoint module (tracepoint.h): a format text parsed by
 * perfdump itself, its field lines (tp_format.c) and its print fmt
 * (tp_parse.c, compiled by tp_fast.c), and the prints of a sample
 * (tp_fast_print.c; tp_raw.c when the print fmt does not parse).
 */
#ifndef PD_TRACEPOINT_INT_H
#define PD_TRACEPOINT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/tracepoint/tracepoint.h"

struct node; /* tp_fast.h */

#define PD_TP_MAX_NEST	128	    /* recursion levels of a print fmt */
#define PD_TP_MAX_NODES 4096	    /* nodes of a print fmt's args */
#define PD_TP_MAX_SYMS	256	    /* { value, "name" } of one list */
#define PD_TP_MAX_ARGS	64	    /* args of a print fmt */
#define PD_TP_MAX_BLOB	(16u << 20) /* kallsyms */

/*
 * The field lines of a format text into ev->fields (common ones first),
 * as libtraceevent's event_read_fields() reads them; NULL, or why they do
 * not parse.  ftrace: the ftrace system's "field special:" and names with
 * a '.' are taken.
 */
const char *pd_tp_parse_fields(struct arena *a, const char *t, size_t n,
			       bool ftrace, uint8_t long_size,
			       struct pd_tp_event *ev);
/* The text after "print fmt: " up to the end of its line, or NULL. */
const char *pd_tp_print_fmt_line(struct arena *a, const char *t, size_t n);
/* Where the text after "print fmt:" starts (n if none). */
size_t pd_tp_print_fmt_at(const char *t, size_t n);

/* A print fmt parsed: its format string (escapes kept) and args. */
struct pd_tp_args {
	const char *fmt;
	struct node *v[PD_TP_MAX_ARGS];
	uint32_t n;
};

/* Parse the print fmt text t (after "print fmt:"); NULL, or why not. */
const char *pd_tp_parse_print(struct arena *a, const struct pd_tp_event *ev,
			      const char *t, size_t n, struct pd_tp_args *out);
/* Compile parsed args into ev->prog; NULL, or why it cannot be. */
const char *pd_tp_compile(struct arena *a, struct pd_tp_event *ev,
			  uint8_t long_size, const struct pd_tp_args *args);
/* What libtraceevent's arg_eval() makes of a part of a { value, "name" }
 * of __print_flags / __print_symbolic: an atom's or a literal's text,
 * through casts, else a constant folded ("%lld" in buf); NULL when it is
 * none. */
const char *pd_tp_arg_eval(const struct node *n, char buf[24]);
/* A { value, "name" } value as eval_flag(arg_eval(...)) takes it; *err
 * set when it is not a constant. */
long long pd_tp_flag_value(const struct node *n, const char **err);
/* What a cast to type t keeps of a value (eval_type_str). */
uint64_t pd_tp_cast_mask(const char *t);

/* A function of kallsyms (tep_parse_kallsyms), sorted by address. */
struct pd_tp_ksym {
	uint64_t addr;
	const char *name;
};

/*
 * Why a print could not be made (none: it was): a read past the payload
 * or a division by zero the data asks for.
 */
enum pd_tp_fail {
	PD_TP_PRINTED,
	PD_TP_OUTSIDE,
	PD_TP_DIV_ZERO,
	PD_TP_BAD_SIZE,
	PD_TP_NOMEM
};

/* The print output of a sample by ev->prog, into smp and scratch. */
enum pd_tp_fail pd_tp_fast_print(struct pd_tp *tp, const struct pd_tp_event *ev,
				 const uint8_t *raw, uint32_t size,
				 struct arena *scratch,
				 struct pd_tp_sample *smp);
/* perf's print of a format whose print fmt does not parse: "[FAILED TO
 * PARSE]" and " name=value" of each field (tp_raw.c). */
void pd_tp_raw_print(struct pd_tp *tp, const struct pd_tp_event *ev,
		     const uint8_t *raw, uint32_t size, struct arena *scratch,
		     struct pd_tp_sample *smp);

#endif
