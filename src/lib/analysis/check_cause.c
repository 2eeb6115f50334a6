// SPDX-License-Identifier: MIT
/*
 * perfdump check: what the findings add up to.  Hundreds of findings
 * usually have one cause; this groups them by code (count, first offset),
 * names the cause where its mechanism is known, and the repair where one
 * is:
 *
 *   - the samples of one attr do not fit its sample_type: each SAMPLE is
 *     decoded field by field in __evsel__parse_sample order
 *     (tools/perf/util/evsel.c), so a sample_type that is not the one the
 *     kernel wrote them with makes every sample too long or too short,
 *     and the fields after the difference are read from the wrong place
 *     (times out of order, ids of no attr).  Named when at least two
 *     samples of the attr, and at least half of them, do not fit;
 *   - data.size 0 with records after data.offset (perf record killed
 *     before it rewrote the header, tools/perf/builtin-record.c:
 *     record__finish_output): data.size should be the bytes of the whole
 *     records from data.offset, which is what perf itself would have
 *     written (pd_scan_torn finds where they end).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/check.h"
#include "lib/session/event.h"
#include "lib/format/perf_abi.h"
#include "lib/session/session.h"
#include "lib/session/torn.h"

#define TALLY_SIZES 4

/* SAMPLE records of one attr, and the sizes of those that did not fit. */
struct pd_check_tally {
	uint64_t samples, misfits, first_misfit;
	uint32_t size[TALLY_SIZES];
	uint64_t size_n[TALLY_SIZES];
};

void pd_check_tally_sample(struct pd_check *c, const struct pd_session *s,
			   uint32_t idx, const struct pd_event *ev, bool misfit)
{
	struct pd_check_tally *t;

	if (!c->tally && s->evlist.n) {
		c->tally = calloc(s->evlist.n, sizeof(*c->tally));
		c->ntally = c->tally ? s->evlist.n : 0;
	}
	if (idx >= c->ntally)
		return;
	t = &c->tally[idx];
	t->samples++;
	if (!misfit)
		return;
	if (!t->misfits++)
		t->first_misfit = ev->offset;
	for (unsigned i = 0; i < TALLY_SIZES; i++) {
		if (t->size_n[i] && t->size[i] != ev->size)
			continue;
		t->size[i] = ev->size; /* a new size takes a free slot */
		t->size_n[i]++;
		return;
	}
}

/*
 * The size of every sample of a sample_type whose fields all have a fixed
 * size, or 0 (callchains, raw data, branch stacks, registers, stacks, aux
 * data and group reads vary).
 */
static uint32_t implied_size(uint64_t t, uint64_t read_format)
{
	const uint64_t varying = PD_SAMPLE_CALLCHAIN | PD_SAMPLE_RAW |
				 PD_SAMPLE_BRANCH_STACK | PD_SAMPLE_REGS_USER |
				 PD_SAMPLE_STACK_USER | PD_SAMPLE_REGS_INTR |
				 PD_SAMPLE_AUX;
	const uint64_t u64s =
		PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID |
		PD_SAMPLE_TIME | PD_SAMPLE_ADDR | PD_SAMPLE_ID |
		PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD |
		PD_SAMPLE_DATA_SRC | PD_SAMPLE_TRANSACTION |
		PD_SAMPLE_PHYS_ADDR | PD_SAMPLE_CGROUP |
		PD_SAMPLE_DATA_PAGE_SIZE | PD_SAMPLE_CODE_PAGE_SIZE;
	uint32_t n = 8; /* the record header */

	if (t & varying || t & ~(uint64_t)(PD_SAMPLE_MAX - 1))
		return 0;
	n += 8 * (uint32_t)__builtin_popcountll(t & u64s);
	/* WEIGHT and WEIGHT_STRUCT share one u64 */
	if (t & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT))
		n += 8;
	if (t & PD_SAMPLE_READ) {
		if (read_format &
		    (PD_FORMAT_GROUP | ~(uint64_t)(PD_FORMAT_MAX - 1)))
			return 0;
		n += 8 * (1 + (uint32_t)__builtin_popcountll(read_format));
	}
	return n;
}

