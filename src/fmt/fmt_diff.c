// SPDX-License-Identifier: MIT
/* diff's output: the differences, grouped, and a verdict (fmt_diff.h). */
#include "fmt/fmt_diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base/strbuf.h"

/* A value in JSON: its own type; none (one side has no value) as null. */
static void emit_jval(struct emitter *e, const char *key,
		      const struct pd_jval *v)
{
	switch (v->kind) {
	case PD_J_BOOL: emit_bool(e, key, v->b); break;
	case PD_J_U64: emit_u64(e, key, v->u); break;
	case PD_J_S64: emit_s64(e, key, v->i); break;
	case PD_J_DOUBLE: emit_double(e, key, v->d, NULL); break;
	case PD_J_STR: emit_bytes_str(e, key, v->s, v->len); break;
	default: emit_null(e, key);
	}
}

/* A value in text: strings quoted, "(none)" for no value. */
static void put_val(struct strbuf *b, const struct pd_jval *v, bool share)
{
	char buf[64];

	switch (v->kind) {
	case PD_J_NONE: strbuf_put(b, "(none)", 6); return;
	case PD_J_NULL: strbuf_put(b, "null", 4); return;
	case PD_J_BOOL:
		strbuf_put(b, v->b ? "true" : "false", v->b ? 4 : 5);
		return;
	case PD_J_STR:
		strbuf_put(b, "\"", 1);
		strbuf_put(b, v->s, v->len);
		strbuf_put(b, "\"", 1);
		return;
	case PD_J_U64: snprintf(buf, sizeof(buf), "%" PRIu64, v->u); break;
	case PD_J_S64: snprintf(buf, sizeof(buf), "%" PRId64, v->i); break;
	case PD_J_DOUBLE:
		snprintf(buf, sizeof(buf), share ? "%.2f%%" : "%.6g", v->d);
		break;
	default: buf[0] = 0;
	}
	strbuf_put(b, buf, strlen(buf));
}

/* "a -> b (+12%)", or for a share "a% -> b% (+1.25)" */
static void item_text(struct strbuf *b, const struct pd_diff_item *it)
{
	char buf[64];
	double c;

	put_val(b, &it->a, it->share);
	strbuf_put(b, " -> ", 4);
	put_val(b, &it->b, it->share);
	if (!pd_diff_change(it, &c))
		return;
	if (it->share)
		snprintf(buf, sizeof(buf), " (%+.2f)", c);
	else
		snprintf(buf, sizeof(buf),
			 fabs(c) >= 10 ? " (%+.0f%%)" : " (%+.1f%%)", c);
	strbuf_put(b, buf, strlen(buf));
}

static void item_json(struct emitter *e, const struct pd_diff_item *it)
{
	double c;

	emit_row_begin(e, NULL);
	/* its strings from the file were redacted as the trees were made
	 * (capture.h) and comms as stats' paths were (pd_diff comm_name) */
	emit_private(e, "path", PRIV_NONE, it->path, strlen(it->path));
	emit_str(e, "group", pd_diff_group_names[it->group]);
	emit_jval(e, "a", &it->a);
	emit_jval(e, "b", &it->b);
	if (pd_diff_change(it, &c))
		emit_double(e, "change", c, NULL);
	emit_obj_end(e);
}

/* Text: a title per group, a line per difference under it. */
static void items_text(struct emitter *e, const struct diff_view *v)
{
	const struct pd_diff *d = v->d;
	struct strbuf b = {0};

	for (unsigned g = 0; g < PD_DIFF_NGROUPS; g++) {
		if (!d->count[g])
			continue;
		emit_obj_begin_t(e, pd_diff_group_names[g], "%s",
				 pd_diff_group_names[g]);
		for (size_t i = 0; i < d->n; i++) {
			const struct pd_diff_item *it = &d->v[i];

			if (it->group != g)
				continue;
			b.len = 0;
			strbuf_put(&b, it->path, strlen(it->path));
			if (!v->brief) {
				strbuf_put(&b, ": ", 2);
				item_text(&b, it);
			}
			emit_line_begin(e);
			emit_line_put_str(e, PRIV_NONE, b.p ? b.p : "");
			emit_line_end(e);
		}
		emit_obj_end(e);
	}
	free(b.p);
}

