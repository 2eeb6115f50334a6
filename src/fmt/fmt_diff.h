/* SPDX-License-Identifier: MIT */
/*
 * diff's formatter side: the features and attrs compared as their
 * formatters write them (capture.h trees, compared by lib/analysis/diff.h),
 * and the differences written out.
 */
#ifndef PD_FMT_DIFF_H
#define PD_FMT_DIFF_H

#include <stdbool.h>

#include "lib/analysis/diff.h"
#include "lib/session/session.h"
#include "fmt/emit.h"
#include "fmt/redact.h"

/*
 * Every feature of a or b, by decoded value, as features -j shows it:
 * "features.hostname.value"; a feature on one side only is one item
 * ("features.build_id": "present" and none).  Left out: the section's
 * place and size, its source (section or pipe records), and absolute
 * times (SAMPLE_TIME's first and last, CLOCK_DATA's reference times);
 * offsets with d->offsets.
 */
void diff_features(struct pd_diff *d, struct redactor *red,
		   const struct pd_session *a, const struct pd_session *b);

/*
 * Every attr field, as attrs -j shows it, events matched by name and
 * position (pd_diff_event_label): "attrs[cycles].sample_freq".
 */
void diff_attrs(struct pd_diff *d, struct redactor *red,
		const struct pd_session *a, const struct pd_session *b);

/* What diff shows besides the differences. */
struct diff_view {
	const char *a, *b; /* the FILEs */
	const struct pd_diff *d;
	const struct pd_diags *da, *db; /* each input's diagnostics */
	bool brief;			/* only the paths */
	unsigned groups;		/* 1 << pd_diff_group compared */
	bool not_recording[2];		/* A, B: not compared */
};

/*
 * "diff": the inputs (file, errors, warnings), the differences (path, a,
 * b, change for numbers; text "path: a -> b (+12%)" grouped by
 * structure, --brief the paths), and a verdict.
 */
void emit_diff(struct emitter *e, const struct diff_view *v);

#endif
