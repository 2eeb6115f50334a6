/* SPDX-License-Identifier: MIT */
/*
 * The perf.data writer: a recording read by perfdump written again as a
 * consistent file-mode PERFILE2 perf.data, in the recording's byte order
 * (tools/perf/util/header.c: perf_session__write_header, its layout of
 * the file header, the ids, the attrs, the data section, then
 * perf_header__adds_write's feature table and sections).
 *
 * Records are streamed from the one walk (walk.h) into the data section:
 * each record's bytes as the reader hands them out, which are the file's
 * (the reader frames records in place, in the producer's byte order),
 * compressed records decompressed.  Only whole records that decode
 * without an error are written.  The attrs and their ids come from the
 * session's event list; the features are copied as read (their bytes),
 * but for those that describe the data, written again to match it
 * (SAMPLE_TIME) or left out (AUXTRACE's file offsets, COMPRESSED, a
 * damaged section).  A pipe stream's attrs (HEADER_ATTR), features
 * (HEADER_FEATURE), tracing data and build-ids become the file's attrs
 * section and feature sections, as perf inject writes a pipe to a file.
 * A perf record --threads directory's files are merged in time order.
 * On request the copy is written in pipe mode instead (copy_pipe.c), or
 * with its records compressed again (copy_z.c).
 *
 * Never prints or exits: problems with the input are the session's
 * diagnostics; what the copy changed is in the result.
 */
#ifndef PD_COPY_H
#define PD_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session/filter.h"

struct pd_session;

/*
 * --redact for the file written (the command's redactor, which the
 * parser does not know): each string of the file that may name a person
 * or a machine is handed to str() with its kind, and written as *out,
 * *outlen instead (s itself: unchanged).  argi: with PD_CSTR_ARG, the
 * argument's index in CMDLINE (0: argv[0], the state starts again).
 * tp: with PD_CSTR_TP, the field (its name tells a comm).
 */
enum pd_copy_str {
	PD_CSTR_PATH,	/* MMAP/MMAP2 and BUILD_ID file names */
	PD_CSTR_CGROUP, /* CGROUP's path */
	PD_CSTR_HOST,	/* HOSTNAME, an OSRELEASE that names the host */
	PD_CSTR_COMM,	/* COMM's comm */
	PD_CSTR_ARG,	/* CMDLINE's arguments */
	PD_CSTR_TP,	/* a tracepoint sample's string field (tp) */
};
struct pd_tp_field;
struct pd_copy_redact {
	void (*str)(void *ctx, enum pd_copy_str k, unsigned argi,
		    const struct pd_tp_field *tp, const char *s, size_t n,
		    const char **out, size_t *outlen);
	void *ctx;
};

struct pd_copy_opts {
	/* the samples kept (NULL: every record); see copy_keep.c for the
	 * other records kept with them.  skip, limit, at, types: unused */
	const struct pd_filter *filter;
	/* pipe mode (perf record -o -): the pipe header, then the attrs,
	 * features, tracing data and build-ids as records, then the data;
	 * written in order, never sought back into (a pipe) */
	bool pipe;
	/* 1..22: the data records compressed with zstd at that level, as
	 * perf record -z writes them (COMPRESSED records); 0: as they are */
	int compress;
	/* NULL: strings written as read */
	const struct pd_copy_redact *redact;
	/* 0: every attr written at the size of the recording's largest;
	 * else at this size (one of pd_copy_attr_sizes), for an older perf
	 * that refuses a larger one (header.c read_attr: "file uses a more
	 * recent and unsupported ABI"): refused when a byte past it is not
	 * zero */
	uint32_t attr_size;
	/* HEADER_BUILD_ID: only the entries of the DSOs that a written
	 * sample hits (as perf record writes it); false: every entry */
	bool build_ids_hit;
	/* > 1: the kernel's records checked on this many threads (walk.h:
	 * the copy is the same byte for byte; --redact: one thread) */
	unsigned jobs;
	size_t batch_bytes; /* a batch's records (0: the walk's default) */
};

/* The sizes --attr-size takes, 0-terminated: the published layouts
 * (PERF_ATTR_SIZE_VER0 ..). */
extern const uint32_t pd_copy_attr_sizes[];

/* The levels --compress takes (perf record --compression-level). */
#define PD_COPY_ZLEVEL_MIN 1
#define PD_COPY_ZLEVEL_MAX 22

#define PD_COPY_NOTES 8

struct pd_copy_result {
	uint64_t records_read;	  /* handed out by the walk */
	uint64_t records_written; /* into the data section */
	uint64_t samples_written;
	uint64_t records_damaged; /* left out: they decode with an error */
	/* --redact: left out, their string not found to be redacted */
	uint64_t records_unredactable;
	uint64_t data_offset, data_size, file_size;
	uint32_t nattrs;
	uint32_t attr_size; /* the size every perf_event_attr is written at */
	/* --compress: the bytes of the records compressed, and of the
	 * COMPRESSED records that hold them */
	uint64_t z_in, z_out;
	unsigned nfeatures;
	bool has_time; /* first_time, last_time: of the samples written */
	uint64_t first_time, last_time;
	/* what the copy changed besides the records left out, one line each
	 * ("HEADER_COMPRESSED left out: ...") */
	char notes[PD_COPY_NOTES][192];
	unsigned nnotes;
	/* -1: errno of a write error, or 0 when the recording cannot be
	 * written (why) */
	int err;
	char why[256];
};

/*
 * Write the opened session s (its features and event list loaded, as
 * `records` has them) to fd, a new regular file opened for writing, from
 * its offset 0.  Returns 0, or -1 (r->err, r->why).
 */
int pd_copy(struct pd_session *s, int fd, const struct pd_copy_opts *o,
	    struct pd_copy_result *r);

#endif
