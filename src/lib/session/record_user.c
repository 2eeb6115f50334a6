// SPDX-License-Identifier: MIT
/*
 * perf's own records: the ones that describe the
 * recording (HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA,
 * HEADER_BUILD_ID, ID_INDEX, THREAD_MAP, TIME_CONV, ...) and the AUX area
 * ones.  The stat records, CPU maps and SCHEDSTAT are in record_stat.c.
 * Layouts checked against tools/lib/perf/include/perf/event.h and
 * tools/perf/util/session.c (perf_event__*_swap), auxtrace.c
 * (perf_event__fprintf_auxtrace_error), header.c
 * (perf_event__process_feature, perf_event__process_tracing_data).
 */
#include <stdio.h>
#include <string.h>

#include "lib/format/features.h"
#include "lib/session/record_int.h"
#include "lib/session/session.h"

/* ---- features carried by records ------------------------------------- */

/*
 * The session's copy of the feature this record carried, found by the
 * record's offset (the pipe walk keeps them, session_pipe.c), decoded.
 */
static const struct pd_feature *session_feature(struct rec_ctx *x, unsigned id,
						enum pd_feat_src src)
{
	struct pd_session *s = x->s;

	if (x->e->compressed || x->e->stream >= 0)
		return NULL;
	for (size_t i = 0; i < s->nfeat; i++) {
		struct pd_feature *f = &s->feat[i];

		if (f->id == id && f->src == src && f->nparts == 1 &&
		    f->parts[0].rec_offset == x->e->offset) {
			pd_decode_feature(s, f);
			return f;
		}
	}
	return NULL;
}

/* Bytes decoded as feature `id` into a feature of this record's own. */
static const struct pd_feature *own_feature(struct rec_ctx *x, unsigned id,
					    enum pd_feat_src src,
					    const uint8_t *p, size_t n,
					    uint64_t off)
{
	struct pd_session *s = x->s;
	const struct pd_feat_ops *ops = pd_feat_ops(id);
	struct pd_feature *f = arena_calloc(x->scratch, 1, sizeof(*f));
	struct pd_part *part = arena_calloc(x->scratch, 1, sizeof(*part));
	size_t nerr = s->diags.nerr;
	char ctx[48];
	struct cursor c;

	if (!f || !part)
		return NULL;
	*part = (struct pd_part){.offset = off,
				 .size = n,
				 .bytes = p,
				 .loaded = n,
				 .rec_offset = x->e->offset};
	f->id = id;
	f->src = src;
	f->parts = part;
	f->nparts = 1;
	f->decoded = true;
	if (!ops || !ops->parse || !n || !p)
		return f;
	if (ops->name)
		snprintf(ctx, sizeof(ctx), "HEADER_%s", ops->name);
	else
		snprintf(ctx, sizeof(ctx), "feature %u", id);
	cur_init(&c, p, n, off, s->swap, &s->diags, ctx, PD_AT_FEATURE(id));
	pd_session_parse_feature(s, f, &c);
	pd_feat_skip_padding(f, &c);
	f->consumed = c.pos;
	if (cur_ok(&c) && cur_left(&c)) {
		f->unparsed_off = cur_off(&c);
		pd_diag_add(
			&s->diags, PD_C_FEATURE_TRAILING_BYTES,
			PD_AT_FEATURE(id), PD_WARN, cur_off(&c), ctx,
			"%zu bytes at the end of the feature were not decoded",
			cur_left(&c));
	}
	f->bad = s->diags.nerr != nerr;
	return f;
}

/*
 * HEADER_FEATURE: u64 feat_id; then the bytes of the feature section
 * (tools/perf/util/header.c: perf_event__process_feature).  No payload:
 * the end-of-features marker, its id the writer's HEADER_LAST_FEATURE
 * (perf_event__synthesize_features).
 */
