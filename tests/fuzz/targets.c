// SPDX-License-Identifier: MIT
/*
 * The fuzz targets: each exercises one layer of perfdump on arbitrary
 * bytes, with the output discarded (harness.c), so that a typical input
 * takes well under a millisecond or two; "perfdump", the first, runs them
 * all and every command in every format besides.  Adding a target is a
 * function and a row of the table at the end (tests/fuzz/README.md).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/fmt/fmt_attr.h"
#include "../../src/fmt/fmt_features.h"
#include "../../src/fmt/fmt_header.h"
#include "../../src/lib/buildid.h"
#include "../../src/lib/event.h"
#include "../../src/lib/order.h"
#include "harness.h"

/*
 * The file header, the feature sections and the attrs: decoders and
 * formatters, in text (JSON and the features' hex dumps: the whole
 * pipeline, which dumps every byte of the input again).  One session
 * for the three, as the commands would each open one.
 */
static void t_header(const uint8_t *data, size_t size)
{
	struct pd_id_index ix = {0};
	struct pd_session s;
	struct emitter *e;

	if (fuzz_session(&s, fuzz_file(data, size)) < 0)
		return;
	pd_decode_features(&s);
	pd_id_index_load(&s, &ix);
	e = fuzz_emit_begin(EMIT_TEXT, true, "header, attrs");
	emit_header(e, &s);
	emit_arr_begin(e, "attrs");
	for (uint32_t i = 0; i < s.evlist.n; i++) {
		size_t rawlen = 0;
		const uint8_t *raw = pd_evsel_raw(&s, &s.evlist.v[i], &rawlen);

		emit_evsel(e, &s, &s.evlist.v[i], &ix, raw, rawlen);
	}
	emit_arr_end(e);
	fuzz_emit_end(e);
	e = fuzz_emit_begin(EMIT_TEXT, false, "features");
	emit_arr_begin(e, "features");
	for (size_t i = 0; i < s.nfeat; i++)
		emit_feature(e, &s, &s.feat[i]);
	emit_arr_end(e);
	emit_diags(e, &s.diags);
	fuzz_emit_end(e);
	pd_id_index_free(&ix);
	pd_session_close(&s);
}

/* One record stream decoded: the reader (zstd included), every record
 * and sample decoder, their payloads, JSON with the raw bytes. */
static void t_records(const uint8_t *data, size_t size)
{
	fuzz_cmd(cmd_records, fuzz_file(data, size), "records", "-j", "-x",
		 NULL);
}

static void t_stats(const uint8_t *data, size_t size)
{
	fuzz_cmd(cmd_stats, fuzz_file(data, size), "stats", "-j", NULL);
}

static void t_check(const uint8_t *data, size_t size)
{
	fuzz_cmd(cmd_check, fuzz_file(data, size), "check", "-j", NULL);
}

/* What a walk saw: records, bytes, and a sum of their hashes (the same
 * for the same records in any order). */
struct walk_sum {
	uint64_t n, bytes, hash;
};

static void sum_event(void *arg, const struct pd_event *ev)
{
	struct walk_sum *w = arg;
	uint64_t h = 1469598103934665603ull ^ ev->offset ^
		     ev->inner_offset * 31 ^ (uint64_t)ev->stream << 56;

	for (uint16_t i = 0; i < ev->size; i++)
		h = (h ^ ev->p[i]) * 1099511628211ull; /* FNV-1a */
	w->n++;
	w->bytes += ev->size;
	w->hash += h;
}

/*
 * Time order (order.c): the queue, FINISHED_ROUND flushes, the bound.
 * Whatever the times, it must deliver exactly the records that file
 * order reads, each once: a difference aborts.
 */
static void t_order(const uint8_t *data, size_t size)
{
	struct walk_sum time = {0}, file = {0};
	struct pd_session s;
	struct pd_reader *r;
	struct pd_event ev;
	int rc;

	if (fuzz_session(&s, fuzz_file(data, size)) < 0)
		return;
	rc = pd_read_in_time_order(&s, false, pd_event_time, sum_event, &time);
	r = pd_reader_open(&s, PD_READ_FAST);
	while (r && pd_reader_next(r, &ev) == 1)
		sum_event(&file, &ev);
	pd_reader_close(r);
	pd_session_close(&s);
	if (rc == 0 && r &&
	    (time.n != file.n || time.bytes != file.bytes ||
	     time.hash != file.hash)) {
		fprintf(stderr,
			"time order delivered %llu records (%llu bytes), file "
			"order read %llu (%llu bytes)%s\n",
			(unsigned long long)time.n,
			(unsigned long long)time.bytes,
			(unsigned long long)file.n,
			(unsigned long long)file.bytes,
			time.n == file.n && time.bytes == file.bytes
				? ", not the same ones"
				: "");
		abort();
	}
}

