// SPDX-License-Identifier: MIT
/*
 * The formatter for the file header (tools/perf/util/header.h: struct
 * perf_file_header): magic, byte order, mode, the attrs/data/event_types
 * sections, the feature bitmap and table; in pipe mode the stream's
 * metadata records; for a directory, its data.N files.
 */
#include "fmt/fmt_header.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/format/features.h"

static const char *mode_name(const struct pd_session *s)
{
	switch (s->mode) {
	case PD_MODE_FILE: return "file";
	case PD_MODE_PIPE: return "pipe";
	case PD_MODE_DIR: return "directory";
	}
	return "?";
}

static const char *bitmap_guess_name(enum pd_bitmap_guess g)
{
	switch (g) {
	case PD_BITMAP_NATIVE: return "native";
	case PD_BITMAP_SWAP64: return "swapped as 4 x u64";
	case PD_BITMAP_SWAP32: return "swapped as 8 x u32 (32-bit producer)";
	case PD_BITMAP_GAVE_UP: return "unreadable: only BUILD_ID assumed";
	}
	return "?";
}

/* "ok", or what is wrong with a range in a file of fsize bytes. */
static const char *range_status(uint64_t off, uint64_t size, uint64_t fsize,
				uint64_t hsize)
{
	uint64_t end;

	if (size == 0)
		return "empty";
	if (__builtin_add_overflow(off, size, &end))
		return "overflow";
	if (end > fsize)
		return "past end of file";
	if (off < hsize)
		return "inside header";
	return "ok";
}

/* `at` is the header offset of the section's {offset, size} pair. */
static void emit_section(struct emitter *e, const char *key,
			 const struct pd_section *sec,
			 const struct pd_session *s, size_t at)
{
	if (s->hdr.fields_len < at + 8)
		return;
	emit_row_begin(e, key);
	emit_offset(e, "offset", sec->offset);
	if (s->hdr.fields_len < at + 16) {
		/* a cut header: the size is not in the file */
		emit_null(e, "size");
		emit_obj_end(e);
		return;
	}
	emit_u64(e, "size", sec->size);
	emit_offset(e, "end", sec->offset + sec->size);
	emit_str(e, "status",
		 range_status(sec->offset, sec->size, s->in.size, s->hdr.size));
	emit_obj_end(e);
}

static void emit_feature_names(struct emitter *e, const struct pd_header *h)
{
	char bit[16];

	emit_arr_begin(e, "features");
	for (unsigned b = 0; b < PD_FEAT_BITS; b++) {
		if (!pd_feat_bit(h, b))
			continue;
		const char *n = pd_feat_name(b);

		if (!n) {
			snprintf(bit, sizeof(bit), "bit %u", b);
			n = bit;
		}
		emit_str(e, NULL, n);
	}
	emit_arr_end(e);
}

