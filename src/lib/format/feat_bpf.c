// SPDX-License-Identifier: MIT
/*
 * BPF_PROG_INFO and BPF_BTF (see feat_meta.h).  perf refuses both in
 * byte-swapped files ("not yet supported"); we decode them with the
 * producer's byte order.
 */
#include <stdio.h>
#include <string.h>

#include "lib/format/feat_ctx.h"
#include "lib/format/feat_meta.h"
#include "lib/base/util.h"

/*
 * include/uapi/linux/bpf.h struct bpf_prog_info (aligned 8).  Pointer
 * fields hold offsets into the entry's data[] in the file (perf's
 * bpil_addr_to_offs()).
 */
const struct pd_bpf_field pd_bpf_fields[] = {
	{"type", 0, PD_BPF_PROG_TYPE},
	{"id", 4, PD_BPF_U32},
	{"tag", 8, PD_BPF_TAG},
	{"jited_prog_len", 16, PD_BPF_U32},
	{"xlated_prog_len", 20, PD_BPF_U32},
	{"jited_prog_insns", 24, PD_BPF_HEX},
	{"xlated_prog_insns", 32, PD_BPF_HEX},
	{"load_time", 40, PD_BPF_U64},
	{"created_by_uid", 48, PD_BPF_U32},
	{"nr_map_ids", 52, PD_BPF_U32},
	{"map_ids", 56, PD_BPF_HEX},
	{"name", 64, PD_BPF_NAME},
	{"ifindex", 80, PD_BPF_U32},
	{"gpl_compatible", 84, PD_BPF_GPL},
	{"netns_dev", 88, PD_BPF_HEX},
	{"netns_ino", 96, PD_BPF_U64},
	{"nr_jited_ksyms", 104, PD_BPF_U32},
	{"nr_jited_func_lens", 108, PD_BPF_U32},
	{"jited_ksyms", 112, PD_BPF_HEX},
	{"jited_func_lens", 120, PD_BPF_HEX},
	{"btf_id", 128, PD_BPF_U32},
	{"func_info_rec_size", 132, PD_BPF_U32},
	{"func_info", 136, PD_BPF_HEX},
	{"nr_func_info", 144, PD_BPF_U32},
	{"nr_line_info", 148, PD_BPF_U32},
	{"line_info", 152, PD_BPF_HEX},
	{"jited_line_info", 160, PD_BPF_HEX},
	{"nr_jited_line_info", 168, PD_BPF_U32},
	{"line_info_rec_size", 172, PD_BPF_U32},
	{"jited_line_info_rec_size", 176, PD_BPF_U32},
	{"nr_prog_tags", 180, PD_BPF_U32},
	{"prog_tags", 184, PD_BPF_HEX},
	{"run_time_ns", 192, PD_BPF_U64},
	{"run_cnt", 200, PD_BPF_U64},
	{"recursion_misses", 208, PD_BPF_U64},
	{"verified_insns", 216, PD_BPF_U32},
	{"attach_btf_obj_id", 220, PD_BPF_U32},
	{"attach_btf_id", 224, PD_BPF_U32},
};

const size_t pd_bpf_nfields = PD_NELEMS(pd_bpf_fields);

_Static_assert(PD_NELEMS(pd_bpf_fields) <= PD_BPF_MAX_FIELDS,
	       "pd_bpf_prog.val is too small");

static size_t field_size(uint8_t kind)
{
	switch (kind) {
	case PD_BPF_U64:
	case PD_BPF_HEX:
	case PD_BPF_TAG: return 8;
	case PD_BPF_NAME: return PD_BPF_OBJ_NAME_LEN;
	default: return 4;
	}
}

