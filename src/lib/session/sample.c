// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_SAMPLE decoding.  Field order, checked against evsel.c
 * __evsel__parse_sample (mainline mirror 77f96af6) and kernel/events/
 * core.c perf_output_sample:
 *
 *   IDENTIFIER u64 | IP u64 | TID u32 pid, u32 tid | TIME u64 | ADDR u64 |
 *   ID u64 | STREAM_ID u64 | CPU u32 cpu, u32 res | PERIOD u64 |
 *   READ (read_format) | CALLCHAIN u64 nr, u64 ips[nr] |
 *   RAW u32 size, u8 data[size] | BRANCH_STACK (perf_branch_entry) |
 *   REGS_USER u64 abi, u64 regs[popcount(mask)] if abi |
 *   STACK_USER u64 size, u8 data[size], u64 dyn_size if size |
 *   WEIGHT or WEIGHT_STRUCT u64 | DATA_SRC u64 | TRANSACTION u64 |
 *   REGS_INTR as REGS_USER | PHYS_ADDR u64 | CGROUP u64 |
 *   DATA_PAGE_SIZE u64 | CODE_PAGE_SIZE u64 | AUX u64 size, u8 data[size]
 *
 * Note AUX (bit 20) comes after the page sizes (bits 22, 23) and CGROUP
 * (21).  Two u32s sharing a u64 are read each at its own offset in the
 * producer's byte order; RAW, STACK_USER and AUX bytes are opaque.
 */
#include "lib/session/sample.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/session/evlist.h"
#include "lib/format/feat_meta.h"
#include "lib/format/features.h"
#include "lib/session/record.h"
#include "lib/session/session.h"
#include "lib/base/util.h"

#define KNOWN_READ_FORMAT (PD_FORMAT_MAX - 1)
#define KNOWN_SAMPLE_TYPE ((uint64_t)PD_SAMPLE_MAX - 1)

struct sctx {
	struct pd_session *s;
	const struct pd_attr *a;
	struct cursor c;
	struct arena *scratch;
	struct pd_diags *diags; /* NULL while trying a layout */
	struct pd_sample *out;
};

/* A problem found in the sample ("PERF_RECORD_SAMPLE: what"). */
static void __attribute__((format(printf, 6, 7)))
sdiag(struct sctx *x, enum pd_code code, enum pd_sev sev, uint64_t off,
      const char *what, const char *fmt, ...)
{
	char w[96], d[400];
	va_list ap;

	if (!x->diags)
		return;
	snprintf(w, sizeof(w), "PERF_RECORD_SAMPLE%s%s", *what ? ": " : "",
		 what);
	va_start(ap, fmt);
	vsnprintf(d, sizeof(d), fmt, ap);
	va_end(ap);
	pd_diag_add(x->diags, code, PD_AT_RECORD(PD_REC_SAMPLE), sev, off, w,
		    "%s", d);
}

static void *alloc_n(struct sctx *x, uint64_t n, size_t size, const char *what)
{
	void *p = n ? arena_calloc(x->scratch, (size_t)n, size) : NULL;

	if (n && !p)
		cur_fail(&x->c, cur_bad_code(&x->c), what,
			 "out of memory for %" PRIu64 " values", n);
	return p;
}

/* One u64 field: stored and marked present when it was there. */
static bool u64_field(struct sctx *x, const char *what, uint64_t bit,
		      uint64_t *dst)
{
	uint64_t v = cur_u64(&x->c, what);

	if (!cur_ok(&x->c))
		return false;
	*dst = v;
	x->out->decoded_type |= bit;
	return true;
}

