/* SPDX-License-Identifier: MIT */
/* The formatter for check's findings and summary. */
#ifndef PD_FMT_CHECK_H
#define PD_FMT_CHECK_H

#include <stdio.h>

#include "lib/analysis/check.h"
#include "fmt/emit.h"

/*
 * The "check" object: sound, the likely cause, the repairs, the findings
 * grouped by code, the findings (text: one row each, titled "SEVERITY
 * OFFSET STRUCTURE [CODE]", the first CHECK_TEXT_PER_CODE of each code;
 * JSON: all of them) and the summary.  s names the attrs.
 */
#define CHECK_TEXT_PER_CODE 10
void emit_check(struct emitter *e, const struct pd_session *s,
		const struct pd_check *c);

/*
 * What the findings add up to, in one line (no newline): "N errors
 * (CODE COUNT, ...)", then "; likely cause: ..." and "; repair: ..."
 * when known.  For the summary check prints on stderr.
 */
void format_check_summary(char *buf, size_t len, const struct pd_session *s,
			  const struct pd_check *c);

/*
 * check --brief: the "check" object with a one-line summary first ("sound",
 * "damaged: N errors, first at 0xOFFSET: CODE", or "not a perf.data file"
 * for an input s that is not a recording: text shows only that,
 * emit_doc_begin_line), the counts and the first error.
 */
void emit_check_brief(struct emitter *e, const struct pd_session *s,
		      const struct pd_check *c);

/*
 * check --list-codes: every stable code, one line each, "name TAB severity
 * TAB meaning" (for scripts and the man page test).  Returns -1 when the
 * output cannot be written.
 */
int print_code_list(FILE *f);

#endif
