// SPDX-License-Identifier: MIT
/*
 * The feature section table of a file-mode recording, loading a section's
 * bytes, and running the decoders.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/format/evname.h"
#include "lib/format/features.h"
#include "lib/session/session_int.h"

static const char *const section_names[] = {"attrs", "data"};

struct pd_feature *sess_add_feature(struct pd_session *s, unsigned id,
				    enum pd_feat_src src)
{
	struct pd_feature *v;

	if (s->nfeat % 16 == 0) {
		v = realloc(s->feat, (s->nfeat + 16) * sizeof(*v));
		if (!v)
			return NULL;
		s->feat = v;
	}
	v = &s->feat[s->nfeat++];
	memset(v, 0, sizeof(*v));
	v->id = id;
	v->src = src;
	return v;
}

bool sess_add_part(struct pd_session *s, struct pd_feature *f, uint64_t off,
		   uint64_t size, const uint8_t *bytes, uint64_t loaded,
		   uint64_t rec_off)
{
	if (f->nparts % 16 == 0) {
		struct pd_part *p =
			arena_calloc(&s->arena, f->nparts + 16, sizeof(*p));
		if (!p)
			return false;
		if (f->nparts)
			memcpy(p, f->parts, f->nparts * sizeof(*p));
		f->parts = p;
	}
	f->parts[f->nparts++] = (struct pd_part){
		.offset = off,
		.size = size,
		.bytes = bytes,
		.loaded = loaded,
		.rec_offset = rec_off,
	};
	return true;
}

/* Keep the table's bytes (at most 256 entries) for -x. */
static void keep_table_raw(struct pd_session *s, uint64_t table, unsigned n)
{
	struct pd_header *h = &s->hdr;
	uint8_t *raw = arena_alloc(&s->arena, (size_t)n * 16);
	ssize_t got =
		raw && table < s->in.size
			? pd_input_pread(&s->in, table, raw, (size_t)n * 16)
			: 0;

	h->table_raw = raw;
	h->table_raw_len = got > 0 ? (size_t)got : 0;
}

/* Report a section that overflows, leaves the file or lies in the header. */
static void check_entry_bounds(struct pd_session *s, uint64_t eoff,
			       const char *fwhat, uint64_t off, uint64_t size)
{
	uint64_t fsize = s->in.size, end;

	if (__builtin_add_overflow(off, size, &end)) {
		sess_err(s, PD_C_SECTION_OUT_OF_FILE, PD_AT_FEAT_TABLE, eoff,
			 fwhat, "offset 0x%llx + size 0x%llx overflows",
			 (unsigned long long)off, (unsigned long long)size);
	} else if (size && end > fsize) {
		sess_err(s, PD_C_SECTION_OUT_OF_FILE, PD_AT_FEAT_TABLE, eoff,
			 fwhat,
			 "section 0x%llx-0x%llx extends past the end "
			 "of the file (0x%llx)",
			 (unsigned long long)off, (unsigned long long)end,
			 (unsigned long long)fsize);
	} else if (size && off < s->hdr.size) {
		sess_err(s, PD_C_SECTION_OVERLAP, PD_AT_FEAT_TABLE, eoff, fwhat,
			 "section at 0x%llx lies inside the file header",
			 (unsigned long long)off);
	}
}

/* Read one entry per feature bit into a feature; false if out of memory. */
static bool read_table_entries(struct pd_session *s, uint64_t table)
{
	struct pd_header *h = &s->hdr;
	unsigned k = 0;

	for (unsigned bit = 0; bit < PD_FEAT_BITS; bit++) {
		uint8_t e[16];
		uint64_t eoff = table + 16ULL * k, off, size;
		struct pd_feature *f;
		char fwhat[64];

		if (!pd_feat_bit(h, bit))
			continue;
		k++;
		const char *name = pd_feat_name(bit);

		if (name)
			snprintf(fwhat, sizeof(fwhat), "HEADER_%s table entry",
				 name);
		else
			snprintf(fwhat, sizeof(fwhat), "feature %u table entry",
				 bit);
		if (pd_input_pread(&s->in, eoff, e, 16) != 16) {
			/* already reported as one error above */
			break;
		}
		off = pd_get64(e, s->swap);
		size = pd_get64(e + 8, s->swap);
		f = sess_add_feature(s, bit, PD_FSRC_SECTION);
		if (!f)
			return false;
		f->table_entry_off = eoff;
		const uint8_t *bytes = NULL;
		uint64_t loaded = 0;

		check_entry_bounds(s, eoff, fwhat, off, size);
		sess_add_part(s, f, off, size, bytes, loaded, 0);
	}
	return true;
}

/* Does feature j's section overlap [off, end)? */
static bool feat_overlaps(const struct pd_session *s, size_t j, uint64_t off,
			  uint64_t end)
{
	const struct pd_part *b = &s->feat[j].parts[0];
	uint64_t bend = b->offset + b->size;

	return b->size && bend >= b->offset && off < bend && b->offset < end;
}

