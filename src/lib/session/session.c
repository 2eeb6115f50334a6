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
#include <sys/stat.h>
#include <unistd.h>

#include "lib/format/features.h"
#include "lib/base/util.h"
#include "lib/session/session_int.h"

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

/* Which byte order did the producer have?  Ours, unless swapped. */
static void set_producer_order(struct pd_session *s)
{
	uint16_t one = 1;
	bool host_be = *(const uint8_t *)&one == 0;

	s->big_endian = s->swap ? !host_be : host_be;
}

/*
 * b, the input's first n bytes, holds no perf.data magic (n < 8: too few
 * for one): not a recording, as tools/perf/util/header.c
 * perf_file_header__read refuses one when check_magic_endian fails.  Says
 * what the bytes are; nothing else is read (s->not_perf_data).
 */
static void not_perf_data(struct pd_session *s, const uint8_t *b, size_t n)
{
	const char *z = s->in.z.fmt ? " decompressed from " : "";
	const char *zname = s->in.z.fmt ? pd_unz_name(s->in.z.fmt) : "";
	char hex[3 * 8 + 1] = "";

	s->not_perf_data = true;
	for (size_t i = 0; i < n && i < 8; i++)
		snprintf(hex + 3 * i, 4, "%02x ", b[i]);
	if (n)
		hex[3 * (n < 8 ? n : 8) - 1] = 0;
	if (n >= 8)
		sess_err(s, PD_C_BAD_MAGIC, PD_AT_HEADER, 0,
			 "file header: magic",
			 "not a perf.data file: the first 8 bytes%s%s are %s, "
			 "not \"PERFILE2\" or \"PERFFILE\"",
			 z, zname, hex);
	else if (n)
		sess_err(s, PD_C_BAD_MAGIC, PD_AT_HEADER, 0,
			 "file header: magic",
			 "not a perf.data file: the input%s%s has %zu byte%s, "
			 "%s, too few for the 8-byte magic \"PERFILE2\" or "
			 "\"PERFFILE\"",
			 z, zname, n, n == 1 ? "" : "s", hex);
	else
		sess_err(s, PD_C_BAD_MAGIC, PD_AT_HEADER, 0,
			 "file header: magic",
			 "not a perf.data file: the input%s%s is empty", z,
			 zname);
}

/*
 * The byte order and version from the first 16 bytes b, of which n were
 * read (the rest zero) (tools/perf/util/header.c check_magic_endian /
 * try_all_file_abis / try_all_pipe_abis).  Returns false if this is not
 * a perf.data file.
 */
static bool decide_magic(struct pd_session *s, const uint8_t *b, size_t n)
{
	uint64_t magic, size_native;
	struct pd_header *h = &s->hdr;

	if (n < 8) {
		not_perf_data(s, b, n);
		return false;
	}
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
		not_perf_data(s, b, n);
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
	/* attr_file_abi_sizes[], each + the 16-byte ids section */
	static const uint64_t abi[] = {
		PD_ATTR_SIZE_VER0 + 16, PD_ATTR_SIZE_VER1 + 16,
		PD_ATTR_SIZE_VER2 + 16, PD_ATTR_SIZE_VER3 + 16,
		PD_ATTR_SIZE_VER4 + 16,
	};
	uint64_t attr_size;

	memcpy(&attr_size, b + 16, 8);
	for (unsigned i = 0; i < PD_NELEMS(abi); i++) {
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

/*
 * Open the input: a file, standard input (either may be compressed), or a
 * directory's "data" file; its reads counted in count.  -1 on an error
 * (in errbuf), 0 when open, 1 for a directory that is not a recording
 * (reported).
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
		int rc = pd_input_open_regular(&s->in, datapath, &kind);

		if (rc < 0 && (kind == S_IFDIR || (!kind && errno == ENOENT))) {
			/* tools/perf/util/data.c open_dir: a recording's
			 * header is in its file 'data' */
			s->not_perf_data = true;
			sess_err(s, PD_C_BAD_MAGIC, PD_AT_FILE, PD_NO_OFFSET,
				 "directory",
				 "not a perf.data file: a directory without a "
				 "file 'data' (where perf record --threads "
				 "writes the header)");
			return 1;
		}
		if (rc < 0) { /* a FIFO, a device: not read */
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

	if (pd_input_spool(&s->in, b, 16, s->opts.tmpdir, &written, &dir) == 0)
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

	memset(b, 0, 16);
	n = pd_input_pread(&s->in, 0, b, 16);
	if (n < 0) {
		snprintf(errbuf, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	if (!decide_magic(s, b, (size_t)n))
		return 0;
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

/* Open path and read its header, attrs and feature table (or walk a pipe). */
int pd_session_open(struct pd_session *s, const char *path,
		    const struct pd_read_opts *opts, pd_diag_hook hook,
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
	if (opts)
		s->opts = *opts;
	s->in.fd = -1;
	snprintf(s->endian_how, sizeof(s->endian_how), "unknown");

	st = open_input(s, path, count, errbuf, errlen);
	if (st == 0)
		st = read_magic(s, b, errbuf, errlen);
	else if (st > 0)
		st = 0; /* not a recording */
	if (st > 0)
		st = read_file_header(s, b, errbuf, errlen);
	if (st > 0)
		sess_check_file_header(s, b);
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
