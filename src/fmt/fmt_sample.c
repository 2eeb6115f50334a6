// SPDX-License-Identifier: MIT
/*
 * emit_sample(): every field of a decoded PERF_RECORD_SAMPLE, in the order
 * the record holds them (kernel/events/core.c perf_output_sample), keyed
 * by the kernel's names.
 * Text renders the sample as one row; nested structures stay on it.
 */
#include <inttypes.h>
#include <stdio.h>

#include "fmt/fmt_features.h"
#include "fmt/fmt_records.h"
#include "fmt/fmt_sample.h"
#include "fmt/names.h"
#include "fmt/fmt_tracepoint.h"

void emit_event_name(struct emitter *e, const struct pd_evsel *ev)
{
	char buf[32];

	if (!ev)
		emit_null(e, "event");
	else
		emit_str(e, "event", pd_evsel_label(ev, buf, sizeof(buf)));
}

static void emit_read_value(struct emitter *e, uint64_t rf,
			    const struct pd_sample_read_value *v, bool value)
{
	if (value)
		emit_u64(e, "value", v->value);
	if (rf & PD_FORMAT_ID) {
		emit_hex(e, "id", v->id);
		emit_event_name(e, v->ev);
	}
	if (rf & PD_FORMAT_LOST)
		emit_u64(e, "lost", v->lost);
}

/*
 * In the record's order, each key only when read_format has its bit:
 * non-group {value, time_enabled, time_running, id, event, lost};
 * group {nr, time_enabled, time_running, values: [{value, id, event,
 * lost}]}.  event: the attr the id belongs to (null: none).
 */
static void emit_read(struct emitter *e, const struct pd_sample_read *r)
{
	emit_row_begin(e, "read");
	if (r->group)
		emit_u64(e, "nr", r->nr);
	else if (r->nvalues)
		emit_u64(e, "value", r->values[0].value);
	if (r->format & PD_FORMAT_TOTAL_TIME_ENABLED)
		emit_u64(e, "time_enabled", r->time_enabled);
	if (r->format & PD_FORMAT_TOTAL_TIME_RUNNING)
		emit_u64(e, "time_running", r->time_running);
	if (r->group) {
		emit_arr_begin(e, "values");
		for (uint32_t i = 0; i < r->nvalues; i++) {
			emit_row_begin(e, NULL);
			emit_read_value(e, r->format, &r->values[i], true);
			emit_obj_end(e);
		}
		emit_arr_end(e);
	} else if (r->nvalues) {
		emit_read_value(e, r->format, &r->values[0], false);
	}
	emit_obj_end(e);
}

/* Addresses as "0x..", context markers by name (JSON: PERF_CONTEXT_*). */
static void emit_callchain(struct emitter *e, const struct pd_sample *smp)
{
	bool json = emit_is_json(e);

	emit_u64(e, "callchain_nr", smp->callchain_nr);
	emit_arr_begin(e, "callchain");
	for (uint32_t i = 0; i < smp->ncallchain; i++) {
		uint64_t ip = smp->callchain[i];
		const char *m = NULL;

		if (ip >= PD_CONTEXT_MAX)
			m = pd_context_name(ip, json);

		if (m)
			emit_str(e, NULL, m);
		else
			emit_hex(e, NULL, ip);
	}
	emit_arr_end(e);
	if (smp->has_deferred_cookie)
		emit_hex(e, "deferred_cookie", smp->deferred_cookie);
}

/* Payload bytes: always in JSON for RAW, else only with -x. */
static void emit_payload(struct emitter *e, const struct pd_sample_bytes *b,
			 uint64_t n, bool json_always)
{
	if (b->p && n && (emit_want_hex(e) || (json_always && emit_is_json(e))))
		emit_hexbytes(e, "data", b->p, (size_t)n);
}

static void emit_raw_field(struct emitter *e, const struct pd_sample *smp)
{
	emit_row_begin(e, "raw_data");
	emit_u64(e, "size", smp->raw.size);
	if (smp->tp.ev)
		emit_str(e, "tracepoint", smp->tp.ev->full_name);
	/* decoded fields replace the hex, which -x still adds */
	emit_payload(e, &smp->raw, smp->raw.size, !smp->tp.v);
	emit_obj_end(e);
	emit_tp_sample(e, &smp->tp);
}