/* n host-order u64s, after checking the count against what is left */
static uint64_t *u64_array(struct sctx *x, const char *what, uint64_t n,
			   uint32_t *got)
{
	uint64_t *v;

	const uint8_t *p;

	*got = 0;
	if (!n || !cur_check_count(&x->c, what, n, 8))
		return NULL;
	/* every value is written: no zeroing (alloc_n's calloc) */
	v = arena_alloc_dirty(x->scratch, (size_t)n * sizeof(*v));
	if (!v) {
		alloc_n(x, n, sizeof(*v), what); /* says it, fails the cursor */
		return NULL;
	}
	/* the count passed the check: the n values are there */
	p = cur_bytes(&x->c, what, (size_t)n * 8);
	if (!p)
		return v;
	for (uint64_t i = 0; i < n; i++)
		v[i] = pd_get64(p + 8 * i, x->c.swap);
	*got = (uint32_t)n;
	return v;
}

/* Opaque bytes (RAW, STACK_USER, AUX): in place, never swapped. */
static void bytes_field(struct sctx *x, const char *what, uint64_t size,
			struct pd_sample_bytes *b)
{
	b->size = size;
	b->offset = cur_off(&x->c);
	if (size && cur_check_count(&x->c, what, size, 1))
		b->p = cur_bytes(&x->c, what, (size_t)size);
}

/* ---- READ (struct read_format) ----------------------------------------- */

/*
 * Non-group: value; [time_enabled]; [time_running]; [id]; [lost].
 * Group: nr; [time_enabled]; [time_running]; nr x {value; [id]; [lost]}.
 */
static void parse_read(struct sctx *x)
{
	struct pd_sample_read *r = &x->out->read;
	uint64_t rf = x->a->read_format;
	size_t elem = 8 * (1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST));
	struct pd_sample_read_value *v;
	uint64_t first, n;

	r->format = rf;
	r->group = rf & PD_FORMAT_GROUP;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	first = cur_u64(&x->c, r->group ? "read nr" : "read value");
	if (!cur_ok(&x->c))
		return;
	x->out->decoded_type |= PD_SAMPLE_READ;
	r->nr = n = r->group ? first : 1;
	if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
		r->time_enabled = cur_u64(&x->c, "read time_enabled");
	if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
		r->time_running = cur_u64(&x->c, "read time_running");
	if (!cur_ok(&x->c) || !n)
		return;
	if (r->group && !cur_check_count(&x->c, "read values", n, elem))
		return;
	v = r->values = alloc_n(x, n, sizeof(*v), "read values");
	for (uint64_t i = 0; v && i < n; i++) {
		v[i].value = r->group ? cur_u64(&x->c, "read value") : first;
		if (rf & PD_FORMAT_ID)
			v[i].id = cur_u64(&x->c, "read id");
		if (rf & PD_FORMAT_LOST)
			v[i].lost = cur_u64(&x->c, "read lost");
		if (!cur_ok(&x->c))
			break;
		if (rf & PD_FORMAT_ID)
			v[i].ev = pd_evlist_find(x->s, v[i].id);
		r->nvalues = (uint32_t)(i + 1);
	}
}

/* ---- CALLCHAIN, RAW ------------------------------------------------- */

static void parse_callchain(struct sctx *x)
{
	struct pd_sample *o = x->out;

	/* untrusted count: checked against the bytes left before use (cursor.h) */
	if (!u64_field(x, "callchain nr", PD_SAMPLE_CALLCHAIN,
		       &o->callchain_nr))
		return;
	o->callchain =
		u64_array(x, "callchain ips", o->callchain_nr, &o->ncallchain);
	/* defer_callchain: the chain ends with USER_DEFERRED, cookie */
	if ((x->a->flags & PD_ATTR_DEFER_CALLCHAIN) && o->ncallchain >= 2 &&
	    o->callchain[o->ncallchain - 2] == PD_CONTEXT_USER_DEFERRED) {
		o->has_deferred_cookie = true;
		o->deferred_cookie = o->callchain[o->ncallchain - 1];
	}
}

