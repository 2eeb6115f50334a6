// SPDX-License-Identifier: MIT
/*
 * Fixed fields of LOST, LOST_SAMPLES, AUX and COMM read in place (see
 * record.h); record.c decodes the same layouts with a cursor.
 */
#include <string.h>

#include "record.h"
#include "record_types.h"

/* The body of a record of at least its type's minimum size, or NULL. */
static const uint8_t *body_of(const struct pd_event *e)
{
	return e->size >= 8 && e->size >= pd_record_min_size(e->type) ? e->p + 8
								      : NULL;
}

/* LOST (2): u64 id, lost */
bool pd_lost_view(const struct pd_event *e, bool swap, struct pd_rec_lost *v)
{
	const uint8_t *b = body_of(e);

	if (!b)
		return false;
	v->id = pd_get64(b, swap);
	v->lost = pd_get64(b + 8, swap);
	return true;
}

/* LOST_SAMPLES (13): u64 lost */
bool pd_lost_samples_view(const struct pd_event *e, bool swap,
			  struct pd_rec_lost_samples *v)
{
	const uint8_t *b = body_of(e);

	if (!b)
		return false;
	v->lost = pd_get64(b, swap);
	return true;
}

/* AUX (11): u64 aux_offset, aux_size, flags */
bool pd_aux_view(const struct pd_event *e, bool swap, struct pd_rec_aux *v)
{
	const uint8_t *b = body_of(e);

	if (!b)
		return false;
	v->aux_offset = pd_get64(b, swap);
	v->aux_size = pd_get64(b + 8, swap);
	v->flags = pd_get64(b + 16, swap);
	return true;
}

/* COMM (3): u32 pid, tid; char comm[] */
bool pd_comm_view(const struct pd_event *e, bool swap, struct pd_rec_comm *v)
{
	const uint8_t *b = body_of(e);
	const uint8_t *nul;

	if (!b)
		return false;
	v->pid = pd_get32(b, swap);
	v->tid = pd_get32(b + 4, swap);
	v->comm.s = (const char *)b + 8;
	nul = memchr(b + 8, 0, e->size - 16u);
	v->comm.len = nul ? (uint32_t)(nul - (b + 8)) : e->size - 16u;
	v->comm.off = e->offset + 16;
	return true;
}
