// SPDX-License-Identifier: MIT
/*
 * Decoders for BUILD_ID, EVENT_DESC, PMU_MAPPINGS, GROUP_DESC and
 * AUXTRACE (see feat_meta.h).  TRACING_DATA is in feat_tracing.c, the BPF
 * features in feat_bpf.c.
 */
#include <stdio.h>
#include <string.h>

#include "lib/format/evname.h"
#include "lib/format/feat_ctx.h"
#include "lib/format/feat_meta.h"

bool pd_arena_grow(struct arena *a, void **v, size_t *cap, size_t need,
		   size_t elem_size)
{
	size_t ncap = *cap ? *cap : 8;
	void *nv;

	if (need <= *cap)
		return true;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return false;
		ncap *= 2;
	}
	nv = arena_calloc(a, ncap, elem_size);
	if (!nv)
		return false;
	if (*cap)
		memcpy(nv, *v, *cap * elem_size);
	*v = nv;
	*cap = ncap;
	return true;
}

/* The next n bytes without consuming them; NULL if fewer remain. */
static const uint8_t *peek(const struct cursor *c, size_t n)
{
	struct cursor p = *c;

	if (cur_left(c) < n)
		return NULL;
	return cur_bytes(&p, "peek", n);
}

/*
 * BUILD_ID: entries until the end of the section (file mode,
 * build-id.c write_buildid) or one entry per PERF_RECORD_HEADER_BUILD_ID
 * record (pipe mode, synthetic-events.c perf_event__synthesize_build_id);
 * read back by header.c perf_header__read_build_ids():
 *
 *	struct perf_event_header { u32 type; u16 misc; u16 size; };
 *	s32  pid;                 -1 host kernel, 0 default guest
 *	u8   build_id[20];
 *	u8   size;                valid if misc has MISC_BUILD_ID_SIZE
 *	u8   reserved1; u16 reserved2;
 *	char filename[];          NUL-terminated, padded: to 64 (legacy,
 *	                          size = 4 mod 8) or the entry to 8 (2024+);
 *	                          pipe records since 2025 may add a sample_id
 *
 * header.size is the entry length.  Pre-2010 files (perf before a1645ce1)
 * lack pid: {header; u8 build_id[24]; char filename[]}; perf detects them
 * by the first filename reading "nel.kallsyms]" at offset 36
 * (perf_header__read_build_ids_abi_quirk) and so do we.
 */
#define BUILD_ID_FIXED	   36
#define BUILD_ID_FIXED_OLD 32

static bool detect_abi_quirk(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct feat_build_id *m, struct cursor *c)
{
	const uint8_t *p = peek(c, BUILD_ID_FIXED + 13);

	if (m->nr || f->src != PD_FSRC_SECTION || !p)
		return false;
	if (memcmp(p + BUILD_ID_FIXED, "nel.kallsyms]", 13) != 0)
		return false;
	pd_diag_add(
		x->diags, PD_C_UNUSUAL, PD_AT_FEATURE(HEADER_BUILD_ID), PD_WARN,
		cur_off(c), "HEADER_BUILD_ID",
		"pre-2010 build-id table without pid (the first filename reads "
		"\"nel.kallsyms]\" at offset 36); decoded with the old layout");
	return true;
}

static void read_build_id_body(struct pd_feat_ctx *x, struct feat_build_id *m,
			       struct pd_build_id *b, struct cursor *e)
{
	size_t room;