static void parse_raw(struct sctx *x)
{
	struct pd_sample *o = x->out;
	uint64_t off = cur_off(&x->c);
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	uint32_t size = cur_u32(&x->c, "raw size");

	if (!cur_ok(&x->c))
		return;
	o->decoded_type |= PD_SAMPLE_RAW;
	bytes_field(x, "raw data", size, &o->raw);
	/* the kernel pads the data so that 4 + size is a multiple of 8 */
	if ((4 + (uint64_t)size) % 8)
		sdiag(x, PD_C_UNUSUAL, PD_WARN, off, "raw size",
		      "4 + size %u is not a multiple of 8: later fields are "
		      "unaligned",
		      size);
}

/* ---- REGS_USER / REGS_INTR, STACK_USER ------------------------------- */

/*
 * u64 abi; if abi != 0: u64 regs[popcount(mask)];
 * [pending] if abi & 4: u16 nr_vectors, vector_qwords, nr_pred,
 * pred_qwords; u64 data[nr_vectors * vector_qwords + nr_pred * pred_qwords].
 */
static void parse_regs(struct sctx *x, const char *what, uint64_t bit,
		       uint64_t mask, struct pd_sample_regs *r)
{
	char w[64];
	const uint64_t known =
		PD_REGS_ABI_32 | PD_REGS_ABI_64 | PD_REGS_ABI_SIMD;
	uint64_t off = cur_off(&x->c), n;

	snprintf(w, sizeof(w), "%s abi", what);
	if (!u64_field(x, w, bit, &r->abi))
		return;
	r->mask = mask;
	if (r->abi & ~known)
		sdiag(x, PD_C_UNKNOWN_BITS, PD_WARN, off, w,
		      "abi 0x%" PRIx64 " has bits perfdump does not know",
		      r->abi);
	if (!r->abi)
		return;
	snprintf(w, sizeof(w), "%s regs", what);
	n = (uint64_t)__builtin_popcountll(mask);
	r->regs = u64_array(x, w, n, &r->nregs);
	if (!(r->abi & PD_REGS_ABI_SIMD) || !cur_ok(&x->c))
		return;
	snprintf(w, sizeof(w), "%s simd header", what);
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	r->nr_vectors = cur_u16(&x->c, w);
	r->vector_qwords = cur_u16(&x->c, w);
	r->nr_pred = cur_u16(&x->c, w);
	r->pred_qwords = cur_u16(&x->c, w);
	if (!cur_ok(&x->c))
		return;
	r->has_simd = true;
	n = (uint64_t)r->nr_vectors * r->vector_qwords +
	    (uint64_t)r->nr_pred * r->pred_qwords;
	snprintf(w, sizeof(w), "%s simd data", what);
	r->simd = u64_array(x, w, n, &r->nsimd);
}

static void parse_stack(struct sctx *x)
{
	struct pd_sample *o = x->out;
	uint64_t size, off;

	/* untrusted count: checked against the bytes left before use (cursor.h) */
	if (!u64_field(x, "stack_user size", PD_SAMPLE_STACK_USER, &size))
		return;
	bytes_field(x, "stack_user data", size, &o->stack);
	if (!size || !cur_ok(&x->c))
		return; /* dyn_size only follows a non-empty stack */
	off = cur_off(&x->c);
	o->stack_dyn_size = cur_u64(&x->c, "stack_user dyn_size");
	if (!cur_ok(&x->c))
		return;
	o->has_stack_dyn_size = true;
	if (o->stack_dyn_size > size) /* perf: "user stack dump failure" */
		sdiag(x, PD_C_RECORD_UNDECODABLE, PD_ERR, off,
		      "stack_user dyn_size",
		      "dyn_size %" PRIu64 " is larger than the %" PRIu64
		      "-byte stack",
		      o->stack_dyn_size, size);
}

/* ---- the fields after BRANCH_STACK, and the end ---------------------- */

