// SPDX-License-Identifier: MIT
/*
 * The pprof target: `export --to pprof -o OUT` on the input (nothing to
 * read outside the recording; an input of odd size on two workers), then
 * its output read back as pprof's readers read it: gunzipped (zlib),
 * decoded by protobuf-c's unpack from the same profile.proto, and
 * checked: string_table[0] is "", every string index is in the table,
 * every id is nonzero and unique in its table, every id referenced (a
 * sample's locations, a location's mapping, a line's function) exists,
 * and every sample has one value per sample type.  A failure aborts.  A
 * failed export leaves no file: nothing to check then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/export/profile.pb-c.h"
#include "harness.h"

typedef Perftools__Profiles__Profile Profile;

/* the export's output, its own for this process */
static char out_dir[64], out_path[96];

static void remove_out(void)
{
	unlink(out_path);
	rmdir(out_dir);
}

static const char *out_file(void)
{
	if (out_path[0])
		return out_path;
	snprintf(out_dir, sizeof(out_dir), "/tmp/perfdump-fuzz-pprof.%d",
		 (int)getpid());
	if (mkdir(out_dir, 0700) && access(out_dir, W_OK))
		abort();
	snprintf(out_path, sizeof(out_path), "%s/out.pb.gz", out_dir);
	atexit(remove_out);
	return out_path;
}

static void fail(const char *what)
{
	fprintf(stderr, "fuzz: pprof output: %s\n", what);
	abort();
}

/* gzip's member: inflated whole (at most 256 MiB: more is a fault) */
static uint8_t *gunzip(const uint8_t *in, size_t n, size_t *len)
{
	z_stream z = {0};
	size_t cap = 4 * n + 4096;
	uint8_t *out = malloc(cap);
	int rc = Z_OK;

	if (!out || inflateInit2(&z, 15 + 16) != Z_OK)
		fail("inflateInit2");
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	while (rc != Z_STREAM_END) {
		if (z.total_out == cap) {
			if (cap >= (256u << 20) ||
			    !(out = realloc(out, 2 * cap)))
				fail("inflated past 256 MiB");
			cap *= 2;
		}
		z.next_out = out + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END)
			fail("not gzip");
	}
	if (z.avail_in)
		fail("bytes after the gzip member");
	*len = z.total_out;
	inflateEnd(&z);
	return out;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The ids of a table, sorted; each nonzero and unique. */
static uint64_t *ids(size_t n, uint64_t (*id)(const Profile *, size_t),
		     const Profile *p)
{
	uint64_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		fail("out of memory");
	for (size_t i = 0; i < n; i++)
		if (!(v[i] = id(p, i)))
			fail("an id is 0");
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 1; i < n; i++)
		if (v[i] == v[i - 1])
			fail("an id is not unique");
	return v;
}

static uint64_t map_id(const Profile *p, size_t i)
{
	return p->mapping[i]->id;
}

static uint64_t loc_id(const Profile *p, size_t i)
{
	return p->location[i]->id;
}

static uint64_t func_id(const Profile *p, size_t i)
{
	return p->function[i]->id;
}

static void need(const uint64_t *v, size_t n, uint64_t id, const char *what)
{
	if (!bsearch(&id, v, n, sizeof(*v), cmp_u64))
		fail(what);
}

static void str(const Profile *p, int64_t i)
{
	if (i < 0 || (uint64_t)i >= p->n_string_table)
		fail("a string index out of the table");
}

static void check_tables(const Profile *p, const uint64_t *maps,
			 const uint64_t *funcs)
{
	for (size_t i = 0; i < p->n_mapping; i++) {
		str(p, p->mapping[i]->filename);
		str(p, p->mapping[i]->build_id);
	}
	for (size_t i = 0; i < p->n_function; i++) {
		str(p, p->function[i]->name);
		str(p, p->function[i]->system_name);
		str(p, p->function[i]->filename);
	}
	for (size_t i = 0; i < p->n_location; i++) {
		const Perftools__Profiles__Location *l = p->location[i];

		if (l->mapping_id)
			need(maps, p->n_mapping, l->mapping_id,
			     "a location's mapping does not exist");
		for (size_t k = 0; k < l->n_line; k++)
			need(funcs, p->n_function, l->line[k]->function_id,
			     "a line's function does not exist");
	}
}

static void check(const Profile *p)
{
	uint64_t *maps = ids(p->n_mapping, map_id, p);
	uint64_t *locs = ids(p->n_location, loc_id, p);
	uint64_t *funcs = ids(p->n_function, func_id, p);

	if (!p->n_string_table || p->string_table[0][0])
		fail("string_table[0] is not \"\"");
	for (size_t i = 0; i < p->n_sample_type; i++) {
		str(p, p->sample_type[i]->type);
		str(p, p->sample_type[i]->unit);
	}
	str(p, p->default_sample_type);
	if (p->period_type) {
		str(p, p->period_type->type);
		str(p, p->period_type->unit);
	}
	check_tables(p, maps, funcs);
	for (size_t i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *s = p->sample[i];

		if (s->n_value != p->n_sample_type)
			fail("a sample's values are not one per sample type");
		for (size_t k = 0; k < s->n_location_id; k++)
			need(locs, p->n_location, s->location_id[k],
			     "a sample's location does not exist");
		for (size_t k = 0; k < s->n_label; k++) {
			str(p, s->label[k]->key);
			str(p, s->label[k]->str);
			str(p, s->label[k]->num_unit);
		}
	}
	free(maps);
	free(locs);
	free(funcs);
}

void fuzz_pprof(const uint8_t *data, size_t size)
{
	const char *out = out_file();
	uint8_t *gz, *raw;
	size_t gzlen, len;
	Profile *p;

	unlink(out);
	/* one input in two on two workers, every record its own batch
	 * (walk_par.c; stacks_walk.c's batches merged in order) */
	if (size % 2)
		setenv("PERFDUMP_BATCH_BYTES", "1", 1);
	fuzz_cmd(cmd_export, fuzz_file(data, size), "export", "--to", "pprof",
		 "-o", out, "--jobs", size % 2 ? "2" : "1", "--symfs",
		 "/nonexistent", "--debug-dir", "/nonexistent", NULL);
	unsetenv("PERFDUMP_BATCH_BYTES");
	if (!(gz = fuzz_slurp(out, &gzlen)))
		return;
	raw = gunzip(gz, gzlen, &len);
	p = perftools__profiles__profile__unpack(NULL, len, raw);
	if (!p)
		fail("protobuf-c cannot unpack it");
	check(p);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(raw);
	free(gz);
}
