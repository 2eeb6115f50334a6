// SPDX-License-Identifier: MIT
/*
 * The formatter for check's result: every finding (severity, file offset,
 * structure, code, what, message, values) and the summary.
 */
#include "fmt_check.h"

#include <inttypes.h>
#include <stdio.h>

static const char *sev_name(enum pd_sev sev)
{
	return sev == PD_ERR ? "error" : "warning";
}

static void emit_finding(struct emitter *e, const struct pd_finding *f)
{
	char title[192];

	if (f->offset != PD_NO_OFFSET)
		snprintf(title, sizeof(title), "%s 0x%" PRIx64 " %s [%s]",
			 sev_name(f->sev), f->offset, f->structure, f->code);
	else
		snprintf(title, sizeof(title), "%s - %s [%s]", sev_name(f->sev),
			 f->structure, f->code);
	emit_row_begin_title(e, NULL, title);
	/* the title shows these in text */
	emit_text_hide(e, true);
	emit_str(e, "severity", sev_name(f->sev));
	if (f->offset != PD_NO_OFFSET)
		emit_offset(e, "offset", f->offset);
	else
		emit_null(e, "offset");
	emit_str(e, "structure", f->structure);
	emit_str(e, "code", f->code);
	emit_str(e, "what", f->what);
	emit_text_hide(e, false);
	emit_str(e, "message", f->message);
	/* JSON: always an object; text: only when there are values */
	emit_text_hide(e, !f->nvalues);
	emit_row_begin(e, "values");
	emit_text_hide(e, false);
	for (unsigned i = 0; i < f->nvalues; i++) {
		if (f->values[i].hex)
			emit_hex(e, f->values[i].key, f->values[i].v);
		else
			emit_u64(e, f->values[i].key, f->values[i].v);
	}
	emit_obj_end(e);
	emit_obj_end(e);
}

void emit_check(struct emitter *e, const struct pd_check *c)
{
	emit_obj_begin_t(e, "check", "Check");
	emit_bool(e, "sound", c->nerr == 0);
	emit_arr_begin(e, "findings");
	for (size_t i = 0; i < c->n; i++)
		emit_finding(e, &c->v[i]);
	emit_arr_end(e);
	emit_obj_begin_t(e, "summary", "Summary");
	emit_u64(e, "errors", c->nerr);
	emit_u64(e, "warnings", c->nwarn);
	if (c->dropped)
		emit_u64(e, "findings_not_listed", c->dropped);
	emit_u64(e, "records_checked", c->records_checked);
	/* perf: "Warning: N out of order events recorded." */
	emit_u64(e, "out_of_order_events", c->out_of_order);
	emit_u64(e, "max_late_ns", c->max_late_ns);
	if (c->out_of_order)
		emit_offset(e, "max_late_offset", c->max_late_offset);
	else
		emit_null(e, "max_late_offset");
	emit_size(e, "bytes_covered", c->bytes_covered);
	emit_size(e, "file_size", c->file_size);
	emit_str(e, "result", c->nerr ? "damaged" : "sound");
	emit_obj_end(e);
	emit_obj_end(e);
}

int print_code_list(FILE *f)
{
	for (int i = 0; i < PD_NCODES; i++)
		fprintf(f, "%s\t%s\t%s\n", pd_codes[i].name,
			sev_name(pd_codes[i].sev), pd_codes[i].meaning);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