static void parse_tail(struct sctx *x)
{
	struct pd_sample *o = x->out;
	const struct pd_attr *a = x->a;
	uint64_t t = a->sample_type;
	uint64_t w = t & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT);

	if (t & PD_SAMPLE_REGS_USER && cur_ok(&x->c))
		parse_regs(x, "regs_user", PD_SAMPLE_REGS_USER,
			   a->sample_regs_user, &o->regs_user);
	if (t & PD_SAMPLE_STACK_USER && cur_ok(&x->c))
		parse_stack(x);
	if (w && cur_ok(&x->c)) /* either bit: one u64 */
		u64_field(x, "weight", w, &o->weight);
	if (t & PD_SAMPLE_DATA_SRC && cur_ok(&x->c))
		u64_field(x, "data_src", PD_SAMPLE_DATA_SRC, &o->data_src);
	if (t & PD_SAMPLE_TRANSACTION && cur_ok(&x->c))
		u64_field(x, "transaction", PD_SAMPLE_TRANSACTION,
			  &o->transaction);
	if (t & PD_SAMPLE_REGS_INTR && cur_ok(&x->c))
		parse_regs(x, "regs_intr", PD_SAMPLE_REGS_INTR,
			   a->sample_regs_intr, &o->regs_intr);
	if (t & PD_SAMPLE_PHYS_ADDR && cur_ok(&x->c))
		u64_field(x, "phys_addr", PD_SAMPLE_PHYS_ADDR, &o->phys_addr);
	if (t & PD_SAMPLE_CGROUP && cur_ok(&x->c))
		u64_field(x, "cgroup", PD_SAMPLE_CGROUP, &o->cgroup);
	if (t & PD_SAMPLE_DATA_PAGE_SIZE && cur_ok(&x->c))
		u64_field(x, "data_page_size", PD_SAMPLE_DATA_PAGE_SIZE,
			  &o->data_page_size);
	if (t & PD_SAMPLE_CODE_PAGE_SIZE && cur_ok(&x->c))
		u64_field(x, "code_page_size", PD_SAMPLE_CODE_PAGE_SIZE,
			  &o->code_page_size);
	if (t & PD_SAMPLE_AUX && cur_ok(&x->c)) {
		uint64_t size;

		/* untrusted count: checked against the bytes left before use (cursor.h) */
		if (u64_field(x, "aux size", PD_SAMPLE_AUX, &size))
			bytes_field(x, "aux data", size, &o->aux);
	}
}

/*
 * Would the fields after BRANCH_STACK fill the record exactly if `skip`
 * more bytes were consumed first?  Tried on copies, without diagnostics.
 */
static bool tail_fits(const struct sctx *x, size_t skip)
{
	struct sctx t = *x;
	struct pd_sample o = *x->out;

	t.out = &o;
	t.diags = NULL;
	t.c.diags = NULL;
	if (skip && !cur_skip(&t.c, "", skip))
		return false;
	parse_tail(&t);
	return cur_ok(&t.c) && cur_left(&t.c) == 0;
}

/* ---- BRANCH_STACK (struct perf_branch_entry) --------------------------- */

/*
 * u64 nr; [u64 hw_idx if HW_INDEX]; nr x {u64 from, to, flags};
 * [nr x u64 counters if COUNTERS].  Without branch data the kernel writes
 * only nr = 0, HW_INDEX or not (perf_output_sample); perf's parser reads
 * a hw_idx anyway.  So for nr = 0 with HW_INDEX, take the layout that
 * makes the rest of the sample fit, perf's when both or neither do.
 */
