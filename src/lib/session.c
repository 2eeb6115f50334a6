// SPDX-License-Identifier: MIT
/*
 * Opening a recording: magic and byte order, the file header and its
 * sections, the feature section table (file mode), or a walk of the pipe
 * stream for its metadata records (pipe mode).
 *
 * File format (tools/perf/util/header.h, struct perf_file_header;
 * checked against torvalds/linux 00093b31 header.c perf_file_header__read,
 * perf_header__process_sections, perf_header__read_pipe):
 *
 *   0  u64 magic          "PERFILE2" (v2) or "PERFFILE" (v1)
 *   8  u64 size           104; 72 before the feature bitmap; 16 in pipes
 *  16  u64 attr_size      sizeof(perf_event_attr) + 16
 *  24  {u64 offset, size} attrs
 *  40  {u64 offset, size} data
 *  56  {u64 offset, size} event_types (legacy)
 *  72  u64[4]             adds_features bitmap (256 bits)
 *
 * The feature table sits at data.offset + data.size: one {offset, size}
 * per set bit over all 256 bits, in ascending bit order.
 */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "features.h"
#include "stream.h"

/* A feature section larger than this is not loaded (memory bound). */
#define PD_FEAT_MAX_LOAD (64ULL << 20)

#define REC_HEADER_ATTR 64
#define REC_HEADER_BUILD_ID 67
#define REC_HEADER_FEATURE 80

