/* SPDX-License-Identifier: MIT */
/*
 * perfdump check: validate a whole recording.  Runs the full pipeline
 * (header, every feature decoded, attrs, every record read and decoded,
 * samples parsed against their attr), adds the checks no single reader
 * can make (time order across FINISHED_ROUND, ids of non-sample records,
 * record alignment, bytes that belong to no structure), and turns every
 * diagnostic into a finding with a stable code.  No printing.
 */
#ifndef PD_CHECK_H
#define PD_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct pd_session;

#define PD_CHECK_MAX_VALUES 4

/* A value involved in a finding: key and number (hex: shown as "0x.."). */
struct pd_check_value {
	const char *key;
	uint64_t v;
	bool hex;
};

struct pd_finding {
	enum pd_sev sev;     /* may differ from the parser's (see check.c) */
	uint64_t offset;     /* file offset, or PD_NO_OFFSET */
	char structure[64];  /* "header", "attrs[1]", "feature HOSTNAME", ... */
	enum pd_code ecode;  /* its code (pd_codes[]) */
	const char *code;    /* its name, stable: e.g. "record-too-small" */
	const char *what;    /* the diagnostic's what (owned by s->diags) */
	const char *message; /* its detail (owned by s->diags) */
	struct pd_check_value values[PD_CHECK_MAX_VALUES];
	unsigned nvalues;
};

struct pd_check_note; /* check.c: codes of the diagnostics check added */

struct pd_check {
	struct pd_finding *v;
	size_t n;
	size_t nerr, nwarn; /* over all findings, dropped ones included */
	size_t dropped;	    /* diagnostics not kept (PD_DIAG_MAX) */
	uint64_t
		records_checked; /* records read, compressed containers included */
	uint64_t
		bytes_covered; /* bytes of the input that belong to a structure */
	uint64_t file_size; /* the input's size (main file; + data.N files) */
	/*
	 * Records perf processes out of order (time-backwards-across-round,
	 * its "N out of order events recorded"), the largest step below
	 * perf's last flush and where it is.
	 */
	uint64_t out_of_order;
	uint64_t max_late_ns, max_late_offset;
	/* The findings as diagnostics, with check's severities: "errors"/"warnings". */
	struct pd_diags diags;
	/* internal */
	struct pd_check_note *notes;
	size_t nnotes, notes_cap;
};

/*
 * Validate the opened session s.  Fills c (free with pd_check_free).
 * Returns 0, or -1 when out of memory.
 */
int pd_check_run(struct pd_session *s, struct pd_check *c);
void pd_check_free(struct pd_check *c);

/* Every code check can give: pd_codes[] (codes.h, diag.h). */

#endif
