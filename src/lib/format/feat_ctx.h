/* SPDX-License-Identifier: MIT */
/*
 * What a feature decoder works on, below the session: the feature's parts
 * (where its bytes came from) and the narrow context a decoder reads and
 * writes, as perf's process_* functions (tools/perf/util/header.c) take a
 * struct feat_fd and its perf_env rather than the whole session.  The
 * session (session_feat.c) builds the context and owns the models.
 */
#ifndef PD_FEAT_CTX_H
#define PD_FEAT_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/base/cursor.h"
#include "lib/base/diag.h"
#include "lib/format/perf_abi.h"

/* Where a feature's bytes came from. */
enum pd_feat_src {
	PD_FSRC_SECTION,	/* file mode: feature section table entry */
	PD_FSRC_RECORD,		/* pipe mode: PERF_RECORD_HEADER_FEATURE (80) */
	PD_FSRC_LEGACY_RECORD,	/* pre-upstream Google pipe: record 66 + id */
	PD_FSRC_TRACING_RECORD, /* PERF_RECORD_HEADER_TRACING_DATA (66) */
	PD_FSRC_BUILDID_RECORDS, /* PERF_RECORD_HEADER_BUILD_ID (67) records */
};

/* A contiguous run of a feature's bytes in the file. */
struct pd_part {
	uint64_t offset;      /* file offset of bytes[0] */
	uint64_t size;	      /* declared size */
	const uint8_t *bytes; /* loaded bytes (may be fewer than size) */
	uint64_t loaded;
	uint64_t rec_offset; /* pipe: offset of the record that carried it */
};

struct pd_feature {
	unsigned id;
	enum pd_feat_src src;
	uint64_t table_entry_off; /* file mode: offset of its {offset,size} */
	struct pd_part *parts;	  /* usually one; build-id records: many */
	size_t nparts;
	/* Filled by pd_decode_features(): */
	bool decoded;	       /* decoder ran */
	bool bad;	       /* decoder reported an error */
	void *model;	       /* decoded model, type depends on id */
	uint64_t consumed;     /* bytes the decoder used (all parts) */
	uint64_t unparsed_off; /* first byte not consumed, if any */
};

/*
 * Values other decoders depend on, set while decoding features (perf's
 * perf_env: NRCPUS, ARCH).
 */
struct pd_env {
	bool has_nrcpus;
	uint32_t nr_cpus_avail, nr_cpus_online;
	struct pd_str arch;
};

/* What a decoder is given besides its bytes. */
struct pd_feat_ctx {
	struct arena *arena;	/* the models are allocated from it */
	struct pd_diags *diags; /* problems the decoder finds */
	struct pd_env *env;	/* read, and set by NRCPUS and ARCH */
	bool big_endian;	/* the recording's byte order */
	bool header_ok;		/* ... known from a file header */
};

/*
 * Decoder for one feature.  `c` covers one part of the feature's bytes
 * (file section, HEADER_FEATURE payload, or one build-id record); the
 * decoder allocates its model from x->arena on the first call and appends
 * to it on later ones (multi-part features).  It reads only through `c`;
 * bytes it leaves unread are reported by the caller.
 */
typedef void (*pd_feat_parse_fn)(struct pd_feat_ctx *x, struct pd_feature *f,
				 struct cursor *c);

/*
 * Some pipe-mode writers (perf_data_converter's "aligned" 6.12 files) pad
 * each HEADER_FEATURE payload with up to 7 zero bytes to a multiple of 8.
 * pd_feat_more_data(): bytes remain in `c` that are not such padding;
 * pd_feat_skip_padding(): consume that padding after a decoded feature.
 * Section-mode features have no padding: every byte left is reported.
 */
bool pd_feat_more_data(const struct pd_feature *f, const struct cursor *c);
void pd_feat_skip_padding(const struct pd_feature *f, struct cursor *c);

/*
 * What most decoders begin with.  pd_feat_model: the feature's model,
 * `size` zeroed bytes from x->arena, set as f->model (NULL: out of
 * memory).  pd_feat_array: a counted array (perf's "u32 nr; nr x
 * {...}"): n entries of at least `min` bytes each must fit in what is
 * left of c (cur_check_count, whose diagnostic names `what`), then n
 * zeroed entries of `size` bytes (one at least, so that an empty array
 * is not NULL).  NULL: the count does not fit, or out of memory.
 */
void *pd_feat_model(struct pd_feat_ctx *x, struct pd_feature *f, size_t size);
void *pd_feat_array(struct pd_feat_ctx *x, struct cursor *c, const char *what,
		    uint64_t n, size_t min, size_t size);

#endif
