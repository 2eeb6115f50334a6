// SPDX-License-Identifier: MIT
/*
 * perf_event_attr, every field by name (include/uapi/linux/perf_event.h),
 * with the names perf gives the event (evsel.c
 * evsel__hw_name, evsel__sw_name, evsel__hw_cache_name, evsel__bp_name,
 * evsel__raw_name, tracepoints from TRACING_DATA), its ids and their
 * ID_INDEX entries.  A field outside attr.size is not shown at all.
 */
#include "fmt/fmt_attr.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/format/feat_meta.h"
#include "lib/format/features.h"
#include "fmt/names.h"

/* "sched:sched_switch" for a tracepoint id, from TRACING_DATA. */
static const char *tracepoint_name(const struct pd_session *s, uint64_t id,
				   char *buf, size_t len)
{
	const struct pd_feature *f = pd_find_feature(s, HEADER_TRACING_DATA);
	const struct pd_trace_format *t;

	if (!f || !f->model)
		return NULL;
	t = pd_tracing_find_id(f->model, id);
	if (!t || !t->name.len)
		return NULL;
	snprintf(buf, len, "%.*s:%.*s", (int)t->system.len, t->system.s,
		 (int)t->name.len, t->name.s);
	return buf;
}

/* The event the type and config select, named as perf names it. */
static const char *config_name(const struct pd_session *s,
			       const struct pd_attr *a, char *buf, size_t len)
{
	if (a->type == PD_TYPE_TRACEPOINT)
		return tracepoint_name(s, a->config, buf, len);
	/* none for dynamic PMUs: their meaning is in sysfs, not in the file */
	return pd_attr_config_name(a, buf, len);
}

static void emit_config(struct emitter *e, const struct pd_session *s,
			const struct pd_attr *a)
{
	char buf[256], pmu[64];
	const char *n = config_name(s, a, buf, sizeof(buf));

	emit_hex(e, "config", a->config);
	if (n)
		emit_str(e, "config_name", n);
	else
		emit_null(e, "config_name");
	/* hybrid: the PMU a generic event is meant for */
	if ((a->type == PD_TYPE_HARDWARE || a->type == PD_TYPE_HW_CACHE) &&
	    a->config >> PD_PMU_TYPE_SHIFT) {
		uint32_t t = (uint32_t)(a->config >> PD_PMU_TYPE_SHIFT);

		emit_enum(e, "extended_type", t,
			  pd_pmu_mapping_name(s, t, pmu, sizeof(pmu)));
	}
}

/* sample_period or sample_freq (a union, chosen by the freq flag). */
static void emit_sampling(struct emitter *e, const struct pd_attr *a)
{
	if (a->flags & PD_ATTR_FREQ) {
		emit_u64(e, "sample_freq", a->sample_period);
		emit_strf(e, "sampling",
			  "%" PRIu64 " samples per second (freq)",
			  a->sample_period);
	} else {
		emit_u64(e, "sample_period", a->sample_period);
		if (a->sample_period == 1)
			emit_str(e, "sampling", "one sample per event");
		else if (a->sample_period)
			emit_strf(e, "sampling",
				  "one sample every %" PRIu64 " events",
				  a->sample_period);
		else
			emit_str(e, "sampling", "none (counting only)");
	}
}

void emit_precise_ip(struct emitter *e, uint64_t flags)
{
	unsigned p = (unsigned)(flags >> PD_ATTR_PRECISE_SHIFT) & 3;
	char mod[8] = ":ppp";

	emit_enum(e, "precise_ip", p, pd_precise_ip_meaning(p));
	/* perf's event modifier: "p" x precise_ip; none for 0 */
	if (p) {
		mod[p + 1] = '\0';
		emit_str(e, "precise_ip_modifier", mod);
	} else {
		emit_null(e, "precise_ip_modifier");
	}
}

