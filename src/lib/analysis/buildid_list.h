/* SPDX-License-Identifier: MIT */
/*
 * Every build-id a recording holds, merged and deduplicated from its
 * three sources: the HEADER_BUILD_ID feature, PERF_RECORD_HEADER_BUILD_ID
 * (67) records (pipe mode, or a data section written by perf inject), and
 * PERF_RECORD_MMAP2 records in build-id form (misc MMAP_BUILD_ID, perf
 * record --buildid-mmap).  An entry is one (build-id, filename) pair.
 *
 * With hits, the records are read in time order (as perf does) and each
 * sample's ip is mapped to a DSO through the MMAP/MMAP2 ranges of its
 * process (kernel samples: the maps with pid -1), like
 * perf buildid-list -H.  Memory is bounded: at most PD_BID_MAX_* maps,
 * processes, DSOs and entries; what did not fit is counted (not_kept)
 * and a warning (table-full) says which cap was reached.
 *
 * No printing: problems go to the session's diags.
 */
#ifndef PD_BUILDID_LIST_H
#define PD_BUILDID_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/base/hindex.h"
#include "lib/analysis/buildid.h"
#include "lib/format/feat_meta.h"

struct pd_session;

/* an entry is about 650 bytes (its resolution's tries): 10 MiB */
#define PD_BID_MAX_ENTRIES (1u << 14)

/* Where an entry came from (bits: a merged entry may have several). */
enum {
	PD_BID_SRC_FEATURE = 1 << 0, /* HEADER_BUILD_ID feature section */
	PD_BID_SRC_RECORD = 1 << 1,  /* HEADER_BUILD_ID (67) records */
	PD_BID_SRC_MMAP2 = 1 << 2,   /* MMAP2 with MMAP_BUILD_ID */
	PD_BID_SRC_SAMPLE = 1 << 3,  /* a sampled DSO without a build-id */
};
#define PD_BID_NSRC 4
extern const char *const pd_bid_src_names[PD_BID_NSRC];

struct pd_bid_entry {
	uint8_t build_id[PD_BUILD_ID_MAX];
	uint8_t build_id_size; /* 0: none (PD_BID_SRC_SAMPLE) */
	char *filename;	       /* NUL-terminated copy */
	uint32_t filename_len;
	int32_t pid;   /* of the first occurrence: -1 host kernel */
	bool has_pid;  /* false: pre-2010 feature entry */
	uint16_t misc; /* of the first occurrence */
	unsigned sources;
	uint64_t offset;       /* file offset of the first occurrence */
	uint64_t samples;      /* with hits */
	struct pd_bid_res res; /* pd_bid_list_resolve() */
};

struct pd_bid_hits {
	uint64_t samples; /* SAMPLE records seen */
	uint64_t mapped;  /* whose ip fell in a map */
	uint64_t ksymbol; /* of those, in a KSYMBOL's (BPF program): unlisted */
	uint64_t unmapped; /* no ip, no map, or a guest/hypervisor ip */
	uint64_t maps;	   /* MMAP/MMAP2 ranges kept */
	uint64_t not_kept; /* MMAP, MMAP2, FORK records left out (a cap) */
	bool capped;	   /* a cap was reached: counts are partial */
};

struct pd_bid_list {
	struct arena arena;
	struct pd_bid_entry *v;
	size_t n, cap;
	struct pd_hindex index; /* v by build-id and filename */
	uint64_t not_kept; /* build-id occurrences left out: the list full */
	bool full_warned;
	bool with_hits;
	struct pd_bid_hits hits;
};

/*
 * Collect the entries: the feature's, then (when scan_records) those of
 * the record stream; with_hits also counts samples per DSO (implies
 * scan_records) and adds the sampled DSOs that have no build-id.
 * Returns 0, or -1 when out of memory (diag added).
 */
int pd_bid_list_build(struct pd_bid_list *l, struct pd_session *s,
		      bool scan_records, bool with_hits);

/*
 * The same, with hits counting only the samples that pass f (the
 * records command's filter; NULL: every sample), as a copy that keeps
 * them would hit (copy --build-ids hit).
 */
struct pd_filter;
int pd_bid_list_build_hits(struct pd_bid_list *l, struct pd_session *s,
			   bool scan_records, bool with_hits,
			   const struct pd_filter *f);

/* The entry of (build-id, filename), or NULL. */
const struct pd_bid_entry *pd_bid_list_find(const struct pd_bid_list *l,
					    const uint8_t *id, uint8_t id_size,
					    const char *name, size_t name_len);

/* Resolve every entry against the local machine. */
void pd_bid_list_resolve(struct pd_bid_list *l, const struct pd_bid_where *w);

void pd_bid_list_free(struct pd_bid_list *l);

#endif
