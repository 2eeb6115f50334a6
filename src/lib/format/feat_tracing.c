// SPDX-License-Identifier: MIT
/*
 * TRACING_DATA: the tracing blob of feature 1 and of the
 * PERF_RECORD_HEADER_TRACING_DATA (66) record payload.  Checked against
 * tools/perf/util/trace-event-read.c trace_report() and its helpers
 * (reader) and trace-event-info.c (writer), torvalds/linux 00093b31:
 *
 *	u8   magic[3] = 17 08 44; char tag[7] = "tracing";
 *	char version[] NUL-terminated ("0.6");
 *	u8   big_endian;  u8 long_size;
 *	--- integers below use the blob's byte order ---
 *	u32  page_size;
 *	char "header_page\0"[12];  u64 size; char text[size];
 *	char "header_event\0"[13]; u64 size; char text[size];
 *	u32  nr_ftrace;  nr_ftrace x { u64 size; char format[size]; }
 *	u32  nr_systems; nr_systems x { char system[] NUL-terminated;
 *	     u32 count; count x { u64 size; char format[size]; } }
 *	u32  kallsyms_size; char kallsyms[kallsyms_size];
 *	u32  printk_size;   char printk[printk_size];
 *	u64  saved_cmdlines_size; char cmdlines[...];   (version >= 0.6)
 *
 * The blob has no length of its own: its end is where parsing stops.  In
 * pipe mode the record payload is padded with zeros to 8 bytes.
 */
#include <stdio.h>
#include <string.h>

#include "lib/format/feat_ctx.h"
#include "lib/format/feat_meta.h"

#define WHAT "HEADER_TRACING_DATA"

static const uint8_t trace_magic[10] = {0x17, 0x08, 0x44, 't', 'r',
					'a',  'c',  'i',  'n', 'g'};

static bool host_big_endian(void)
{
	const uint16_t one = 1;
	uint8_t b;

	memcpy(&b, &one, 1);
	return b == 0;
}

/* The next n bytes without consuming them; NULL if fewer remain. */
static const uint8_t *peek(const struct cursor *c, size_t n)
{
	struct cursor p = *c;

	if (cur_left(c) < n)
		return NULL;
	return cur_bytes(&p, "peek", n);
}

/* "0.6" -> true when the version is >= 0.6, as perf's atof() compare. */
static bool version_has_cmdlines(const struct pd_str *v)
{
	uint64_t major = 0;
	uint32_t i = 0;

	while (i < v->len && v->s[i] == ' ')
		i++;
	if (i == v->len || v->s[i] < '0' || v->s[i] > '9')
		return false;
	for (; i < v->len && v->s[i] >= '0' && v->s[i] <= '9'; i++)
		major = major > 1000 ? major
				     : major * 10 + (uint64_t)(v->s[i] - '0');
	if (major)
		return true;
	if (i + 1 < v->len && v->s[i] == '.')
		return v->s[i + 1] >= '6' && v->s[i + 1] <= '9';
	return false;
}

/* The value after "key:" on a line of text, trimmed; len 0 if none. */
static struct pd_str line_value(const char *p, const char *end, uint64_t off)
{
	struct pd_str v = {0};

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	v.s = p;
	v.off = off;
	while (p < end && *p != '\n')
		p++;
	while (p > v.s && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\r'))
		p--;
	v.len = (uint32_t)(p - v.s);
	return v;
}

/* Find "name:" and "ID:" in a format text. */
static void parse_format_text(struct pd_trace_format *ev, const uint8_t *text,
			      size_t n, uint64_t off)
{
	const char *p = (const char *)text, *end = p + n;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		uint64_t at = off + (uint64_t)(p - (const char *)text);

		if (!eol)
			eol = end;
		if (eol - p >= 5 && memcmp(p, "name:", 5) == 0 && !ev->name.s) {
			ev->name = line_value(p + 5, eol, at + 5);
		} else if (eol - p >= 3 && memcmp(p, "ID:", 3) == 0 &&
			   !ev->has_id) {
			const char *q = p + 3;
			uint64_t id = 0;

			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if (q < eol && *q >= '0' && *q <= '9') {
				for (; q < eol && *q >= '0' && *q <= '9'; q++)
					id = id * 10 + (uint64_t)(*q - '0');
				ev->id = id;
				ev->has_id = true;
			}
		} else if (eol - p >= 7 && memcmp(p, "format:", 7) == 0) {
			break; /* name and ID come before the fields */
		}
		p = eol + 1;
	}
}

