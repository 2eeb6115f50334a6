// SPDX-License-Identifier: MIT
/*
 * Record bodies: the dispatcher, the shared helpers, and the kernel's
 * records 1..22.  Layouts checked against
 * tools/lib/perf/include/perf/event.h (struct perf_record_*), the uapi
 * perf_event.h comments and tools/perf/util/session.c (the swap ops find
 * each string's end the same way: first NUL, then padding to 8).
 */
#include "lib/session/record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/session/evlist.h"
#include "lib/session/record_int.h"
#include "lib/session/session.h"

/* ---- helpers --------------------------------------------------------- */

static void vdiag(struct rec_ctx *x, enum pd_code code, enum pd_sev sev,
		  uint64_t off, const char *fmt, va_list ap)
{
	char buf[400];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	pd_diag_add(&x->s->diags, code, x->c.where, sev, off, x->name, "%s",
		    buf);
}

void rec_warn(struct rec_ctx *x, enum pd_code code, uint64_t off,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(x, code, PD_WARN, off, fmt, ap);
	va_end(ap);
}

void rec_err(struct rec_ctx *x, enum pd_code code, uint64_t off,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(x, code, PD_ERR, off, fmt, ap);
	va_end(ap);
}

struct pd_str rec_tail_string(struct rec_ctx *x, const char *what)
{
	size_t n = cur_left(&x->c);
	struct pd_str str;

	if (!cur_ok(&x->c))
		return (struct pd_str){0};
	if (n == 0) {
		cur_fail(&x->c, cur_short_code(&x->c), what,
			 "no bytes left for the string");
		return (struct pd_str){0};
	}
	str = cur_fixed_string(&x->c, what, n);
	if (str.len == n && !x->r->too_small)
		rec_warn(x, PD_C_STRING_NO_NUL, str.off,
			 "%s: no terminating NUL in the %zu bytes "
			 "left in the record",
			 what, n);
	return str;
}

struct pd_str rec_fixed_string(struct rec_ctx *x, const char *what, size_t n)
{
	struct pd_str str = cur_fixed_string(&x->c, what, n);

	if (cur_ok(&x->c) && str.len == n)
		rec_warn(x, PD_C_STRING_NO_NUL, str.off,
			 "%s: no terminating NUL in its %zu bytes", what, n);
	return str;
}

void *rec_array(struct rec_ctx *x, const char *what, uint64_t count,
		size_t elem_size, size_t model_size)
{
	void *v;

	if (!cur_check_count(&x->c, what, count, elem_size) || count == 0)
		return NULL;
	v = arena_calloc(x->scratch, (size_t)count, model_size);
	if (!v)
		cur_fail(&x->c, cur_bad_code(&x->c), what,
			 "out of memory for %llu entries",
			 (unsigned long long)count);
	return v;
}

/*
 * The fields of layout l (record_types.c), each at its offset from where
 * the cursor stands, into model: a field that does not fit is reported
 * by the cursor with its name, and the fields before it are kept.
 */
void rec_fields(struct rec_ctx *x, const struct pd_rec_layout *l, void *model)
{
	struct cursor *c = &x->c;
	size_t base = c->pos;
	uint8_t *m = model;

	for (uint8_t i = 0; i < l->n; i++) {
		const struct pd_rec_field *f = &l->f[i];
		uint16_t v16;
		uint32_t v32;
		uint64_t v64;

		if (c->pos < base + f->off)
			cur_skip(c, "reserved", base + f->off - c->pos);
		switch (f->width) {
		case sizeof(uint8_t): m[f->model] = cur_u8(c, f->name); break;
		case sizeof(uint16_t):
			v16 = cur_u16(c, f->name);
			memcpy(m + f->model, &v16, 2);
			break;
		case sizeof(uint32_t):
			v32 = cur_u32(c, f->name);
			memcpy(m + f->model, &v32, 4);
			break;
		default:
			v64 = cur_u64(c, f->name);
			memcpy(m + f->model, &v64, 8);
			break;
		}
	}
}

/* ---- kernel records: what follows the head (record_types.c) ----------- */

/*
 * MMAP2 came without prot and flags at first (kernel 3.16-rc, kept by
 * RHEL 7's 3.10 kernels): the filename starts at offset 64.  The kernel
 * only ever sets PROT_READ|WRITE|EXEC in prot, so a prot with other bits
 * over a printable string start means that layout (perf reads it as
 * prot/flags and shows the name cut by 8 bytes).
 */
