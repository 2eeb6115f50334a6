// SPDX-License-Identifier: MIT
/*
 * pprof.h's tables as profile.proto's messages (protobuf-c's structs,
 * from protoc-c), packed by protobuf-c and gzipped by zlib: pprof's
 * files are gzipped (google/pprof proto/profile.proto: "the serialized
 * proto must be gzip-compressed").  The messages point into the tables
 * (a sample's location ids and values are the tables' arrays); what
 * they add lives in an arena freed once packed.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/export/pprof_int.h"
#include "lib/export/profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* n pointers to n messages made by init, in the arena (n 0: none). */
static void **messages(struct arena *a, size_t n, size_t size,
		       void (*init)(void *), bool *ok)
{
	void **v;
	char *m;

	if (!n)
		return NULL;
	v = arena_calloc(a, n, sizeof(*v));
	m = arena_calloc(a, n, size);
	if (!v || !m) {
		*ok = false;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		v[i] = m + i * size;
		init(v[i]);
	}
	return v;
}

#define MESSAGES(a, n, type, init, ok) \
	((type **)messages(a, n, sizeof(type), (void (*)(void *))(init), ok))

/* Per event: [samples, count] and [event, its unit]; with several
 * events the samples' type is named EVENT_samples. */
static void sample_types(struct pd_pprof *b, struct arena *a, Profile *pr,
			 bool *ok)
{
	int64_t samples = pprof_str(b, "samples"),
		count = pprof_str(b, "count");

	pr->n_sample_type = 2 * (size_t)b->nevents;
	pr->sample_type = MESSAGES(a, pr->n_sample_type, ValueType,
				   perftools__profiles__value_type__init, ok);
	if (!pr->sample_type)
		return;
	for (uint32_t i = 0; i < b->nevents; i++) {
		ValueType *s = pr->sample_type[2 * i];
		ValueType *p = pr->sample_type[2 * i + 1];
		const char *name = AT(b->str, const char *, 0)[b->ev[i].name];
		char *n;

		s->type = samples;
		if (b->nevents > 1 &&
		    (n = arena_alloc(a, strlen(name) + sizeof("_samples")))) {
			strcpy(n, name);
			strcat(n, "_samples");
			s->type = pprof_str(b, n);
		}
		s->unit = count;
		p->type = b->ev[i].name;
		p->unit = b->ev[i].unit;
	}
	if (b->nevents) {
		/* the first event's period: perf report's first column */
		pr->period_type = pr->sample_type[1];
		pr->period = b->ev[0].period > INT64_MAX
				     ? INT64_MAX
				     : (int64_t)b->ev[0].period;
		pr->default_sample_type = b->ev[0].name;
	}
}

/* Per thread its labels: comm, pid and tid (a pointer to 3 of them). */
static Label ***thread_labels(struct pd_pprof *b, struct arena *a, bool *ok)
{
	int64_t comm = pprof_str(b, "comm"), pid = pprof_str(b, "pid"),
		tid = pprof_str(b, "tid");
	Label ***v =
		arena_calloc(a, b->threads.n ? b->threads.n : 1, sizeof(*v));

	if (!v) {
		*ok = false;
		return NULL;
	}
	for (uint32_t i = 0; i < b->threads.n; i++) {
		const struct pp_thread *t = AT(b->threads, struct pp_thread, i);

		v[i] = MESSAGES(a, 3, Label, perftools__profiles__label__init,
				ok);
		if (!v[i])
			return NULL;
		v[i][0]->key = comm;
		v[i][0]->str = t->comm;
		v[i][1]->key = pid;
		v[i][1]->num = t->pid;
		v[i][2]->key = tid;
		v[i][2]->num = t->tid;
	}
	return v;
}

static void samples(struct pd_pprof *b, struct arena *a, Profile *pr, bool *ok)
{
	Label ***labels = thread_labels(b, a, ok);

	if (!*ok)
		return;
	pr->n_sample = b->samples.n;
	pr->sample = MESSAGES(a, pr->n_sample, Sample,
			      perftools__profiles__sample__init, ok);
	for (uint32_t i = 0; pr->sample && i < b->samples.n; i++) {
		const struct psample *sm = AT(b->samples, struct psample, i);
		const struct pp_thread *t =
			AT(b->threads, struct pp_thread, sm->thread);
		Sample *s = pr->sample[i];

		s->n_location_id = sm->nloc;
		s->location_id =
			sm->nloc ? AT(b->sample_locs, uint64_t, sm->loc0)
				 : NULL;
		s->n_value = 2 * (size_t)b->nevents;
		s->value = AT(b->vals, int64_t, sm->vals);
		/* comm (when known), then pid and tid (when known) */
		s->label = labels[sm->thread] + (t->comm ? 0 : 1);
		s->n_label = (t->comm ? 1 : 0) + (t->has_tid ? 2 : 0);
	}
}

/* The main binary, which pprof takes to be mapping[0] (its "File:"):
 * the user map most samples landed in (index; 0 when none). */