/*
 * The field name of one header_page line ("\tfield: u64 timestamp;\t...",
 * or "field: char data[4080];"), or NULL.
 */
static const char *hp_field_name(const char *p, const char *eol, size_t *len)
{
	const char *semi, *end, *w;

	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	if (eol - p <= 6 || memcmp(p, "field:", 6) != 0)
		return NULL;
	semi = memchr(p, ';', (size_t)(eol - p));
	if (!semi)
		return NULL;
	end = memchr(p, '[', (size_t)(semi - p));
	if (!end)
		end = semi;
	for (w = end; w > p + 6 && w[-1] != ' ' && w[-1] != '\t'; w--)
		;
	*len = (size_t)(end - w);
	return w;
}

/* The field names of the header_page text (the ring-buffer page header). */
static void parse_header_page(struct feat_tracing_data *m, const uint8_t *text,
			      size_t n, uint64_t off)
{
	const char *start = (const char *)text, *p = start, *end = p + n;

	while (p < end && m->nr_header_page_fields < PD_TRACE_MAX_HP_FIELDS) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *name;
		struct pd_str *f;
		size_t len;

		if (!eol)
			eol = end;
		name = hp_field_name(p, eol, &len);
		if (name) {
			f = &m->header_page_fields[m->nr_header_page_fields++];
			f->s = name;
			f->len = (uint32_t)len;
			f->off = off + (uint64_t)(name - start);
		}
		p = eol + 1;
	}
}

/* Check a fixed marker ("header_page\0"); fails the cursor if wrong. */
static bool expect_marker(struct cursor *c, const char *what,
			  const char *marker, size_t n)
{
	const uint8_t *p = peek(c, n);

	if (p && memcmp(p, marker, n) != 0) {
		cur_fail(c, cur_bad_code(c), what,
			 "expected the marker \"%s\" here", marker);
		return false;
	}
	return cur_skip(c, what, n);
}

/* u64 size; text[size]: where the text is (NULL when cut short). */
static const uint8_t *sized_text(struct cursor *c, const char *what,
				 uint64_t *off, uint64_t *size)
{
	*size = cur_u64(c, what);
	*off = cur_off(c);
	if (!cur_ok(c))
		return NULL;
	if (*size > cur_left(c)) {
		cur_fail(c, cur_short_code(c), what,
			 "size %llu exceeds the %zu bytes left",
			 (unsigned long long)*size, cur_left(c));
		return NULL;
	}
	return cur_bytes(c, what, (size_t)*size);
}

static struct pd_trace_format *add_event(struct pd_feat_ctx *x,
					 struct feat_tracing_data *m)
{
	if (!pd_arena_grow(x->arena, (void **)&m->events, &m->events_cap,
			   m->nevents + 1, sizeof(*m->events)))
		return NULL;
	return memset(&m->events[m->nevents++], 0, sizeof(*m->events));
}

/*
 * count x { u64 size; format text } of one system (sys < 0: ftrace).
 * Diagnostics name the system by index: its name is file text.
 */
static bool read_formats(struct pd_feat_ctx *x, struct feat_tracing_data *m,
			 struct cursor *c, struct pd_str system, int sys,
			 uint32_t count)
{
	char what[64];

	if (sys < 0)
		snprintf(what, sizeof(what), "ftrace formats");
	else
		snprintf(what, sizeof(what), "system[%d] formats", sys);
	if (!cur_check_count(c, what, count, 8))
		return false;
	for (uint32_t i = 0; i < count; i++) {
		struct pd_trace_format *ev = add_event(x, m);
		uint64_t off, size;
		const uint8_t *text;

		if (!ev)
			return false;
		if (sys < 0)
			snprintf(what, sizeof(what), "ftrace format %u", i);
		else
			snprintf(what, sizeof(what), "system[%d] format %u",
				 sys, i);
		text = sized_text(c, what, &off, &size);
		ev->system = system;
		ev->offset = off;
		ev->size = size;
		if (!text) {
			m->nevents--;
			return false;
		}
		ev->text = (const char *)text;
		parse_format_text(ev, text, (size_t)size, off);
		if (!ev->name.len || !ev->has_id)
			pd_diag_add(x->diags, PD_C_UNUSUAL,
				    PD_AT_FEATURE(HEADER_TRACING_DATA), PD_WARN,
				    off, WHAT,
				    "%s: the format text has no %s line", what,
				    !ev->name.len ? "\"name:\"" : "\"ID:\"");
	}
	return true;
}