static void err(struct pd_session *s, uint64_t off, const char *what,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void warn(struct pd_session *s, uint64_t off, const char *what,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#include <stdarg.h>

static void vdiag(struct pd_session *s, enum pd_sev sev, uint64_t off,
		  const char *what, const char *fmt, va_list ap)
{
	char buf[400];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	pd_diag_add(&s->diags, sev, off, what, "%s", buf);
}

static void err(struct pd_session *s, uint64_t off, const char *what,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(s, PD_ERR, off, what, fmt, ap);
	va_end(ap);
}

static void warn(struct pd_session *s, uint64_t off, const char *what,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(s, PD_WARN, off, what, fmt, ap);
	va_end(ap);
}

static unsigned popcount256(const uint64_t w[4])
{
	return (unsigned)(__builtin_popcountll(w[0]) + __builtin_popcountll(w[1]) +
			  __builtin_popcountll(w[2]) + __builtin_popcountll(w[3]));
}

/*
 * The byte order and version from the first 16 bytes (FORMAT.md §1.1,
 * header.c check_magic_endian / try_all_file_abis / try_all_pipe_abis).
 * Returns false if this is not a perf.data file.
 */
static bool decide_magic(struct pd_session *s, const uint8_t *b, size_t n)
{
	uint64_t magic, size_native;
	struct pd_header *h = &s->hdr;

	memcpy(h->magic, b, 8);
	memcpy(&magic, b, 8);
	memcpy(&size_native, b + 8, 8);
	if (magic == PD_MAGIC2 || magic == __builtin_bswap64(PD_MAGIC2)) {
		h->version = 2;
		s->swap = magic != PD_MAGIC2;
		snprintf(s->endian_how, sizeof(s->endian_how),
			 "magic \"%.8s\" read %s",
			 (const char *)b,
			 s->swap ? "byte-swapped: the producer's byte order differs from this host's"
				 : "in this host's byte order");
	} else if (memcmp(b, "PERFFILE", 8) == 0) {
		/* v1: the magic is text; guess the byte order from a size */
		static const uint64_t abi[] = { 80, 88, 96, 112, 120 };
		uint64_t attr_size = 0;
		bool pipe = size_native == 16 ||
			    __builtin_bswap64(size_native) == 16;

		h->version = 1;
		if (pipe) {
			s->swap = size_native != 16;
			snprintf(s->endian_how, sizeof(s->endian_how),
				 "v1 pipe header: size 16 read %s",
				 s->swap ? "byte-swapped" : "natively");
		} else {
			if (n >= 24)
				memcpy(&attr_size, b + 16, 8);
			bool found = false;

			for (unsigned i = 0; i < 5 && !found; i++) {
				if (attr_size == abi[i]) {
					s->swap = false;
					found = true;
				} else if (__builtin_bswap64(attr_size) == abi[i]) {
					s->swap = true;
					found = true;
				}
				if (found)
					snprintf(s->endian_how,
						 sizeof(s->endian_how),
						 "v1 header: attr_size %llu (PERF_ATTR_SIZE_VER%u + 16) matched %s",
						 (unsigned long long)abi[i], i,
						 s->swap ? "after a byte swap"
							 : "natively");
			}
			if (!found) {
				err(s, 16, "file header: attr_size",
				    "v1 file: attr_size 0x%llx is none of the sizes perf accepts (80, 88, 96, 112, 120) in either byte order; byte order unknown",
				    (unsigned long long)attr_size);
				snprintf(s->endian_how, sizeof(s->endian_how),
					 "v1 header: byte order unknown, assumed this host's");
			}
		}
	} else {
		char hex[3 * 8 + 1];

		for (int i = 0; i < 8; i++)
			snprintf(hex + 3 * i, 4, "%02x ", i < (int)n ? b[i] : 0);
		hex[3 * 8 - 1] = 0;
		err(s, 0, "file header: magic",
		    "not a perf.data file: the first 8 bytes are %s, not \"PERFILE2\" or \"PERFFILE\"",
		    hex);
		return false;
	}
	/* Which byte order did the producer have?  Ours, unless swapped. */
	{
		uint16_t one = 1;
		bool host_be = *(const uint8_t *)&one == 0;

		s->big_endian = s->swap ? !host_be : host_be;
	}
	return true;
}

static void decode_bitmap(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;
	uint64_t w[4];

	memcpy(w, h->raw_bitmap, sizeof(w));
	if (!s->swap) {
		memcpy(h->features, w, sizeof(w));
		h->bitmap_guess = PD_BITMAP_NATIVE;
		return;
	}
	/* A 64-bit producer wrote 4 x u64 (header.c perf_file_header__read). */
	for (int i = 0; i < 4; i++)
		h->features[i] = __builtin_bswap64(w[i]);
	h->bitmap_guess = PD_BITMAP_SWAP64;
	if (pd_feat_bit(h, HEADER_HOSTNAME))
		return;
	/* ... or a 32-bit producer wrote 8 x u32. */
	uint32_t w32[8];

	memcpy(w32, h->raw_bitmap, sizeof(w32));
	for (int i = 0; i < 4; i++)
		h->features[i] = (uint64_t)__builtin_bswap32(w32[2 * i]) |
				 (uint64_t)__builtin_bswap32(w32[2 * i + 1]) << 32;
	h->bitmap_guess = PD_BITMAP_SWAP32;
	if (pd_feat_bit(h, HEADER_HOSTNAME)) {
		warn(s, 72, "file header: feature bitmap",
		     "byte-swapped bitmap read as 8 x u32 words (a 32-bit producer): as 4 x u64 it lacked HOSTNAME");
		return;
	}
	memset(h->features, 0, sizeof(h->features));
	h->features[0] = 1ULL << HEADER_BUILD_ID;
	h->bitmap_guess = PD_BITMAP_GAVE_UP;
	warn(s, 72, "file header: feature bitmap",
	     "byte-swapped bitmap has no HOSTNAME bit as 4 x u64 or 8 x u32 words; like perf, assuming only BUILD_ID");
}

static const char *const section_names[] = { "attrs", "data", "event_types" };

static void check_sections(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;
	const struct pd_section *sec[3] = { &h->attrs, &h->data,
					    &h->event_types };
	uint64_t fsize = s->in.size;

	for (int i = 0; i < 3; i++) {
		uint64_t end;
		char what[64];

		snprintf(what, sizeof(what), "file header: %s section",
			 section_names[i]);
		if (sec[i]->size == 0)
			continue;
		if (__builtin_add_overflow(sec[i]->offset, sec[i]->size, &end)) {
			err(s, 24 + 16 * i, what,
			    "offset 0x%llx + size 0x%llx overflows",
			    (unsigned long long)sec[i]->offset,
			    (unsigned long long)sec[i]->size);
			continue;
		}
		if (sec[i]->offset < h->size)
			err(s, 24 + 16 * i, what,
			    "offset 0x%llx lies inside the %llu-byte file header",
			    (unsigned long long)sec[i]->offset,
			    (unsigned long long)h->size);
		if (end > fsize)
			err(s, 24 + 16 * i, what,
			    "0x%llx-0x%llx extends past the end of the file (0x%llx): %llu bytes missing",
			    (unsigned long long)sec[i]->offset,
			    (unsigned long long)end, (unsigned long long)fsize,
			    (unsigned long long)(end - (sec[i]->offset > fsize ? sec[i]->offset : fsize)));
		for (int j = 0; j < i; j++) {
			if (sec[j]->size == 0)
				continue;
			uint64_t jend = sec[j]->offset + sec[j]->size;

			if (jend < sec[j]->offset)
				continue;
			if (sec[i]->offset < jend && sec[j]->offset < end)
				err(s, 24 + 16 * i, what,
				    "0x%llx-0x%llx overlaps the %s section 0x%llx-0x%llx",
				    (unsigned long long)sec[i]->offset,
				    (unsigned long long)end, section_names[j],
				    (unsigned long long)sec[j]->offset,
				    (unsigned long long)jend);
		}
	}
	if (h->event_types.size && h->event_types.size % 72)
		warn(s, 56, "file header: event_types section",
		     "size %llu is not a multiple of the 72-byte legacy entry",
		     (unsigned long long)h->event_types.size);
}

/* attr_size against the attrs: header.c read_attr, perf_session__read_header. */
static void check_attrs(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;
	uint64_t n, fsize = s->in.size;

	if (h->attr_size == 0) {
		err(s, 16, "file header: attr_size",
		    "attr_size is 0: the recording was not finished (perf record killed?)");
		return;
	}
	if (h->attr_size < 64 + 16) {
		err(s, 16, "file header: attr_size",
		    "attr_size %llu is smaller than the first perf_event_attr (64 bytes) plus its 16-byte ids section",
		    (unsigned long long)h->attr_size);
		return;
	}
	if (h->attrs.size % h->attr_size)
		err(s, 32, "file header: attrs section",
		    "size %llu is not a multiple of attr_size %llu",
		    (unsigned long long)h->attrs.size,
		    (unsigned long long)h->attr_size);
	n = h->attrs.size / h->attr_size;
	if (n == 0 && h->data.size)
		warn(s, 24, "file header: attrs section",
		     "no attrs: samples cannot be decoded");
	/* Look at each entry's own size and ids section. */
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = h->attrs.offset + i * h->attr_size;
		uint8_t b[8], ids[16];
		char what[64];

		if (off + h->attr_size > fsize || off + h->attr_size < off)
			break; /* reported by check_sections */
		snprintf(what, sizeof(what), "attr %llu", (unsigned long long)i);
		if (pd_input_pread(&s->in, off, b, 8) != 8 ||
		    pd_input_pread(&s->in, off + h->attr_size - 16, ids, 16) != 16) {
			err(s, off, what, "read error: %s", strerror(errno));
			return;
		}
		uint32_t asize = pd_get32(b + 4, s->swap);

		if (asize == 0)
			asize = 64; /* PERF_ATTR_SIZE_VER0 */
		if ((uint64_t)asize + 16 != h->attr_size)
			warn(s, off + 4, what,
			     "attr.size %u + 16 differs from the header's attr_size %llu; the entry is read with the header's stride",
			     asize, (unsigned long long)h->attr_size);
		uint64_t ioff = pd_get64(ids, s->swap);
		uint64_t isz = pd_get64(ids + 8, s->swap);

		if (isz % 8)
			err(s, off + h->attr_size - 8, what,
			    "ids section size %llu is not a multiple of 8",
			    (unsigned long long)isz);
		if (isz && (ioff + isz < ioff || ioff + isz > fsize))
			err(s, off + h->attr_size - 16, what,
			    "ids section 0x%llx+0x%llx extends past the end of the file (0x%llx)",
			    (unsigned long long)ioff, (unsigned long long)isz,
			    (unsigned long long)fsize);
	}
}

static struct pd_feature *add_feature(struct pd_session *s, unsigned id,
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

static bool add_part(struct pd_session *s, struct pd_feature *f,
		     uint64_t off, uint64_t size, const uint8_t *bytes,
		     uint64_t loaded, uint64_t rec_off)
{
	if (f->nparts % 16 == 0) {
		struct pd_part *p = arena_calloc(&s->arena, f->nparts + 16,
						 sizeof(*p));
		if (!p)
			return false;
		if (f->nparts)
			memcpy(p, f->parts, f->nparts * sizeof(*p));
		f->parts = p;
	}
	f->parts[f->nparts++] = (struct pd_part){
		.offset = off, .size = size, .bytes = bytes, .loaded = loaded,
		.rec_offset = rec_off,
	};
	return true;
}

static void read_feature_table(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;
	unsigned n = popcount256(h->features), k = 0;
	uint64_t table = h->feat_table_off, fsize = s->in.size;
	const char *what = "feature section table";

	if (n == 0)
		return;
	if (h->data.size == 0) {
		err(s, 48, what,
		    "data.size is 0, so the %u feature sections the bitmap announces were never written (perf record did not finish)",
		    n);
		return;
	}
	if (table > fsize || (uint64_t)n * 16 > fsize - table) {
		err(s, table, what,
		    "%u entries of 16 bytes at 0x%llx extend past the end of the file (0x%llx)",
		    n, (unsigned long long)table, (unsigned long long)fsize);
	}
	for (unsigned bit = 0; bit < PD_FEAT_BITS; bit++) {
		uint8_t e[16];
		uint64_t eoff = table + 16ULL * k, off, size, end;
		struct pd_feature *f;
		char fwhat[64];

		if (!pd_feat_bit(h, bit))
			continue;
		k++;
		const char *name = pd_feat_name(bit);

		if (name)
			snprintf(fwhat, sizeof(fwhat), "HEADER_%s table entry", name);
		else
			snprintf(fwhat, sizeof(fwhat), "feature %u table entry", bit);
		if (pd_input_pread(&s->in, eoff, e, 16) != 16) {
			/* already reported as one error above */
			break;
		}
		off = pd_get64(e, s->swap);
		size = pd_get64(e + 8, s->swap);
		f = add_feature(s, bit, PD_FSRC_SECTION);
		if (!f)
			return;
		f->table_entry_off = eoff;
		const uint8_t *bytes = NULL;
		uint64_t loaded = 0;

		if (__builtin_add_overflow(off, size, &end)) {
			err(s, eoff, fwhat, "offset 0x%llx + size 0x%llx overflows",
			    (unsigned long long)off, (unsigned long long)size);
		} else if (size && end > fsize) {
			err(s, eoff, fwhat,
			    "section 0x%llx-0x%llx extends past the end of the file (0x%llx)",
			    (unsigned long long)off, (unsigned long long)end,
			    (unsigned long long)fsize);
		} else if (size && off < h->size) {
			err(s, eoff, fwhat,
			    "section at 0x%llx lies inside the file header",
			    (unsigned long long)off);
		}
		add_part(s, f, off, size, bytes, loaded, 0);
	}
	/* Overlaps between feature sections and with attrs/data. */
	for (size_t i = 0; i < s->nfeat; i++) {
		const struct pd_part *a = &s->feat[i].parts[0];
		uint64_t aend = a->offset + a->size;

		if (!a->size || aend < a->offset)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct pd_part *b = &s->feat[j].parts[0];
			uint64_t bend = b->offset + b->size;

			if (b->size && bend >= b->offset && a->offset < bend &&
			    b->offset < aend)
				err(s, s->feat[i].table_entry_off,
				    "feature section table",
				    "feature %u section 0x%llx-0x%llx overlaps feature %u section 0x%llx-0x%llx",
				    s->feat[i].id, (unsigned long long)a->offset,
				    (unsigned long long)aend, s->feat[j].id,
				    (unsigned long long)b->offset,
				    (unsigned long long)bend);
		}
		const struct pd_section *sec[2] = { &h->attrs, &h->data };

		for (int j = 0; j < 2; j++) {
			uint64_t send = sec[j]->offset + sec[j]->size;

			if (sec[j]->size && a->offset < send && sec[j]->offset < aend)
				err(s, s->feat[i].table_entry_off,
				    "feature section table",
				    "feature %u section 0x%llx-0x%llx overlaps the %s section",
				    s->feat[i].id, (unsigned long long)a->offset,
				    (unsigned long long)aend, section_names[j]);
		}
	}
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
		err(s, p->offset, pd_feat_name(f->id) ? pd_feat_name(f->id) : "feature section",
		    "section of %llu bytes is larger than the %llu MiB perfdump loads; not decoded",
		    (unsigned long long)p->size,
		    (unsigned long long)(PD_FEAT_MAX_LOAD >> 20));
		return;
	}
	buf = arena_alloc(&s->arena, (size_t)want);
	if (!buf)
		return;
	n = pd_input_pread(&s->in, p->offset, buf, (size_t)want);
	if (n < 0) {
		err(s, p->offset, "feature section", "read error: %s",
		    strerror(errno));
		return;
	}
	p->bytes = buf;
	p->loaded = (uint64_t)n;
}

