// SPDX-License-Identifier: MIT
/*
 * diff's features and attrs: each written by its own formatter into a
 * tree (capture.h) and the trees compared path by path (diff.h), so the
 * fields compared are the fields shown, listed once.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lib/format/features.h"
#include "fmt/capture.h"
#include "fmt/fmt_attr.h"
#include "fmt/fmt_diff.h"
#include "fmt/fmt_features.h"

struct feat_arg {
	const struct pd_session *s;
	const struct pd_feature *f;
};

static void write_feature(struct emitter *e, void *arg)
{
	const struct feat_arg *fa = arg;

	emit_feature(e, fa->s, fa->f);
}

/* The feature's fields (the object emit_feature writes), or NULL. */
static const struct pd_jnode *feature_tree(struct arena *ar,
					   struct redactor *red,
					   const struct pd_session *s,
					   const struct pd_feature *f)
{
	struct feat_arg fa = {s, f};
	if (!f)
		return NULL;
	return emit_capture(ar, red, write_feature, &fa);
}

static bool is_offset_key(const char *key)
{
	return strstr(key, "offset") != NULL;
}

/* What always differs between two forms or two runs (fmt_diff.h). */
static bool skip_feature(const char *key, int depth, void *arg)
{
	static const char *const top[] = {"id",	     "name", "source", "size",
					  "records", "raw",  NULL};
	static const char *const times[] = {"first_sample_time",
					    "first_sample_time_s",
					    "last_sample_time",
					    "last_sample_time_s",
					    "tod_ns",
					    "tod",
					    "clockid_ns",
					    "clockid_time_s",
					    NULL};
	const struct pd_diff *d = arg;

	for (const char *const *k = top; depth == 0 && *k; k++)
		if (strcmp(key, *k) == 0)
			return true;
	for (const char *const *k = times; depth == 0 && *k; k++)
		if (strcmp(key, *k) == 0)
			return true;
	if (strcmp(key, "ids") == 0) /* EVENT_DESC's: ids differ per run */
		return true;
	return !d->offsets && is_offset_key(key);
}

static void feature(struct pd_diff *d, struct redactor *red,
		    const struct pd_session *a, const struct pd_session *b,
		    unsigned id)
{
	const struct pd_feature *fa = pd_find_feature(a, id);
	const struct pd_feature *fb = pd_find_feature(b, id);
	const char *name = pd_feat_name(id);
	char prefix[64];
	size_t n;
	struct arena ar = {0};

	n = name ? (size_t)snprintf(prefix, sizeof(prefix), "features.%s", name)
		 : (size_t)snprintf(prefix, sizeof(prefix), "features.%u", id);
	for (size_t i = 0; i < n && i < sizeof(prefix); i++)
		prefix[i] = (char)tolower((unsigned char)prefix[i]);
	if (!fa || !fb) {
		pd_diff_str(d, prefix, fa ? "present" : NULL,
			    fb ? "present" : NULL);
		return;
	}
	pd_diff_tree(d, prefix, feature_tree(&ar, red, a, fa),
		     feature_tree(&ar, red, b, fb), skip_feature, d);
	arena_free(&ar);
}

void diff_features(struct pd_diff *d, struct redactor *red,
		   const struct pd_session *a, const struct pd_session *b)
{
	bool seen[256] = {0};

	for (int side = 0; side < 2; side++) {
		const struct pd_session *s = side ? b : a;

		for (size_t i = 0; i < s->nfeat; i++) {
			unsigned id = s->feat[i].id;

			if (id < 256 && !seen[id]) {
				seen[id] = true;
				feature(d, red, a, b, id);
			}
		}
	}
}

struct attr_arg {
	const struct pd_session *s;
	const struct pd_attr *attr;
};

static void write_attr(struct emitter *e, void *arg)
{
	const struct attr_arg *aa = arg;

	emit_obj_begin(e, NULL);
	emit_attr_fields(e, aa->s, aa->attr);
	emit_obj_end(e);
}

static const struct pd_jnode *attr_tree(struct arena *ar, struct redactor *red,
					const struct pd_session *s, int64_t idx)
{
	struct attr_arg aa;

	if (idx < 0 || idx >= s->evlist.n)
		return NULL;
	aa = (struct attr_arg){s, &s->evlist.v[idx].attr};
	return emit_capture(ar, red, write_attr, &aa);
}

static bool skip_attr(const char *key, int depth, void *arg)
{
	(void)depth;
	(void)arg;
	return strcmp(key, "raw") == 0;
}

void diff_attrs(struct pd_diff *d, struct redactor *red,
		const struct pd_session *a, const struct pd_session *b)
{
	char label[300], prefix[320];

	for (int side = 0; side < 2; side++) {
		const struct pd_session *s = side ? b : a, *o = side ? a : b;

		for (uint32_t i = 0; i < s->evlist.n; i++) {
			int64_t j = pd_diff_match_event(s, i, o);
			struct arena ar = {0};
			const struct pd_jnode *x, *y;

			if (side && j >= 0)
				continue; /* compared from a's side */
			snprintf(prefix, sizeof(prefix), "attrs[%s]",
				 pd_diff_event_label(s, i, label,
						     sizeof(label)));
			if (j < 0) { /* one event on one side only */
				pd_diff_str(d, prefix, side ? NULL : "present",
					    side ? "present" : NULL);
				continue;
			}
			x = attr_tree(&ar, red, s, i);
			y = attr_tree(&ar, red, o, j);
			if (side)
				pd_diff_tree(d, prefix, y, x, skip_attr, NULL);
			else
				pd_diff_tree(d, prefix, x, y, skip_attr, NULL);
			arena_free(&ar);
		}
	}
}