static int field_index(const char *name)
{
	for (size_t i = 0; i < pd_bpf_nfields; i++)
		if (strcmp(pd_bpf_fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void decode_info(struct pd_feat_ctx *x, struct pd_bpf_prog *p, bool swap)
{
	for (size_t i = 0; i < pd_bpf_nfields; i++) {
		const struct pd_bpf_field *fd = &pd_bpf_fields[i];
		const uint8_t *q = p->info + fd->off;
		size_t sz = field_size(fd->kind);

		if ((size_t)fd->off + sz > p->info_len)
			break;
		p->have |= 1ULL << i;
		switch (fd->kind) {
		case PD_BPF_U64:
		case PD_BPF_HEX: p->val[i] = pd_get64(q, swap); break;
		case PD_BPF_TAG: p->tag = q; break;
		case PD_BPF_NAME: {
			const uint8_t *nul = memchr(q, 0, sz);

			p->name = (struct pd_str){
				.s = (const char *)q,
				.len = (uint32_t)(nul ? (size_t)(nul - q) : sz),
				.off = p->info_offset + fd->off};
			break;
		}
		case PD_BPF_GPL:
			/* a 1-bit field: MSB first for big-endian producers */
			p->val[i] = pd_get32(q, swap);
			p->gpl_compatible =
				x->big_endian ? p->val[i] >> 31 : p->val[i] & 1;
			break;
		default: p->val[i] = pd_get32(q, swap); break;
		}
	}
}

static uint64_t field(const struct pd_bpf_prog *p, const char *name, bool *ok)
{
	int i = field_index(name);

	if (i < 0 || !(p->have >> i & 1)) {
		*ok = false;
		return 0;
	}
	return p->val[i];
}

/*
 * An array in data[] (bpf-utils.c bpil_array_desc): present if its bit is
 * set in `arrays`; offset and count are info fields.
 */
static const uint8_t *data_array(struct pd_feat_ctx *x, struct pd_bpf_prog *p,
				 int bit, const char *off_name, uint64_t count,
				 size_t elem, bool *ok)
{
	uint64_t off = field(p, off_name, ok);
	int fi = field_index(off_name);

	if (!*ok || !(p->arrays >> bit & 1) || !p->data || fi < 0)
		return NULL;
	if (off > p->data_len || count > (p->data_len - off) / elem) {
		pd_diag_add(x->diags, PD_C_FEATURE_UNDECODABLE,
			    PD_AT_FEATURE(HEADER_BPF_PROG_INFO), PD_ERR,
			    p->info_offset + pd_bpf_fields[fi].off,
			    "HEADER_BPF_PROG_INFO",
			    "prog id %llu: %s array (offset %llu, %llu x %zu "
			    "bytes) is outside the %u data bytes",
			    (unsigned long long)p->val[1], off_name,
			    (unsigned long long)off, (unsigned long long)count,
			    elem, p->data_len);
		*ok = false;
		return NULL;
	}
	return p->data + off;
}

/* perf's bpf_prog_<tag>_<name> lines: ksym, func len and tag per sub-prog. */
static void decode_subprogs(struct pd_feat_ctx *x, struct pd_bpf_prog *p,
			    bool swap)
{
	bool ok = true;
	uint64_t n = field(p, "nr_jited_ksyms", &ok);
	const uint8_t *ksyms, *lens, *tags;

	if (!ok || !n || field(p, "nr_jited_func_lens", &ok) != n || !ok ||
	    field(p, "nr_prog_tags", &ok) != n || !ok)
		return;
	ksyms = data_array(x, p, PD_BPIL_JITED_KSYMS, "jited_ksyms", n, 8, &ok);
	lens = data_array(x, p, PD_BPIL_JITED_FUNC_LENS, "jited_func_lens", n,
			  4, &ok);
	tags = data_array(x, p, PD_BPIL_PROG_TAGS, "prog_tags", n,
			  PD_BPF_TAG_SIZE, &ok);
	if (!ksyms || !lens || !tags)
		return;
	p->sub = arena_calloc(x->arena, (size_t)n, sizeof(*p->sub));
	if (!p->sub)
		return;
	for (uint64_t i = 0; i < n; i++) {
		p->sub[i].addr = pd_get64(ksyms + 8 * i, swap);
		p->sub[i].len = pd_get32(lens + 4 * i, swap);
		p->sub[i].tag = tags + PD_BPF_TAG_SIZE * i;
	}
	p->nsub = (uint32_t)n;
}

/*
 * BPF_PROG_INFO: header.c write_bpf_prog_info() / process_bpf_prog_info(),
 * bpf-utils.h struct perf_bpil:
 *
 *	u32 count;
 *	count x {
 *		u32 info_len;     sizeof(struct bpf_prog_info) of the writer
 *		u32 data_len;     bytes of data[], each array rounded up to 8
 *		u64 arrays;       bit i: array i (PERF_BPIL_*) is in data[]
 *		u8  info[info_len];
 *		u8  data[data_len];
 *	}
 */
static bool read_prog(struct pd_feat_ctx *x, struct feat_bpf_prog_info *m,
		      struct cursor *c, uint32_t i)
{
	struct pd_bpf_prog *p = &m->v[i];
	char what[48];

	p->offset = cur_off(c);
	snprintf(what, sizeof(what), "bpf_prog_info[%u].header", i);
	p->info_len = cur_u32(c, what);
	p->data_len = cur_u32(c, what);
	p->arrays = cur_u64(c, what);
	p->info_offset = cur_off(c);
	snprintf(what, sizeof(what), "bpf_prog_info[%u].info", i);
	p->info = cur_bytes(c, what, p->info_len);
	p->data_offset = cur_off(c);
	snprintf(what, sizeof(what), "bpf_prog_info[%u].data", i);
	p->data = cur_bytes(c, what, p->data_len);
	if (!p->info)
		return false;
	snprintf(what, sizeof(what), "bpf_prog_info[%u]", i);
	m->nr_read = i + 1;
	decode_info(x, p, c->swap);
	if (p->info_len > PD_BPF_PROG_INFO_SIZE)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_BPF_PROG_INFO), PD_WARN,
			    p->offset, "HEADER_BPF_PROG_INFO",
			    "%s: info_len %u is larger than the %u bytes known "
			    "(perf refuses it); the rest is not decoded",
			    what, p->info_len, PD_BPF_PROG_INFO_SIZE);
	if (p->arrays >> PD_BPIL_LAST)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_BPF_PROG_INFO), PD_WARN,
			    p->offset + 8, "HEADER_BPF_PROG_INFO",
			    "%s: unknown array bits in arrays 0x%llx", what,
			    (unsigned long long)p->arrays);
	if (!p->data)
		return false;
	decode_subprogs(x, p, c->swap);
	return true;
}

