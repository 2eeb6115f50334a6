// SPDX-License-Identifier: MIT
/* The formatter for the summary (see fmt_summary.h). */
#include "fmt/fmt_summary.h"

#include <inttypes.h>
#include <stdio.h>

#include "lib/session/evlist.h"
#include "lib/format/feat_sys.h"
#include "lib/format/features.h"
#include "fmt/fmt_features.h"
#include "fmt/names.h"

/* The decoded model of feature id, or NULL. */
static const void *model(const struct pd_session *s, unsigned id)
{
	const struct pd_feature *f = pd_find_feature(s, id);

	return f && f->decoded ? f->model : NULL;
}

/* A header string feature, or null. */
static void emit_feat_str(struct emitter *e, const struct pd_session *s,
			  const char *key, unsigned id, enum pd_priv kind)
{
	const struct feat_string *m = model(s, id);

	if (m)
		emit_private_pstr(e, key, kind, &m->str);
	else
		emit_null(e, key);
}

/* How the recording is stored and what made it, on which machine. */
static void emit_origin(struct emitter *e, const struct pd_session *s,
			const struct pd_stats *st)
{
	const struct feat_nrcpus *cpus = model(s, HEADER_NRCPUS);
	const struct feat_cmdline *cmd = model(s, HEADER_CMDLINE);

	emit_str(e, "mode",
		 s->mode == PD_MODE_PIPE  ? "pipe"
		 : s->mode == PD_MODE_DIR ? "directory"
					  : "file");
	emit_str(e, "endianness", s->big_endian ? "big" : "little");
	emit_size(e, "file_size", s->in.size);
	emit_size(e, "data_size", st->data_bytes);
	emit_feat_str(e, s, "perf_version", HEADER_VERSION, PRIV_NONE);
	emit_feat_str(e, s, "hostname", HEADER_HOSTNAME, PRIV_HOST);
	emit_feat_str(e, s, "os_release", HEADER_OSRELEASE, PRIV_NONE);
	emit_feat_str(e, s, "arch", HEADER_ARCH, PRIV_NONE);
	if (cpus)
		emit_u64(e, "nr_cpus_online", cpus->nr_cpus_online);
	else
		emit_null(e, "nr_cpus_online");
	if (!cmd) {
		emit_null(e, "cmdline");
		return;
	}
	emit_argv(e, "cmdline", cmd->argv.v, cmd->argv.nr);
}

static void emit_span(struct emitter *e, const struct pd_stats *st)
{
	char buf[48];
	uint64_t d = st->max_time - st->min_time;

	if (!st->timed_samples) {
		emit_null(e, "time");
		return;
	}
	emit_row_begin(e, "time");
	format_perf_time(buf, sizeof(buf), st->min_time);
	emit_str(e, "first_s", buf);
	format_perf_time(buf, sizeof(buf), st->max_time);
	emit_str(e, "last_s", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%09" PRIu64, d / NSEC_PER_SEC,
		 d % NSEC_PER_SEC);
	emit_str(e, "duration_s", buf);
	emit_obj_end(e);
}

void emit_summary(struct emitter *e, const struct pd_session *s,
		  const struct pd_stats *st)
{
	const struct pd_evlist *l = &s->evlist;

	emit_obj_begin(e, "summary");
	emit_origin(e, s, st);
	emit_u64(e, "records", st->total_records);
	emit_u64(e, "samples", st->samples);
	emit_arr_begin(e, "events");
	for (uint32_t i = 0; i < l->n; i++) {
		const struct pd_evsel *ev = &l->v[i];
		char label[32];

		emit_row_begin_title(e, NULL,
				     pd_evsel_label(ev, label, sizeof(label)));
		emit_text_hide(e, true);
		if (ev->name[0])
			emit_str(e, "name", ev->name);
		else
			emit_null(e, "name");
		emit_text_hide(e, false);
		emit_u64(e, "attr", ev->idx);
		emit_u64(e, "samples",
			 i < st->nevents ? st->events[i].samples : 0);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_span(e, st);
	emit_row_begin(e, "lost");
	emit_u64(e, "events", st->lost);
	emit_u64(e, "samples", st->lost_samples);
	emit_obj_end(e);
	emit_str(e, "result", s->diags.nerr ? "damaged" : "sound");
	emit_obj_end(e);
}
