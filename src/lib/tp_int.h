/* SPDX-License-Identifier: MIT */
/*
 * Inside the tracepoint module (tracepoint.h): the checks a format text
 * passes before libtraceevent sees it (tp_text.c).
 */
#ifndef PD_TP_INT_H
#define PD_TP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

#define PD_TP_MAX_TEXT (64u * 1024) /* one format text, header_page */
#define PD_TP_MAX_NEST 32	    /* ( [ { in a print fmt */
#define PD_TP_MAX_OPS  1024	    /* operators in a print fmt */
#define PD_TP_MAX_BLOB (16u << 20)  /* kallsyms, printk, cmdlines */

/* Why libtraceevent must not see this format text, or NULL. */
const char *pd_tp_text_refused(const char *t, size_t n);
/* The text after "print fmt: " up to the end of its line, or NULL. */
const char *pd_tp_print_fmt_line(struct arena *a, const char *t, size_t n);
/* "field:" lines of a format text: what libtraceevent should have parsed */
uint32_t pd_tp_count_field_lines(const char *t, size_t n);
/* Where the "print fmt:" line starts, or n. */
size_t pd_tp_print_fmt_at(const char *t, size_t n);
/*
 * A REC->NAME of the print fmt (at pf) that no field line declares: its
 * length, and *name; 0 if none.
 */
size_t pd_tp_unknown_rec_field(const char *t, size_t n, size_t pf,
			       const char **name);
/*
 * libtraceevent's parse of a blob, first in a child process (tp_probe.c):
 * a malloc'ed array of m->nevents + 1 flags, 1 where a format (or, at
 * [nevents], the header page, kallsyms, printk formats and saved
 * cmdlines) crashed the child and must not be parsed here; NULL when all
 * parsed, or no child could be made (then everything is parsed here).
 */
struct feat_tracing_data;
struct pd_session;
uint8_t *pd_tp_probe(const struct feat_tracing_data *m);
/*
 * In the child: libtraceevent's steps of pd_tp_load for the formats run
 * marks (of n), and the rest unless extras_bad; step(-1) before the rest,
 * step(i) before format i.
 */
void pd_tp_probe_child(struct pd_session *s, const struct feat_tracing_data *m,
		       const uint8_t *run, size_t n, bool extras_bad,
		       void (*step)(int32_t i, void *arg), void *arg);

/* Does the print fmt (at pf) have a "->" that does not follow REC? */
bool pd_tp_stray_arrow(const char *t, size_t n, size_t pf);
/* Does the print fmt (at pf) divide by a zero, or what may fold to one? */
bool pd_tp_divides_by_constant(const char *t, size_t n, size_t pf);

#endif