static void emit_branch_stack(struct emitter *e, const struct pd_sample *smp)
{
	const struct pd_branch_stack *b = &smp->branch;

	emit_row_begin(e, "branch_stack");
	emit_u64(e, "nr", b->nr);
	if (b->has_hw_idx)
		emit_hex(e, "hw_idx", b->hw_idx);
	if (b->hw_idx_absent)
		emit_bool(e, "hw_idx_absent", true);
	emit_arr_begin(e, "entries");
	for (uint32_t i = 0; i < b->nentries; i++)
		emit_branch_entry(e, smp->arch, &b->entries[i]);
	emit_arr_end(e);
	if (b->has_counters) {
		emit_arr_begin(e, "counters");
		for (uint32_t i = 0; i < b->ncounters; i++)
			emit_hex(e, NULL, b->counters[i]);
		emit_arr_end(e);
	}
	emit_obj_end(e);
}

static const char *abi_name(uint64_t abi)
{
	static const char *const n[] = {
		"NONE", "32",	   "64",      "32|64",
		"SIMD", "32|SIMD", "64|SIMD", "32|64|SIMD",
	};

	return abi < 8 ? n[abi] : NULL;
}

/* {abi, abi_name, mask, regs: {NAME: "0x.."}, simd: {...}} */
static void emit_regs(struct emitter *e, const char *key, enum pd_arch arch,
		      const struct pd_sample_regs *r)
{
	uint64_t m = r->mask;
	uint32_t i = 0;

	emit_row_begin(e, key);
	emit_enum(e, "abi", r->abi, abi_name(r->abi));
	if (r->abi) {
		emit_hex(e, "mask", r->mask);
		emit_row_begin(e, "regs");
		for (unsigned bit = 0; bit < 64 && i < r->nregs; bit++) {
			const char *name;
			char buf[16];

			if (!(m >> bit & 1))
				continue;
			name = pd_reg_name(arch, bit);
			if (!name) {
				snprintf(buf, sizeof(buf), "reg%u", bit);
				name = buf;
			}
			emit_hex(e, name, r->regs[i++]);
		}
		emit_obj_end(e);
	}
	if (r->has_simd) {
		emit_row_begin(e, "simd");
		emit_u64(e, "nr_vectors", r->nr_vectors);
		emit_u64(e, "vector_qwords", r->vector_qwords);
		emit_u64(e, "nr_pred", r->nr_pred);
		emit_u64(e, "pred_qwords", r->pred_qwords);
		emit_arr_begin(e, "data");
		for (uint32_t k = 0; k < r->nsimd; k++)
			emit_hex(e, NULL, r->simd[k]);
		emit_arr_end(e);
		emit_obj_end(e);
	}
	emit_obj_end(e);
}

static void emit_stack_user(struct emitter *e, const struct pd_sample *smp)
{
	uint64_t n = smp->stack.size;

	emit_row_begin(e, "stack_user");
	emit_u64(e, "size", smp->stack.size);
	if (smp->has_stack_dyn_size) {
		emit_u64(e, "dyn_size", smp->stack_dyn_size);
		if (smp->stack_dyn_size < n)
			n = smp->stack_dyn_size; /* the bytes that are valid */
	}
	emit_payload(e, &smp->stack, n, false);
	emit_obj_end(e);
}

/* var1_dw bits 0-31 (weight), var2_w 32-47 (ins_lat), var3_w 48-63 */
static void emit_weight_struct(struct emitter *e, uint64_t w)
{
	emit_row_begin(e, "weight_struct");
	emit_hex(e, "value", w);
	emit_u64(e, "var1_dw", w & 0xffffffffULL);
	emit_u64(e, "var2_w", (w >> 32) & 0xffff);
	emit_u64(e, "var3_w", w >> 48);
	emit_obj_end(e);
}

