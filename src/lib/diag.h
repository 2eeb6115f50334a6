/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics: every problem the parser finds, with the file offset of the
 * bytes involved, what was being read and what is wrong.  The parser never
 * prints; callers decide how to show these (stderr, "errors" in JSON, ...).
 */
#ifndef PD_DIAG_H
#define PD_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pd_sev {
	PD_WARN, /* unusual but legal, or a guess was needed */
	PD_ERR,	 /* damaged: something could not be decoded */
};

#define PD_NO_OFFSET UINT64_MAX

struct pd_diag {
	enum pd_sev sev;
	uint64_t offset; /* file offset, or PD_NO_OFFSET */
	char *what;	 /* what was being read */
	char *detail;	 /* what is wrong, with the values involved */
};

struct pd_diags;
typedef void (*pd_diag_hook)(const struct pd_diag *d, void *arg);

struct pd_diags {
	struct pd_diag *v;
	size_t n, cap;
	size_t nerr, nwarn; /* totals, including dropped ones */
	size_t dropped;	    /* not kept because the list was full */
	pd_diag_hook hook;  /* called for every diagnostic as it happens */
	void *hook_arg;
};

/* At most this many diagnostics are kept; the rest are only counted. */
#define PD_DIAG_MAX 10000

void pd_diag_add(struct pd_diags *d, enum pd_sev sev, uint64_t offset,
		 const char *what, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void pd_diags_free(struct pd_diags *d);

#endif
