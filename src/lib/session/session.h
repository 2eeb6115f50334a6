/* SPDX-License-Identifier: MIT */
/*
 * A recording as perfdump sees it: where the bytes come from (file, pipe
 * stream, directory), the file header, and the feature sections.
 * No printing, no exits: problems go to `diags`.
 */
#ifndef PD_SESSION_H
#define PD_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/base/cursor.h"
#include "lib/base/diag.h"
#include "lib/format/evsel.h"
#include "lib/format/feat_ctx.h"
#include "lib/io/input.h"
#include "lib/format/perf_abi.h"
#include "lib/io/read_opts.h"

struct pd_tp;

enum pd_mode {
	PD_MODE_FILE,
	PD_MODE_PIPE,
	PD_MODE_DIR, /* perf record --threads / --kcore directory */
};

struct pd_section {
	uint64_t offset, size;
};

/*
 * How the feature bitmap of a byte-swapped file was read
 * (tools/perf/util/header.c: perf_file_header__read, its u64 then u32 swap).
 */
enum pd_bitmap_guess {
	PD_BITMAP_NATIVE,  /* same byte order as this host */
	PD_BITMAP_SWAP64,  /* producer wrote 4 x u64 */
	PD_BITMAP_SWAP32,  /* producer wrote 8 x u32 (32-bit host) */
	PD_BITMAP_GAVE_UP, /* neither had HOSTNAME: only BUILD_ID assumed */
};

struct pd_header {
	uint8_t magic[8];
	int version;   /* 2 = PERFILE2, 1 = PERFFILE */
	uint64_t size; /* 104, 72 or 16 */
	uint64_t attr_size;
	struct pd_section attrs, data, event_types;
	uint8_t raw_bitmap[32]; /* as stored */
	uint64_t features[4];	/* as decoded: bit n = word n/64 bit n%64 */
	enum pd_bitmap_guess bitmap_guess;
	bool has_bitmap;	     /* size >= 104 */
	uint64_t feat_table_off;     /* data.offset + data.size */
	uint8_t raw[PD_HEADER_SIZE]; /* the header bytes as read */
	size_t raw_len;
	size_t fields_len;	  /* bytes of the fields above that were read */
	const uint8_t *table_raw; /* the feature table bytes as read */
	size_t table_raw_len;
};

/* A data.N stream of a directory recording. */
struct pd_dir_file {
	char *name;
	uint64_t size;
};

struct pd_pipe_info {
	uint64_t bytes; /* stream length read */
	uint64_t nrecords;
	uint64_t nattrs;	   /* HEADER_ATTR records */
	uint64_t nfeature_records; /* HEADER_FEATURE records (without marker) */
	bool has_end_marker;
	uint64_t end_marker_off;
	uint64_t end_marker_id;	  /* the writer's HEADER_LAST_FEATURE */
	bool legacy_google;	  /* features as record types 69..80 */
	uint64_t first_event_off; /* first kernel record, 0 if none */
	bool complete;		  /* walked to a clean end */
	/*
	 * A stream read as it arrives (standard input, a FIFO): the walk
	 * at open stops at the first record that is not metadata (its bytes
	 * kept, session_pipe.c); the record readers go on with the walk
	 * (pd_session_pipe_event), or pd_session_read_all finishes it.
	 */
	bool live;
	bool drained; /* live: walked to the end of the stream */
	bool ended;   /* live: the walk at open met the end already */
	struct pd_diags ended_diags; /* ... and what its reader said */
	bool late_deps;	 /* live: decode the dependencies as they come */
	uint64_t walked; /* live: the walk has seen the records before */
	/* the walk's state across records */
	bool seen_attr;
	size_t buildids; /* HEADER_BUILD_ID's index in feat, or SIZE_MAX */
};

struct pd_session {
	const char *path;	  /* as given */
	struct pd_read_opts opts; /* how to read it (the caller's choices) */
	struct pd_input in;	  /* the file holding the header */
	enum pd_mode mode;
	bool swap;	      /* producer byte order differs from ours */
	bool big_endian;      /* producer byte order */
	char endian_how[160]; /* how the byte order was decided */
	bool header_ok;	      /* the header could be read */
	/*
	 * Not a recording: no perf.data magic in the first 8 bytes (or fewer
	 * than 8), or a directory without a 'data' file.  Nothing else was
	 * read, so nothing else in the session means anything; the one
	 * error (bad-magic) says what was found.
	 */
	bool not_perf_data;
	struct pd_header hdr;
	struct pd_pipe_info pipe;
	struct pd_feature *feat;
	size_t nfeat;
	struct pd_dir_file *dir;
	size_t ndir;
	struct pd_env env;
	/* pipe mode: HEADER_ATTR (64) and EVENT_UPDATE (78) records, whole */
	struct pd_part *pipe_attrs;
	size_t npipe_attrs;
	struct pd_part *pipe_updates;
	size_t npipe_updates;
	struct pd_evlist evlist; /* pd_evlist_load() */
	/* tracepoint formats (tracepoint.h): one per tracing data blob */
	struct pd_tp *tps;
	uint32_t tp_gen;  /* blobs loaded */
	bool tp_features; /* the TRACING_DATA features were loaded */
	const struct pd_tp_resolver *tp_resolver; /* pd_tp_set_resolver */
	struct arena arena;
	struct pd_diags diags;
};

