/* SPDX-License-Identifier: MIT */
/*
 * `perfdump diff`: what differs between two recordings, as a list of
 * differences {path, a, b}, structure by structure (no printing).
 *
 *  - header: mode, byte order, version, sizes, the feature set; offsets
 *    only when asked (pd_diff_header);
 *  - features and attrs: their formatters' trees (fmt/capture.h) compared
 *    path by path (pd_diff_tree), with what always differs skipped;
 *  - stats: records per type, samples per event, CPU and process (by
 *    comm: pids differ between runs), lost counts, the duration (not the
 *    absolute times), compression (pd_diff_stats);
 *  - profile: each function's share of its event's period in A and B,
 *    the change in points, largest first, as perf diff's Delta column
 *    (pd_diff_profile).
 *
 * A value on one side only has kind PD_J_NONE on the other.
 */
#ifndef PD_DIFF_H
#define PD_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/base/jtree.h"

struct pd_session;
struct pd_stats;
struct pd_profile;

enum pd_diff_group {
	PD_DIFF_HEADER,
	PD_DIFF_FEATURES,
	PD_DIFF_ATTRS,
	PD_DIFF_STATS,
	PD_DIFF_PROFILE,
	PD_DIFF_NGROUPS,
};

/* "header", "features", ... (--only's names, the text's groups) */
extern const char *const pd_diff_group_names[PD_DIFF_NGROUPS];

struct pd_diff_item {
	enum pd_diff_group group;
	const char *path; /* "attrs[cycles].sample_freq" */
	struct pd_jval a, b;
	/* profile: a and b are percentages; the change is b - a points */
	bool share;
};

/* At most this many differences are kept; the rest are counted. */
#define PD_DIFF_MAX_ITEMS (1u << 20)

struct pd_diff {
	struct arena arena; /* paths, strings */
	struct pd_diff_item *v;
	size_t n, cap;
	size_t dropped; /* past PD_DIFF_MAX_ITEMS or out of memory */
	size_t count[PD_DIFF_NGROUPS];
	enum pd_diff_group group; /* of the items added now */
	bool offsets;		  /* --offsets: file offsets compared too */
	/* a comm as paths name a process (--redact=comm), into buf;
	 * NULL: as recorded */
	const char *(*comm_name)(void *arg, const char *comm, char *buf,
				 size_t len);
	void *comm_arg;
};

/* Add a difference (nothing when a and b are equal); path is copied. */
void pd_diff_add(struct pd_diff *d, const char *path, const struct pd_jval *a,
		 const struct pd_jval *b);
void pd_diff_u64(struct pd_diff *d, const char *path, uint64_t a, uint64_t b);
void pd_diff_str(struct pd_diff *d, const char *path, const char *a,
		 const char *b);

/*
 * The change of a number: (b - a) / a in percent (false when a or b is
 * not a number or a is 0); for a share, b - a in points.
 */
bool pd_diff_change(const struct pd_diff_item *it, double *change);

/* Skip key (at depth, 0 the tree's own members) of a tree compared? */
typedef bool pd_diff_skip_fn(const char *key, int depth, void *arg);

/*
 * Trees compared path by path under prefix: objects by key; arrays by
 * position, an element that is an object with a string "name" (or
 * "filename": a build-id's DSO) by its name and its position among those of that name ("[cycles]",
 * "[cycles#2]"), so that one added in the middle moves no other.  Either
 * tree may be NULL (absent: its values PD_J_NONE).
 */
void pd_diff_tree(struct pd_diff *d, const char *prefix,
		  const struct pd_jnode *a, const struct pd_jnode *b,
		  pd_diff_skip_fn *skip, void *arg);

/* The headers (the recordings' forms): mode, byte order, sizes, features. */
void pd_diff_header(struct pd_diff *d, const struct pd_session *a,
		    const struct pd_session *b);

/* The counts of stats (pd_stats_collect) of a and b. */
void pd_diff_stats(struct pd_diff *d, const struct pd_session *sa,
		   const struct pd_stats *a, const struct pd_session *sb,
		   const struct pd_stats *b);

/*
 * The function profiles (pd_profile_collect by function, rows sorted or
 * not): per event (by name) each function's (DSO and symbol) share of
 * the event's period, the items sorted by the size of the change.
 */
void pd_diff_profile(struct pd_diff *d, const struct pd_session *sa,
		     const struct pd_profile *a, const struct pd_session *sb,
		     const struct pd_profile *b);

/*
 * Event idx of s as diff names it: its name, "#K" after it for the K-th
 * (K > 1) of that name, so that events match by name and position; an
 * unnamed one "attr N".  Into buf (len bytes).
 */
const char *pd_diff_event_label(const struct pd_session *s, uint32_t idx,
				char *buf, size_t len);

/* The event of sb labelled as sa's idx is (pd_diff_event_label), or -1. */
int64_t pd_diff_match_event(const struct pd_session *sa, uint32_t idx,
			    const struct pd_session *sb);

void pd_diff_free(struct pd_diff *d);

#endif