/*
 * Report feature sections overlapping each other or the attrs/data
 * sections: for each section, the first earlier one it overlaps and how
 * many more (256 sections over the same bytes are 255 errors, not 32,640).
 */
static void check_feature_overlaps(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;

	for (size_t i = 0; i < s->nfeat; i++) {
		const struct pd_part *a = &s->feat[i].parts[0];
		uint64_t aend = a->offset + a->size;
		size_t first = i, more = 0;

		if (!a->size || aend < a->offset)
			continue;
		for (size_t j = 0; j < i; j++) {
			if (!feat_overlaps(s, j, a->offset, aend))
				continue;
			if (first == i)
				first = j;
			else
				more++;
		}
		if (first < i) {
			const struct pd_part *b = &s->feat[first].parts[0];
			char others[64] = "";

			if (more)
				snprintf(others, sizeof(others),
					 " and %zu more feature section%s",
					 more, more > 1 ? "s" : "");
			sess_err(s, PD_C_SECTION_OVERLAP, PD_AT_FEAT_TABLE,
				 s->feat[i].table_entry_off,
				 "feature section table",
				 "feature %u section 0x%llx-0x%llx overlaps "
				 "feature %u section 0x%llx-0x%llx%s",
				 s->feat[i].id, (unsigned long long)a->offset,
				 (unsigned long long)aend, s->feat[first].id,
				 (unsigned long long)b->offset,
				 (unsigned long long)(b->offset + b->size),
				 others);
		}
		const struct pd_section *sec[2] = {&h->attrs, &h->data};

		for (int j = 0; j < 2; j++) {
			uint64_t send = sec[j]->offset + sec[j]->size;

			if (sec[j]->size && a->offset < send &&
			    sec[j]->offset < aend)
				sess_err(s, PD_C_SECTION_OVERLAP,
					 PD_AT_FEAT_TABLE,
					 s->feat[i].table_entry_off,
					 "feature section table",
					 "feature %u section 0x%llx-0x%llx "
					 "overlaps the %s section",
					 s->feat[i].id,
					 (unsigned long long)a->offset,
					 (unsigned long long)aend,
					 section_names[j]);
		}
	}
}

/* Read the feature section table: its entries, their bounds and overlaps. */
void sess_read_feature_table(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;
	unsigned n = popcount256(h->features);
	uint64_t table = h->feat_table_off, fsize = s->in.size;
	const char *what = "feature section table";

	if (n == 0)
		return;
	if (h->data.size == 0) {
		sess_err(s, PD_C_FEATURES_MISSING, PD_AT_FEAT_TABLE, 48, what,
			 "data.size is 0, so the %u feature sections the "
			 "bitmap announces were never written (perf record did "
			 "not finish)",
			 n);
		return;
	}
	if (table > fsize || (uint64_t)n * 16 > fsize - table) {
		sess_err(s, PD_C_SECTION_OUT_OF_FILE, PD_AT_FEAT_TABLE, table,
			 what,
			 "%u entries of 16 bytes at 0x%llx extend past the end "
			 "of the file (0x%llx)",
			 n, (unsigned long long)table,
			 (unsigned long long)fsize);
	}
	keep_table_raw(s, table, n);
	if (!read_table_entries(s, table))
		return;
	check_feature_overlaps(s);
}

/* Load the bytes of a file-mode feature section, bounded by the file. */
static void load_section(struct pd_session *s, struct pd_feature *f)
{
	struct pd_part *p = &f->parts[0];
	uint64_t fsize = s->in.size, want;
	uint8_t *buf;
	ssize_t n;

	if (p->bytes || p->size == 0 || p->offset >= fsize)
		return;
	want = p->size;
	if (want > fsize - p->offset)
		want = fsize - p->offset;
	if (want > PD_FEAT_MAX_LOAD) {
		sess_err(s, PD_C_SECTION_TOO_LARGE, PD_AT_FEATURE(f->id),
			 p->offset,
			 pd_feat_name(f->id) ? pd_feat_name(f->id)
					     : "feature section",
			 "section of %llu bytes is larger than the %llu MiB "
			 "perfdump loads; not decoded",
			 (unsigned long long)p->size,
			 (unsigned long long)(PD_FEAT_MAX_LOAD >> 20));
		return;
	}
	buf = arena_alloc(&s->arena, (size_t)want);
	if (!buf) {
		sess_err(s, PD_C_SECTION_TOO_LARGE, PD_AT_FEATURE(f->id),
			 p->offset,
			 pd_feat_name(f->id) ? pd_feat_name(f->id)
					     : "feature section",
			 "section of %llu bytes not decoded: the sections "
			 "loaded so far already hold %zu MiB of the %zu MiB "
			 "perfdump keeps",
			 (unsigned long long)p->size, s->arena.total >> 20,
			 PD_SESSION_ARENA_MAX >> 20);
		return;
	}
	n = pd_input_pread(&s->in, p->offset, buf, (size_t)want);
	if (n < 0) {
		sess_err(s, PD_C_READ_ERROR, PD_AT_FEATURE(f->id), p->offset,
			 "feature section", "read error: %s", strerror(errno));
		return;
	}
	p->bytes = buf;
	p->loaded = (uint64_t)n;
}