bool pd_header_feature_view(const uint8_t *rec, uint16_t size, uint64_t off,
			    bool swap, struct pd_feature_rec_view *v)
{
	const struct pd_rec_layout *l =
		&pd_rec_ops(PD_REC_HEADER_FEATURE)->head;
	uint32_t at = 8 + pd_rec_layout_end(l);
	struct pd_rec_header_feature h;

	if (size < at)
		return false;
	pd_rec_fields_get(l, rec + 8, swap, &h);
	v->feat_id = h.feat_id;
	v->end_marker = size == at;
	v->data = rec + at;
	v->size = size - at;
	v->data_off = off + at;
	return true;
}

/* (head: feat_id, read by the registry's layout) then the section */
void rec_parse_header_feature(struct rec_ctx *x)
{
	struct pd_rec_header_feature *m = &x->r->u.feature;
	struct pd_feature_rec_view v;

	/* too short: the cursor said what is missing */
	if (!pd_header_feature_view(x->e->p, x->e->size, x->e->offset,
				    x->s->swap, &v))
		return;
	cur_skip(&x->c, "record", cur_left(&x->c)); /* all read */
	m->end_marker = v.end_marker;
	if (v.end_marker)
		return;
	if (m->feat_id < PD_FEAT_BITS)
		m->feat = session_feature(x, (unsigned)m->feat_id,
					  PD_FSRC_RECORD);
	if (!m->feat && m->feat_id <= UINT32_MAX)
		m->feat = own_feature(x, (unsigned)m->feat_id, PD_FSRC_RECORD,
				      v.data, v.size, v.data_off);
}

/*
 * Pre-upstream Google pipe streams: features as record types 66 + id
 * before HEADER_ATTR, the payload a bare feature section (the reader
 * marks them: e->legacy_feature).
 */
void rec_parse_legacy_feature(struct rec_ctx *x)
{
	const struct pd_feature *f;
	unsigned id = x->e->legacy_feature;
	size_t left = cur_left(&x->c);
	uint64_t off = cur_off(&x->c);
	const uint8_t *p;

	x->r->legacy_feature = true;
	x->r->u.feature.feat_id = id;
	f = session_feature(x, id, PD_FSRC_LEGACY_RECORD);
	p = cur_bytes(&x->c, "payload", left);
	if (!f)
		f = own_feature(x, id, PD_FSRC_LEGACY_RECORD, p, left, off);
	x->r->u.feature.feat = f;
}

/*
 * HEADER_TRACING_DATA: u32 size; [u32 pad] (12-byte records in old
 * files); `size` bytes of tracing blob follow the record
 * (tools/perf/util/header.c: perf_event__process_tracing_data).  The
 * blob is decoded from the session's copy (pipe mode) or from the payload
 * bytes the reader kept (-x).  simpleperf writes the blob inside the
 * record instead (header.size > 16, size bytes at offset 12).
 */
void rec_parse_tracing_data(struct rec_ctx *x)
{
	struct pd_rec_tracing_data *m = &x->r->u.tracing;
	const struct pd_feature *f;
	const struct pd_event *e = x->e;

	m->size = cur_u32(&x->c, "size");
	if (e->size > 16 && !e->payload) {
		/* simpleperf: the blob inside the record, then padding */
		uint64_t off = cur_off(&x->c);
		const uint8_t *p;

		m->in_record = true;
		if (cur_ok(&x->c) && m->size > cur_left(&x->c)) {
			cur_fail(&x->c, cur_short_code(&x->c), "data",
				 "size %u exceeds the %zu bytes left "
				 "in the record",
				 m->size, cur_left(&x->c));
			return;
		}
		p = cur_bytes(&x->c, "data", m->size);
		f = own_feature(x, HEADER_TRACING_DATA, PD_FSRC_TRACING_RECORD,
				p, m->size, off);
		if (f)
			m->blob = f->model;
		return;
	}
	if (cur_left(&x->c) >= 4) {
		m->has_pad = true;
		m->pad = cur_u32(&x->c, "pad");
	}
	f = session_feature(x, HEADER_TRACING_DATA, PD_FSRC_TRACING_RECORD);
	if (!f && e->payload_bytes && e->payload)
		f = own_feature(x, HEADER_TRACING_DATA, PD_FSRC_TRACING_RECORD,
				e->payload_bytes, (size_t)e->payload,
				e->payload_offset);
	if (f)
		m->blob = f->model;
}