/* "123.456789": seconds with microseconds, as perf script prints time */
static void emit_time(struct emitter *e, uint64_t t)
{
	char buf[32];

	emit_u64(e, "time", t);
	format_perf_time(buf, sizeof(buf), t);
	emit_str(e, "time_s", buf);
}

void emit_sample(struct emitter *e, const struct pd_session *s,
		 const struct pd_evsel *ev, const struct pd_event *rec,
		 const struct pd_sample *smp)
{
	const struct pd_sample_id *id = &smp->common;
	uint64_t d = smp->decoded_type, t = smp->sample_type;

	(void)s;
	(void)rec;
	if (!ev || smp->no_attr)
		return;
	if (d & PD_SAMPLE_IDENTIFIER)
		emit_hex(e, "identifier", smp->identifier);
	if (d & PD_SAMPLE_IP)
		emit_hex(e, "ip", smp->ip);
	if (d & PD_SAMPLE_TID) {
		emit_s64(e, "pid", (int32_t)id->pid);
		emit_s64(e, "tid", (int32_t)id->tid);
	}
	if (d & PD_SAMPLE_TIME)
		emit_time(e, id->time);
	if (d & PD_SAMPLE_ADDR)
		emit_hex(e, "addr", smp->addr);
	if (d & PD_SAMPLE_ID)
		emit_hex(e, "id", id->id);
	if (d & PD_SAMPLE_STREAM_ID)
		emit_hex(e, "stream_id", id->stream_id);
	if (d & PD_SAMPLE_CPU) {
		emit_u64(e, "cpu", id->cpu);
		if (id->res)
			emit_hex(e, "res", id->res);
	}
	if (d & PD_SAMPLE_PERIOD)
		emit_u64(e, "period", smp->period);
	if (d & PD_SAMPLE_READ)
		emit_read(e, &smp->read);
	if (d & PD_SAMPLE_CALLCHAIN)
		emit_callchain(e, smp);
	if (d & PD_SAMPLE_RAW)
		emit_raw_field(e, smp);
	if (d & PD_SAMPLE_BRANCH_STACK)
		emit_branch_stack(e, smp);
	if (d & PD_SAMPLE_REGS_USER)
		emit_regs(e, "regs_user", smp->arch, &smp->regs_user);
	if (d & PD_SAMPLE_STACK_USER)
		emit_stack_user(e, smp);
	if (d & t & PD_SAMPLE_WEIGHT)
		emit_u64(e, "weight", smp->weight);
	if (d & t & PD_SAMPLE_WEIGHT_STRUCT)
		emit_weight_struct(e, smp->weight);
	if (d & PD_SAMPLE_DATA_SRC)
		emit_data_src(e, smp->data_src);
	if (d & PD_SAMPLE_TRANSACTION)
		emit_transaction(e, smp->transaction);
	if (d & PD_SAMPLE_REGS_INTR)
		emit_regs(e, "regs_intr", smp->arch, &smp->regs_intr);
	if (d & PD_SAMPLE_PHYS_ADDR)
		emit_hex(e, "phys_addr", smp->phys_addr);
	if (d & PD_SAMPLE_CGROUP)
		emit_hex(e, "cgroup", smp->cgroup);
	if (d & PD_SAMPLE_DATA_PAGE_SIZE)
		emit_u64(e, "data_page_size", smp->data_page_size);
	if (d & PD_SAMPLE_CODE_PAGE_SIZE)
		emit_u64(e, "code_page_size", smp->code_page_size);
	if (d & PD_SAMPLE_AUX) {
		emit_row_begin(e, "aux");
		emit_u64(e, "size", smp->aux.size);
		emit_payload(e, &smp->aux, smp->aux.size, false);
		emit_obj_end(e);
	}
	if (smp->unknown_type)
		emit_hex(e, "unknown_sample_type", smp->unknown_type);
	if (smp->left) {
		emit_u64(e, "undecoded_size", smp->left);
		emit_offset(e, "undecoded_offset", smp->left_offset);
	}
	if (smp->damaged)
		emit_bool(e, "damaged", true);
}