static uint32_t main_map(const struct pd_pprof *b)
{
	uint64_t *n = calloc(b->maps.n ? b->maps.n : 1, sizeof(*n)), most = 0;
	uint32_t best = 0;

	for (uint32_t i = 0; n && i < b->samples.n; i++) {
		const struct psample *sm = AT(b->samples, struct psample, i);
		const struct ploc *l;

		if (!sm->nloc)
			continue;
		l = AT(b->locs, struct ploc,
		       *AT(b->sample_locs, uint64_t, sm->loc0) - 1);
		for (uint32_t e = 0; l->map && e < b->nevents; e++)
			n[l->map - 1] += (uint64_t)*AT(b->vals, int64_t,
						       sm->vals + 2 * e);
	}
	for (uint32_t i = 0; n && i < b->maps.n; i++)
		if (!AT(b->maps, struct pmap, i)->kernel && n[i] > most)
			most = n[best = i];
	free(n);
	return best;
}

static void mappings(struct pd_pprof *b, struct arena *a, Profile *pr, bool *ok)
{
	uint32_t first = main_map(b);

	pr->n_mapping = b->maps.n;
	pr->mapping = MESSAGES(a, pr->n_mapping, Mapping,
			       perftools__profiles__mapping__init, ok);
	for (uint32_t i = 0; pr->mapping && i < b->maps.n; i++) {
		const struct pmap *m = AT(b->maps, struct pmap, i);
		/* the main binary first, the one it displaces in its place
		 * (ids are the tables', whatever the order) */
		Mapping *o = pr->mapping[i == first ? 0 : i ? i : first];

		o->id = i + 1;
		o->memory_start = m->start;
		o->memory_limit = m->end;
		o->file_offset = m->pgoff;
		o->filename = m->file;
		o->build_id = m->build_id;
		o->has_functions = m->funcs;
		o->has_filenames = m->files;
		o->has_line_numbers = m->lines;
		o->has_inline_frames = m->inl;
	}
}

static void locations(struct pd_pprof *b, struct arena *a, Profile *pr,
		      bool *ok)
{
	Line **lines = MESSAGES(a, b->lines.n, Line,
				perftools__profiles__line__init, ok);

	pr->n_location = b->locs.n;
	pr->location = MESSAGES(a, pr->n_location, Location,
				perftools__profiles__location__init, ok);
	if (!*ok)
		return;
	for (uint32_t i = 0; i < b->lines.n; i++) {
		const struct pline *l = AT(b->lines, struct pline, i);

		lines[i]->function_id = l->func;
		lines[i]->line = l->line;
	}
	for (uint32_t i = 0; i < b->locs.n; i++) {
		const struct ploc *l = AT(b->locs, struct ploc, i);
		Location *o = pr->location[i];

		o->id = i + 1;
		o->mapping_id = l->map;
		o->address = l->addr;
		o->n_line = l->nlines;
		o->line = l->nlines ? lines + l->line0 : NULL;
	}
	pr->n_function = b->funcs.n;
	pr->function = MESSAGES(a, pr->n_function, Function,
				perftools__profiles__function__init, ok);
	for (uint32_t i = 0; pr->function && i < b->funcs.n; i++) {
		const struct pfunc *f = AT(b->funcs, struct pfunc, i);
		Function *o = pr->function[i];

		o->id = i + 1;
		o->name = f->name;
		o->system_name = f->sys;
		o->filename = f->file;
	}
}

/* in[0..n) gzipped into a malloc'd buffer (zlib's gzip wrapper:
 * windowBits 15 + 16). */
static bool gzip(const uint8_t *in, size_t n, uint8_t **out, size_t *len)
{
	z_stream z = {0};
	uLong cap;
	int rc;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return false;
	cap = deflateBound(&z, n);
	if (n > UINT32_MAX || !(*out = malloc(cap))) {
		deflateEnd(&z);
		return false;
	}
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = *out;
	z.avail_out = (uInt)cap;
	rc = deflate(&z, Z_FINISH);
	*len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		return false;
	}
	return true;
}

bool pd_pprof_encode(struct pd_pprof *b, uint8_t **out, size_t *len)
{
	Profile pr = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct arena a = {0};
	uint8_t *packed = NULL;
	size_t size = 0;
	bool ok = true;

	*out = NULL;
	*len = 0;
	/* every string interned before the table is handed over */
	sample_types(b, &a, &pr, &ok);
	samples(b, &a, &pr, &ok);
	mappings(b, &a, &pr, &ok);
	locations(b, &a, &pr, &ok);
	pr.time_nanos = b->time_nanos > INT64_MAX ? 0 : (int64_t)b->time_nanos;
	pr.duration_nanos =
		b->duration > INT64_MAX ? INT64_MAX : (int64_t)b->duration;
	pr.n_string_table = b->str.n;
	pr.string_table = (char **)b->str.v;
	if (ok) { /* what a lack of memory left out is left out */
		size = perftools__profiles__profile__get_packed_size(&pr);
		packed = malloc(size ? size : 1);
	}
	if (packed && perftools__profiles__profile__pack(&pr, packed) == size)
		ok = gzip(packed, size, out, len);
	else
		ok = false;
	free(packed);
	arena_free(&a);
	return ok;
}
