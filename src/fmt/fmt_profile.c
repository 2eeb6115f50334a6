// SPDX-License-Identifier: MIT
/* The formatter for `perfdump profile` (see fmt_profile.h). */
#include "fmt/fmt_profile.h"
#include "lib/base/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *const profile_by_names[PROFILE_NBY] = {"function", "dso", "line",
						   "process", "thread"};

/* A table of addresses (functions, DSOs, lines), not of tasks. */
static bool by_address(const struct pd_profile *p)
{
	return p->by == PD_PROF_BY_FUNCTION || p->by == PD_PROF_BY_DSO ||
	       p->by == PD_PROF_BY_LINE;
}

/* Each event profiled: its samples and period, and those left unplaced. */
static void emit_events(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;
	char name[256];

	emit_arr_begin(e, "events");
	for (uint32_t i = 0; i < p->nevents; i++) {
		const struct pd_prof_event *pe = &p->events[i];
		bool funcs = by_address(p);

		profile_event_name(v, i, name, sizeof(name));
		emit_row_begin_t(e, NULL, "%s", name);
		emit_text_hide(e, true);
		emit_str(e, "event", name);
		emit_text_hide(e, false);
		emit_u64(e, "samples", pe->samples);
		emit_u64(e, "period", pe->period);
		emit_text_hide(e, !funcs || !pe->unmapped);
		emit_u64(e, "unmapped", pe->unmapped);
		emit_text_hide(e, !funcs || !pe->guest);
		emit_u64(e, "guest", pe->guest);
		emit_text_hide(e, !funcs || !pe->no_ip);
		emit_u64(e, "no_ip", pe->no_ip);
		emit_text_hide(e, false);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

static const char *dso_name(const struct pd_profile *p, uint32_t i)
{
	return i == PD_PROF_NONE ? "[unknown]" : p->dsos[i].short_name;
}

/* Rows shown of an event: --top per event. */
static bool shown(const struct profile_view *v, const struct pd_prof_row *r,
		  uint32_t *last_event, uint64_t *k)
{
	if (r->event != *last_event) {
		*last_event = r->event;
		*k = 0;
	}
	return !v->top || (*k)++ < v->top;
}

/* A row's inclusive counts (perf report --children): text its share. */
static void emit_children(struct emitter *e, const struct pd_profile *p,
			  const struct pd_prof_row *r)
{
	if (!p->children)
		return;
	emit_text_hide(e, true);
	emit_u64(e, "children_samples", r->children_samples);
	emit_text_hide(e, false);
	emit_percent(e, "children_percent", r->children_period,
		     p->events[r->event].period, 2);
	emit_text_hide(e, true);
	emit_u64(e, "children_period", r->children_period);
	emit_text_hide(e, false);
}

static const char *const function_cols[] = {
	"event",       "symbol",   "address",	  "size",     "samples",
	"percent",     "period",   "dso",	  "status",   "unverified",
	"source_file", "hot_line", "hot_address", "hot_file",
};
/* with callchains: the inclusive counts after the self ones */
#define CHILDREN_COLS "children_samples", "children_percent", "children_period"
static const char *const function_children_cols[] = {
	"event",      "symbol",	     "address",	    "size",	   "samples",
	"percent",    "period",	     CHILDREN_COLS, "dso",	   "status",
	"unverified", "source_file", "hot_line",    "hot_address", "hot_file",
};

/* A DSO's status, and whether its symbols are unverified: text shows
 * the status when not a match, "unverified=yes" instead of not-checked. */
static void emit_status(struct emitter *e, const struct pd_prof_dso *d)
{
	emit_text_hide(e, !d || d->status == PD_BID_MATCH || d->unverified);
	if (d)
		emit_str(e, "status", pd_bid_status_name(d->status));
	else
		emit_null(e, "status");
	emit_text_hide(e, !d || !d->unverified);
	emit_bool(e, "unverified", d && d->unverified);
	emit_text_hide(e, false);
}

/* A row's own counts, its inclusive ones, its DSO and the DSO's status. */
static void emit_row_counts(struct emitter *e, const struct pd_profile *p,
			    const struct pd_prof_row *r)
{
	const struct pd_prof_dso *d =
		r->dso == PD_PROF_NONE ? NULL : &p->dsos[r->dso];

	emit_u64(e, "samples", r->samples);
	emit_percent(e, "percent", r->period, p->events[r->event].period, 2);
	emit_u64(e, "period", r->period);
	emit_children(e, p, r);
	emit_private(e, "dso", PRIV_PATH, dso_name(p, r->dso),
		     strlen(dso_name(p, r->dso)));
	emit_status(e, d);
}

static void emit_function(struct emitter *e, const struct profile_view *v,
			  const struct pd_prof_row *r)
{
	const struct pd_profile *p = v->p;
	char name[256], title[32];
	const char *sym = r->symbol ? r->symbol : r->label;

	profile_event_name(v, r->event, name, sizeof(name));
	snprintf(title, sizeof(title), "0x%016" PRIx64, r->addr);
	emit_row_begin_title(e, NULL, sym ? sym : title);
	emit_text_hide(e, p->nevents < 2);
	emit_str(e, "event", name);
	emit_text_hide(e, true);
	if (sym)
		emit_str(e, "symbol", sym);
	else
		emit_null(e, "symbol");
	if (r->label) /* not symbolized: no address */
		emit_null(e, "address");
	else
		emit_hex(e, "address", r->addr);
	if (r->symbol)
		emit_u64(e, "size", r->size);
	else
		emit_null(e, "size");
	emit_text_hide(e, false);
	emit_row_counts(e, p, r);
	emit_private_opt(e, "source_file", PRIV_PATH, r->source_file);
	emit_text_hide(e, !r->hot_line);
	if (r->hot_line)
		emit_u64(e, "hot_line", (uint64_t)r->hot_line);
	else
		emit_null(e, "hot_line");
	emit_text_hide(e, true);
	if (r->label || !r->hot_samples) /* a row of callers alone: none */
		emit_null(e, "hot_address");
	else
		emit_hex(e, "hot_address", r->hot_addr);
	emit_text_hide(e,
		       !r->hot_file || (r->source_file &&
					!strcmp(r->hot_file, r->source_file)));
	emit_private_opt(e, "hot_file", PRIV_PATH, r->hot_file);
	emit_text_hide(e, false);
	emit_obj_end(e);
}

static void emit_functions(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;
	uint32_t last = PD_PROF_NONE;
	uint64_t k = 0;

	if (p->children)
		emit_table_begin(e, "functions", function_children_cols,
				 PD_NELEMS(function_children_cols));
	else
		emit_table_begin(e, "functions", function_cols,
				 PD_NELEMS(function_cols));
	for (uint32_t i = 0; i < p->nrows; i++)
		if (shown(v, &p->rows[i], &last, &k))
			emit_function(e, v, &p->rows[i]);
	emit_table_end(e);
}

static const char *const line_cols[] = {
	"event",   "srcline", "source_file", "line",   "samples",
	"percent", "period",  "dso",	     "status", "unverified",
};

/* --by line: a row per event and source line, titled as perf names it */
static void emit_lines(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;
	uint32_t last = PD_PROF_NONE;
	uint64_t k = 0;
	char name[256];

	emit_table_begin(e, "lines", line_cols, PD_NELEMS(line_cols));
	for (uint32_t i = 0; i < p->nrows; i++) {
		const struct pd_prof_row *r = &p->rows[i];

		if (!shown(v, r, &last, &k))
			continue;
		profile_event_name(v, r->event, name, sizeof(name));
		emit_row_begin_title(e, NULL, r->label);
		emit_text_hide(e, p->nevents < 2);
		emit_str(e, "event", name);
		emit_text_hide(e, true);
		emit_private(e, "srcline", PRIV_PATH, r->label,
			     strlen(r->label));
		emit_text_hide(e, false);
		emit_private_opt(e, "source_file", PRIV_PATH, r->source_file);
		emit_text_hide(e, true);
		if (r->source_file)
			emit_u64(e, "line", (uint64_t)r->line);
		else
			emit_null(e, "line");
		emit_text_hide(e, false);
		emit_row_counts(e, p, r);
		emit_obj_end(e);
	}
	emit_table_end(e);
}

/* How a DSO was resolved: status, files, symbols. */
static void emit_dso_res(struct emitter *e, const struct pd_prof_dso *d)
{
	emit_status(e, d);
	emit_text_hide(e, true);
	emit_str(e, "name", d->name);
	if (d->build_id_size)
		emit_hexstr(e, "build_id", d->build_id, d->build_id_size);
	else
		emit_null(e, "build_id");
	emit_text_hide(e, false);
	emit_private_opt(e, "detail", PRIV_NONE, d->detail);
	emit_private_opt(e, "path", PRIV_PATH, d->path);
	emit_private_opt(e, "debug_path", PRIV_PATH, d->debug_path);
	emit_str(e, "symbols", pd_sym_src_name(d->src));
	emit_text_hide(e, true);
	emit_u64(e, "nsyms", d->nsyms);
	emit_text_hide(e, !d->dropped_syms);
	emit_u64(e, "symbols_not_kept", d->dropped_syms);
	emit_text_hide(e, !d->lines);
	emit_private_opt(e, "lines", PRIV_NONE, d->lines);
	emit_text_hide(e, false);
}

static const char *const dso_cols[] = {
	"event",  "dso",	"samples", "percent",  "period",
	"status", "unverified", "name",	   "build_id", "detail",
	"path",	  "debug_path", "symbols", "nsyms",    "symbols_not_kept",
	"lines",
};
static const char *const dso_children_cols[] = {
	"event",      "dso",	     "samples", "percent",
	"period",     CHILDREN_COLS, "status",	"unverified",
	"name",	      "build_id",    "detail",	"path",
	"debug_path", "symbols",     "nsyms",	"symbols_not_kept",
	"lines",
};

/* --by dso: a row per event and DSO */
static void emit_dso_rows(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;
	uint32_t last = PD_PROF_NONE;
	uint64_t k = 0;
	char name[256];
	static const struct pd_prof_dso unknown = {
		.name = "[unknown]",
		.status = PD_BID_PSEUDO,
		.detail = "no map holds the address",
	};

	if (p->children)
		emit_table_begin(e, "dsos", dso_children_cols,
				 PD_NELEMS(dso_children_cols));
	else
		emit_table_begin(e, "dsos", dso_cols, PD_NELEMS(dso_cols));
	for (uint32_t i = 0; i < p->nrows; i++) {
		const struct pd_prof_row *r = &p->rows[i];
		const struct pd_prof_dso *d =
			r->dso == PD_PROF_NONE ? &unknown : &p->dsos[r->dso];

		if (!shown(v, r, &last, &k))
			continue;
		profile_event_name(v, r->event, name, sizeof(name));
		emit_row_begin_title(e, NULL, dso_name(p, r->dso));
		emit_text_hide(e, p->nevents < 2);
		emit_str(e, "event", name);
		emit_text_hide(e, true);
		emit_private(e, "dso", PRIV_PATH, dso_name(p, r->dso),
			     strlen(dso_name(p, r->dso)));
		emit_text_hide(e, false);
		emit_u64(e, "samples", r->samples);
		emit_percent(e, "percent", r->period,
			     p->events[r->event].period, 2);
		emit_u64(e, "period", r->period);
		emit_children(e, p, r);
		emit_dso_res(e, d);
		emit_obj_end(e);
	}
	emit_table_end(e);
}

/* --by function: each DSO once, how it was symbolized */
static void emit_dso_list(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;

	emit_arr_begin(e, "dsos");
	for (uint32_t i = 0; i < p->ndsos; i++) {
		const struct pd_prof_dso *d = &p->dsos[i];

		if (!d->samples && !d->nrows) /* nrows: in callchains */
			continue;
		emit_row_begin_title(e, NULL, d->short_name);
		emit_text_hide(e, true);
		emit_private(e, "dso", PRIV_PATH, d->short_name,
			     strlen(d->short_name));
		emit_text_hide(e, false);
		emit_u64(e, "samples", d->samples);
		emit_u64(e, "period", d->period);
		emit_dso_res(e, d);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

static void emit_summary(struct emitter *e, const struct pd_profile *p)
{
	emit_obj_begin(e, "summary");
	emit_u64(e, "rows", by_address(p) ? p->nrows : p->nthreads);
	emit_text_hide(e, !p->unverified_samples);
	emit_u64(e, "unverified_samples", p->unverified_samples);
	emit_text_hide(e, !p->samples_no_attr);
	emit_u64(e, "samples_no_attr", p->samples_no_attr);
	emit_text_hide(e, !p->rows_not_kept);
	emit_u64(e, "rows_not_kept", p->rows_not_kept);
	emit_text_hide(e, !p->addr_folds);
	emit_u64(e, "address_table_folds", p->addr_folds);
	emit_text_hide(e, !p->maps_not_kept);
	emit_u64(e, "maps_not_kept", p->maps_not_kept);
	emit_text_hide(e, !p->threads_not_kept);
	emit_u64(e, "threads_not_kept", p->threads_not_kept);
	emit_text_hide(e, !p->comms_not_kept);
	emit_u64(e, "comms_not_kept", p->comms_not_kept);
	emit_text_hide(e, false);
	emit_obj_end(e);
}

void emit_profile(struct emitter *e, const struct profile_view *v)
{
	const struct pd_profile *p = v->p;

	emit_obj_begin(e, "profile");
	emit_str(e, "by", profile_by_names[p->by]);
	emit_text_hide(e, !p->children);
	emit_bool(e, "children", p->children);
	emit_text_hide(e, false);
	emit_u64(e, "samples", p->samples);
	emit_u64(e, "period", p->period);
	emit_events(e, v);
	switch (p->by) {
	case PD_PROF_BY_FUNCTION:
		emit_functions(e, v);
		emit_dso_list(e, v);
		break;
	case PD_PROF_BY_DSO: emit_dso_rows(e, v); break;
	case PD_PROF_BY_PROCESS: emit_profile_processes(e, v); break;
	case PD_PROF_BY_THREAD: emit_profile_threads(e, v); break;
	case PD_PROF_BY_LINE:
		emit_lines(e, v);
		emit_dso_list(e, v);
		break;
	}
	emit_summary(e, p);
	emit_obj_end(e);
}
