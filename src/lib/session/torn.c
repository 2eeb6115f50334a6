// SPDX-License-Identifier: MIT
/* Torn recordings (see torn.h). */
#include "lib/session/torn.h"

#include <stdio.h>
#include <string.h>

#include "lib/base/diag.h"
#include "lib/session/session.h"
#include "lib/io/walk_loop.h"

static bool scan_visit(void *arg, const struct pd_event *r)
{
	struct pd_scan *sc = arg;

	sc->nrecords++;
	/* a record with a payload (66, 71) ends after it */
	sc->end = r->offset + r->size + r->payload;
	return true;
}

bool pd_scan_torn(struct pd_session *s, struct pd_scan *sc)
{
	struct pd_diags quiet = {0}; /* the reader's own words, kept here */
	/* the records as they are framed: containers not opened */
	struct pd_reader_src src = {.in = &s->in,
				    .start = s->hdr.data.offset,
				    .end = s->in.size,
				    .readable = true,
				    .what = "data section",
				    .where = PD_AT_DATA,
				    .swap = s->swap,
				    .diags = &quiet,
				    .ro = &s->opts};
	struct pd_walk_loop l;
	struct pd_reader_stats rs;
	int rc = -1;

	if (s->mode != PD_MODE_FILE || !s->header_ok || s->hdr.data.size)
		return false;
	memset(sc, 0, sizeof(*sc));
	sc->start = sc->end = s->hdr.data.offset;
	if (pd_walk_loop_open(&l, &src, PD_READ_NO_DECOMPRESS) == 0) {
		rc = pd_walk_loop_run(&l, scan_visit, sc);
		pd_walk_loop_stats(&l, &rs);
		if (rc == 0 && !rs.stopped_clean)
			rc = -1; /* stopped at damage */
		pd_walk_loop_close(&l);
	}
	if (rc < 0 && quiet.n) {
		/* where the stream gave up: a torn header, record or payload */
		sc->end = quiet.v[0].offset;
		snprintf(sc->why, sizeof(sc->why), "%s", quiet.v[0].detail);
	} else if (rc == 0 && sc->end == s->in.size) {
		sc->clean = true;
	} else if (sc->start > s->in.size) {
		snprintf(sc->why, sizeof(sc->why),
			 "data.offset is past the end of the file (0x%llx)",
			 (unsigned long long)s->in.size);
	} else {
		snprintf(sc->why, sizeof(sc->why),
			 "the input could not be read");
	}
	pd_diags_free(&quiet);
	return true;
}

void pd_note_torn(struct pd_session *s)
{
	struct pd_scan sc;
	const char *what = "data section (data.size 0)";

	if (!pd_scan_torn(s, &sc))
		return;
	if (sc.clean)
		pd_diag_add(
			&s->diags, PD_C_DATA_SIZE_ZERO_WITH_RECORDS, PD_AT_DATA,
			PD_WARN, sc.end, what,
			"records scanned from data.offset 0x%llx to the end of "
			"the file at 0x%llx: %llu records, %llu bytes",
			(unsigned long long)sc.start,
			(unsigned long long)sc.end,
			(unsigned long long)sc.nrecords,
			(unsigned long long)(sc.end - sc.start));
	else
		pd_diag_add(
			&s->diags, PD_C_DATA_SIZE_ZERO_WITH_RECORDS, PD_AT_DATA,
			PD_ERR, sc.end, what,
			"records scanned from data.offset 0x%llx up to 0x%llx: "
			"%llu records, %llu bytes; the scan stopped there: %s",
			(unsigned long long)sc.start,
			(unsigned long long)sc.end,
			(unsigned long long)sc.nrecords,
			(unsigned long long)(sc.end - sc.start), sc.why);
}
