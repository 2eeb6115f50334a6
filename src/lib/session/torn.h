/* SPDX-License-Identifier: MIT */
/*
 * Torn recordings.  A perf record killed before it rewrote its header
 * leaves data.size == 0 (and no feature sections); the records then run
 * from data.offset to wherever perf stopped writing, possibly ending in a
 * torn record.  The reader already reads them (reader.c); this scan frames
 * them (headers only, nothing decoded) to say where they end and why, so
 * every command can state it, not only `records`.
 */
#ifndef PD_TORN_H
#define PD_TORN_H

#include <stdbool.h>
#include <stdint.h>

struct pd_session;

struct pd_scan {
	uint64_t start;	   /* data.offset */
	uint64_t end;	   /* the first byte after the last whole record */
	uint64_t nrecords; /* whole records in [start, end) */
	bool clean;	   /* the records end exactly at the end of the file */
	char why[192];	   /* otherwise: why the scan stopped at `end` */
};

/*
 * Scan a file-mode recording whose data.size is 0.  Returns false (and
 * leaves *sc alone) for any other recording.
 */
bool pd_scan_torn(struct pd_session *s, struct pd_scan *sc);

/*
 * If the recording has data.size 0, scan it and add one diagnostic at the
 * offset where the scan stopped: a warning when the records end with the
 * file, an error when the last one is torn.
 */
void pd_note_torn(struct pd_session *s);

#endif