/*
 * Pipe mode: walk every record; keep the metadata ones (header.c
 * perf_event__process_feature, synthetic-events.c
 * perf_event__synthesize_for_pipe; FORMAT.md §3).
 */
static void walk_pipe(struct pd_session *s)
{
	struct pd_stream st;
	struct pd_rec r;
	struct pd_pipe_info *pi = &s->pipe;
	struct pd_feature *buildids = NULL;
	bool seen_attr = false;
	int rc;

	pd_stream_init(&st, &s->in, PD_PIPE_HEADER_SIZE, UINT64_MAX, s->swap,
		       &s->diags, "pipe stream");
	while ((rc = pd_stream_next(&st, &r)) == 1) {
		pi->nrecords++;
		if (r.type < 64 && !pi->first_event_off)
			pi->first_event_off = r.off;
		/*
		 * Pre-upstream Google perf (2012-13) sent the header features
		 * as record types 66 + feature id, before HEADER_ATTR.  They
		 * collide with ID_INDEX (69), AUXTRACE_INFO (70), ...  The first
		 * record of such a stream is the HOSTNAME one: a header string
		 * filling the record exactly.
		 */
		if (pi->nrecords == 1 && r.type == 69 && r.size >= 12 &&
		    pd_get32(r.p + 8, s->swap) == (uint32_t)r.size - 12u)
			pi->legacy_google = true;
		if (pi->legacy_google && !seen_attr && r.type >= 69 &&
		    r.type <= 80) {
			struct pd_feature *f = add_feature(s, r.type - 66,
							   PD_FSRC_LEGACY_RECORD);
			const uint8_t *b = arena_memdup(&s->arena, r.p + 8,
							r.size - 8u);
			if (f && b)
				add_part(s, f, r.off + 8, r.size - 8u, b,
					 r.size - 8u, r.off);
			continue;
		}
		switch (r.type) {
		case REC_HEADER_ATTR:
			seen_attr = true;
			pi->nattrs++;
			break;
		case REC_HEADER_FEATURE: {
			if (r.size < 16) {
				err(s, r.off, "PERF_RECORD_HEADER_FEATURE",
				    "record of %u bytes has no room for its u64 feat_id",
				    r.size);
				break;
			}
			uint64_t id = pd_get64(r.p + 8, s->swap);

			if (r.size == 16) { /* end-of-features marker */
				if (pi->has_end_marker)
					warn(s, r.off, "PERF_RECORD_HEADER_FEATURE",
					     "second end-of-features marker (feat_id %llu)",
					     (unsigned long long)id);
				pi->has_end_marker = true;
				pi->end_marker_off = r.off;
				pi->end_marker_id = id;
				break;
			}
			pi->nfeature_records++;
			if (id >= PD_FEAT_BITS) {
				err(s, r.off + 8, "PERF_RECORD_HEADER_FEATURE",
				    "feat_id %llu is beyond the 256 feature bits",
				    (unsigned long long)id);
				break;
			}
			if (pd_find_feature(s, (unsigned)id))
				warn(s, r.off, "PERF_RECORD_HEADER_FEATURE",
				     "feature %llu appears again; this copy is shown too",
				     (unsigned long long)id);
			struct pd_feature *f = add_feature(s, (unsigned)id,
							   PD_FSRC_RECORD);
			const uint8_t *b = arena_memdup(&s->arena, r.p + 16,
							r.size - 16u);
			if (f && b)
				add_part(s, f, r.off + 16, r.size - 16u, b,
					 r.size - 16u, r.off);
			break;
		}
		case PD_REC_HEADER_TRACING_DATA: {
			const uint8_t *b;
			uint64_t got;
			uint64_t poff = r.off + r.size;

			pd_stream_read_payload(&st, &r, &s->arena, &b, &got);
			struct pd_feature *f = add_feature(s, HEADER_TRACING_DATA,
							   PD_FSRC_TRACING_RECORD);
			if (f)
				add_part(s, f, poff, r.payload, b, got, r.off);
			break;
		}
		case REC_HEADER_BUILD_ID: {
			if (!buildids)
				buildids = add_feature(s, HEADER_BUILD_ID,
						       PD_FSRC_BUILDID_RECORDS);
			/* the entry layout includes the record header */
			const uint8_t *b = arena_memdup(&s->arena, r.p, r.size);

			if (buildids && b)
				add_part(s, buildids, r.off, r.size, b, r.size,
					 r.off);
			break;
		}
		default:
			break;
		}
	}
	pi->bytes = st.pos;
	pi->complete = rc == 0;
	pd_stream_free(&st);
}

