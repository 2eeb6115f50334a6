// SPDX-License-Identifier: MIT
/*
 * --redact in the file written (copy.h pd_copy_redact): the strings of
 * records and features rewritten in place, their sizes fixed up.  A
 * record's string is NUL-padded to 8 bytes before its sample_id trailer
 * (kernel/events/core.c perf_event_mmap_event, perf_event_comm_event,
 * perf_event_cgroup_output: size = ALIGN(strlen + 1, sizeof(u64))); a
 * feature's string is perf's {u32 len; char s[len]} with len a multiple
 * of 64 (tools/perf/util/header.c do_write_string, NAME_ALIGN), and a
 * BUILD_ID entry's file name is padded to 64 the same way (header.c
 * write_buildid).  TRACING_DATA's saved cmdlines keep their layout.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/base/arena.h"
#include "lib/base/strbuf.h"
#include "lib/format/feat_meta.h"
#include "lib/format/features.h"
#include "lib/tracepoint/tracepoint.h"
#include "lib/write/copy_int.h"

#define NAME_ALIGN    64
#define BUILD_ID_HEAD 36 /* perf_record_header_build_id: header, pid, 24 */

static void rewrite(const struct copy *c, enum pd_copy_str k, unsigned argi,
		    const char *s, size_t n, const char **out, size_t *outlen)
{
	*out = s;
	*outlen = n;
	c->o->redact->str(c->o->redact->ctx, k, argi, NULL, s, n, out, outlen);
}

/*
 * A tracepoint sample's string fields, redacted where they lie: the token
 * in the field's bytes, cut to them or NUL-padded (perf reads them up to
 * the NUL), so that no offset or size of the sample changes.
 */
static bool redact_tp(struct copy *c, const struct pd_event *ev,
		      const struct pd_decoded *d, uint8_t *buf, size_t *len)
{
	const struct pd_tp_sample *tp = &d->smp.tp;
	const uint8_t *end = ev->p + ev->size;
	bool changed = false;

	if (!tp->ev || !tp->v)
		return false;
	for (uint32_t i = 0; i < tp->ev->nfields; i++) {
		const struct pd_tp_field *f = &tp->ev->fields[i];
		const struct pd_tp_value *v = &tp->v[i];
		const char *o;
		size_t olen, at, room;

		if ((f->kind != PD_TP_STR && f->kind != PD_TP_DLOC_STR) ||
		    !v->ok || !v->p || v->p < ev->p || v->p > end)
			continue;
		/* a char[N] has N bytes, a NUL kept at the end; a __data_loc
		 * string its bytes up to the NUL that ends it */
		room = f->kind == PD_TP_STR && f->size ? f->size - 1 : v->len;
		if (room < v->len || room > (size_t)(end - v->p))
			continue;
		o = (const char *)v->p;
		olen = v->len;
		c->o->redact->str(c->o->redact->ctx, PD_CSTR_TP, 0, f,
				  (const char *)v->p, v->len, &o, &olen);
		if (o == (const char *)v->p && olen == v->len)
			continue;
		if (!changed)
			memcpy(buf, ev->p, ev->size);
		changed = true;
		at = (size_t)(v->p - ev->p);
		memset(buf + at, 0, room);
		memcpy(buf + at, o, olen < room ? olen : room);
	}
	*len = ev->size;
	return changed;
}

/*
 * Does the rewritten record name the attr the input's did?  Where the
 * attrs disagree on their sample_id layout (perf refuses such files), the
 * id may be read from bytes the string took: decoded again to tell, the
 * diagnostics of that decoding dropped.
 */
static bool same_attr(struct copy *c, const struct pd_event *ev,
		      const struct pd_decoded *d, const uint8_t *buf,
		      size_t size)
{
	struct pd_diags *dg = &c->s->diags;
	struct pd_diags_mark m = pd_diags_mark(dg);
	pd_diag_hook hook = dg->hook;
	struct pd_event e2 = *ev;
	struct pd_decoded d2;
	struct arena a = {0};
	bool same;

	e2.p = buf;
	e2.size = (uint16_t)size;
	dg->hook = NULL; /* not shown: this decoding is the writer's own */
	pd_decode_event(c->s, &e2, &a, 0, &d2);
	same = dg->nerr == m.nerr && d2.evsel == d->evsel && d2.rid == d->rid;
	pd_diags_rewind(dg, m);
	dg->hook = hook;
	arena_free(&a);
	return same;
}