/*
 * HEADER_BUILD_ID: s32 pid; u8 build_id[20]; u8 size; u8, u16 reserved;
 * char filename[] — padded to 64 (legacy, size = 4 mod 8) or to 8, and
 * since 2025 possibly followed by a sample_id: the name ends at its NUL.
 * misc bit 15 (BUILD_ID_SIZE) says the size byte is valid.
 */
void rec_parse_build_id(struct rec_ctx *x)
{
	struct pd_rec_build_id *m = &x->r->u.build_id;
	struct cursor *c = &x->c;
	size_t left;

	m->pid = cur_s32(c, "pid");
	m->build_id = cur_bytes(c, "build_id", PD_BUILD_ID_MAX);
	m->size_byte = cur_u8(c, "size");
	cur_skip(c, "reserved", 3);
	m->build_id_size = PD_BUILD_ID_MAX;
	if (x->e->misc & PD_MISC_BUILD_ID_SIZE)
		m->build_id_size = m->size_byte;
	if (cur_ok(c) && m->build_id_size > PD_BUILD_ID_MAX) {
		rec_warn(x, PD_C_UNUSUAL, cur_off(c) - 4,
			 "build-id size byte %u is larger than 20; using 20",
			 m->size_byte);
		m->build_id_size = PD_BUILD_ID_MAX;
	}
	left = cur_left(c);
	m->filename = rec_tail_string(x, "filename");
	if (cur_ok(c) && m->filename.len < left)
		m->after_name = (uint32_t)(left - m->filename.len - 1);
}

/*
 * ID_INDEX: u64 nr; nr x {u64 id, idx, cpu, tid}; then, if the record has
 * room for them, nr x {u64 machine_pid, vcpu} (session.c
 * perf_event__process_id_index).
 */
void rec_parse_id_index(struct rec_ctx *x)
{
	struct pd_rec_id_index *m = &x->r->u.id_index;
	struct cursor *c = &x->c;

	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u64(c, "nr");
	m->v = rec_array(x, "entries", m->nr, 32, sizeof(*m->v));
	if (!m->v)
		return;
	m->has_guest = cur_left(c) >= m->nr * 48;
	for (uint64_t i = 0; i < m->nr && cur_ok(c); i++) {
		struct pd_id_index_ent *v = &m->v[i];

		v->id = cur_u64(c, "id");
		v->idx = cur_u64(c, "idx");
		v->cpu = cur_u64(c, "cpu");
		v->tid = cur_u64(c, "tid");
		if (cur_ok(c))
			m->nread++;
	}
	for (uint64_t i = 0; m->has_guest && i < m->nr && cur_ok(c); i++) {
		m->v[i].machine_pid = cur_u64(c, "machine_pid");
		m->v[i].vcpu = cur_u64(c, "vcpu");
	}
}

/* AUXTRACE_INFO: u32 type; u32 reserved; u64 priv[] to the end */
void rec_parse_auxtrace_info(struct rec_ctx *x)
{
	struct pd_rec_auxtrace_info *m = &x->r->u.auxtrace_info;
	uint64_t n;

	m->type = cur_u32(&x->c, "type");
	m->reserved = cur_u32(&x->c, "reserved");
	n = cur_left(&x->c) / 8;
	m->priv = rec_array(x, "priv", n, 8, sizeof(*m->priv));
	for (uint64_t i = 0; m->priv && i < n; i++)
		m->priv[m->npriv++] = cur_u64(&x->c, "priv");
}