/*
 * Pipe mode: walk every record; keep the metadata ones (header.c
 * perf_event__process_feature, synthetic-events.c
 * perf_event__synthesize_for_pipe).
 */
const struct pd_feature *pd_find_feature(const struct pd_session *s,
					 unsigned id)
{
	for (size_t i = 0; i < s->nfeat; i++)
		if (s->feat[i].id == id)
			return &s->feat[i];
	return NULL;
}

/* The PMU HEADER_PMU_MAPPINGS names for a type, or NULL. */
const char *pd_pmu_mapping_name(const struct pd_session *s, uint32_t type,
				char *buf, size_t len)
{
	const struct pd_feature *f = pd_find_feature(s, HEADER_PMU_MAPPINGS);
	const struct feat_pmu_mappings *m = f ? f->model : NULL;

	for (uint32_t i = 0; m && i < m->nr_read; i++) {
		if (m->v[i].type == type) {
			snprintf(buf, len, "%.*s", (int)m->v[i].name.len,
				 m->v[i].name.s);
			return buf;
		}
	}
	return NULL;
}

/*
 * Dynamic PMU types (>= PERF_TYPE_MAX) are named by HEADER_PMU_MAPPINGS
 * when the recording has it.
 */
const char *pd_pmu_type_name(const struct pd_session *s, uint32_t type,
			     char *buf, size_t len)
{
	if (pd_attr_type_name(type))
		return pd_attr_type_name(type);
	return pd_pmu_mapping_name(s, type, buf, len);
}

void pd_session_parse_feature(struct pd_session *s, struct pd_feature *f,
			      struct cursor *c)
{
	struct pd_feat_ctx x = {.arena = &s->arena,
				.diags = &s->diags,
				.env = &s->env,
				.big_endian = s->big_endian,
				.header_ok = s->header_ok};
	struct feat_tracing_data *m;

	pd_feat_ops(f->id)->parse(&x, f, c);
	if (f->id != HEADER_TRACING_DATA || !(m = f->model))
		return;
	/* the blob this part added, last (feat_tracing.c) */
	while (m->next)
		m = m->next;
	m->tp = pd_tp_load(s, m); /* the formats, parsed once */
}

void pd_decode_feature(struct pd_session *s, struct pd_feature *f)
{
	const struct pd_feat_ops *ops = pd_feat_ops(f->id);
	char ctx[48];
	size_t nerr = s->diags.nerr;

	if (f->decoded)
		return;
	f->decoded = true;
	if (f->src == PD_FSRC_SECTION)
		load_section(s, f);
	if (!ops || !ops->parse)
		return;
	if (ops->name)
		snprintf(ctx, sizeof(ctx), "HEADER_%s", ops->name);
	else
		snprintf(ctx, sizeof(ctx), "feature %u", f->id);
	/* the context string must outlive the cursor's diagnostics only */
	for (size_t i = 0; i < f->nparts; i++) {
		struct pd_part *p = &f->parts[i];
		struct cursor c;

		if (p->size == 0)
			continue;
		if (!p->bytes && p->size)
			continue; /* not loadable: reported already */
		cur_init(&c, p->bytes, (size_t)p->loaded, p->offset, s->swap,
			 &s->diags, ctx, PD_AT_FEATURE(f->id));
		if (p->loaded < p->size)
			sess_err(s, PD_C_FEATURE_TRUNCATED,
				 PD_AT_FEATURE(f->id), p->offset + p->loaded,
				 ctx,
				 "only %llu of the section's %llu bytes are in "
				 "the file",
				 (unsigned long long)p->loaded,
				 (unsigned long long)p->size);
		pd_session_parse_feature(s, f, &c);
		pd_feat_skip_padding(f, &c);
		f->consumed += c.pos;
		if (cur_ok(&c) && cur_left(&c)) {
			if (!f->unparsed_off)
				f->unparsed_off = cur_off(&c);
			sess_warn(s, PD_C_FEATURE_TRAILING_BYTES,
				  PD_AT_FEATURE(f->id), cur_off(&c), ctx,
				  "%zu bytes at the end of the section were "
				  "not decoded",
				  cur_left(&c));
		}
	}
	f->bad = s->diags.nerr != nerr;
}

void pd_decode_feature_deps(struct pd_session *s)
{
	/* a live pipe stream: those that come later too (session_pipe.c) */
	s->pipe.late_deps = true;
	for (size_t i = 0; i < s->nfeat; i++)
		if (s->feat[i].id == HEADER_NRCPUS ||
		    s->feat[i].id == HEADER_ARCH ||
		    s->feat[i].id == HEADER_PMU_MAPPINGS ||
		    s->feat[i].id == HEADER_TRACING_DATA ||
		    s->feat[i].id == HEADER_CLOCK_DATA)
			pd_decode_feature(s, &s->feat[i]);
}

void pd_decode_features(struct pd_session *s)
{
	pd_decode_feature_deps(s);
	for (size_t i = 0; i < s->nfeat; i++)
		pd_decode_feature(s, &s->feat[i]);
}
