// SPDX-License-Identifier: MIT
/*
 * check --brief: one line per file, the line a CI job greps, "sound",
 * "damaged: N errors, first at 0xOFFSET: CODE" or "not a perf.data file"
 * (see fmt_check.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "fmt/fmt_check.h"
#include "lib/session/session.h"

/* The error at the lowest offset (one without an offset last). */
static const struct pd_finding *first_error(const struct pd_check *c)
{
	const struct pd_finding *first = NULL;

	for (size_t i = 0; i < c->n; i++) {
		const struct pd_finding *f = &c->v[i];

		if (f->sev == PD_ERR && (!first || f->offset < first->offset))
			first = f;
	}
	return first;
}

void emit_check_brief(struct emitter *e, const struct pd_session *s,
		      const struct pd_check *c)
{
	const struct pd_finding *f = first_error(c);
	char line[160], at[32] = "";
	size_t n = c->nerr;

	if (f && f->offset != PD_NO_OFFSET)
		snprintf(at, sizeof(at), " at 0x%" PRIx64, f->offset);
	if (s->not_perf_data) /* its one finding, bad-magic, says why */
		snprintf(line, sizeof(line), "not a perf.data file");
	else if (!n)
		snprintf(line, sizeof(line), "sound");
	else
		snprintf(line, sizeof(line),
			 "damaged: %zu error%s, first%s: %s", n,
			 n == 1 ? "" : "s", at, f ? f->code : "?");
	emit_obj_begin(e, "check");
	emit_str(e, "summary", line);
	emit_bool(e, "sound", n == 0);
	emit_u64(e, "errors", n);
	emit_u64(e, "warnings", c->nwarn);
	if (f) {
		emit_row_begin(e, "first_error");
		if (f->offset != PD_NO_OFFSET)
			emit_u64(e, "offset", f->offset);
		else
			emit_null(e, "offset");
		emit_str(e, "code", f->code);
		emit_obj_end(e);
	} else {
		emit_null(e, "first_error");
	}
	emit_obj_end(e);
}