/*
 * AUXTRACE_ERROR (auxtrace.c perf_event__fprintf_auxtrace_error):
 * u32 type, code, cpu, pid, tid, fmt; u64 ip; fmt 0: char msg[64] at 40;
 * fmt >= 1: u64 time at 40, msg at 48; fmt >= 2 with room: u32
 * machine_pid, vcpu at 112.  msg may be cut to its NUL + padding.
 */
void rec_parse_auxtrace_error(struct rec_ctx *x)
{
	struct pd_rec_auxtrace_error *m = &x->r->u.auxtrace_error;
	struct cursor *c = &x->c;
	size_t n;

	m->type = cur_u32(c, "type");
	m->code = cur_u32(c, "code");
	m->cpu = cur_u32(c, "cpu");
	m->pid = cur_u32(c, "pid");
	m->tid = cur_u32(c, "tid");
	m->fmt = cur_u32(c, "fmt");
	m->ip = cur_u64(c, "ip");
	if (m->fmt >= 1) {
		m->has_time = true;
		m->time = cur_u64(c, "time");
	}
	if (!cur_ok(c))
		return;
	n = cur_left(c) < PD_MAX_AUXTRACE_ERROR_MSG ? cur_left(c)
						    : PD_MAX_AUXTRACE_ERROR_MSG;
	m->msg = rec_fixed_string(x, "msg", n);
	if (m->fmt >= 2 && cur_left(c) >= 8) {
		m->has_guest = true;
		m->machine_pid = cur_u32(c, "machine_pid");
		m->vcpu = cur_u32(c, "vcpu");
	}
}

/* THREAD_MAP: u64 nr; nr x {u64 pid; char comm[16]} */
void rec_parse_thread_map(struct rec_ctx *x)
{
	struct pd_rec_thread_map *m = &x->r->u.thread_map;

	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u64(&x->c, "nr");
	m->v = rec_array(x, "entries", m->nr, 24, sizeof(*m->v));
	for (uint64_t i = 0; m->v && i < m->nr && cur_ok(&x->c); i++) {
		m->v[i].pid = cur_u64(&x->c, "pid");
		m->v[i].comm = rec_fixed_string(x, "comm", 16);
		if (cur_ok(&x->c))
			m->nread++;
	}
}

/*
 * TIME_CONV: u64 time_shift, time_mult, time_zero; since 5.10, if the
 * record is 56 bytes: u64 time_cycles, time_mask; u8 cap_user_time_zero,
 * cap_user_time_short; 6 bytes reserved.
 */
void rec_parse_time_conv(struct rec_ctx *x)
{
	struct pd_rec_time_conv *m = &x->r->u.time_conv;
	struct cursor *c = &x->c;

	m->time_shift = cur_u64(c, "time_shift");
	m->time_mult = cur_u64(c, "time_mult");
	m->time_zero = cur_u64(c, "time_zero");
	if (cur_left(c) >= 24) {
		m->has_cycles = true;
		m->time_cycles = cur_u64(c, "time_cycles");
		m->time_mask = cur_u64(c, "time_mask");
		m->cap_user_time_zero = cur_u8(c, "cap_user_time_zero");
		m->cap_user_time_short = cur_u8(c, "cap_user_time_short");
		cur_skip(c, "reserved", 6);
	}
}

/*
 * COMPRESSED (81): zstd bytes to header.size (not 8-aligned).
 * COMPRESSED2 (83): u64 data_size; zstd bytes; zero padding to 8.
 * Only seen when the reader was asked not to decompress.
 */
