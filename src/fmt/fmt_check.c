// SPDX-License-Identifier: MIT
/*
 * The formatter for check's result: every finding (severity, file offset,
 * structure, code, what, message, values) and the summary.
 */
#include "fmt/fmt_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/session/evlist.h"
#include "lib/session/session.h"
#include "fmt/names.h"

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

/* "IP|TID|TIME" */
static void type_names(char *buf, size_t len, uint64_t t)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned b = 0; b < 64 && n < len; b++)
		if (t >> b & 1)
			n += (size_t)snprintf(
				buf + n, len - n, "%s%s", n ? "|" : "",
				b < pd_nsample_type_names &&
						pd_sample_type_names[b]
					? pd_sample_type_names[b]
					: "?");
}

/* "attr 0 (cpu-clock)'s sample_type (IP|TID) implies 24-byte samples; ..." */
static void cause_message(char *buf, size_t len, const struct pd_session *s,
			  const struct pd_check_layout *l)
{
	const char *name = s->evlist.v[l->attr].name;
	char names[512], sizes[96] = "";
	size_t n;

	type_names(names, sizeof(names), l->sample_type);
	if (l->size_count != l->misfits)
		snprintf(sizes, sizeof(sizes), " (%" PRIu64 " are %u bytes)",
			 l->size_count, l->size);
	n = (size_t)snprintf(buf, len, "attr %u%s%s%s's sample_type (%s) ",
			     l->attr, name[0] ? " (" : "", name,
			     name[0] ? ")" : "", names);
	if (n >= len)
		return;
	if (l->implied_size && l->size_count == l->misfits)
		n += (size_t)snprintf(
			buf + n, len - n,
			"implies %u-byte samples; %" PRIu64 " of its %" PRIu64
			" samples are %u bytes",
			l->implied_size, l->misfits, l->samples, l->size);
	else if (l->implied_size)
		n += (size_t)snprintf(buf + n, len - n,
				      "implies %u-byte samples; %" PRIu64
				      " of its %" PRIu64 " samples are not%s",
				      l->implied_size, l->misfits, l->samples,
				      sizes);
	else
		n += (size_t)snprintf(buf + n, len - n,
				      "does not fit %" PRIu64 " of its %" PRIu64
				      " samples%s",
				      l->misfits, l->samples, sizes);
	if (n >= len)
		return;
	n += (size_t)snprintf(buf + n, len - n,
			      ": their fields are read from the wrong places");
	if (l->other_findings && n < len)
		snprintf(buf + n, len - n,
			 ", which likely explains the %zu other findings on "
			 "samples",
			 l->other_findings);
}

static void repair_message(char *buf, size_t len,
			   const struct pd_check_repair *r)
{
	if (r->kind == PD_REPAIR_FEATURES)
		snprintf(buf, len,
			 "the feature bitmap (the %u bytes at 0x%" PRIx64
			 ") should be 0: no feature section follows the "
			 "records (perf record wrote none)",
			 r->size, r->offset);
	else
		snprintf(buf, len,
			 "data.size (the header field at 0x%" PRIx64
			 ") should be 0x%" PRIx64
			 ": the whole records run from data.offset 0x%" PRIx64
			 " to 0x%" PRIx64 " (perf record did not rewrite the "
			 "header)",
			 r->offset, r->value, r->start, r->end);
}

static void emit_cause(struct emitter *e, const struct pd_session *s,
		       const struct pd_check *c)
{
	const struct pd_check_layout *l = &c->layout;
	char msg[1024];

	if (!c->has_layout) {
		emit_text_hide(e, true);
		emit_null(e, "cause");
		emit_text_hide(e, false);
		return;
	}
	cause_message(msg, sizeof(msg), s, l);
	emit_obj_begin(e, "cause");
	emit_text_hide(e, true); /* text: the message says it */
	emit_str(e, "code", pd_codes[PD_C_SAMPLE_SIZE_MISMATCH].name);
	emit_u64(e, "attr", l->attr);
	emit_flags(e, "sample_type", l->sample_type, pd_sample_type_names,
		   pd_nsample_type_names);
	if (l->implied_size)
		emit_u64(e, "implied_size", l->implied_size);
	else
		emit_null(e, "implied_size");
	emit_u64(e, "samples", l->samples);
	emit_u64(e, "misfits", l->misfits);
	emit_u64(e, "size", l->size);
	emit_u64(e, "size_count", l->size_count);
	emit_offset(e, "first_offset", l->first_offset);
	emit_u64(e, "other_findings", l->other_findings);
	emit_text_hide(e, false);
	emit_str(e, "message", msg);
	emit_obj_end(e);
}