static void emit_clockid(struct emitter *e, const struct pd_attr *a)
{
	if (!(a->flags & PD_ATTR_USE_CLOCKID)) {
		/* not used: only the stored value */
		emit_s64(e, "clockid", a->clockid);
		return;
	}
	if (a->clockid < 0) {
		emit_s64(e, "clockid", a->clockid);
		emit_null(e, "clockid_name");
		return;
	}
	emit_enum(e, "clockid", (uint64_t)a->clockid,
		  pd_clockid_name(a->clockid));
}

/* Fields at offsets 48..71: wakeup, breakpoint or config1/config2. */
static void emit_mid_fields(struct emitter *e, const struct pd_attr *a)
{
	bool bp = a->type == PD_TYPE_BREAKPOINT;

	if (attr_has(a, 48, 4))
		emit_u64(e,
			 a->flags & PD_ATTR_WATERMARK ? "wakeup_watermark"
						      : "wakeup_events",
			 a->wakeup_events);
	if (attr_has(a, 52, 4))
		emit_flags(e, "bp_type", a->bp_type, pd_bp_type_names,
			   pd_nbp_type_names);
	if (attr_has(a, 56, 8))
		emit_hex(e, bp ? "bp_addr" : "config1", a->config1);
	if (attr_has(a, 64, 8)) {
		if (bp)
			emit_u64(e, "bp_len", a->config2);
		else
			emit_hex(e, "config2", a->config2);
	}
}

/* Fields at offsets 72..143 (VER2 .. VER9). */
static void emit_late_fields(struct emitter *e, const struct pd_attr *a)
{
	if (attr_has(a, 72, 8))
		emit_flags(e, "branch_sample_type", a->branch_sample_type,
			   pd_branch_sample_type_names,
			   pd_nbranch_sample_type_names);
	if (attr_has(a, 80, 8))
		emit_hex(e, "sample_regs_user", a->sample_regs_user);
	if (attr_has(a, 88, 4))
		emit_u64(e, "sample_stack_user", a->sample_stack_user);
	if (attr_has(a, 92, 4))
		emit_clockid(e, a);
	if (attr_has(a, 96, 8))
		emit_hex(e, "sample_regs_intr", a->sample_regs_intr);
	if (attr_has(a, 104, 4))
		emit_u64(e, "aux_watermark", a->aux_watermark);
	if (attr_has(a, 108, 2))
		emit_u64(e, "sample_max_stack", a->sample_max_stack);
	if (attr_has(a, 110, 2))
		emit_hex(e, "reserved_2", a->reserved_2);
	if (attr_has(a, 112, 4))
		emit_u64(e, "aux_sample_size", a->aux_sample_size);
	if (attr_has(a, 116, 4))
		emit_flags(e, "aux_action", a->aux_action, pd_aux_action_names,
			   pd_naux_action_names);
	if (attr_has(a, 120, 8))
		emit_hex(e, "sig_data", a->sig_data);
	if (attr_has(a, 128, 8))
		emit_hex(e, "config3", a->config3);
	if (attr_has(a, 136, 8))
		emit_hex(e, "config4", a->config4);
}

void emit_attr_fields(struct emitter *e, const struct pd_session *s,
		      const struct pd_attr *a)
{
	char pmu[64], sz[48];
	uint32_t size = a->size ? a->size : PD_ATTR_SIZE_VER0;

	if (!attr_has(a, 0, 8)) {
		/* not even type and size could be read (reported) */
		emit_u64(e, "bytes_decoded", 0);
		return;
	}
	emit_enum(e, "type", a->type,
		  pd_pmu_type_name(s, a->type, pmu, sizeof(pmu)));
	emit_enum(e, "size", a->size,
		  pd_attr_size_name(a->size, sz, sizeof(sz)));
	if (a->avail < size)
		emit_u64(e, "bytes_decoded", a->avail);
	if (attr_has(a, 8, 8))
		emit_config(e, s, a);
	if (attr_has(a, 16, 8))
		emit_sampling(e, a);
	if (attr_has(a, 24, 8))
		emit_flags(e, "sample_type", a->sample_type,
			   pd_sample_type_names, pd_nsample_type_names);
	if (attr_has(a, 32, 8))
		emit_flags(e, "read_format", a->read_format,
			   pd_read_format_names, pd_nread_format_names);
	if (attr_has(a, 40, 8)) {
		emit_flags(e, "flags", a->flags, pd_attr_flag_names,
			   pd_nattr_flag_names);
		emit_precise_ip(e, a->flags);
	}
	emit_mid_fields(e, a);
	emit_late_fields(e, a);
	if (a->nextra) {
		/* beyond the newest layout perfdump knows: shown, not decoded */
		emit_u64(e, "extra_size", a->nextra);
		emit_hexdump(e, "extra", a->extra, a->nextra, a->extra_offset);
	}
}

