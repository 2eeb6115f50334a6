// SPDX-License-Identifier: MIT
/* perfdump copy's document: what was written (fmt_copy.h). */
#include "fmt/fmt_copy.h"

void emit_copy(struct emitter *e, const char *out,
	       const struct pd_copy_result *r)
{
	emit_obj_begin(e, "copy");
	emit_private_opt(e, "output", PRIV_PATH, out);
	emit_u64(e, "records_read", r->records_read);
	emit_u64(e, "records_written", r->records_written);
	emit_u64(e, "samples_written", r->samples_written);
	emit_u64(e, "records_damaged", r->records_damaged);
	emit_u64(e, "attrs", r->nattrs);
	emit_u64(e, "attr_size", r->attr_size);
	emit_u64(e, "features", r->nfeatures);
	emit_offset(e, "data_offset", r->data_offset);
	emit_size(e, "data_size", r->data_size);
	emit_size(e, "file_size", r->file_size);
	emit_arr_begin(e, "notes");
	for (unsigned i = 0; i < r->nnotes; i++)
		emit_str(e, NULL, r->notes[i]);
	emit_arr_end(e);
	emit_obj_end(e);
}