static bool read_params(struct pd_feat_ctx *x, struct feat_tracing_data *m,
			struct cursor *c)
{
	uint64_t at; /* offset of the endian byte */
	bool blob_be;

	m->version = cur_cstring(c, "version");
	at = cur_off(c);
	m->endian = cur_u8(c, "big_endian");
	m->long_size = cur_u8(c, "long_size");
	if (!cur_ok(c))
		return false;
	blob_be = m->endian != 0;
	/* integers after the endian byte use the blob's byte order */
	c->swap = blob_be != host_big_endian();
	m->page_size = cur_u32(c, "page_size");
	if (!cur_ok(c))
		return false;
	if (m->endian > 1)
		pd_diag_add(
			x->diags, PD_C_UNUSUAL,
			PD_AT_FEATURE(HEADER_TRACING_DATA), PD_WARN, at, WHAT,
			"endian byte is %u, not 0 or 1: taken as big-endian",
			m->endian);
	if (x->header_ok && blob_be != x->big_endian)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_TRACING_DATA), PD_WARN, at,
			    WHAT,
			    "the blob says %s-endian but the file is %s-endian",
			    blob_be ? "big" : "little",
			    x->big_endian ? "big" : "little");
	if (m->long_size != 4 && m->long_size != 8)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_TRACING_DATA), PD_WARN, at + 1,
			    WHAT, "long_size %u is neither 4 nor 8",
			    m->long_size);
	if (m->page_size == 0)
		pd_diag_add(x->diags, PD_C_FEATURE_UNDECODABLE,
			    PD_AT_FEATURE(HEADER_TRACING_DATA), PD_ERR, at + 2,
			    WHAT,
			    "page_size is 0 (perf refuses the tracing data)");
	return true;
}

static bool read_headers(struct feat_tracing_data *m, struct cursor *c)
{
	const uint8_t *text;

	if (!expect_marker(c, "header_page", "header_page", 12))
		return false;
	text = sized_text(c, "header_page", &m->header_page_offset,
			  &m->header_page_size);
	if (!text)
		return false;
	m->header_page_text = (const char *)text;
	parse_header_page(m, text, (size_t)m->header_page_size,
			  m->header_page_offset);
	m->step = PD_TRACE_HEADER_PAGE;
	if (!expect_marker(c, "header_event", "header_event", 13))
		return false;
	if (!sized_text(c, "header_event", &m->header_event_offset,
			&m->header_event_size))
		return false;
	m->step = PD_TRACE_HEADER_EVENT;
	return true;
}

static bool read_systems(struct pd_feat_ctx *x, struct feat_tracing_data *m,
			 struct cursor *c)
{
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr_systems = cur_u32(c, "nr_systems");
	m->has_nr_systems = cur_ok(c);
	/* a system is at least its NUL and its u32 count */
	m->systems = pd_feat_array(x, c, "nr_systems", m->nr_systems, 5,
				   sizeof(*m->systems));
	if (!m->systems)
		return false;
	for (uint32_t i = 0; i < m->nr_systems; i++) {
		struct pd_trace_system *sys = &m->systems[i];

		sys->name = cur_cstring(c, "system name");
		sys->nr_events = cur_u32(c, "system event count");
		if (!cur_ok(c))
			return false;
		m->nsystems = i + 1;
		if (!read_formats(x, m, c, sys->name, (int)i, sys->nr_events))
			return false;
	}
	return true;
}