	if (m->abi_quirk) {
		b->build_id = cur_bytes(e, "build_id", PD_BUILD_ID_MAX);
		cur_skip(e, "build_id padding", 4);
		/* perf fills pid from misc (HOST_KERNEL_ID or guest) */
		b->pid = b->misc == 4 || b->misc == 5 ? 0 : -1;
		b->build_id_size = PD_BUILD_ID_MAX;
	} else {
		b->has_pid = true;
		b->pid = cur_s32(e, "pid");
		b->build_id = cur_bytes(e, "build_id", PD_BUILD_ID_MAX);
		b->size_byte = cur_u8(e, "size");
		cur_skip(e, "reserved", 3);
		b->build_id_size = PD_BUILD_ID_MAX;
		if (b->misc & PD_MISC_BUILD_ID_SIZE)
			b->build_id_size = b->size_byte;
	}
	if (b->build_id_size == 0)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_BUILD_ID), PD_WARN,
			    b->offset + 32, "HEADER_BUILD_ID",
			    "build-id size byte is 0 (misc 0x%x has "
			    "BUILD_ID_SIZE): empty build-id",
			    b->misc);
	if (b->build_id_size > PD_BUILD_ID_MAX) {
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_BUILD_ID), PD_WARN,
			    b->offset + 32, "HEADER_BUILD_ID",
			    "build-id size byte %u is larger than %u; using %u",
			    b->size_byte, PD_BUILD_ID_MAX, PD_BUILD_ID_MAX);
		b->build_id_size = PD_BUILD_ID_MAX;
	}
	/* the name, then padding (or a sample_id in 2025+ pipe records) */
	room = cur_left(e);
	b->filename = cur_fixed_string(e, "filename", room);
	if (b->filename.len == 0 || b->filename.len == room)
		pd_diag_add(
			x->diags,
			(b->filename.len ? PD_C_STRING_NO_NUL : PD_C_UNUSUAL),
			PD_AT_FEATURE(HEADER_BUILD_ID), PD_WARN,
			b->filename.off, "HEADER_BUILD_ID",
			b->filename.len ? "filename has no terminating NUL "
					  "inside the %u-byte entry"
					: "empty filename in the %u-byte entry",
			b->size);
}

static bool read_build_id(struct pd_feat_ctx *x, struct feat_build_id *m,
			  struct cursor *c)
{
	size_t fixed = m->abi_quirk ? BUILD_ID_FIXED_OLD : BUILD_ID_FIXED;
	struct cursor h = *c; /* a look at the header before taking the entry */
	char what[48];
	struct pd_build_id *b;
	struct cursor e;

	snprintf(what, sizeof(what), "build_id[%zu]", m->nr);
	if (cur_left(c) < fixed) {
		cur_fail(c, cur_short_code(c), what,
			 "%zu bytes left, less than the %zu-byte entry header",
			 cur_left(c), fixed);
		return false;
	}
	if (!pd_arena_grow(x->arena, (void **)&m->v, &m->cap, m->nr + 1,
			   sizeof(*m->v)))
		return false;
	b = memset(&m->v[m->nr], 0, sizeof(*b));
	b->offset = cur_off(c);
	b->type = cur_u32(&h, "header.type");
	b->misc = cur_u16(&h, "header.misc");
	b->size = cur_u16(&h, "header.size");
	if (b->size < fixed || b->size > cur_left(c)) {
		cur_fail(c,
			 b->size < fixed ? cur_bad_code(c) : cur_short_code(c),
			 what,
			 b->size < fixed
				 ? "header.size %u is smaller than the "
				   "%zu-byte fixed part"
				 : "header.size %u exceeds the %zu bytes left",
			 b->size, b->size < fixed ? fixed : cur_left(c));
		return false;
	}
	e = cur_sub(c, what, b->size);
	cur_skip(&e, "header", 8);
	read_build_id_body(x, m, b, &e);
	if (!cur_ok(&e))
		return false;
	m->nr++;
	return true;
}

void parse_feat_build_id(struct pd_feat_ctx *x, struct pd_feature *f,
			 struct cursor *c)
{
	struct feat_build_id *m = f->model;

	if (!m) {
		m = arena_alloc(x->arena, sizeof(*m));
		if (!m)
			return;
		f->model = m;
		m->abi_quirk = detect_abi_quirk(x, f, m, c);
	}
	while (cur_left(c) && read_build_id(x, m, c))
		;
}

