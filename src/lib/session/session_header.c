// SPDX-License-Identifier: MIT
/*
 * The file header's checks, once its fields are read (session.c): the
 * feature bitmap, the sections against the file and each other, the attrs
 * against attr_size (tools/perf/util/header.c: perf_file_header__read,
 * perf_header__process_sections, read_attr), then the feature table.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/format/features.h"
#include "lib/session/session_int.h"

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
				 (uint64_t)__builtin_bswap32(w32[2 * i + 1])
					 << 32;
	h->bitmap_guess = PD_BITMAP_SWAP32;
	if (pd_feat_bit(h, HEADER_HOSTNAME)) {
		sess_warn(s, PD_C_BITMAP_GUESS, PD_AT_HEADER, 72,
			  "file header: feature bitmap",
			  "byte-swapped bitmap read as 8 x u32 words (a 32-bit "
			  "producer): as 4 x u64 it lacked HOSTNAME");
		return;
	}
	memset(h->features, 0, sizeof(h->features));
	h->features[0] = 1ULL << HEADER_BUILD_ID;
	h->bitmap_guess = PD_BITMAP_GAVE_UP;
	sess_warn(s, PD_C_BITMAP_GUESS, PD_AT_HEADER, 72,
		  "file header: feature bitmap",
		  "byte-swapped bitmap has no HOSTNAME bit as 4 x u64 or 8 x "
		  "u32 words; like perf, assuming only BUILD_ID");
}

static const char *const section_names[] = {"attrs", "data", "event_types"};

static void check_sections(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;
	const struct pd_section *sec[3] = {&h->attrs, &h->data,
					   &h->event_types};
	uint64_t fsize = s->in.size;

	for (int i = 0; i < 3; i++) {
		uint64_t end;
		char what[64];

		snprintf(what, sizeof(what), "file header: %s section",
			 section_names[i]);
		if (sec[i]->size == 0)
			continue;
		if (__builtin_add_overflow(sec[i]->offset, sec[i]->size,
					   &end)) {
			sess_err(s, PD_C_SECTION_OUT_OF_FILE, PD_AT_HEADER,
				 24 + 16 * i, what,
				 "offset 0x%llx + size 0x%llx overflows",
				 (unsigned long long)sec[i]->offset,
				 (unsigned long long)sec[i]->size);
			continue;
		}
		if (sec[i]->offset < h->size)
			sess_err(s, PD_C_SECTION_OVERLAP, PD_AT_HEADER,
				 24 + 16 * i, what,
				 "offset 0x%llx lies inside the %llu-byte file "
				 "header",
				 (unsigned long long)sec[i]->offset,
				 (unsigned long long)h->size);
		if (end > fsize)
			sess_err(s, PD_C_SECTION_OUT_OF_FILE, PD_AT_HEADER,
				 24 + 16 * i, what,
				 "0x%llx-0x%llx extends past the end of the "
				 "file (0x%llx): %llu bytes missing",
				 (unsigned long long)sec[i]->offset,
				 (unsigned long long)end,
				 (unsigned long long)fsize,
				 (unsigned long long)(end -
						      (sec[i]->offset > fsize
							       ? sec[i]->offset
							       : fsize)));
		for (int j = 0; j < i; j++) {
			if (sec[j]->size == 0)
				continue;
			uint64_t jend = sec[j]->offset + sec[j]->size;

			if (jend < sec[j]->offset)
				continue;
			if (sec[i]->offset < jend && sec[j]->offset < end)
				sess_err(s, PD_C_SECTION_OVERLAP, PD_AT_HEADER,
					 24 + 16 * i, what,
					 "0x%llx-0x%llx overlaps the %s "
					 "section 0x%llx-0x%llx",
					 (unsigned long long)sec[i]->offset,
					 (unsigned long long)end,
					 section_names[j],
					 (unsigned long long)sec[j]->offset,
					 (unsigned long long)jend);
		}
	}
	if (h->event_types.size && h->event_types.size % 72)
		sess_warn(s, PD_C_EVENT_TYPES_SIZE, PD_AT_HEADER, 56,
			  "file header: event_types section",
			  "size %llu is not a multiple of the 72-byte legacy "
			  "entry",
			  (unsigned long long)h->event_types.size);
}

/* attr_size against the attrs: header.c read_attr, perf_session__read_header. */
static void check_attrs(struct pd_session *s)
{
	struct pd_header *h = &s->hdr;
	uint64_t n, fsize = s->in.size;

	if (h->attr_size == 0) {
		sess_err(s, PD_C_BAD_ATTR_SIZE, PD_AT_HEADER, 16,
			 "file header: attr_size",
			 "attr_size is 0: the recording was not finished (perf "
			 "record killed?)");
		return;
	}
	if (h->attr_size < PD_ATTR_SIZE_VER0 + 16) {
		sess_err(s, PD_C_BAD_ATTR_SIZE, PD_AT_HEADER, 16,
			 "file header: attr_size",
			 "attr_size %llu is smaller than the first "
			 "perf_event_attr (64 bytes) plus its 16-byte ids "
			 "section",
			 (unsigned long long)h->attr_size);
		return;
	}
	if (h->attrs.size % h->attr_size)
		sess_err(s, PD_C_ATTRS_SIZE_MISMATCH, PD_AT_HEADER, 32,
			 "file header: attrs section",
			 "size %llu is not a multiple of attr_size %llu",
			 (unsigned long long)h->attrs.size,
			 (unsigned long long)h->attr_size);
	n = h->attrs.size / h->attr_size;
	if (n == 0 && h->data.size)
		sess_warn(s, PD_C_NO_ATTRS, PD_AT_HEADER, 24,
			  "file header: attrs section",
			  "no attrs: samples cannot be decoded");
	/* Look at each entry's own size and ids section. */
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = h->attrs.offset + i * h->attr_size;
		uint8_t b[8], ids[16];
		char what[64];

		if (off + h->attr_size > fsize || off + h->attr_size < off)
			break; /* reported by check_sections */
		snprintf(what, sizeof(what), "attr %llu",
			 (unsigned long long)i);
		if (pd_input_pread(&s->in, off, b, 8) != 8 ||
		    pd_input_pread(&s->in, off + h->attr_size - 16, ids, 16) !=
			    16) {
			sess_err(s, PD_C_READ_ERROR, PD_AT_ATTR(i), off, what,
				 "read error: %s", strerror(errno));
			return;
		}
		uint32_t asize = pd_get32(b + 4, s->swap);

		if (asize == 0)
			asize = PD_ATTR_SIZE_VER0;
		if ((uint64_t)asize + 16 != h->attr_size)
			sess_warn(s, PD_C_ATTR_SIZE_MISMATCH, PD_AT_ATTR(i),
				  off + 4, what,
				  "attr.size %u + 16 differs from the header's "
				  "attr_size %llu; the entry is read with the "
				  "header's stride",
				  asize, (unsigned long long)h->attr_size);
		uint64_t ioff = pd_get64(ids, s->swap);
		uint64_t isz = pd_get64(ids + 8, s->swap);

		if (isz % 8)
			sess_err(s, PD_C_IDS_SIZE_MISMATCH, PD_AT_ATTR(i),
				 off + h->attr_size - 8, what,
				 "ids section size %llu is not a multiple of 8",
				 (unsigned long long)isz);
		if (isz && (ioff + isz < ioff || ioff + isz > fsize))
			sess_err(s, PD_C_SECTION_OUT_OF_FILE, PD_AT_ATTR(i),
				 off + h->attr_size - 16, what,
				 "ids section 0x%llx+0x%llx extends past the "
				 "end of the file (0x%llx)",
				 (unsigned long long)ioff,
				 (unsigned long long)isz,
				 (unsigned long long)fsize);
	}
}

/* A whole file header: its bitmap, sections, attrs and feature table. */
void sess_check_file_header(struct pd_session *s, const uint8_t *b)
{
	struct pd_header *h = &s->hdr;

	s->header_ok = true;
	h->has_bitmap = h->size >= PD_HEADER_SIZE;
	if (h->has_bitmap) {
		memcpy(h->raw_bitmap, b + 72, 32);
		decode_bitmap(s);
	}
	h->feat_table_off = h->data.offset + h->data.size;

	check_sections(s);
	check_attrs(s);
	if (h->data.size == 0)
		sess_err(s, PD_C_DATA_SIZE_ZERO, PD_AT_HEADER, 48,
			 "file header: data section",
			 "data.size is 0: perf record did not finish writing "
			 "this file (killed?); records may still follow "
			 "data.offset 0x%llx",
			 (unsigned long long)h->data.offset);
	if (h->has_bitmap && pd_feat_bit(h, HEADER_RESERVED))
		sess_warn(s, PD_C_RESERVED_FEATURE_BIT, PD_AT_HEADER, 72,
			  "file header: feature bitmap",
			  "bit 0 (HEADER_RESERVED) is set");
	if (h->has_bitmap && h->data.size)
		sess_read_feature_table(s);
}