static void parse_branch(struct sctx *x)
{
	struct pd_branch_stack *b = &x->out->branch;
	uint64_t bst = x->a->branch_sample_type;
	struct pd_branch_entry *v;
	uint64_t n;

	/* untrusted count: checked against the bytes left before use (cursor.h) */
	if (!u64_field(x, "branch_stack nr", PD_SAMPLE_BRANCH_STACK, &b->nr))
		return;
	n = b->nr;
	b->has_counters = bst & PD_BRANCH_COUNTERS;
	if (bst & PD_BRANCH_HW_INDEX) {
		if (n == 0 && !tail_fits(x, 8) && tail_fits(x, 0)) {
			b->hw_idx_absent = true;
		} else {
			b->hw_idx = cur_u64(&x->c, "branch_stack hw_idx");
			b->has_hw_idx = cur_ok(&x->c);
		}
	}
	if (!n || !cur_check_count(&x->c, "branch_stack entries", n,
				   24 + (b->has_counters ? 8 : 0)))
		return;
	v = alloc_n(x, n, sizeof(*v), "branch_stack entries");
	b->entries = v;
	for (uint64_t i = 0; v && i < n; i++) {
		uint64_t f;

		v[i].from = cur_u64(&x->c, "branch_stack from");
		v[i].to = cur_u64(&x->c, "branch_stack to");
		f = cur_u64(&x->c, "branch_stack flags");
		if (!cur_ok(&x->c))
			return;
		pd_branch_flags_split(f, x->s->big_endian, &v[i]);
		b->nentries = (uint32_t)(i + 1);
	}
	if (b->has_counters)
		b->counters =
			u64_array(x, "branch_stack counters", n, &b->ncounters);
}

/* ---- the sample ------------------------------------------------------ */

/* The recording's architecture, for register names (HEADER_ARCH). */
static enum pd_arch sample_arch(struct pd_session *s)
{
	for (size_t i = 0; !s->env.arch.s && i < s->nfeat; i++)
		if (s->feat[i].id == HEADER_ARCH)
			pd_decode_feature(s, &s->feat[i]);
	return pd_arch_from_string(s->env.arch.s, s->env.arch.len);
}

/* IDENTIFIER .. PERIOD: fixed-size fields */
static void parse_head(struct sctx *x)
{
	struct pd_sample *o = x->out;
	struct pd_sample_id *id = &o->common;
	uint64_t t = x->a->sample_type;

	if (t & PD_SAMPLE_IDENTIFIER &&
	    u64_field(x, "identifier", PD_SAMPLE_IDENTIFIER, &o->identifier)) {
		id->id = o->identifier;
		id->has_id = true;
	}
	if (t & PD_SAMPLE_IP)
		u64_field(x, "ip", PD_SAMPLE_IP, &o->ip);
	if (t & PD_SAMPLE_TID) {
		id->pid = cur_u32(&x->c, "pid");
		id->tid = cur_u32(&x->c, "tid");
		if (cur_ok(&x->c)) {
			id->has_tid = true;
			o->decoded_type |= PD_SAMPLE_TID;
		}
	}
	if (t & PD_SAMPLE_TIME &&
	    u64_field(x, "time", PD_SAMPLE_TIME, &id->time))
		id->has_time = true;
	if (t & PD_SAMPLE_ADDR)
		u64_field(x, "addr", PD_SAMPLE_ADDR, &o->addr);
	if (t & PD_SAMPLE_ID && u64_field(x, "id", PD_SAMPLE_ID, &id->id))
		id->has_id = true;
	if (t & PD_SAMPLE_STREAM_ID &&
	    u64_field(x, "stream_id", PD_SAMPLE_STREAM_ID, &id->stream_id))
		id->has_stream_id = true;
	if (t & PD_SAMPLE_CPU) {
		id->cpu = cur_u32(&x->c, "cpu");
		id->res = cur_u32(&x->c, "res");
		if (cur_ok(&x->c)) {
			id->has_cpu = true;
			o->decoded_type |= PD_SAMPLE_CPU;
		}
	}
	if (t & PD_SAMPLE_PERIOD)
		u64_field(x, "period", PD_SAMPLE_PERIOD, &o->period);
}