/*
 * EVENT_DESC: header.c write_event_desc() / read_event_desc():
 *
 *	u32 nr;  u32 attr_sz;
 *	nr x {
 *		struct perf_event_attr attr;   attr_sz bytes (not attr.size)
 *		u32 nr_ids;
 *		string name;                   u32 len; char[len]
 *		u64 ids[nr_ids];
 *	}
 *
 * The attr is decoded by pd_attr_parse, as the attrs section's are (a
 * big-endian producer's bit-fields reversed there: session.c
 * swap_bitfield); it warns of an attr.size beyond attr_sz.
 */

/* perf_attr_check(): what perf refuses, we only warn about (tools/perf/util/header.c: perf_attr_check). */
static void check_attr(struct pd_feat_ctx *x, const struct pd_attr *a,
		       uint32_t i)
{
	if (attr_has(a, 24, 8) && a->sample_type >> 25)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_EVENT_DESC), PD_WARN,
			    a->offset + 24, "HEADER_EVENT_DESC",
			    "event_desc[%u]: unknown sample_type bits 0x%llx",
			    i,
			    (unsigned long long)(a->sample_type &
						 ~((1ULL << 25) - 1)));
	if (attr_has(a, 32, 8) && a->read_format >> 5)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_EVENT_DESC), PD_WARN,
			    a->offset + 32, "HEADER_EVENT_DESC",
			    "event_desc[%u]: unknown read_format bits 0x%llx",
			    i, (unsigned long long)(a->read_format & ~0x1fULL));
	if (attr_has(a, 40, 8) && a->flags >> 40)
		pd_diag_add(
			x->diags, PD_C_UNUSUAL,
			PD_AT_FEATURE(HEADER_EVENT_DESC), PD_WARN,
			a->offset + 40, "HEADER_EVENT_DESC",
			"event_desc[%u]: reserved attr flag bits set: 0x%llx",
			i,
			(unsigned long long)(a->flags & ~((1ULL << 40) - 1)));
}

static bool read_event_desc(struct pd_feat_ctx *x, struct feat_event_desc *m,
			    struct cursor *c, uint32_t i)
{
	struct pd_event_desc *d = &m->ev[i];
	char what[64];
	struct cursor a;

	snprintf(what, sizeof(what), "event_desc[%u].attr", i);
	a = cur_sub(c, what, m->attr_sz);
	if (!cur_ok(&a))
		return false;
	m->nr_read = i + 1;
	d->attr.offset = cur_off(&a);
	/* fewer than 8 bytes: nothing decoded (attr.avail 0), no message */
	if (m->attr_sz >= 8)
		pd_attr_parse(&a, m->attr_sz, x->big_endian, &d->attr);
	check_attr(x, &d->attr, i);
	snprintf(what, sizeof(what), "event_desc[%u].nr_ids", i);
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	d->nr_ids = cur_u32(c, what);
	snprintf(what, sizeof(what), "event_desc[%u].name", i);
	d->name = cur_hstring(c, what);
	snprintf(what, sizeof(what), "event_desc[%u].ids", i);
	d->ids = pd_feat_array(x, c, what, d->nr_ids, 8, sizeof(*d->ids));
	if (!d->ids)
		return false;
	for (uint32_t j = 0; j < d->nr_ids; j++) {
		d->ids[j] = cur_u64(c, what);
		if (!cur_ok(c))
			return false;
		d->ids_read = j + 1;
	}
	d->complete = true;
	return true;
}

void parse_feat_event_desc(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c)
{
	struct feat_event_desc *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u32(c, "nr");
	m->attr_sz = cur_u32(c, "attr_sz");
	if (!cur_ok(c))
		return;
	if (m->attr_sz < PD_ATTR_SIZE_VER0 && m->nr)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_EVENT_DESC), PD_WARN,
			    c->base + 4, "HEADER_EVENT_DESC",
			    "attr_sz %u is smaller than the first attr ABI (64 "
			    "bytes)",
			    m->attr_sz);
	/* each event: attr, nr_ids, and the u32 length of its name */
	m->ev = pd_feat_array(x, c, "nr", m->nr, (size_t)m->attr_sz + 8,
			      sizeof(*m->ev));
	if (!m->ev)
		return;
	for (uint32_t i = 0; i < m->nr; i++)
		if (!read_event_desc(x, m, c, i))
			return;
}