void rec_parse_compressed(struct rec_ctx *x)
{
	struct pd_rec_compressed *m = &x->r->u.compressed;
	struct cursor *c = &x->c;

	if (x->r->type == PD_REC_COMPRESSED2) {
		m->has_data_size = true;
		m->data_size = cur_u64(c, "data_size");
		if (cur_ok(c) && m->data_size > cur_left(c)) {
			cur_fail(c, PD_C_DECOMPRESS_FAILED, "data",
				 "data_size %llu exceeds the %zu bytes left",
				 (unsigned long long)m->data_size, cur_left(c));
			return;
		}
		cur_skip(c, "data", (size_t)m->data_size);
		m->padding = cur_left(c);
	} else {
		m->data_size = cur_left(c);
	}
	cur_skip(c, "data", cur_left(c));
}

/*
 * BPF_METADATA: char prog_name[512] (KSYM_NAME_LEN); u64
 * nr_entries; nr x {char key[64]; char value[256]}.
 */
void rec_parse_bpf_metadata(struct rec_ctx *x)
{
	struct pd_rec_bpf_metadata *m = &x->r->u.bpf_metadata;

	m->prog_name = rec_fixed_string(x, "prog_name", 512);
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr_entries = cur_u64(&x->c, "nr_entries");
	m->v = rec_array(x, "entries", m->nr_entries, 320, sizeof(*m->v));
	for (uint64_t i = 0; m->v && i < m->nr_entries && cur_ok(&x->c); i++) {
		m->v[i].key = rec_fixed_string(x, "key", 64);
		m->v[i].value = rec_fixed_string(x, "value", 256);
		if (cur_ok(&x->c))
			m->nread++;
	}
}

/*
 * HEADER_ATTR: the attr (attr.size bytes, 0 means 64); then u64 ids[] to
 * the end, from 8 + attr.size.
 */
void rec_parse_header_attr(struct rec_ctx *x)
{
	struct pd_rec_header_attr *m = &x->r->u.attr;
	struct cursor *c = &x->c;
	size_t left = cur_left(c);
	uint64_t n;

	m->attr_size = left >= 8 ? pd_get32(c->buf + c->pos + 4, c->swap) : 0;
	if (m->attr_size == 0)
		m->attr_size = 64;
	if (m->attr_size > left) {
		rec_err(x, PD_C_RECORD_UNDECODABLE, cur_off(c) + 4,
			"attr.size %u exceeds the %zu bytes "
			"of the record's body",
			m->attr_size, left);
		m->attr_size = (uint32_t)left;
	}
	if (!pd_attr_parse(c, m->attr_size, x->s->big_endian, &m->attr))
		return;
	m->ids_offset = cur_off(c);
	n = cur_left(c) / 8;
	m->ids = rec_array(x, "ids", n, 8, sizeof(*m->ids));
	for (uint64_t i = 0; m->ids && i < n; i++)
		m->ids[m->nids++] = cur_u64(c, "id");
}

/*
 * HEADER_EVENT_TYPE: u64 event_id; char name[64], but old perf
 * (synthesize_event_type) cut the record to the name's length rounded up
 * to 8: no NUL needed.
 */
void rec_parse_event_type(struct rec_ctx *x)
{
	struct pd_rec_event_type *m = &x->r->u.event_type;
	struct cursor *c = &x->c;

	m->event_id = cur_u64(c, "event_id");
	m->name = cur_fixed_string(c, "name",
				   cur_left(c) < PD_MAX_EVENT_NAME
					   ? cur_left(c)
					   : PD_MAX_EVENT_NAME);
}

/* AUXTRACE: u64 size, offset, reference; u32 idx, tid, cpu, reserved */
void rec_parse_auxtrace(struct rec_ctx *x)
{
	struct pd_rec_auxtrace *m = &x->r->u.auxtrace;
	struct cursor *c = &x->c;

	m->size = cur_u64(c, "size");
	m->offset = cur_u64(c, "offset");
	m->reference = cur_u64(c, "reference");
	m->idx = cur_u32(c, "idx");
	m->tid = cur_u32(c, "tid");
	m->cpu = cur_u32(c, "cpu");
	m->reserved = cur_u32(c, "reserved");
}
