/* SPDX-License-Identifier: MIT */
/* The formatter for check's findings and summary. */
#ifndef PD_FMT_CHECK_H
#define PD_FMT_CHECK_H

#include <stdio.h>

#include "../lib/check.h"
#include "emit.h"

/*
 * The "check" object: sound, the findings (text: one row each, titled
 * "SEVERITY OFFSET STRUCTURE [CODE]") and the summary.
 */
void emit_check(struct emitter *e, const struct pd_check *c);

/*
 * check --brief: the "check" object with a one-line summary first ("sound",
 * or "damaged: N errors, first at 0xOFFSET: CODE": text shows only that,
 * emit_doc_begin_line), the counts and the first error.
 */
void emit_check_brief(struct emitter *e, const struct pd_check *c);

/*
 * check --list-codes: every stable code, one line each, "name TAB severity
 * TAB meaning" (for scripts and the man page test).  Returns -1 when the
 * output cannot be written.
 */
int print_code_list(FILE *f);

#endif
