// SPDX-License-Identifier: MIT
/* Formatters for build-id lists and resolutions (see fmt_buildids.h). */
#include "fmt/fmt_buildids.h"

#include <string.h>

#include "fmt/names.h"

#include "lib/format/feat_meta.h"

/* A string or null; text leaves the null out (it says nothing there). */
void emit_bid_res(struct emitter *e, const struct pd_bid_res *r)
{
	emit_str(e, "status", pd_bid_status_name(r->status));
	emit_private_opt(e, "path", PRIV_PATH, r->path);
	if (r->has_found) {
		emit_hexstr(e, "found_build_id", r->found, r->found_len);
	} else {
		emit_text_hide(e, true);
		emit_null(e, "found_build_id");
		emit_text_hide(e, false);
	}
	emit_private_opt(e, "detail", PRIV_NONE, r->detail);
	/* text: where it looked matters only when nothing matched */
	emit_text_hide(e, r->status == PD_BID_MATCH || !r->ntries);
	emit_arr_begin(e, "tried");
	emit_text_hide(e, false);
	for (unsigned i = 0; i < r->ntries; i++) {
		const struct pd_bid_try *t = &r->tries[i];

		emit_row_begin(e, NULL);
		emit_private(e, "path", PRIV_PATH, t->path, strlen(t->path));
		emit_str(e, "status", pd_bid_status_name(t->verdict));
		if (t->status == PD_ELF_OK) {
			emit_hexstr(e, "build_id", t->id, t->len);
		} else {
			emit_text_hide(e, true);
			emit_null(e, "build_id");
			emit_text_hide(e, false);
		}
		emit_private_opt(e, "detail", PRIV_NONE, t->detail);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_bid_entry(struct emitter *e, const struct pd_bid_entry *b,
		    bool resolved, bool with_hits)
{
	unsigned mode = b->misc & PD_MISC_CPUMODE_MASK;

	emit_row_begin(e, NULL);
	if (b->build_id_size)
		emit_hexstr(e, "build_id", b->build_id, b->build_id_size);
	else
		emit_null(e, "build_id");
	emit_private(e, "filename", PRIV_PATH, b->filename, b->filename_len);
	if (with_hits)
		emit_u64(e, "samples", b->samples);
	if (resolved)
		emit_bid_res(e, &b->res);
	emit_u64(e, "build_id_size", b->build_id_size);
	if (b->has_pid)
		emit_s64(e, "pid", b->pid);
	else
		emit_null(e, "pid");
	emit_enum(e, "cpumode", mode, pd_cpumode_name(mode));
	emit_arr_begin(e, "sources");
	for (unsigned i = 0; i < PD_BID_NSRC; i++)
		if (b->sources & (1u << i))
			emit_str(e, NULL, pd_bid_src_names[i]);
	emit_arr_end(e);
	if (b->sources & ~(unsigned)PD_BID_SRC_SAMPLE)
		emit_offset(e, "offset", b->offset);
	else
		emit_null(e, "offset");
	emit_obj_end(e);
}

void emit_bid_summary(struct emitter *e, const struct pd_bid_list *l,
		      size_t listed, bool resolved)
{
	static const char *const keys[PD_BID_NSTATUS] = {
		[PD_BID_MATCH] = "match",
		[PD_BID_MISMATCH] = "mismatch",
		[PD_BID_MISSING] = "missing",
		[PD_BID_NOT_ELF] = "not_elf",
		[PD_BID_UNREADABLE] = "unreadable",
		[PD_BID_OUTSIDE_ROOT] = "outside_root",
		[PD_BID_PSEUDO] = "pseudo",
		[PD_BID_NOT_CHECKED] = "not_checked",
		[PD_BID_NO_BUILD_ID] = "no_build_id",
	};
	uint64_t st[PD_BID_NSTATUS] = {0}, src[PD_BID_NSRC] = {0};

	for (size_t i = 0; i < l->n; i++) {
		if ((unsigned)l->v[i].res.status < PD_BID_NSTATUS)
			st[l->v[i].res.status]++;
		for (unsigned k = 0; k < PD_BID_NSRC; k++)
			if (l->v[i].sources & (1u << k))
				src[k]++;
	}
	emit_obj_begin(e, "summary");
	emit_u64(e, "entries", l->n);
	emit_u64(e, "listed", listed);
	emit_text_hide(e, !l->not_kept);
	emit_u64(e, "not_kept", l->not_kept);
	emit_text_hide(e, false);
	if (resolved)
		for (unsigned k = 0; k < PD_BID_NSTATUS; k++)
			emit_u64(e, keys[k], st[k]);
	emit_row_begin(e, "sources");
	for (unsigned k = 0; k < PD_BID_NSRC; k++)
		emit_u64(e, pd_bid_src_names[k], src[k]);
	emit_obj_end(e);
	if (l->with_hits) {
		emit_row_begin(e, "hits");
		emit_u64(e, "samples", l->hits.samples);
		emit_u64(e, "mapped", l->hits.mapped);
		emit_u64(e, "ksymbol", l->hits.ksymbol);
		emit_u64(e, "unmapped", l->hits.unmapped);
		emit_u64(e, "maps", l->hits.maps);
		emit_text_hide(e, !l->hits.not_kept);
		emit_u64(e, "not_kept", l->hits.not_kept);
		emit_text_hide(e, false);
		emit_bool(e, "capped", l->hits.capped);
		emit_obj_end(e);
	}
	emit_obj_end(e);
}