static void emit_id_index(struct emitter *e, const struct pd_evsel *ev,
			  const struct pd_id_index *ix)
{
	emit_arr_begin(e, "id_index");
	for (uint32_t i = 0; i < ev->nids; i++) {
		const struct pd_id_index_entry *x =
			pd_id_index_find(ix, ev->ids[i]);

		if (!x)
			continue;
		emit_row_begin(e, NULL);
		emit_hex(e, "id", x->id);
		emit_u64(e, "idx", x->idx);
		/* cpu and tid are -1 for "any", stored as u64 */
		emit_s64(e, "cpu", (int64_t)x->cpu);
		emit_s64(e, "tid", (int64_t)x->tid);
		if (x->has_guest) {
			emit_s64(e, "machine_pid", (int64_t)x->machine_pid);
			emit_s64(e, "vcpu", (int64_t)x->vcpu);
		}
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_evsel(struct emitter *e, const struct pd_session *s,
		const struct pd_evsel *ev, const struct pd_id_index *ix,
		const uint8_t *raw, size_t rawlen)
{
	const struct pd_attr *a = &ev->attr;
	char pmu[64], cfg[256], title[320];
	const char *tn = pd_pmu_type_name(s, a->type, pmu, sizeof(pmu));
	const char *name = NULL;

	if (ev->name[0]) { /* from the file: the emitter escapes titles */
		name = ev->name;
	} else if (attr_has(a, 8, 8)) {
		name = config_name(s, a, cfg, sizeof(cfg));
		if (!name) {
			snprintf(cfg, sizeof(cfg), "config 0x%" PRIx64,
				 a->config);
			name = cfg;
		}
	}
	if (!name)
		name = "?";
	if (tn)
		snprintf(title, sizeof(title), "%s (%s)", name, tn);
	else
		snprintf(title, sizeof(title), "%s (type %" PRIu32 ")", name,
			 a->type);
	emit_obj_begin_t(e, NULL, "attr %u: %s at 0x%" PRIx64, ev->idx, title,
			 ev->entry_offset);
	emit_u64(e, "index", ev->idx);
	if (ev->name[0])
		emit_bytes_str(e, "name", ev->name, strlen(ev->name));
	else
		emit_null(e, "name");
	if (ev->name_from)
		emit_str(e, "name_from", ev->name_from);
	else
		emit_null(e, "name_from");
	emit_offset(e, "entry_offset", ev->entry_offset);
	emit_offset(e, "attr_offset", a->offset);
	emit_attr_fields(e, s, a);
	emit_u64(e, "nr_ids", ev->nids);
	if (ev->ids_offset)
		emit_offset(e, "ids_offset", ev->ids_offset);
	else
		emit_null(e, "ids_offset");
	emit_arr_begin(e, "ids");
	for (uint32_t i = 0; i < ev->nids; i++)
		emit_hex(e, NULL, ev->ids[i]);
	emit_arr_end(e);
	if (ix && ix->present)
		emit_id_index(e, ev, ix);
	if (raw && rawlen)
		emit_raw(e, raw, rawlen, a->offset);
	emit_obj_end(e);
}