/* The attr whose samples misfit most, if they are the likely cause. */
static void find_layout(const struct pd_session *s, struct pd_check *c)
{
	const struct pd_check_tally *best = NULL;
	struct pd_check_layout *l = &c->layout;

	for (uint32_t i = 0; i < c->ntally; i++)
		if (!best || c->tally[i].misfits > best->misfits)
			best = &c->tally[i];
	if (!best || best->misfits < 2 || best->misfits * 2 < best->samples)
		return;
	c->has_layout = true;
	memset(l, 0, sizeof(*l));
	l->attr = (uint32_t)(best - c->tally);
	l->sample_type = s->evlist.v[l->attr].attr.sample_type;
	l->implied_size = implied_size(l->sample_type,
				       s->evlist.v[l->attr].attr.read_format);
	l->samples = best->samples;
	l->misfits = best->misfits;
	l->first_offset = best->first_misfit;
	for (unsigned i = 0; i < TALLY_SIZES; i++)
		if (best->size_n[i] > l->size_count) {
			l->size = best->size[i];
			l->size_count = best->size_n[i];
		}
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].ecode != PD_C_SAMPLE_SIZE_MISMATCH &&
		    !strcmp(c->v[i].structure, "record SAMPLE"))
			l->other_findings++;
}

/*
 * data.size 0 with records: what data.size should say; and when nothing
 * follows the records, the feature bitmap must say there is no feature
 * table (the killed perf record wrote none; a reader would look for one
 * at data.offset + data.size).
 */
static void find_repair(struct pd_session *s, struct pd_check *c)
{
	const struct pd_header *h = &s->hdr;
	struct pd_scan sc;

	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].ecode != PD_C_DATA_SIZE_ZERO_WITH_RECORDS)
			continue;
		if (!pd_scan_torn(s, &sc) || sc.end <= sc.start)
			return;
		c->repairs[c->nrepairs++] = (struct pd_check_repair){
			.kind = PD_REPAIR_DATA_SIZE,
			.field = "data.size",
			.offset = c->v[i].offset,
			.size = 8,
			.value = sc.end - sc.start,
			.start = sc.start,
			.end = sc.end,
		};
		if (h->has_bitmap && sc.end >= s->in.size &&
		    (h->features[0] | h->features[1] | h->features[2] |
		     h->features[3]))
			c->repairs[c->nrepairs++] = (struct pd_check_repair){
				.kind = PD_REPAIR_FEATURES,
				.field = "feature bitmap",
				/* after magic, size, attr_size and the three
				 * sections (tools/perf/util/header.h:
				 * struct perf_file_header) */
				.offset = 72,
				.size = sizeof(h->raw_bitmap),
				.value = 0,
				.start = sc.start,
				.end = sc.end,
			};
		return;
	}
}

int pd_check_explain(struct pd_session *s, struct pd_check *c)
{
	size_t at[PD_NCODES];

	for (size_t i = 0; i < PD_NCODES; i++)
		at[i] = SIZE_MAX;
	if (c->n && !(c->groups = calloc(c->n < PD_NCODES ? c->n : PD_NCODES,
					 sizeof(*c->groups))))
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		const struct pd_finding *f = &c->v[i];
		struct pd_check_group *g;

		if (at[f->ecode] == SIZE_MAX) {
			at[f->ecode] = c->ngroups;
			c->groups[c->ngroups++] = (struct pd_check_group){
				.code = f->ecode,
				.name = f->code,
				.sev = f->sev,
				.first = i,
				.first_offset = f->offset,
			};
		}
		g = &c->groups[at[f->ecode]];
		g->count++;
	}
	find_layout(s, c);
	find_repair(s, c);
	return 0;
}