static void list_dir(struct pd_session *s, const char *dirpath)
{
	DIR *d = opendir(dirpath);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat;
		char path[4096];
		struct pd_dir_file *v;

		if (strncmp(de->d_name, "data.", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dirpath, de->d_name);
		struct pd_input tmp;

		if (pd_input_open(&tmp, path) < 0 || !tmp.seekable) {
			if (tmp.fd >= 0)
				pd_input_close(&tmp);
			continue;
		}
		pd_input_close(&tmp);
		v = realloc(s->dir, (s->ndir + 1) * sizeof(*v));
		if (!v)
			break;
		s->dir = v;
		s->dir[s->ndir].name = strdup(de->d_name);
		s->dir[s->ndir].size = tmp.size;
		s->ndir++;
	}
	closedir(d);
	/* data.0, data.1, ..., data.10: by number, then by name */
	for (size_t i = 1; i < s->ndir; i++) {
		for (size_t j = i; j > 0; j--) {
			struct pd_dir_file *a = &s->dir[j - 1], *b = &s->dir[j];
			unsigned long na = strtoul(a->name + 5, NULL, 10);
			unsigned long nb = strtoul(b->name + 5, NULL, 10);

			if (na < nb || (na == nb && strcmp(a->name, b->name) <= 0))
				break;
			struct pd_dir_file t = *a;

			*a = *b;
			*b = t;
		}
	}
}