static void input(struct emitter *e, const char *key, const char *file,
		  const struct pd_diags *dg)
{
	emit_obj_begin(e, key);
	emit_private(e, "file", PRIV_PATH, file, strlen(file));
	emit_u64(e, "errors", dg->nerr);
	emit_u64(e, "warnings", dg->nwarn);
	emit_obj_end(e);
}

/* "differ: 3 differences (header 1, stats 2); B damaged: ..." */
static void verdict(struct strbuf *b, const struct diff_view *v)
{
	const struct pd_diff *d = v->d;
	size_t n = d->n + d->dropped;
	char buf[128];
	const char *sep = " (";

	if (v->not_recording[0] || v->not_recording[1]) {
		snprintf(buf, sizeof(buf),
			 "not compared: %s not a perf.data recording",
			 v->not_recording[0] && v->not_recording[1]
				 ? "A and B are"
			 : v->not_recording[0] ? "A is"
					       : "B is");
		strbuf_put(b, buf, strlen(buf));
		return;
	}
	if (!n) {
		strbuf_put(b, "same", 4);
	} else {
		snprintf(buf, sizeof(buf), "differ: %zu difference%s", n,
			 n == 1 ? "" : "s");
		strbuf_put(b, buf, strlen(buf));
		for (unsigned g = 0; g < PD_DIFF_NGROUPS; g++) {
			if (!d->count[g])
				continue;
			snprintf(buf, sizeof(buf), "%s%s %zu", sep,
				 pd_diff_group_names[g], d->count[g]);
			strbuf_put(b, buf, strlen(buf));
			sep = ", ";
		}
		strbuf_put(b, ")", *sep == ',' ? 1 : 0);
	}
	for (int side = 0; side < 2; side++) {
		const struct pd_diags *dg = side ? v->db : v->da;

		if (!dg->nerr)
			continue;
		snprintf(buf, sizeof(buf),
			 "; %s damaged (%zu error%s): compared as far as it "
			 "was read",
			 side ? "B" : "A", dg->nerr, dg->nerr == 1 ? "" : "s");
		strbuf_put(b, buf, strlen(buf));
	}
}

void emit_diff(struct emitter *e, const struct diff_view *v)
{
	const struct pd_diff *d = v->d;
	struct strbuf b = {0};

	if (!emit_is_json(e)) {
		emit_private(e, "against", PRIV_PATH, v->b, strlen(v->b));
		items_text(e, v);
	} else {
		emit_obj_begin(e, "diff");
		input(e, "a", v->a, v->da);
		input(e, "b", v->b, v->db);
		emit_arr_begin(e, "compared");
		for (unsigned g = 0; g < PD_DIFF_NGROUPS; g++)
			if (v->groups >> g & 1)
				emit_str(e, NULL, pd_diff_group_names[g]);
		emit_arr_end(e);
		emit_arr_begin(e, "differences");
		for (size_t i = 0; i < d->n; i++) {
			if (v->brief)
				emit_str(e, NULL, d->v[i].path);
			else
				item_json(e, &d->v[i]);
		}
		emit_arr_end(e);
		if (d->dropped)
			emit_u64(e, "differences_dropped", d->dropped);
		emit_bool(e, "same",
			  !d->n && !d->dropped && !v->not_recording[0] &&
				  !v->not_recording[1]);
	}
	verdict(&b, v);
	emit_str(e, "verdict", b.p ? b.p : "");
	free(b.p);
	if (emit_is_json(e))
		emit_obj_end(e);
}