void parse_feat_bpf_prog_info(struct pd_feat_ctx *x, struct pd_feature *f,
			      struct cursor *c)
{
	struct feat_bpf_prog_info *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->count = cur_u32(c, "count");
	m->v = pd_feat_array(x, c, "count", m->count, 16, sizeof(*m->v));
	if (!m->v)
		return;
	for (uint32_t i = 0; i < m->count; i++)
		if (!read_prog(x, m, c, i))
			return;
}

/*
 * BPF_BTF: header.c write_bpf_btf() / process_bpf_btf():
 *	u32 count; count x { u32 id; u32 data_size; u8 data[data_size]; }
 * data is a BTF blob (magic 0xeb9f in its producer's byte order).
 */
void parse_feat_bpf_btf(struct pd_feat_ctx *x, struct pd_feature *f,
			struct cursor *c)
{
	struct feat_bpf_btf *m = pd_feat_model(x, f, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->count = cur_u32(c, "count");
	m->v = pd_feat_array(x, c, "count", m->count, 8, sizeof(*m->v));
	if (!m->v)
		return;
	for (uint32_t i = 0; i < m->count; i++) {
		struct pd_bpf_btf *b = &m->v[i];
		char what[48];

		snprintf(what, sizeof(what), "bpf_btf[%u]", i);
		b->id = cur_u32(c, what);
		b->data_size = cur_u32(c, what);
		b->offset = cur_off(c);
		b->data = cur_bytes(c, what, b->data_size);
		if (!b->data)
			return;
		m->nr_read = i + 1;
		if (b->data_size < 2 ||
		    !((b->data[0] == 0x9f && b->data[1] == 0xeb) ||
		      (b->data[0] == 0xeb && b->data[1] == 0x9f)))
			pd_diag_add(x->diags, PD_C_UNUSUAL,
				    PD_AT_FEATURE(HEADER_BPF_BTF), PD_WARN,
				    b->offset, "HEADER_BPF_BTF",
				    "%s (id %u): data does not start with the "
				    "BTF magic 0xeb9f",
				    what, b->id);
	}
}
