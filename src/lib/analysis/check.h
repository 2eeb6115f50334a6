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

#include "lib/base/diag.h"

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

struct pd_check_note;  /* check.c: codes of the diagnostics check added */
struct pd_check_tally; /* check_cause.c: samples per attr, and misfits */

/* The findings of one code: how many, and the first (check_cause.c). */
struct pd_check_group {
	enum pd_code code;
	const char *name; /* the code's name */
	enum pd_sev sev;  /* of its first finding */
	size_t count;
	size_t first;	       /* index of its first finding */
	uint64_t first_offset; /* PD_NO_OFFSET: none */
};

/*
 * The likely cause of the findings: the samples of one attr do not fit
 * its sample_type (a wrong attr, or samples written by another layout),
 * so every field after the misfit is read from the wrong place.
 */
struct pd_check_layout {
	uint32_t attr; /* evlist index */
	uint64_t sample_type;
	uint32_t implied_size; /* 0: the sample_type has varying-size fields */
	uint64_t samples;      /* SAMPLE records of the attr */
	uint64_t misfits;      /* of those, too long or too short */
	uint32_t size;	       /* the size most misfits have */
	uint64_t size_count;   /* how many misfits have it */
	uint64_t first_offset; /* the first misfit */
	size_t other_findings; /* findings of other codes on SAMPLE records */
};

/*
 * A repair known to make the file readable: the SIZE bytes of FIELD at
 * OFFSET := VALUE.
 */
enum pd_repair_kind {
	PD_REPAIR_DATA_SIZE, /* data.size 0: the bytes of the whole records */
	PD_REPAIR_FEATURES,  /* ... and no feature table after them */
};

struct pd_check_repair {
	enum pd_repair_kind kind;
	const char *field; /* "data.size", "feature bitmap" */
	uint64_t offset;   /* the field's file offset */
	uint32_t size;	   /* its bytes */
	uint64_t value;
	uint64_t start, end; /* where the whole records start and end */
};

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
	/* The findings grouped by code, in the order the codes first occur. */
	struct pd_check_group *groups;
	size_t ngroups;
	bool has_layout; /* layout: the likely cause */
	struct pd_check_layout layout;
	struct pd_check_repair repairs[2];
	unsigned nrepairs;
	/* internal */
	struct pd_check_note *notes;
	size_t nnotes, notes_cap;
	struct pd_check_tally *tally; /* per attr */
	uint32_t ntally;
};

/*
 * Validate the opened session s.  Fills c (free with pd_check_free).
 * Returns 0, or -1 when out of memory.
 */
int pd_check_run(struct pd_session *s, struct pd_check *c);
void pd_check_free(struct pd_check *c);

/* check_cause.c: a SAMPLE of attr idx read, and whether it fit. */
struct pd_event;
void pd_check_tally_sample(struct pd_check *c, const struct pd_session *s,
			   uint32_t idx, const struct pd_event *ev,
			   bool misfit);
/* check_cause.c: groups, the likely cause and the repair; -1: no memory */
int pd_check_explain(struct pd_session *s, struct pd_check *c);

/* Every code check can give: pd_codes[] (codes.h, diag.h). */

#endif