static void emit_repairs(struct emitter *e, const struct pd_check *c)
{
	char msg[512];

	emit_text_hide(e, !c->nrepairs);
	emit_arr_begin(e, "repairs");
	emit_text_hide(e, false);
	for (unsigned i = 0; i < c->nrepairs; i++) {
		const struct pd_check_repair *r = &c->repairs[i];

		repair_message(msg, sizeof(msg), r);
		emit_row_begin(e, NULL);
		emit_str(e, "field", r->field);
		emit_offset(e, "offset", r->offset);
		emit_u64(e, "size", r->size);
		emit_hex(e, "value", r->value);
		emit_str(e, "message", msg);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

static void emit_groups(struct emitter *e, const struct pd_check *c)
{
	emit_text_hide(e, !c->ngroups);
	emit_arr_begin(e, "groups");
	emit_text_hide(e, false);
	for (size_t i = 0; i < c->ngroups; i++) {
		const struct pd_check_group *g = &c->groups[i];

		emit_row_begin_t(e, NULL, "%s", g->name);
		emit_text_hide(e, true);
		emit_str(e, "code", g->name);
		emit_text_hide(e, false);
		emit_str(e, "severity", sev_name(g->sev));
		emit_u64(e, "count", g->count);
		if (g->first_offset != PD_NO_OFFSET)
			emit_offset(e, "first_offset", g->first_offset);
		else
			emit_null(e, "first_offset");
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void format_check_summary(char *buf, size_t len, const struct pd_session *s,
			  const struct pd_check *c)
{
	size_t n = (size_t)snprintf(buf, len, "%zu error%s", c->nerr,
				    c->nerr == 1 ? "" : "s");
	const char *sep = " (";

	for (size_t i = 0; i < c->ngroups && n < len; i++) {
		if (c->groups[i].sev != PD_ERR)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %zu", sep,
				      c->groups[i].name, c->groups[i].count);
		sep = ", ";
	}
	if (n < len && c->dropped) /* past PD_DIAG_MAX: counted, not kept */
		n += (size_t)snprintf(buf + n, len - n,
				      "%s%zu findings not kept", sep,
				      c->dropped);
	else if (n < len && sep[0] == ',')
		n += (size_t)snprintf(buf + n, len - n, ")");
	if (n < len && c->dropped)
		n += (size_t)snprintf(buf + n, len - n, ")");
	if (c->has_layout && n + 20 < len) {
		n += (size_t)snprintf(buf + n, len - n, "; likely cause: ");
		cause_message(buf + n, len - n, s, &c->layout);
		n += strlen(buf + n);
	}
	for (unsigned i = 0; i < c->nrepairs && n + 20 < len; i++) {
		n += (size_t)snprintf(buf + n, len - n, "; repair: ");
		repair_message(buf + n, len - n, &c->repairs[i]);
		n += strlen(buf + n);
	}
}

void emit_check(struct emitter *e, const struct pd_session *s,
		const struct pd_check *c)
{
	size_t shown[PD_NCODES] = {0};

	emit_obj_begin_t(e, "check", "Check");
	emit_bool(e, "sound", c->nerr == 0);
	emit_cause(e, s, c);
	emit_repairs(e, c);
	emit_groups(e, c);
	emit_arr_begin(e, "findings");
	for (size_t i = 0; i < c->n; i++) {
		/* text: the first of each code; the groups count them all */
		bool hide = shown[c->v[i].ecode]++ >= CHECK_TEXT_PER_CODE;

		emit_text_hide(e, hide);
		emit_finding(e, &c->v[i]);
		emit_text_hide(e, false);
	}
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