static bool read_tail(struct feat_tracing_data *m, struct cursor *c)
{
	m->kallsyms_size = cur_u32(c, "kallsyms size");
	m->kallsyms_offset = cur_off(c);
	m->kallsyms_text =
		(const char *)cur_bytes(c, "kallsyms", m->kallsyms_size);
	if (!cur_ok(c))
		return false;
	m->step = PD_TRACE_KALLSYMS;
	m->printk_size = cur_u32(c, "printk size");
	m->printk_offset = cur_off(c);
	m->printk_text =
		(const char *)cur_bytes(c, "printk formats", m->printk_size);
	if (!cur_ok(c))
		return false;
	m->step = PD_TRACE_PRINTK;
	if (version_has_cmdlines(&m->version)) {
		const uint8_t *t;

		m->has_saved_cmdlines = true;
		t = sized_text(c, "saved cmdlines", &m->saved_cmdlines_offset,
			       &m->saved_cmdlines_size);
		if (!t && !cur_ok(c))
			return false;
		m->saved_cmdlines_text = (const char *)t;
	}
	m->step = PD_TRACE_DONE;
	return true;
}

static void parse_blob(struct pd_feat_ctx *x, struct feat_tracing_data *m,
		       struct cursor *c)
{
	const uint8_t *magic = peek(c, sizeof(trace_magic));
	struct pd_str ftrace = {.s = "ftrace", .len = 6, .off = 0};

	m->offset = cur_off(c);
	if (magic && memcmp(magic, trace_magic, sizeof(trace_magic)) != 0) {
		cur_fail(c, cur_bad_code(c), "magic",
			 "expected 17 08 44 \"tracing\", found %02x %02x %02x "
			 "%02x %02x %02x %02x %02x %02x %02x",
			 magic[0], magic[1], magic[2], magic[3], magic[4],
			 magic[5], magic[6], magic[7], magic[8], magic[9]);
		return;
	}
	if (!cur_skip(c, "magic", sizeof(trace_magic)))
		return;
	m->step = PD_TRACE_MAGIC;
	if (!read_params(x, m, c))
		return;
	m->step = PD_TRACE_PARAMS;
	if (!read_headers(m, c))
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr_ftrace = cur_u32(c, "nr_ftrace");
	m->has_nr_ftrace = cur_ok(c);
	if (!cur_ok(c) || !read_formats(x, m, c, ftrace, -1, m->nr_ftrace))
		return;
	m->step = PD_TRACE_FTRACE;
	if (!read_systems(x, m, c))
		return;
	m->step = PD_TRACE_EVENTS;
	read_tail(m, c);
}

/* Pipe records pad the blob with zeros to 8 bytes: take them as such. */
static void skip_padding(struct pd_feature *f, struct feat_tracing_data *m,
			 struct cursor *c)
{
	size_t left = cur_left(c);
	const uint8_t *p = peek(c, left);

	if (f->src != PD_FSRC_TRACING_RECORD || !left || left >= 8 || !p)
		return;
	for (size_t i = 0; i < left; i++)
		if (p[i])
			return;
	m->padding = left;
	cur_skip(c, "padding", left);
}

void parse_feat_tracing_data(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c)
{
	struct feat_tracing_data *m = arena_alloc(x->arena, sizeof(*m));
	struct cursor b = *c;
	uint64_t start = cur_off(c);

	if (!m)
		return;
	if (!f->model) {
		f->model = m;
	} else {
		struct feat_tracing_data *last = f->model;

		while (last->next)
			last = last->next;
		last->next = m;
		pd_diag_add(
			x->diags, PD_C_UNUSUAL,
			PD_AT_FEATURE(HEADER_TRACING_DATA), PD_WARN, start,
			WHAT,
			"another tracing data blob; decoded after the first");
	}
	/* b: the same bytes, with the blob's byte order once it is known */
	parse_blob(x, m, &b);
	m->size = cur_off(&b) - start;
	if (cur_ok(&b))
		skip_padding(f, m, &b);
	c->pos = b.pos;
	c->failed = b.failed;
}

const struct pd_trace_format *
pd_tracing_find_id(const struct feat_tracing_data *m, uint64_t id)
{
	for (; m; m = m->next)
		for (size_t i = 0; i < m->nevents; i++)
			if (m->events[i].has_id && m->events[i].id == id)
				return &m->events[i];
	return NULL;
}