static bool early_mmap2(struct rec_ctx *x)
{
	const struct cursor *c = &x->c;
	const uint8_t *p = c->buf + c->pos;
	uint32_t prot;

	if (!cur_ok(c) || cur_left(c) < 8)
		return false;
	prot = pd_get32(p, c->swap);
	return (prot & ~7u) && p[0] > 0x20 && p[0] < 0x7f;
}

/*
 * MMAP:  (head) u32 pid, tid; u64 addr, len, pgoff; char filename[]
 * MMAP2: the same head, then {u32 maj, min; u64 ino, ino_generation} or, with
 *        misc MMAP_BUILD_ID, {u8 build_id_size, u8, u16; u8 build_id[20]};
 *        u32 prot, flags; char filename[]  (kernel/events/core.c
 *        perf_event_mmap_output)
 */
void rec_parse_mmap(struct rec_ctx *x)
{
	struct pd_rec_mmap *m = &x->r->u.mmap;
	struct cursor *c = &x->c;

	m->is_mmap2 = x->r->type == PD_REC_MMAP2;
	if (m->is_mmap2) {
		if (x->e->misc & PD_MISC_MMAP_BUILD_ID) {
			m->has_build_id = true;
			m->build_id_size = cur_u8(c, "build_id_size");
			cur_skip(c, "reserved", 3);
			m->build_id = cur_bytes(c, "build_id", PD_BUILD_ID_MAX);
			if (cur_ok(c) && m->build_id_size > PD_BUILD_ID_MAX)
				rec_warn(x, PD_C_UNUSUAL, cur_off(c) - 24,
					 "build_id_size %u is larger than the "
					 "20-byte field",
					 m->build_id_size);
		} else {
			m->maj = cur_u32(c, "maj");
			m->min = cur_u32(c, "min");
			m->ino = cur_u64(c, "ino");
			m->ino_generation = cur_u64(c, "ino_generation");
		}
		if (early_mmap2(x)) {
			m->no_prot_flags = true;
			rec_warn(x, PD_C_UNUSUAL, cur_off(c),
				 "prot would be 0x%x: an MMAP2 "
				 "without prot and flags (the first MMAP2 "
				 "layout, "
				 "RHEL 7 kernels); the filename is read at "
				 "offset 64",
				 pd_get32(c->buf + c->pos, c->swap));
		} else {
			m->prot = cur_u32(c, "prot");
			m->flags = cur_u32(c, "flags");
		}
	}
	m->filename = rec_tail_string(x, "filename");
}

/* COMM: (head) u32 pid, tid; char comm[] */
void rec_parse_comm(struct rec_ctx *x)
{
	x->r->u.comm.comm = rec_tail_string(x, "comm");
}

/*
 * READ: (head) u32 pid, tid; then the read_format values of the attr the record
 * belongs to (by its trailer id, or the only attr): non-group
 * {value; [time_enabled]; [time_running]; [id]; [lost]}, group
 * {nr; [time_enabled]; [time_running]; nr x {value; [id]; [lost]}}.
 */