/* Every build-id source and the --hits walk (time order, maps, DSOs);
 * no file is looked up. */
static void t_buildids(const uint8_t *data, size_t size)
{
	fuzz_cmd(cmd_buildids, fuzz_file(data, size), "buildids", "-j",
		 "--hits", "--no-resolve", NULL);
}

/* The bytes as an ELF image (libelf) and as bare notes (buildid.c). */
static void t_elf(const uint8_t *data, size_t size)
{
	uint8_t id[PD_ELF_BUILD_ID_MAX];
	size_t len = sizeof(id);

	pd_elf_build_id_mem(data, size, id, &len);
	len = sizeof(id);
	pd_notes_build_id(data, size, id, &len);
}

/*
 * The bytes on standard input, a pipe: a pipe-mode stream decoded as it
 * arrives (session_pipe.c, the live walk), a file-mode one spooled.
 */
#define STREAM_MAX (1u << 20)

static void t_stream(const uint8_t *data, size_t size)
{
	int p[2], cap;

	if (pipe(p))
		abort();
	/* all of it must fit in the pipe: nothing reads while we write;
	 * a big file (mutate, replay) gives its first MiB */
	if (size > STREAM_MAX)
		size = STREAM_MAX;
	cap = fcntl(p[1], F_SETPIPE_SZ, size > 4096 ? (int)size : 4096);
	if (cap < 0)
		cap = fcntl(p[1], F_GETPIPE_SZ);
	if (size > (size_t)cap)
		size = (size_t)cap;
	if ((size && write(p[1], data, size) != (ssize_t)size) || close(p[1]) ||
	    dup2(p[0], STDIN_FILENO) < 0 || close(p[0]))
		abort();
	fuzz_cmd(cmd_records, "-", "records", "--json-lines", NULL);
}

/* Every target, then every command in the formats they leave out. */
static void t_all(const uint8_t *data, size_t size)
{
	const char *f;

	for (const struct fuzz_target *t = fuzz_targets + 1; t->name; t++)
		t->run(data, size);
	f = fuzz_file(data, size);
	fuzz_cmd(cmd_header, f, "header", "-x", NULL);
	fuzz_cmd(cmd_header, f, "header", "-j", "-x", NULL);
	fuzz_cmd(cmd_features, f, "features", "-x", NULL);
	fuzz_cmd(cmd_features, f, "features", "-p", "-x", NULL);
	fuzz_cmd(cmd_attrs, f, "attrs", "-x", NULL);
	fuzz_cmd(cmd_attrs, f, "attrs", "-j", NULL);
	fuzz_cmd(cmd_records, f, "records", "-x", NULL);
	fuzz_cmd(cmd_records, f, "records", "--order", "time", "--json-lines",
		 NULL);
	fuzz_cmd(cmd_stats, f, "stats", NULL);
	fuzz_cmd(cmd_check, f, "check", NULL);
	fuzz_cmd(cmd_buildids, f, "buildids", "--no-resolve", NULL);
}

const struct fuzz_target fuzz_targets[] = {
	{"perfdump",
	 "the whole pipeline: every target, every command and format", t_all},
	{"header", "header, features and attrs: decoders and text formatters",
	 t_header},
	{"records",
	 "one record stream: reader, zstd, record and sample decoders",
	 t_records},
	{"stats", "the stats walk and its byte account", t_stats},
	{"check", "check: every diagnostic classified, its own checks",
	 t_check},
	{"order", "time order (checked against file order)", t_order},
	{"buildids", "build-id sources and the --hits walk", t_buildids},
	{"elf", "build-id notes of an in-memory ELF image, and bare notes",
	 t_elf},
	{"stream", "the input as a pipe on standard input (live pipe mode)",
	 t_stream},
	{NULL, NULL, NULL},
};