/*
 * Open and read the header and feature sections (file mode) or walk the
 * stream for its metadata records (pipe mode).  Returns 0 when something
 * could be read (check diags for problems), -1 on an I/O error opening
 * the input (message in errbuf; s is closed already).  `opts` (NULL: the
 * defaults) is copied into s->opts, how this and every later read of
 * the session is done.  `hook` sees every diagnostic as it is found;
 * `count` (may be NULL) every byte read (input.h).
 */
int pd_session_open(struct pd_session *s, const char *path,
		    const struct pd_read_opts *opts, pd_diag_hook hook,
		    void *hook_arg, struct pd_input_count *count, char *errbuf,
		    size_t errlen);
void pd_session_close(struct pd_session *s);

/*
 * A pipe stream read as it arrives: read the rest of it for its metadata
 * records (the commands that show the whole session first).  Records
 * cannot be read again afterwards (but for the metadata records before
 * the first event, which are kept).  Nothing to do for other inputs.
 */
void pd_session_read_all(struct pd_session *s);

struct pd_walk_loop;
struct pd_event;
/*
 * The walk's update step on a live pipe stream (walk.c) hands each record
 * of the stream (not decompressed ones) to the session as it reads it:
 * the metadata records the walk at open did not see are added to the
 * session.
 */
void pd_session_pipe_event(struct pd_session *s, struct pd_walk_loop *rd,
			   const struct pd_event *ev);

/* Decode every feature present into its model (idempotent). */
void pd_decode_features(struct pd_session *s);
/*
 * Decode part c of feature f (its decoder in the registry, features.h)
 * with the session's context; a TRACING_DATA blob's formats are then
 * loaded (pd_tp_load).  For pd_decode_feature and a pipe record's own
 * feature (record_user.c).
 */
void pd_session_parse_feature(struct pd_session *s, struct pd_feature *f,
			      struct cursor *c);
/*
 * Decode one (idempotent).  Call pd_decode_feature_deps() first: it
 * decodes what other decoders and formatters look up (NRCPUS for the CPU
 * counts, ARCH for register names, PMU_MAPPINGS for PMU names,
 * TRACING_DATA for tracepoint names, CLOCK_DATA for wall-clock times).
 */
void pd_decode_feature(struct pd_session *s, struct pd_feature *f);
void pd_decode_feature_deps(struct pd_session *s);

static inline bool pd_feat_bit(const struct pd_header *h, unsigned bit)
{
	return bit < PD_FEAT_BITS && (h->features[bit / 64] >> (bit % 64)) & 1;
}

const struct pd_feature *pd_find_feature(const struct pd_session *s,
					 unsigned id);

/*
 * The PMU HEADER_PMU_MAPPINGS (decoded by pd_decode_feature_deps()) names
 * for a type, copied into buf; NULL if none.  For hybrid extended types,
 * where 4 is "cpu_core", not RAW.
 */
const char *pd_pmu_mapping_name(const struct pd_session *s, uint32_t type,
				char *buf, size_t len);
/*
 * The fixed type's name, else the dynamic PMU's from HEADER_PMU_MAPPINGS
 * (decoded by pd_decode_feature_deps()) copied into buf; NULL if none.
 */
const char *pd_pmu_type_name(const struct pd_session *s, uint32_t type,
			     char *buf, size_t len);

/*
 * The session's tracepoint formats (session_tp.c), one pd_tp per tracing
 * data blob (tracepoint.h).
 */
struct feat_tracing_data;
struct pd_tp_event;
/*
 * The formats of a decoded tracing data blob, parsed once per blob (the
 * same blob seen again, e.g. a pipe record shown with -x, is the same
 * pd_tp).  Problems go to s->diags; freed with the session.
 */
const struct pd_tp *pd_tp_load(struct pd_session *s,
			       const struct feat_tracing_data *m);

/* The format of a tracepoint evsel (attr.config is its ID), or NULL. */
const struct pd_tp_event *pd_tp_event_of(struct pd_session *s,
					 const struct pd_evsel *ev);

/*
 * Name the tracepoint evsels the file names nowhere else "system:name"
 * from the formats loaded (name_from "TRACING_DATA").
 */
void pd_tp_name_evsels(struct pd_session *s);

/*
 * The kernel functions of %ps and its kin for every blob, loaded and to
 * come, that has no kallsyms (tracepoint.h): r (the caller's, kept until
 * it is set again; NULL: none).
 */
struct pd_tp_resolver;
void pd_tp_set_resolver(struct pd_session *s, const struct pd_tp_resolver *r);

/* Free every pd_tp of the session. */
void pd_tp_free_all(struct pd_session *s);

#endif