int copy_redact_record(struct copy *c, const struct pd_event *ev,
		       const struct pd_decoded *d, uint8_t *buf, size_t *len)
{
	const struct pd_str *str;
	enum pd_copy_str k;
	const char *p = (const char *)ev->p, *o;
	size_t at, tr = d->id.trailer_size, olen, pad, size;

	switch (ev->type) {
	case PD_REC_SAMPLE: return redact_tp(c, ev, d, buf, len) ? 1 : 0;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		str = &d->rec.u.mmap.filename;
		k = PD_CSTR_PATH;
		break;
	case PD_REC_COMM:
		str = &d->rec.u.comm.comm;
		k = PD_CSTR_COMM;
		break;
	case PD_REC_CGROUP:
		str = &d->rec.u.cgroup.path;
		k = PD_CSTR_CGROUP;
		break;
	default: return 0;
	}
	/* a string that cannot be found, in a record perf would not lay out
	 * so: left out rather than written unredacted */
	if (!str->s || str->s < p || str->s > p + ev->size || ev->size % 8 ||
	    tr % 8)
		return -1;
	at = (size_t)(str->s - p);
	/* ... or whose string has no NUL (the kernel always writes one: the
	 * record's end, and the trailer taken from it, are in doubt) */
	if (at % 8 || d->trailer_short || at + str->len + tr >= ev->size)
		return -1;
	rewrite(c, k, 0, str->s, str->len, &o, &olen);
	if (o == str->s && olen == str->len)
		return 0;
	/* the record's u16 size bounds the string */
	if (olen > 0xfff8u - at - tr - 8)
		olen = 0xfff8u - at - tr - 8;
	pad = (olen + 8) & ~(size_t)7;
	size = at + pad + tr;
	memcpy(buf, p, at);
	memset(buf + at, 0, pad);
	memcpy(buf + at, o, olen);
	memcpy(buf + at + pad, p + ev->size - tr, tr);
	pd_put16(buf + 6, (uint16_t)size, c->swap);
	*len = size;
	return same_attr(c, ev, d, buf, size) ? 1 : -1;
}

/* ---- features ---------------------------------------------------------- */

/* Appended to the feature written (strbuf: bytes, not text, here). */
void copy_fb_put(struct strbuf *f, const void *p, size_t n)
{
	strbuf_put(f, p, n);
}

void copy_fb_zero(struct strbuf *f, size_t n)
{
	static const uint8_t z[NAME_ALIGN];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		copy_fb_put(f, z, k);
		n -= k;
	}
}

/* perf's string: u32 len (a multiple of 64), s NUL-padded to len */
void copy_fb_string(struct copy *c, struct strbuf *f, const char *s, size_t n)
{
	uint32_t len = (uint32_t)((n + NAME_ALIGN) & ~(size_t)(NAME_ALIGN - 1));
	uint8_t b[4];

	pd_put32(b, len, c->swap);
	copy_fb_put(f, b, 4);
	copy_fb_put(f, s, n);
	copy_fb_zero(f, len - n);
}

/* A perf string at in[*at..end): its text (up to its NUL) and length. */
static bool read_string(const struct copy *c, const uint8_t *in, size_t end,
			size_t *at, const char **s, size_t *n)
{
	uint32_t len;

	if (end - *at < 4)
		return false;
	len = pd_get32(in + *at, c->swap);
	if (len > end - *at - 4)
		return false;
	*s = (const char *)in + *at + 4;
	*n = strnlen(*s, len);
	*at += 4 + len;
	return true;
}

static bool redact_strings(struct copy *c, unsigned id, const uint8_t *in,
			   size_t size, struct strbuf *f)
{
	const char *s, *o;
	size_t at = 0, n, olen;
	uint32_t nr;

	if (id == HEADER_HOSTNAME || id == HEADER_OSRELEASE) {
		if (!read_string(c, in, size, &at, &s, &n))
			return false;
		rewrite(c, PD_CSTR_HOST, 0, s, n, &o, &olen);
		copy_fb_string(c, f, o, olen);
		return true;
	}
	/* HEADER_CMDLINE: u32 nr, then nr strings */
	if (size < 4)
		return false;
	nr = pd_get32(in, c->swap);
	copy_fb_put(f, in, 4);
	at = 4;
	for (uint32_t i = 0; i < nr; i++) {
		if (!read_string(c, in, size, &at, &s, &n))
			return false;
		rewrite(c, PD_CSTR_ARG, i, s, n, &o, &olen);
		copy_fb_string(c, f, o, olen);
	}
	return true;
}

static bool redact_build_ids(struct copy *c, const uint8_t *in, size_t size,
			     struct strbuf *f)
{
	size_t at = 0;

