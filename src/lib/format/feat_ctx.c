// SPDX-License-Identifier: MIT
/* What every feature decoder uses (feat_ctx.h). */
#include "lib/format/feat_ctx.h"

/* All that is left of `c` is HEADER_FEATURE record padding (feat_ctx.h). */
static bool only_record_padding(const struct pd_feature *f,
				const struct cursor *c)
{
	struct cursor probe = *c;
	size_t left = cur_left(c);
	const uint8_t *p;

	if (f->src == PD_FSRC_SECTION || left == 0 || left >= 8)
		return false;
	probe.diags = NULL;
	p = cur_bytes(&probe, "padding", left);
	for (size_t i = 0; p && i < left; i++)
		if (p[i])
			return false;
	return p != NULL;
}

bool pd_feat_more_data(const struct pd_feature *f, const struct cursor *c)
{
	return cur_ok(c) && cur_left(c) && !only_record_padding(f, c);
}

void pd_feat_skip_padding(const struct pd_feature *f, struct cursor *c)
{
	if (cur_ok(c) && only_record_padding(f, c))
		cur_skip(c, "padding", cur_left(c));
}

void *pd_feat_model(struct pd_feat_ctx *x, struct pd_feature *f, size_t size)
{
	void *m = arena_alloc(x->arena, size);

	if (m)
		f->model = m;
	return m;
}

void *pd_feat_array(struct pd_feat_ctx *x, struct cursor *c, const char *what,
		    uint64_t n, size_t min, size_t size)
{
	/* untrusted count: checked against the bytes left before use
	 * (cursor.h) */
	if (!cur_check_count(c, what, n, min))
		return NULL;
	return arena_calloc(x->arena, n ? (size_t)n : 1, size);
}