static void emit_file_header(struct emitter *e, const struct pd_session *s)
{
	const struct pd_header *h = &s->hdr;
	char words[4 * 19 + 8];

	/* a cut header shows the fields it has (fields_len) */
	if (h->fields_len < 24)
		goto done;
	emit_u64(e, "attr_size", h->attr_size);
	if (h->attr_size >= 16)
		emit_u64(e, "attr_struct_size", h->attr_size - 16);
	if (h->attr_size && h->fields_len >= 40)
		emit_u64(e, "nr_attrs", h->attrs.size / h->attr_size);
	emit_section(e, "attrs", &h->attrs, s, 24);
	emit_section(e, "data", &h->data, s, 40);
	emit_section(e, "event_types", &h->event_types, s, 56);
done:
	emit_size(e, "file_size", s->in.size);
	if (!s->header_ok)
		return;
	if (!h->has_bitmap) {
		emit_str(e, "feature_bitmap", "absent (72-byte header)");
		return;
	}
	snprintf(words, sizeof(words),
		 "0x%016" PRIx64 "%016" PRIx64 "%016" PRIx64 "%016" PRIx64,
		 h->features[3], h->features[2], h->features[1],
		 h->features[0]);
	emit_str(e, "feature_bitmap", words);
	emit_str(e, "feature_bitmap_layout",
		 bitmap_guess_name(h->bitmap_guess));
	emit_feature_names(e, h);

	emit_obj_begin_t(e, "feature_table", "feature table");
	emit_offset(e, "offset", h->feat_table_off);
	emit_u64(e, "entries",
		 (uint64_t)__builtin_popcountll(h->features[0]) +
			 (uint64_t)__builtin_popcountll(h->features[1]) +
			 (uint64_t)__builtin_popcountll(h->features[2]) +
			 (uint64_t)__builtin_popcountll(h->features[3]));
	emit_arr_begin(e, "sections");
	for (size_t i = 0; i < s->nfeat; i++) {
		const struct pd_feature *f = &s->feat[i];
		const struct pd_part *p = &f->parts[0];
		const char *n = pd_feat_name(f->id);

		emit_row_begin(e, NULL);
		emit_u64(e, "bit", f->id);
		if (n)
			emit_str(e, "name", n);
		else
			emit_null(e, "name");
		emit_offset(e, "entry_offset", f->table_entry_off);
		emit_offset(e, "offset", p->offset);
		emit_u64(e, "size", p->size);
		emit_offset(e, "end", p->offset + p->size);
		emit_str(e, "status",
			 range_status(p->offset, p->size, s->in.size, h->size));
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_raw(e, h->table_raw, h->table_raw_len, h->feat_table_off);
	emit_obj_end(e);
}

static void emit_pipe(struct emitter *e, const struct pd_session *s)
{
	const struct pd_pipe_info *pi = &s->pipe;

	emit_obj_begin_t(e, "stream", "stream");
	emit_size(e, "bytes", pi->bytes);
	emit_u64(e, "records", pi->nrecords);
	emit_bool(e, "complete", pi->complete);
	emit_u64(e, "header_attr_records", pi->nattrs);
	emit_u64(e, "header_feature_records", pi->nfeature_records);
	if (pi->has_end_marker) {
		emit_row_begin(e, "end_marker");
		emit_offset(e, "offset", pi->end_marker_off);
		emit_u64(e, "feat_id", pi->end_marker_id);
		emit_obj_end(e);
	} else {
		emit_null(e, "end_marker");
	}
	emit_bool(e, "legacy_google_features", pi->legacy_google);
	if (pi->first_event_off)
		emit_offset(e, "first_event_offset", pi->first_event_off);
	else
		emit_null(e, "first_event_offset");
	emit_obj_end(e);

	emit_arr_begin(e, "feature_records");
	for (size_t i = 0; i < s->nfeat; i++) {
		const struct pd_feature *f = &s->feat[i];
		const char *n = pd_feat_name(f->id);

		for (size_t k = 0; k < f->nparts; k++) {
			const struct pd_part *p = &f->parts[k];

			emit_row_begin(e, NULL);
			emit_u64(e, "id", f->id);
			if (n)
				emit_str(e, "name", n);
			else
				emit_null(e, "name");
			emit_u64(e, "record_type",
				 f->src == PD_FSRC_LEGACY_RECORD
					 ? PD_REC_LEGACY_FEATURE_BASE + f->id
				 : f->src == PD_FSRC_TRACING_RECORD
					 ? PD_REC_HEADER_TRACING_DATA
				 : f->src == PD_FSRC_BUILDID_RECORDS
					 ? PD_REC_HEADER_BUILD_ID
					 : PD_REC_HEADER_FEATURE);
			emit_offset(e, "record_offset", p->rec_offset);
			emit_offset(e, "offset", p->offset);
			emit_u64(e, "size", p->size);
			emit_obj_end(e);
		}
	}
	emit_arr_end(e);
}

static void emit_dir(struct emitter *e, const struct pd_session *s)
{
	uint64_t total = s->in.size;

	emit_obj_begin_t(e, "directory", "directory");
	emit_str(e, "header_file", "data");
	emit_arr_begin(e, "files");
	emit_row_begin(e, NULL);
	emit_str(e, "name", "data");
	emit_u64(e, "size", s->in.size);
	emit_obj_end(e);
	for (size_t i = 0; i < s->ndir; i++) {
		emit_row_begin(e, NULL);
		emit_bytes_str(e, "name", s->dir[i].name,
			       strlen(s->dir[i].name));
		emit_u64(e, "size", s->dir[i].size);
		emit_obj_end(e);
		total += s->dir[i].size;
	}
	emit_arr_end(e);
	emit_size(e, "total_size", total);
	emit_obj_end(e);
}

/* A compressed input: its format, and the bytes read and decoded. */
static void emit_input_compression(struct emitter *e,
				   const struct pd_input_z *z)
{
	emit_row_begin(e, "input_compression");
	emit_str(e, "format", pd_unz_name(z->fmt));
	emit_u64(e, "compressed_size", z->in_bytes);
	emit_u64(e, "decompressed_size", z->out_bytes);
	emit_obj_end(e);
}

void emit_header(struct emitter *e, const struct pd_session *s)
{
	emit_obj_begin(e, "header");
	if (s->in.z.fmt)
		emit_input_compression(e, &s->in.z);
	if (s->hdr.version) {
		emit_bytes_str(e, "magic", (const char *)s->hdr.magic, 8);
		emit_u64(e, "version", (uint64_t)s->hdr.version);
		emit_str(e, "endianness", s->big_endian ? "big" : "little");
		emit_str(e, "endianness_how", s->endian_how);
		emit_str(e, "mode", mode_name(s));
		emit_u64(e, "header_size", s->hdr.size);
	}
	if (s->header_ok || s->hdr.fields_len) {
		if (s->mode == PD_MODE_PIPE)
			emit_pipe(e, s);
		else
			emit_file_header(e, s);
		if (s->mode == PD_MODE_DIR)
			emit_dir(e, s);
	}
	emit_raw(e, s->hdr.raw, s->hdr.raw_len, 0);
	emit_obj_end(e);
}
