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
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "features.h"
#include "tracepoint.h"
#include "session_int.h"

static void vdiag(struct pd_session *s, enum pd_code code, struct pd_where at,
		  enum pd_sev sev, uint64_t off, const char *what,
		  const char *fmt, va_list ap)
{
	char buf[400];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	pd_diag_add(&s->diags, code, at, sev, off, what, "%s", buf);
}

void sess_err(struct pd_session *s, enum pd_code code, struct pd_where at,
	      uint64_t off, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(s, code, at, PD_ERR, off, what, fmt, ap);
	va_end(ap);
}

void sess_warn(struct pd_session *s, enum pd_code code, struct pd_where at,
	       uint64_t off, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(s, code, at, PD_WARN, off, what, fmt, ap);
	va_end(ap);
}

unsigned popcount256(const uint64_t w[4])
{
	return (unsigned)(__builtin_popcountll(w[0]) +
			  __builtin_popcountll(w[1]) +
			  __builtin_popcountll(w[2]) +
			  __builtin_popcountll(w[3]));
}

/*
 * The byte order and version from the first 16 bytes (tools/perf/util/
 * header.c check_magic_endian / try_all_file_abis / try_all_pipe_abis).
 * Returns false if this is not a perf.data file.
 */
/* Which byte order did the producer have?  Ours, unless swapped. */
static void set_producer_order(struct pd_session *s)
{
	uint16_t one = 1;
	bool host_be = *(const uint8_t *)&one == 0;

	s->big_endian = s->swap ? !host_be : host_be;
}

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
			 "magic \"%.8s\" read %s", (const char *)b,
			 s->swap ? "byte-swapped: the producer's byte order "
				   "differs from this host's"
				 : "in this host's byte order");
	} else if (memcmp(b, "PERFFILE", 8) == 0) {
		/* v1: the magic is text; guess the byte order from a size */
		bool pipe = size_native == 16 ||
			    __builtin_bswap64(size_native) == 16;

		h->version = 1;
		if (pipe) {
			s->swap = size_native != 16;
			snprintf(s->endian_how, sizeof(s->endian_how),
				 "v1 pipe header: size 16 read %s",
				 s->swap ? "byte-swapped" : "natively");
		}
		/* file mode: decided by v1_byte_order() once attr_size is read */
	} else {
		char hex[3 * 8 + 1];

		for (int i = 0; i < 8; i++)
			snprintf(hex + 3 * i, 4, "%02x ",
				 i < (int)n ? b[i] : 0);
		hex[3 * 8 - 1] = 0;
		sess_err(s, PD_C_BAD_MAGIC, PD_AT_HEADER, 0,
			 "file header: magic",
			 "not a perf.data file: the first 8 bytes%s%s are %s, "
			 "not \"PERFILE2\" or \"PERFFILE\"",
			 s->in.z.fmt ? " decompressed from " : "",
			 s->in.z.fmt ? pd_unz_name(s->in.z.fmt) : "", hex);
		return false;
	}
	set_producer_order(s);
	return true;
}

/*
 * v1 file mode: the byte order is the one in which attr_size is one of
 * the sizes perf 2009-2012 wrote (header.c try_all_file_abis).
 */