void rec_parse_read(struct rec_ctx *x)
{
	struct pd_rec_read *m = &x->r->u.read;
	struct cursor *c = &x->c;
	const struct pd_evsel *ev;
	uint64_t rid = 0, rf;
	size_t per;

	ev = pd_record_evsel(x->s, x->r->type, x->e->p, x->e->size, &rid);
	if (!ev) {
		/* no attr: the words as they are */
		uint64_t n = cur_left(c) / 8;

		m->raw = rec_array(x, "values", n, 8, sizeof(uint64_t));
		for (uint32_t i = 0; m->raw && i < n; i++)
			m->raw[m->nraw++] = cur_u64(c, "value");
		return;
	}
	m->has_format = true;
	m->attr_idx = ev->idx;
	m->read_format = rf = ev->attr.read_format;
	per = 8 + (rf & PD_FORMAT_ID ? 8 : 0) + (rf & PD_FORMAT_LOST ? 8 : 0);
	if (rf & PD_FORMAT_GROUP) {
		/* untrusted count: checked against the bytes left before use (cursor.h) */
		m->nr = cur_u64(c, "nr");
		if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
			m->time_enabled = cur_u64(c, "time_enabled");
		if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
			m->time_running = cur_u64(c, "time_running");
		m->values =
			rec_array(x, "values", m->nr, per, sizeof(*m->values));
		if (!m->values)
			return;
		for (uint64_t i = 0; i < m->nr && cur_ok(c); i++) {
			struct pd_read_value *v = &m->values[m->nvalues];

			v->value = cur_u64(c, "value");
			if (rf & PD_FORMAT_ID)
				v->id = cur_u64(c, "id");
			if (rf & PD_FORMAT_LOST)
				v->lost = cur_u64(c, "lost");
			if (cur_ok(c))
				m->nvalues++;
		}
		return;
	}
	m->values = arena_calloc(x->scratch, 1, sizeof(*m->values));
	if (!m->values)
		return;
	m->values->value = cur_u64(c, "value");
	if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
		m->time_enabled = cur_u64(c, "time_enabled");
	if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
		m->time_running = cur_u64(c, "time_running");
	if (rf & PD_FORMAT_ID)
		m->values->id = cur_u64(c, "id");
	if (rf & PD_FORMAT_LOST)
		m->values->lost = cur_u64(c, "lost");
	m->nvalues = cur_ok(c);
}

/* NAMESPACES: (head) u32 pid, tid; u64 nr_namespaces; nr x {u64 dev, ino} */
void rec_parse_namespaces(struct rec_ctx *x)
{
	struct pd_rec_namespaces *m = &x->r->u.ns;

	/* m->nr untrusted: checked against the bytes left before use (cursor.h) */
	m->v = rec_array(x, "link_info", m->nr, 16, sizeof(*m->v));
	for (uint64_t i = 0; m->v && i < m->nr && cur_ok(&x->c); i++) {
		m->v[i].dev = cur_u64(&x->c, "dev");
		m->v[i].ino = cur_u64(&x->c, "ino");
		if (cur_ok(&x->c))
			m->nread++;
	}
}

/* KSYMBOL: (head) u64 addr; u32 len; u16 ksym_type, flags; char name[] */
void rec_parse_ksymbol(struct rec_ctx *x)
{
	x->r->u.ksymbol.name = rec_tail_string(x, "name");
}

/* BPF_EVENT: (head) u16 type, flags; u32 id; u8 tag[8] */
void rec_parse_bpf_event(struct rec_ctx *x)
{
	x->r->u.bpf.tag = cur_bytes(&x->c, "tag", PD_BPF_TAG_SIZE);
}

/*
 * TEXT_POKE: (head) u64 addr; u16 old_len, new_len;
 * u8 bytes[old_len + new_len]
 */
void rec_parse_text_poke(struct rec_ctx *x)
{
	struct pd_rec_text_poke *m = &x->r->u.text_poke;
	struct cursor *c = &x->c;

	m->bytes_offset = cur_off(c);
	if (cur_ok(c) && (size_t)m->old_len + m->new_len > cur_left(c)) {
		cur_fail(c, cur_short_code(c), "bytes",
			 "old_len %u + new_len %u exceed the %zu bytes left",
			 m->old_len, m->new_len, cur_left(c));
		return;
	}
	m->old_bytes = cur_bytes(c, "old bytes", m->old_len);
	m->new_bytes = cur_bytes(c, "new bytes", m->new_len);
}

/* CALLCHAIN_DEFERRED: (head) u64 cookie; u64 nr; u64 ips[nr] */
void rec_parse_callchain_deferred(struct rec_ctx *x)
{
	struct pd_rec_callchain_deferred *m = &x->r->u.deferred;

	/* m->nr untrusted: checked against the bytes left before use (cursor.h) */
	m->ips = rec_array(x, "ips", m->nr, 8, sizeof(*m->ips));
	for (uint64_t i = 0; m->ips && i < m->nr && cur_ok(&x->c); i++)
		m->ips[m->nips++] = cur_u64(&x->c, "ip");
}

/* CGROUP: (head) u64 id; char path[] */
void rec_parse_cgroup(struct rec_ctx *x)
{
	x->r->u.cgroup.path = rec_tail_string(x, "path");
}

/* ---- the dispatcher ---------------------------------------------------- */

