// SPDX-License-Identifier: MIT
/*
 * Formatters for TRACING_DATA, BUILD_ID, EVENT_DESC, PMU_MAPPINGS,
 * GROUP_DESC and AUXTRACE (models in lib/format/feat_meta.h).  The BPF features
 * are in fmt_feat_bpf.c.
 */
#include <inttypes.h>

#include "fmt/fmt_attr.h"
#include "fmt/fmt_buildids.h"
#include "fmt/fmt_features.h"
#include "fmt/fmt_tracepoint.h"
#include "fmt/names.h"

/* ---- TRACING_DATA ---------------------------------------------------- */

static void emit_trace_events(struct emitter *e,
			      const struct feat_tracing_data *m)
{
	emit_u64(e, "nr_events", m->nevents);
	emit_arr_begin(e, "events");
	for (size_t i = 0; i < m->nevents; i++) {
		const struct pd_trace_format *ev = &m->events[i];

		emit_obj_begin(e, NULL);
		emit_pstr(e, "system", &ev->system);
		emit_pstr(e, "name", &ev->name);
		if (ev->has_id)
			emit_u64(e, "id", ev->id);
		else
			emit_null(e, "id");
		emit_offset(e, "offset", ev->offset);
		emit_u64(e, "size", ev->size);
		if (m->tp && i < m->tp->nevents)
			emit_tp_format(e, &m->tp->events[i]);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

static void emit_trace_systems(struct emitter *e,
			       const struct feat_tracing_data *m)
{
	if (!m->has_nr_systems)
		return;
	emit_u64(e, "nr_systems", m->nr_systems);
	emit_arr_begin(e, "systems");
	for (size_t i = 0; i < m->nsystems; i++) {
		emit_row_begin(e, NULL);
		emit_pstr(e, "name", &m->systems[i].name);
		emit_u64(e, "nr_events", m->systems[i].nr_events);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

static void emit_trace_head(struct emitter *e,
			    const struct feat_tracing_data *m)
{
	emit_bool(e, "magic_ok", m->step >= PD_TRACE_MAGIC);
	if (m->step < PD_TRACE_PARAMS)
		return;
	emit_pstr(e, "version", &m->version);
	emit_enum(e, "big_endian", m->endian,
		  m->endian ? "big-endian" : "little-endian");
	emit_u64(e, "long_size", m->long_size);
	emit_u64(e, "page_size", m->page_size);
	if (m->step < PD_TRACE_HEADER_PAGE)
		return;
	emit_offset(e, "header_page_offset", m->header_page_offset);
	emit_u64(e, "header_page_size", m->header_page_size);
	emit_arr_begin(e, "header_page_fields");
	for (unsigned i = 0; i < m->nr_header_page_fields; i++)
		emit_pstr(e, NULL, &m->header_page_fields[i]);
	emit_arr_end(e);
	if (m->step < PD_TRACE_HEADER_EVENT)
		return;
	emit_offset(e, "header_event_offset", m->header_event_offset);
	emit_u64(e, "header_event_size", m->header_event_size);
}

static void emit_trace_tail(struct emitter *e,
			    const struct feat_tracing_data *m)
{
	if (m->step >= PD_TRACE_KALLSYMS) {
		emit_offset(e, "kallsyms_offset", m->kallsyms_offset);
		emit_u64(e, "kallsyms_size", m->kallsyms_size);
	}
	if (m->step >= PD_TRACE_PRINTK) {
		emit_offset(e, "printk_offset", m->printk_offset);
		emit_u64(e, "printk_size", m->printk_size);
	}
	if (m->step >= PD_TRACE_DONE && m->has_saved_cmdlines) {
		emit_offset(e, "saved_cmdlines_offset",
			    m->saved_cmdlines_offset);
		emit_u64(e, "saved_cmdlines_size", m->saved_cmdlines_size);
	} else if (m->step >= PD_TRACE_DONE) {
		/* version < 0.6 writes none */
		emit_null(e, "saved_cmdlines_offset");
		emit_null(e, "saved_cmdlines_size");
	}
}

static void emit_tracing_blob(struct emitter *e,
			      const struct feat_tracing_data *m)
{
	emit_offset(e, "blob_offset", m->offset);
	emit_size(e, "blob_size", m->size);
	emit_bool(e, "complete", m->step == PD_TRACE_DONE);
	emit_trace_head(e, m);
	if (m->has_nr_ftrace)
		emit_u64(e, "nr_ftrace", m->nr_ftrace);
	emit_trace_systems(e, m);
	emit_trace_events(e, m);
	emit_trace_tail(e, m);
	emit_u64(e, "padding", m->padding);
}

void emit_feat_tracing_data(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f)
{
	const struct feat_tracing_data *m = f->model;

	(void)s;
	emit_tracing_blob(e, m);
	if (!m->next)
		return;
	emit_arr_begin(e, "more_blobs");
	for (m = m->next; m; m = m->next) {
		emit_obj_begin(e, NULL);
		emit_tracing_blob(e, m);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* ---- BUILD_ID -------------------------------------------------------- */

void emit_feat_build_id(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f)
{
	const struct feat_build_id *m = f->model;

	(void)s;
	emit_u64(e, "nr", m->nr);
	emit_bool(e, "pre_pid_abi", m->abi_quirk);
	emit_arr_begin(e, "build_ids");
	for (size_t i = 0; i < m->nr; i++) {
		const struct pd_build_id *b = &m->v[i];
		unsigned mode = b->misc & PD_MISC_CPUMODE_MASK;

		emit_row_begin(e, NULL);
		emit_offset(e, "offset", b->offset);
		emit_u64(e, "size", b->size);
		emit_u64(e, "type", b->type);
		emit_hex(e, "misc", b->misc);
		emit_enum(e, "cpumode", mode, pd_cpumode_name(mode));
		if (b->has_pid)
			emit_s64(e, "pid", b->pid);
		else
			emit_null(e, "pid");
		emit_u64(e, "build_id_size", b->build_id_size);
		emit_hexstr(e, "build_id", b->build_id, b->build_id_size);
		emit_private_pstr(e, "filename", PRIV_PATH, &b->filename);
		if (m->res)
			emit_bid_res(e, &m->res[i]);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* ---- EVENT_DESC ------------------------------------------------------ */

void emit_feat_event_desc(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f)
{
	const struct feat_event_desc *m = f->model;

	emit_u64(e, "nr", m->nr);
	emit_u64(e, "attr_sz", m->attr_sz);
	emit_arr_begin(e, "events");
	for (uint32_t i = 0; i < m->nr_read; i++) {
		const struct pd_event_desc *d = &m->ev[i];

		emit_obj_begin_t(e, NULL, "event %u", i);
		if (d->name.s)
			emit_pstr(e, "name", &d->name);
		else
			emit_null(e, "name");
		emit_offset(e, "attr_offset", d->attr.offset);
		/* the attrs command's formatter: the two cannot differ */
		emit_attr_fields(e, s, &d->attr);
		emit_u64(e, "nr_ids", d->nr_ids);
		emit_arr_begin(e, "ids");
		for (uint32_t j = 0; j < d->ids_read; j++)
			emit_hex(e, NULL, d->ids[j]);
		emit_arr_end(e);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* ---- PMU_MAPPINGS, GROUP_DESC, AUXTRACE ------------------------------ */

void emit_feat_pmu_mappings(struct emitter *e, const struct pd_session *s,
			    const struct pd_feature *f)
{
	const struct feat_pmu_mappings *m = f->model;

	(void)s;
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "mappings");
	for (uint32_t i = 0; i < m->nr_read; i++) {
		emit_row_begin(e, NULL);
		emit_u64(e, "type", m->v[i].type);
		emit_pstr(e, "name", &m->v[i].name);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_feat_group_desc(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f)
{
	const struct feat_group_desc *m = f->model;

	(void)s;
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "groups");
	for (uint32_t i = 0; i < m->nr_read; i++) {
		emit_row_begin(e, NULL);
		emit_pstr(e, "name", &m->v[i].name);
		emit_u64(e, "leader_idx", m->v[i].leader_idx);
		emit_u64(e, "nr_members", m->v[i].nr_members);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_feat_auxtrace(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f)
{
	const struct feat_auxtrace *m = f->model;

	(void)s;
	/* simpleperf writes no nr: the count comes from the section size */
	emit_str(e, "layout", m->no_nr ? "simpleperf" : "perf");
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "entries");
	for (uint64_t i = 0; i < m->nr_read; i++) {
		emit_row_begin(e, NULL);
		emit_offset(e, "file_offset", m->v[i].file_offset);
		emit_u64(e, "sz", m->v[i].sz);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}