/* What follows the last field decoded: unknown fields, or junk. */
static void check_end(struct sctx *x)
{
	struct pd_sample *o = x->out;
	uint64_t rf = x->a->read_format & ~(uint64_t)KNOWN_READ_FORMAT;
	uint64_t end;

	if (!(o->sample_type & PD_SAMPLE_READ))
		rf = 0;
	if (!cur_ok(&x->c))
		return;
	o->left = (uint32_t)cur_left(&x->c);
	o->left_offset = cur_off(&x->c);
	end = o->left_offset + o->left - 1;
	if (o->unknown_type || rf) {
		sdiag(x, PD_C_UNKNOWN_BITS, PD_WARN, o->left_offset, "",
		      "%s has bits perfdump does not know (0x%" PRIx64 "): "
		      "%u bytes after the last field decoded are not decoded",
		      o->unknown_type ? "sample_type" : "read_format",
		      o->unknown_type ? o->unknown_type : rf, o->left);
		return;
	}
	if (o->left)
		sdiag(x, PD_C_SAMPLE_SIZE_MISMATCH, PD_ERR, o->left_offset, "",
		      "sample is %u bytes longer than its sample_type implies "
		      "(0x%" PRIx64 "..0x%" PRIx64 " not decoded)",
		      o->left, o->left_offset, end);
}

bool pd_parse_sample(struct pd_session *s, const struct pd_evsel *ev,
		     const struct pd_event *e, struct arena *scratch,
		     struct pd_sample *out)
{
	struct sctx x = {
		.s = s,
		.scratch = scratch,
		.diags = &s->diags,
		.out = out,
	};
	uint64_t t;

	memset(out, 0, sizeof(*out));
	if (!ev) {
		uint64_t id = 0;

		out->no_attr = true;
		pd_record_evsel(s, e->type, e->p, e->size, &id);
		if (s->evlist.n)
			sdiag(&x, PD_C_UNKNOWN_SAMPLE_ID, PD_ERR, e->offset, "",
			      "id 0x%" PRIx64 " belongs to no attr: "
			      "the fields are not decoded",
			      id);
		else
			sdiag(&x, PD_C_NO_ATTRS, PD_ERR, e->offset, "",
			      "the recording has no attr: "
			      "the fields are not decoded");
		return false;
	}
	x.a = &ev->attr;
	t = out->sample_type = x.a->sample_type;
	out->unknown_type = t & ~KNOWN_SAMPLE_TYPE;
	out->period = x.a->sample_period; /* perf's default without PERIOD */
	if (t & (PD_SAMPLE_REGS_USER | PD_SAMPLE_REGS_INTR |
		 PD_SAMPLE_BRANCH_STACK))
		out->arch = sample_arch(s); /* names registers, branch types */
	cur_init(&x.c, e->p, e->size, e->offset, s->swap, &s->diags,
		 "PERF_RECORD_SAMPLE", PD_AT_RECORD(PD_REC_SAMPLE));
	x.c.need_code = PD_C_SAMPLE_SIZE_MISMATCH;
	cur_skip(&x.c, "header", 8);

	parse_head(&x);
	if (t & PD_SAMPLE_READ && cur_ok(&x.c)) {
		if (x.a->read_format & ~(uint64_t)KNOWN_READ_FORMAT)
			goto end; /* its layout is unknown: stop here */
		parse_read(&x);
	}
	if (t & PD_SAMPLE_CALLCHAIN && cur_ok(&x.c))
		parse_callchain(&x);
	if (t & PD_SAMPLE_RAW && cur_ok(&x.c))
		parse_raw(&x);
	if (t & PD_SAMPLE_BRANCH_STACK && cur_ok(&x.c))
		parse_branch(&x);
	parse_tail(&x);
end:
	check_end(&x);
	out->damaged = !cur_ok(&x.c);
	return !out->damaged && !out->left;
}

bool pd_sample_time(const struct pd_session *s, const struct pd_evsel *ev,
		    const struct pd_event *e, uint64_t *t)
{
	int at = ev->time_pos; /* pd_sample_positions' (evlist.c) */

	if (at < 0 || e->size < 8 * (uint32_t)(at + 1))
		return false;
	*t = pd_get64(e->p + 8 * at, s->swap);
	return true;
}
