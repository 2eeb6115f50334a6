// SPDX-License-Identifier: MIT
/*
 * Records read in place (see record.h): the fixed head of a body through
 * the layout of its type in the registry (record_types.c), the one that
 * pd_parse_record decodes with a cursor.
 */
#include <string.h>

#include "lib/session/record.h"
#include "lib/format/record_types.h"

/*
 * The head of e read into model when e has the layout `type` has (FORK
 * and EXIT share theirs) and is at least its type's minimum size and its
 * head's bytes long; the body's start, or NULL.
 */
static const uint8_t *head_view(const struct pd_event *e, bool swap,
				uint32_t type, void *model)
{
	const struct pd_rec_ops *t = pd_rec_ops(e->type);
	const struct pd_rec_ops *want = pd_rec_ops(type);

	if (!t || t->head.f != want->head.f || e->size < 8 ||
	    e->size < t->min_size || e->size - 8u < pd_rec_layout_end(&t->head))
		return NULL;
	pd_rec_fields_get(&t->head, e->p + 8, swap, model);
	return e->p + 8;
}

bool pd_lost_view(const struct pd_event *e, bool swap, struct pd_rec_lost *v)
{
	return head_view(e, swap, PD_REC_LOST, v);
}

bool pd_lost_samples_view(const struct pd_event *e, bool swap,
			  struct pd_rec_lost_samples *v)
{
	return head_view(e, swap, PD_REC_LOST_SAMPLES, v);
}

bool pd_aux_view(const struct pd_event *e, bool swap, struct pd_rec_aux *v)
{
	return head_view(e, swap, PD_REC_AUX, v);
}

bool pd_task_view(const struct pd_event *e, bool swap, struct pd_rec_task *v)
{
	return head_view(e, swap, PD_REC_FORK, v);
}

bool pd_stat_view(const struct pd_event *e, bool swap, struct pd_rec_stat *v)
{
	return head_view(e, swap, PD_REC_STAT, v);
}

bool pd_stat_round_view(const struct pd_event *e, bool swap,
			struct pd_rec_stat_round *v)
{
	return head_view(e, swap, PD_REC_STAT_ROUND, v);
}

/* COMM: the head, then the comm up to its NUL or its sample_id trailer */
bool pd_comm_view(const struct pd_event *e, bool swap, uint32_t trailer_size,
		  struct pd_rec_comm *v)
{
	const uint8_t *b = head_view(e, swap, PD_REC_COMM, v);
	uint32_t at = pd_rec_layout_end(&pd_rec_ops(PD_REC_COMM)->head);
	uint32_t n;
	const uint8_t *nul;

	if (!b)
		return false;
	n = e->size - 8u - at;
	if (trailer_size <= n) /* a longer one: reported by its parser */
		n -= trailer_size;
	v->comm.s = (const char *)b + at;
	nul = memchr(b + at, 0, n);
	v->comm.len = nul ? (uint32_t)(nul - (b + at)) : n;
	v->comm.off = e->offset + 8 + at;
	return true;
}

/* EVENT_UPDATE: the head, then where the type's payload starts */
bool pd_event_update_view(const struct pd_event *e, bool swap,
			  struct pd_rec_event_update *v,
			  struct pd_rec_raw *payload)
{
	const uint8_t *b = head_view(e, swap, PD_REC_EVENT_UPDATE, v);
	uint32_t at = pd_rec_layout_end(&pd_rec_ops(PD_REC_EVENT_UPDATE)->head);

	if (!b)
		return false;
	*payload = (struct pd_rec_raw){b + at, e->size - 8u - at,
				       e->offset + 8 + at};
	return true;
}

/* STAT_CONFIG: nr, and the entries that fit in the record */
bool pd_stat_config_view(const struct pd_event *e, bool swap,
			 struct pd_rec_stat_config *v,
			 struct pd_rec_raw *entries)
{
	const uint8_t *b = head_view(e, swap, PD_REC_STAT_CONFIG, v);
	uint32_t at = pd_rec_layout_end(&pd_rec_ops(PD_REC_STAT_CONFIG)->head);

	if (!b)
		return false;
	*entries = (struct pd_rec_raw){b + at, e->size - 8u - at,
				       e->offset + 8 + at};
	return true;
}

void pd_stat_config_entry_view(const struct pd_rec_raw *entries, uint64_t i,
			       bool swap, struct pd_stat_config_ent *v)
{
	const struct pd_rec_layout *l = &pd_stat_config_entry_layout;

	pd_rec_fields_get(l, entries->p + i * pd_rec_layout_end(l), swap, v);
}
