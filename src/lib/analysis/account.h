/* SPDX-License-Identifier: MIT */
/*
 * The byte account of a recording: which structure every byte of the file
 * belongs to, computed once for `stats` (its bytes section) and `check`
 * (its unreferenced-* and trailing-* findings).
 *
 * Regions are what perf's writer puts down (tools/perf/util/header.c:
 * perf_session__do_write_header, perf_header__adds_write): the file
 * header, the attrs, each attr's ids array, event_types, the data
 * section, the feature section table with its unused entries and each
 * feature section; in a directory (perf record --threads,
 * tools/perf/util/data.c: perf_data__create_dir) also the records of each
 * data.N file.  Gaps are the bytes of no region, each with what it likely
 * is.  `stats` shows the account; `check` reports its gaps and its
 * covered bytes, so both say the same.
 */
#ifndef PD_ACCOUNT_H
#define PD_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

#include "lib/io/walk_loop.h"

struct pd_session;

/* What a gap likely is. */
enum pd_gap_kind {
	PD_GAP_UNKNOWN,
	/* data.size 0 (perf record killed): after the last whole record */
	PD_GAP_TORN_RECORDS,
};

/* A byte range of the file and what it holds. */
struct pd_region {
	const char *what; /* "header", "attrs", "ids", "data", ... */
	const char *file; /* a data.N file's name; NULL: the header's file */
	uint64_t offset, size;
	const char *name; /* the feature's name, or what a gap likely is */
	/* gaps only: */
	enum pd_gap_kind kind;
	bool trailing;		/* after the last region */
	bool zero;		/* all its bytes are 0 (when scanned) */
	uint64_t first_nonzero; /* when not zero */
};

struct pd_byte_account {
	uint64_t file_size; /* a directory: its data.N files' sizes too */
	struct pd_region *regions; /* sorted by offset */
	uint32_t nregions;
	uint64_t covered;	/* bytes in at least one region */
	uint64_t overlap;	/* bytes in more than one */
	uint64_t unaccounted;	/* bytes in none */
	struct pd_region *gaps; /* every gap, in file order */
	uint32_t ngaps;		/* the first up to 32 (what stats lists) */
	uint64_t nall_gaps;	/* all of them */
};

/*
 * Account for every byte of a recording; ends says where the record walk
 * ended in each stream.  With scan_gaps, the bytes of each gap are read
 * to say whether they are zero.  Returns -1 when out of memory.
 */
int pd_byte_account(const struct pd_session *s, const struct pd_data_ends *ends,
		    bool scan_gaps, struct pd_byte_account *ba);
void pd_byte_account_free(struct pd_byte_account *ba);

#endif