	while (at < size) {
		uint16_t esz;
		const char *s, *o;
		size_t n, olen, len;
		uint8_t head[BUILD_ID_HEAD];

		if (size - at < BUILD_ID_HEAD)
			return false;
		esz = pd_get16(in + at + 6, c->swap);
		if (esz < BUILD_ID_HEAD || esz > size - at)
			return false;
		s = (const char *)in + at + BUILD_ID_HEAD;
		n = strnlen(s, esz - BUILD_ID_HEAD);
		rewrite(c, PD_CSTR_PATH, 0, s, n, &o, &olen);
		len = (olen + NAME_ALIGN) & ~(size_t)(NAME_ALIGN - 1);
		if (BUILD_ID_HEAD + len > 0xffff)
			return false;
		memcpy(head, in + at, BUILD_ID_HEAD);
		pd_put16(head + 6, (uint16_t)(BUILD_ID_HEAD + len), c->swap);
		copy_fb_put(f, head, BUILD_ID_HEAD);
		copy_fb_put(f, o, olen);
		copy_fb_zero(f, len - olen);
		at += esz;
	}
	return true;
}

/*
 * TRACING_DATA's saved cmdlines ("pid comm\n" lines; the blob's last
 * part: u64 size in the blob's byte order, then the text, feat_tracing.c),
 * their comms redacted; the formats before them as they are.
 */
static bool redact_cmdlines(struct copy *c, const struct pd_feature *fe,
			    const uint8_t *in, size_t size, struct strbuf *f)
{
	const struct feat_tracing_data *m = fe->model;
	const uint16_t one = 1;
	bool swap;
	size_t at, end;
	uint8_t b[8];

	if (!m || m->next || m->step != PD_TRACE_DONE || m->size > size)
		return false;
	if (!m->has_saved_cmdlines) {
		copy_fb_put(f, in, size);
		return true;
	}
	if (m->saved_cmdlines_size > m->size - 8)
		return false;
	end = (size_t)m->size;
	at = end - (size_t)m->saved_cmdlines_size;
	swap = (m->endian != 0) != (*(const uint8_t *)&one == 0);
	copy_fb_put(f, in, at - 8);
	copy_fb_put(f, b, 8); /* the size, once known (patched below) */
	for (size_t i = at; i < end;) {
		const char *line = (const char *)in + i, *sp, *nl, *o;
		size_t n = end - i, olen;

		nl = memchr(line, '\n', n);
		n = nl ? (size_t)(nl - line) : n;
		sp = memchr(line, ' ', n);
		if (sp) {
			copy_fb_put(f, line, (size_t)(sp - line) + 1);
			rewrite(c, PD_CSTR_COMM, 0, sp + 1,
				n - (size_t)(sp - line) - 1, &o, &olen);
			copy_fb_put(f, o, olen);
		} else {
			copy_fb_put(f, line, n);
		}
		copy_fb_put(f, "\n", nl ? 1 : 0);
		i += n + (nl ? 1 : 0);
	}
	if (f->oom)
		return false;
	pd_put64((uint8_t *)f->p + at - 8, f->len - at, swap);
	copy_fb_put(f, in + end, size - end); /* a pipe record's padding */
	return true;
}

/* Does OSRELEASE (a perf string) name the host? */
static bool names_host(struct copy *c, const uint8_t *in, size_t size)
{
	const char *s;
	size_t at = 0, n;

	if (!read_string(c, in, size, &at, &s, &n))
		return true; /* not read: left out, to be safe */
	return c->host_len && memmem(s, n, c->host, c->host_len);
}

void copy_redact_host(struct copy *c, const uint8_t *in, size_t size)
{
	const char *s;
	size_t at = 0, n;

	if (read_string(c, in, size, &at, &s, &n) && n < sizeof(c->host)) {
		memcpy(c->host, s, n);
		c->host_len = n;
	}
}

int copy_redact_feature(struct copy *c, const struct pd_feature *fe,
			const uint8_t *in, size_t size, uint8_t **out,
			size_t *outlen)
{
	unsigned id = fe->id;
	struct strbuf f = {0};
	bool ok;

	if (id == HEADER_OSRELEASE && !names_host(c, in, size))
		return 0;
	if (id == HEADER_TRACING_DATA)
		ok = redact_cmdlines(c, fe, in, size, &f);
	else if (id == HEADER_BUILD_ID)
		ok = redact_build_ids(c, in, size, &f);
	else if (id == HEADER_HOSTNAME || id == HEADER_OSRELEASE ||
		 id == HEADER_CMDLINE)
		ok = redact_strings(c, id, in, size, &f);
	else
		return 0;
	if (!ok || f.oom) {
		free(f.p);
		return -1;
	}
	*out = (uint8_t *)f.p;
	*outlen = f.len;
	return 1;
}