static void v1_byte_order(struct pd_session *s, const uint8_t *b)
{
	static const uint64_t abi[] = {80, 88, 96, 112, 120};
	uint64_t attr_size;

	memcpy(&attr_size, b + 16, 8);
	for (unsigned i = 0; i < 5; i++) {
		if (attr_size != abi[i] &&
		    __builtin_bswap64(attr_size) != abi[i])
			continue;
		s->swap = attr_size != abi[i];
		snprintf(s->endian_how, sizeof(s->endian_how),
			 "v1 header: attr_size %llu (PERF_ATTR_SIZE_VER%u + "
			 "16) matched %s",
			 (unsigned long long)abi[i], i,
			 s->swap ? "after a byte swap"
				 : "in this host's byte order");
		set_producer_order(s);
		return;
	}
	sess_err(s, PD_C_BAD_ATTR_SIZE, PD_AT_HEADER, 16,
		 "file header: attr_size",
		 "v1 file: attr_size 0x%llx is none of the sizes perf accepts "
		 "(80, 88, 96, 112, 120) in either byte order; byte order "
		 "unknown, assumed this host's",
		 (unsigned long long)attr_size);
	snprintf(s->endian_how, sizeof(s->endian_how),
		 "v1 header: byte order unknown, assumed this host's");
	set_producer_order(s);
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
			asize = 64; /* PERF_ATTR_SIZE_VER0 */
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

/*
 * Open the input: a file, standard input (either may be compressed), or a
 * directory's "data" file; its reads counted in count.
 */
static int open_input(struct pd_session *s, const char *path,
		      struct pd_input_count *count, char *errbuf, size_t errlen)
{
	char datapath[4096];
	int dfd;

	/* A directory recording: its "data" file holds the header. */
	if (strcmp(path, "-") != 0 &&
	    (dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		close(dfd);
		snprintf(datapath, sizeof(datapath), "%s/data", path);
		unsigned kind;

		if (pd_input_open_regular(&s->in, datapath, &kind) < 0) {
			snprintf(errbuf, errlen,
				 "%s is a directory without a readable 'data' "
				 "file: %s",
				 path,
				 kind ? pd_input_kind(kind) : strerror(errno));
			return -1;
		}
		s->mode = PD_MODE_DIR;
		pd_input_set_count(&s->in, count);
		sess_list_dir(s, path);
	} else if (pd_input_open(&s->in, path) < 0) {
		snprintf(errbuf, errlen, "%s", strerror(errno));
		return -1;
	} else {
		pd_input_set_count(&s->in, count);
	}
	s->in.diags = &s->diags;
	return 0;
}

/*
 * A file-mode recording on a stream: its header points anywhere in it, so
 * it is copied to an unlinked temporary file, which the readers can seek.
 */
static int spool(struct pd_session *s, const uint8_t *b, char *errbuf,
		 size_t errlen)
{
	uint64_t written;
	const char *dir;
	char what[80];

	if (pd_input_spool(&s->in, b, 16, &written, &dir) == 0)
		return 1;
	snprintf(what, sizeof(what),
		 s->in.z.fmt ? "a %s-compressed file-mode recording is "
			       "decompressed"
			     : "a file-mode recording on %s is copied",
		 s->in.z.fmt		     ? pd_unz_name(s->in.z.fmt)
		 : strcmp(s->path, "-") == 0 ? "standard input"
					     : "a stream");
	snprintf(errbuf, errlen,
		 "%s to a temporary file (it must be read out of order), but "
		 "that failed in %s after %llu bytes: %s",
		 what, dir, (unsigned long long)written, strerror(errno));
	return -1;
}

/*
 * Read the magic and size (the first 16 bytes), spool a stream holding a
 * file-mode recording and walk a pipe.  -1 on an error, 0 when the open is done, 1 to read a file header.
 */
static int read_magic(struct pd_session *s, uint8_t *b, char *errbuf,
		      size_t errlen)
{
	struct pd_header *h = &s->hdr;
	ssize_t n;

	n = pd_input_pread(&s->in, 0, b, 16);
	if (n < 0) {
		snprintf(errbuf, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	if (n < 16) {
		sess_err(s, PD_C_HEADER_TRUNCATED, PD_AT_HEADER, 0,
			 "file header",
			 "the input has %zd bytes, too few for even the "
			 "16-byte pipe header",
			 n);
		return 0;
	}
	memcpy(h->raw, b, 16);
	h->raw_len = 16;
	if (!decide_magic(s, b, (size_t)n))
		return 0;
	h->size = pd_get64(b + 8, s->swap);
	/* v1 file mode: the size field in either order */
	if (h->version == 1 && h->size != PD_PIPE_HEADER_SIZE &&
	    h->size != PD_HEADER_SIZE && h->size != PD_HEADER_SIZE_NOFEAT)
		h->size = pd_get64(b + 8, true);

	if (h->size == PD_PIPE_HEADER_SIZE) {
		if (s->mode == PD_MODE_DIR)
			sess_err(s, PD_C_MALFORMED, PD_AT_HEADER, 8,
				 "file header",
				 "the directory's data file is a pipe stream");
		else
			s->mode = PD_MODE_PIPE;
		s->header_ok = true;
	}
	if (s->mode == PD_MODE_PIPE) {
		/* read as it arrives, from a pipe or a file alike: the walk
		 * stops at the first event; the record readers go on with
		 * it, so that a command reads the stream once */
		sess_walk_pipe_live(s);
		return 0;
	}
	if (!s->in.seekable)
		return spool(s, b, errbuf, errlen);
	return 1;
}

/* Decode the file header's section fields the first avail bytes hold. */
static void decode_header_fields(struct pd_session *s, const uint8_t *b,
				 size_t avail)
{
	struct pd_header *h = &s->hdr;

	if (avail >= 24)
		h->attr_size = pd_get64(b + 16, s->swap);
	if (avail >= 32)
		h->attrs.offset = pd_get64(b + 24, s->swap);
	if (avail >= 40)
		h->attrs.size = pd_get64(b + 32, s->swap);
	if (avail >= 48)
		h->data.offset = pd_get64(b + 40, s->swap);
	if (avail >= 56)
		h->data.size = pd_get64(b + 48, s->swap);
	if (avail >= 64)
		h->event_types.offset = pd_get64(b + 56, s->swap);
	if (avail >= 72)
		h->event_types.size = pd_get64(b + 64, s->swap);
}

/*
 * Read the whole file header into b.  -1 on an error, 0 when it is bad or
 * cut (reported), 1 when it is whole.
 */
static int read_file_header(struct pd_session *s, uint8_t *b, char *errbuf,
			    size_t errlen)
{
	struct pd_header *h = &s->hdr;
	ssize_t n;

	if (h->size != PD_HEADER_SIZE && h->size != PD_HEADER_SIZE_NOFEAT) {
		sess_err(s, PD_C_BAD_HEADER_SIZE, PD_AT_HEADER, 8,
			 "file header: size",
			 "header size %llu is not 104, 72 (before the feature "
			 "bitmap) or 16 (pipe)",
			 (unsigned long long)h->size);
		return 0;
	}
	n = pd_input_pread(&s->in, 0, b, (size_t)h->size);
	if (n < 0) {
		snprintf(errbuf, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	/* Decode every field the file has, even when the header is cut. */
	size_t avail = (uint64_t)n < h->size ? (size_t)n : (size_t)h->size;

	if (h->version == 1 && avail >= 24) {
		v1_byte_order(s, b);
		h->size = pd_get64(b + 8, s->swap);
	}
	memcpy(h->raw, b, avail);
	h->raw_len = avail;
	h->fields_len = avail;
	decode_header_fields(s, b, avail);
	if (avail < h->size) {
		sess_err(s, PD_C_HEADER_TRUNCATED, PD_AT_HEADER, (uint64_t)n,
			 "file header",
			 "the file ends after %zd of the header's %llu bytes",
			 n, (unsigned long long)h->size);
		return 0;
	}
	return 1;
}

/* A whole file header: its bitmap, sections, attrs and feature table. */
static void check_file_header(struct pd_session *s, const uint8_t *b)
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

/* Open path and read its header, attrs and feature table (or walk a pipe). */
int pd_session_open(struct pd_session *s, const char *path, pd_diag_hook hook,
		    void *hook_arg, struct pd_input_count *count, char *errbuf,
		    size_t errlen)
{
	uint8_t b[PD_HEADER_SIZE];
	int st;

	memset(s, 0, sizeof(*s));
	s->arena.limit = PD_SESSION_ARENA_MAX;
	s->diags.hook = hook;
	s->diags.hook_arg = hook_arg;
	s->path = path;
	s->in.fd = -1;
	snprintf(s->endian_how, sizeof(s->endian_how), "unknown");

	st = open_input(s, path, count, errbuf, errlen) < 0
		     ? -1
		     : read_magic(s, b, errbuf, errlen);
	if (st > 0)
		st = read_file_header(s, b, errbuf, errlen);
	if (st > 0)
		check_file_header(s, b);
	if (st < 0)
		pd_session_close(s); /* the caller has nothing to close */
	return st < 0 ? -1 : 0;
}

void pd_session_close(struct pd_session *s)
{
	pd_input_close(&s->in);
	if (s->dir) {
		for (size_t i = 0; i < s->ndir; i++)
			free(s->dir[i].name);
		free(s->dir);
	}
	pd_tp_free_all(s);
	free(s->feat);
	free(s->evlist.v);
	free(s->evlist.ids);
	arena_free(&s->arena);
	pd_diags_free(&s->diags);
	pd_diags_free(&s->pipe.ended_diags);
}