/*
 * PMU_MAPPINGS: header.c write_pmu_mappings() / process_pmu_mappings():
 *	u32 pmu_num; pmu_num x { u32 type; string name; }
 */
void parse_feat_pmu_mappings(struct pd_feat_ctx *x, struct pd_feature *f,
			     struct cursor *c)
{
	struct feat_pmu_mappings *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u32(c, "pmu_num");
	m->v = pd_feat_array(x, c, "pmu_num", m->nr, 8, sizeof(*m->v));
	if (!m->v)
		return;
	for (uint32_t i = 0; i < m->nr; i++) {
		char what[48];

		snprintf(what, sizeof(what), "pmu_mappings[%u]", i);
		m->v[i].type = cur_u32(c, what);
		m->v[i].name = cur_hstring(c, what);
		if (!cur_ok(c))
			return;
		m->nr_read = i + 1;
	}
}

/*
 * GROUP_DESC: header.c write_group_desc() / process_group_desc():
 *	u32 nr_groups;
 *	nr_groups x { string name; u32 leader_idx; u32 nr_members; }
 * perf writes only leaders with more than one member.
 */
void parse_feat_group_desc(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c)
{
	struct feat_group_desc *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr = cur_u32(c, "nr_groups");
	m->v = pd_feat_array(x, c, "nr_groups", m->nr, 12, sizeof(*m->v));
	if (!m->v)
		return;
	for (uint32_t i = 0; i < m->nr; i++) {
		struct pd_group_desc *g = &m->v[i];
		uint64_t at = cur_off(c);
		char what[48];

		snprintf(what, sizeof(what), "group_desc[%u]", i);
		g->name = cur_hstring(c, what);
		g->leader_idx = cur_u32(c, what);
		g->nr_members = cur_u32(c, what);
		if (!cur_ok(c))
			return;
		m->nr_read = i + 1;
		if (g->nr_members < 2)
			pd_diag_add(x->diags, PD_C_UNUSUAL,
				    PD_AT_FEATURE(HEADER_GROUP_DESC), PD_WARN,
				    at, "HEADER_GROUP_DESC",
				    "%s: nr_members %u (perf writes only "
				    "groups of 2 or more)",
				    what, g->nr_members);
	}
}

/*
 * AUXTRACE: auxtrace.c auxtrace_index__write() / auxtrace_index__process():
 *	u64 nr; nr x { u64 file_offset; u64 sz; }
 * Each entry locates an AUXTRACE (71) record; sz is its header.size.
 * simpleperf (record_file_writer.cpp) writes the pairs without nr; like
 * its reader (RecordFileReader::ReadAuxTraceFeature) we tell the two
 * apart by the number of u64s: odd with nr, even without.
 */
void parse_feat_auxtrace(struct pd_feat_ctx *x, struct pd_feature *f,
			 struct cursor *c)
{
	struct feat_auxtrace *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	if (cur_left(c) && cur_left(c) % 16 == 0) {
		m->no_nr = true;
		m->nr = cur_left(c) / 16;
	} else {
		/* untrusted count: checked against the bytes left before use (cursor.h) */
		m->nr = cur_u64(c, "nr");
	}
	m->v = pd_feat_array(x, c, "nr", m->nr, 16, sizeof(*m->v));
	if (!m->v)
		return;
	for (uint64_t i = 0; i < m->nr; i++) {
		m->v[i].file_offset = cur_u64(c, "auxtrace index file_offset");
		m->v[i].sz = cur_u64(c, "auxtrace index sz");
		if (!cur_ok(c))
			return;
		m->nr_read = i + 1;
	}
}