int pd_session_open(struct pd_session *s, const char *path,
		    pd_diag_hook hook, void *hook_arg, char *errbuf,
		    size_t errlen)
{
	uint8_t b[PD_HEADER_SIZE];
	ssize_t n;
	struct pd_header *h = &s->hdr;
	char datapath[4096];
	int dfd;

	memset(s, 0, sizeof(*s));
	s->diags.hook = hook;
	s->diags.hook_arg = hook_arg;
	s->path = path;
	s->in.fd = -1;
	snprintf(s->endian_how, sizeof(s->endian_how), "unknown");

	/* A directory recording: its "data" file holds the header. */
	if (strcmp(path, "-") != 0 &&
	    (dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		close(dfd);
		snprintf(datapath, sizeof(datapath), "%s/data", path);
		if (pd_input_open(&s->in, datapath) < 0) {
			snprintf(errbuf, errlen,
				 "%s is a directory without a readable 'data' file: %s",
				 path, strerror(errno));
			return -1;
		}
		s->mode = PD_MODE_DIR;
		list_dir(s, path);
	} else if (pd_input_open(&s->in, path) < 0) {
		snprintf(errbuf, errlen, "%s", strerror(errno));
		return -1;
	}

	n = pd_input_pread(&s->in, 0, b, 16);
	if (n < 0) {
		snprintf(errbuf, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	if (n < 16) {
		err(s, 0, "file header",
		    "the input has %zd bytes, too few for even the 16-byte pipe header",
		    n);
		return 0;
	}
	memcpy(h->raw, b, 16);
	h->raw_len = 16;
	if (!decide_magic(s, b, (size_t)n))
		return 0;
	h->size = pd_get64(b + 8, s->swap);

	if (h->size == PD_PIPE_HEADER_SIZE) {
		if (s->mode == PD_MODE_DIR)
			err(s, 8, "file header",
			    "the directory's data file is a pipe stream");
		else
			s->mode = PD_MODE_PIPE;
		s->header_ok = true;
		walk_pipe(s);
		return 0;
	}

	if (!s->in.seekable) {
		/* file mode on a stream: spool it so sections can be read */
		if (pd_input_spool(&s->in, b, 16) < 0) {
			snprintf(errbuf, errlen,
				 "cannot copy standard input to a temporary file: %s",
				 strerror(errno));
			return -1;
		}
	}
	if (h->size != PD_HEADER_SIZE && h->size != PD_HEADER_SIZE_NOFEAT) {
		err(s, 8, "file header: size",
		    "header size %llu is not 104, 72 (before the feature bitmap) or 16 (pipe)",
		    (unsigned long long)h->size);
		return 0;
	}
	n = pd_input_pread(&s->in, 0, b, (size_t)h->size);
	if (n < 0) {
		snprintf(errbuf, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	if ((uint64_t)n < h->size) {
		err(s, (uint64_t)n, "file header",
		    "the file ends after %zd of the header's %llu bytes", n,
		    (unsigned long long)h->size);
		return 0;
	}
	s->header_ok = true;
	memcpy(h->raw, b, (size_t)h->size);
	h->raw_len = (size_t)h->size;
	h->attr_size = pd_get64(b + 16, s->swap);
	h->attrs.offset = pd_get64(b + 24, s->swap);
	h->attrs.size = pd_get64(b + 32, s->swap);
	h->data.offset = pd_get64(b + 40, s->swap);
	h->data.size = pd_get64(b + 48, s->swap);
	h->event_types.offset = pd_get64(b + 56, s->swap);
	h->event_types.size = pd_get64(b + 64, s->swap);
	h->has_bitmap = h->size >= PD_HEADER_SIZE;
	if (h->has_bitmap) {
		memcpy(h->raw_bitmap, b + 72, 32);
		decode_bitmap(s);
	}
	h->feat_table_off = h->data.offset + h->data.size;

	check_sections(s);
	check_attrs(s);
	if (h->data.size == 0)
		err(s, 48, "file header: data section",
		    "data.size is 0: perf record did not finish writing this file (killed?); records may still follow data.offset 0x%llx",
		    (unsigned long long)h->data.offset);
	if (h->has_bitmap && pd_feat_bit(h, HEADER_RESERVED))
		warn(s, 72, "file header: feature bitmap",
		     "bit 0 (HEADER_RESERVED) is set");
	if (h->has_bitmap && h->data.size)
		read_feature_table(s);
	return 0;
}

const struct pd_feature *pd_find_feature(const struct pd_session *s,
					 unsigned id)
{
	for (size_t i = 0; i < s->nfeat; i++)
		if (s->feat[i].id == id)
			return &s->feat[i];
	return NULL;
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
			 &s->diags, ctx);
		if (p->loaded < p->size)
			err(s, p->offset + p->loaded, ctx,
			    "only %llu of the section's %llu bytes are in the file",
			    (unsigned long long)p->loaded,
			    (unsigned long long)p->size);
		ops->parse(s, f, &c);
		f->consumed += c.pos;
		if (cur_ok(&c) && cur_left(&c)) {
			if (!f->unparsed_off)
				f->unparsed_off = cur_off(&c);
			warn(s, cur_off(&c), ctx,
			     "%zu bytes at the end of the section were not decoded",
			     cur_left(&c));
		}
	}
	f->bad = s->diags.nerr != nerr;
}

void pd_decode_features(struct pd_session *s)
{
	/* CPU_TOPOLOGY and CPU_DOMAIN_INFO depend on NRCPUS: decode it first. */
	for (size_t i = 0; i < s->nfeat; i++)
		if (s->feat[i].id == HEADER_NRCPUS)
			pd_decode_feature(s, &s->feat[i]);
	for (size_t i = 0; i < s->nfeat; i++)
		pd_decode_feature(s, &s->feat[i]);
}

void pd_session_close(struct pd_session *s)
{
	pd_input_close(&s->in);
	for (size_t i = 0; i < s->ndir; i++)
		free(s->dir[i].name);
	free(s->dir);
	free(s->feat);
	arena_free(&s->arena);
	pd_diags_free(&s->diags);
}