/* What is left of the body after the fields: padding, or undecoded bytes. */
static void check_tail(struct rec_ctx *x)
{
	struct pd_record *r = x->r;
	struct cursor *c = &x->c;
	size_t left = cur_left(c);
	const uint8_t *p;
	bool zero = true;

	if (!cur_ok(c) || left == 0 || r->kind == PD_RK_RAW)
		return;
	p = c->buf + c->pos;
	for (size_t i = 0; i < left && zero; i++)
		zero = p[i] == 0;
	/*
	 * Zero bytes are padding: to 8 after a string, or perf's records
	 * written at the size of a union's largest member (EVENT_UPDATE).
	 */
	if (zero)
		return;
	r->tail = p;
	r->ntail = (uint32_t)left;
	r->tail_offset = cur_off(c);
	rec_warn(x, PD_C_RECORD_TRAILING_BYTES, cur_off(c),
		 "%zu bytes after the decoded fields were not "
		 "decoded",
		 left);
}

bool pd_parse_record(struct pd_session *s, const struct pd_event *e,
		     uint32_t trailer_size, struct arena *scratch,
		     struct pd_record *out)
{
	/* a legacy feature record's type number is not its layout */
	const struct pd_rec_ops *ops =
		e->legacy_feature ? NULL : pd_rec_ops(e->type);
	struct rec_ctx x = {.s = s, .e = e, .scratch = scratch, .r = out};
	uint32_t body = e->size >= 8 ? e->size - 8u : 0;
	size_t nerr = s->diags.nerr;

	memset(out, 0, sizeof(*out));
	out->type = e->type;
	if (trailer_size > body)
		trailer_size = 0; /* the caller reported it */
	body -= trailer_size;
	out->body_size = body;
	out->body_offset = e->offset + 8;
	if (e->legacy_feature)
		snprintf(x.name, sizeof(x.name), "legacy feature record %u",
			 e->legacy_feature);
	else if (ops)
		snprintf(x.name, sizeof(x.name), "PERF_RECORD_%s", ops->name);
	else
		snprintf(x.name, sizeof(x.name), "record type %u", e->type);
	cur_init(&x.c, e->size >= 8 ? e->p + 8 : e->p, body, e->offset + 8,
		 s->swap, &s->diags, x.name,
		 e->legacy_feature
			 ? PD_WHERE(PD_IN_LEGACY_RECORD, e->legacy_feature)
			 : PD_AT_RECORD(e->type));

	out->min_size = ops ? ops->min_size : 0;
	if (out->min_size && e->size < out->min_size) {
		rec_err(&x, PD_C_RECORD_TOO_SMALL, e->offset,
			"record of %u bytes is shorter than the "
			"%u-byte minimum for its type",
			e->size, out->min_size);
		out->too_small = true;
		x.c.diags = NULL; /* said once: keep what fits, quietly */
	}
	if (e->legacy_feature) {
		out->kind = PD_RK_FIELDS;
		rec_parse_legacy_feature(&x);
	} else {
		/* unknown types (0, 23..63, 87.., simpleperf's) are bytes */
		out->kind = ops ? ops->kind : PD_RK_RAW;
		if (ops && ops->head.n)
			rec_fields(&x, &ops->head, &out->u);
		if (ops && ops->parse)
			ops->parse(&x);
	}
	if (out->kind == PD_RK_RAW) {
		out->u.raw.p = x.c.buf;
		out->u.raw.n = body;
		out->u.raw.off = out->body_offset;
	}
	check_tail(&x);
	out->ok = s->diags.nerr == nerr;
	return out->ok;
}

bool pd_record_pid_tid(const struct pd_record *r, uint32_t *pid, uint32_t *tid)
{
	switch (r->type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		*pid = r->u.mmap.pid;
		*tid = r->u.mmap.tid;
		return true;
	case PD_REC_COMM:
		*pid = r->u.comm.pid;
		*tid = r->u.comm.tid;
		return true;
	case PD_REC_EXIT:
	case PD_REC_FORK:
		*pid = r->u.task.pid;
		*tid = r->u.task.tid;
		return true;
	case PD_REC_READ:
		*pid = r->u.read.pid;
		*tid = r->u.read.tid;
		return true;
	case PD_REC_ITRACE_START:
		*pid = r->u.pid_tid.pid;
		*tid = r->u.pid_tid.tid;
		return true;
	case PD_REC_NAMESPACES:
		*pid = r->u.ns.pid;
		*tid = r->u.ns.tid;
		return true;
	default: return false;
	}
}
