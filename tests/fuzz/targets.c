// SPDX-License-Identifier: MIT
/*
 * The fuzz targets: each exercises one layer of perfdump on arbitrary
 * bytes, with the output discarded (harness.c), so that a typical input
 * takes well under a millisecond or two; "perfdump", the first, runs them
 * all and every command in every format besides.  Adding a target is a
 * function and a row of the table at the end (tests/fuzz/README.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fmt/fmt_attr.h"
#include "fmt/fmt_features.h"
#include "fmt/fmt_header.h"
#include "lib/analysis/buildid.h"
#include "lib/analysis/check.h"
#include "lib/analysis/dso_elf.h"
#include "lib/session/event.h"
#include "lib/session/evlist.h"
#include "lib/analysis/rootpath.h"
#include "lib/session/walk.h"
#include "lib/write/copy.h"
#include "harness.h"

/* What diff compares a fuzzed input with (diff_way). */
#define DIFF_FIXTURE "testdata/cpu-clock.data"

/*
 * The file header, the feature sections and the attrs: decoders and
 * formatters, in text (JSON and the features' hex dumps: the whole
 * pipeline, which dumps every byte of the input again).  One session,
 * its features decoded (the attrs' names come from them), then the
 * header and the attrs with their hex dumps (way 0) or the features and
 * the diagnostics (way 1).
 */
static void header_way(const char *f, unsigned way)
{
	struct pd_id_index ix = {0};
	struct pd_session s;
	struct emitter *e;

	if (fuzz_session(&s, f) < 0)
		return;
	pd_decode_features(&s);
	if (way) {
		e = fuzz_emit_begin(EMIT_TEXT, false, "features");
		emit_arr_begin(e, "features");
		for (size_t i = 0; i < s.nfeat; i++)
			emit_feature(e, &s, &s.feat[i]);
		emit_arr_end(e);
		emit_diags(e, &s.diags);
		fuzz_emit_end(e);
		pd_session_close(&s);
		return;
	}
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
	pd_id_index_free(&ix);
	pd_session_close(&s);
}

/* One record stream decoded: the reader (zstd included), every record
 * and sample decoder, their payloads, in JSON (the hex dumps of -x, which
 * doubled the output to check, are the whole pipeline's: t_all). */
static void t_records(const uint8_t *data, size_t size)
{
	const char *f = fuzz_file(data, size);

	fuzz_cmd(cmd_records, f, "records", "-j", NULL);
	/* the parallel walk, every record its own batch (walk_par.c) */
	setenv("PERFDUMP_BATCH_BYTES", "1", 1);
	fuzz_cmd(cmd_records, f, "records", "--json-lines", "--jobs", "2",
		 NULL);
	unsetenv("PERFDUMP_BATCH_BYTES");
}

static void t_stats(const uint8_t *data, size_t size)
{
	fuzz_cmd(cmd_stats, fuzz_file(data, size), "stats", "-j", NULL);
}

/* check's findings once, in text (JSON lists them twice: the whole
 * pipeline writes it) */
static void t_check(const uint8_t *data, size_t size)
{
	fuzz_cmd(cmd_check, fuzz_file(data, size), "check", NULL);
}

/* What a walk saw: records, bytes, and a sum of their hashes (the same
 * for the same records in any order). */
struct walk_sum {
	uint64_t n, bytes, hash;
};

static bool sum_event(void *arg, const struct pd_event *ev)
{
	struct walk_sum *w = arg;
	uint64_t h = 1469598103934665603ull ^ ev->offset ^
		     ev->inner_offset * 31 ^ (uint64_t)ev->stream << 56;

	for (uint16_t i = 0; i < ev->size; i++)
		h = (h ^ ev->p[i]) * 1099511628211ull; /* FNV-1a */
	w->n++;
	w->bytes += ev->size;
	w->hash += h;
	return true;
}

/*
 * Time order (the walk's, order.c): the queue, FINISHED_ROUND flushes,
 * the bound.  Whatever the times, it must deliver exactly the records
 * that file order reads, each once: a difference aborts.
 */
static void t_order(const uint8_t *data, size_t size)
{
	static const struct pd_visitor v = {.event = sum_event};
	static const struct pd_walk_opts in_time = {.flags =
							    PD_WALK_TIME_ORDER};
	static const struct pd_walk_opts in_file = {0};
	struct walk_sum time = {0}, file = {0};
	struct pd_session s;
	int rc, rc_file;

	if (fuzz_session(&s, fuzz_file(data, size)) < 0)
		return;
	rc = pd_walk(&s, &in_time, &v, &time);
	rc_file = pd_walk(&s, &in_file, &v, &file);
	pd_session_close(&s);
	if (rc == 0 && rc_file == 0 &&
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
 * The bytes as a DSO profile reads: an ELF's sections, segments,
 * .symtab/.dynsym, PLT and DWARF lines (libdw), and as kallsyms and a
 * perf-PID.map text (symtab.c).
 */
static void t_dso(const uint8_t *data, size_t size)
{
	pd_dso_probe_mem(data, size);
}

/*
 * profile: the time-ordered walk, maps, threads and rows, by symbol in
 * JSON and by line on two workers (way 0) or by thread in text (1);
 * records --symbols, the same maps for every frame of every sample, in
 * text, on one thread and on two (2); nothing outside the
 * recording is looked at (no --symfs root, build-id cache or vmlinux
 * exists).
 */
static void profile_way(const char *f, unsigned way)
{
	switch (way) {
	case 0:
		fuzz_cmd(cmd_profile, f, "profile", "-j", "--jobs", "1",
			 "--symfs", "/nonexistent", "--debug-dir",
			 "/nonexistent", "--vmlinux", "/nonexistent", NULL);
		/* by line on two workers, every record its own batch
		 * (profile_par.c) */
		setenv("PERFDUMP_BATCH_BYTES", "1", 1);
		fuzz_cmd(cmd_profile, f, "profile", "--by", "line", "--jobs",
			 "2", "--symfs", "/nonexistent", "--debug-dir",
			 "/nonexistent", NULL);
		unsetenv("PERFDUMP_BATCH_BYTES");
		break;
	case 1:
		fuzz_cmd(cmd_profile, f, "profile", "--by", "thread", "--symfs",
			 "/nonexistent", "--debug-dir", "/nonexistent", NULL);
		break;
	default:
		fuzz_cmd(cmd_records, f, "records", "--symbols", "--symfs",
			 "/nonexistent", "--debug-dir", "/nonexistent", NULL);
		/* on two workers, each its replica of the maps */
		setenv("PERFDUMP_BATCH_BYTES", "1", 1);
		fuzz_cmd(cmd_records, f, "records", "--symbols", "--jobs", "2",
			 "--symfs", "/nonexistent", "--debug-dir",
			 "/nonexistent", NULL);
		unsetenv("PERFDUMP_BATCH_BYTES");
		break;
	}
}

/*
 * export: the stacks model and a format written from it, folded (the
 * script's naming rules on hostile names, the escaping); by pid and tid
 * with _[k] (way 0), or every frame's inlined calls, weighted by period
 * (way 1); or chrome (way 2: every sample, its stack, its tracepoint
 * fields and the sched_switch slices, as JSON the oracle parses).
 * Way 1 on two workers (--jobs 2), way 2 on one and on two.  Standard
 * output only: no -o.
 */
static void export_way(const char *f, unsigned way)
{
	if (way == 2) {
		fuzz_cmd(cmd_export, f, "export", "--to", "chrome", "--inline",
			 "--symfs", "/nonexistent", "--debug-dir",
			 "/nonexistent", NULL);
		/* on two workers, the slices made in order at each flush */
		setenv("PERFDUMP_BATCH_BYTES", "1", 1);
		fuzz_cmd(cmd_export, f, "export", "--to", "chrome", "--jobs",
			 "2", "--symfs", "/nonexistent", "--debug-dir",
			 "/nonexistent", NULL);
		unsetenv("PERFDUMP_BATCH_BYTES");
	} else if (way) {
		/* on two workers, every record its own batch (walk_par.c) */
		setenv("PERFDUMP_BATCH_BYTES", "1", 1);
		fuzz_cmd(cmd_export, f, "export", "--to", "folded", "--inline",
			 "--period", "--jobs", "2", "--symfs", "/nonexistent",
			 "--debug-dir", "/nonexistent", NULL);
		unsetenv("PERFDUMP_BATCH_BYTES");
	} else
		fuzz_cmd(cmd_export, f, "export", "--to", "folded",
			 "--folded-tid", "--kernel-suffix", "--jit-suffix",
			 "--symfs", "/nonexistent", "--debug-dir",
			 "/nonexistent", NULL);
}

static void t_export(const uint8_t *data, size_t size)
{
	export_way(fuzz_file(data, size), size % 3);
}

/*
 * Tracepoint samples: formats from the tracing data parsed by perfdump,
 * every field and the print output in JSON lines (way 0) or text (way
 * 1), or the formats as features shows them (way 2).
 */
static void tracepoint_way(const char *f, unsigned way)
{
	switch (way) {
	case 0:
		fuzz_cmd(cmd_records, f, "records", "--type", "sample",
			 "--json-lines", NULL);
		break;
	case 1:
		fuzz_cmd(cmd_records, f, "records", "--type", "sample", NULL);
		break;
	default:
		fuzz_cmd(cmd_features, f, "features", "-j", "tracing_data",
			 NULL);
		break;
	}
}

/* --redact=comm: every string through the redactor, in features (way
 * 0), records (1) or the summary (2). */
static void redact_way(const char *f, unsigned way)
{
	switch (way) {
	case 0:
		fuzz_cmd(cmd_features, f, "features", "-p", "--redact=comm",
			 NULL);
		break;
	case 1:
		fuzz_cmd(cmd_records, f, "records", "-j", "--redact=comm",
			 NULL);
		break;
	default: fuzz_cmd(cmd_summary, f, "summary", "--redact", NULL); break;
	}
}

/*
 * diff: the input against a fixture (way 0: JSON, with the profiles;
 * nothing outside the recordings is looked at), or against itself with
 * the offsets (1, text): the header, features, attrs and stats models
 * compared, the features and attrs through their formatters' captured
 * JSON (fmt/capture.c, lib/base/jtree.c).
 */
static void diff_way(const char *f, unsigned way)
{
	/* run from the project's root (make fuzz); else the input again */
	const char *fixture =
		access(DIFF_FIXTURE, R_OK) == 0 ? DIFF_FIXTURE : f;

	if (way)
		fuzz_cmd(cmd_diff, f, "diff", "--offsets", f, NULL);
	else
		fuzz_cmd(cmd_diff, f, "diff", "-j", "--profile", "--symfs",
			 "/nonexistent", "--debug-dir", "/nonexistent", fixture,
			 NULL);
}

/*
 * These targets take one way per input, chosen by its size: an execution
 * costs one walk, not two or three, and an input that fails fails again.
 * The whole pipeline (t_all) takes every way.
 */
static void t_header(const uint8_t *data, size_t size)
{
	header_way(fuzz_file(data, size), size & 1);
}

static void t_profile(const uint8_t *data, size_t size)
{
	profile_way(fuzz_file(data, size), size % 3);
}

static void t_tracepoint(const uint8_t *data, size_t size)
{
	tracepoint_way(fuzz_file(data, size), size % 3);
}

static void t_redact(const uint8_t *data, size_t size)
{
	redact_way(fuzz_file(data, size), size % 3);
}

static void t_diff(const uint8_t *data, size_t size)
{
	diff_way(fuzz_file(data, size), size & 1);
}

/* ---- rootpath: the walk under --symfs, against the kernel's ---------- */

/*
 * A sandbox made once per process: DIR/secret outside the root, and in
 * DIR/root files, a FIFO and links that try to leave it (absolute, "..",
 * through a link to a directory) or loop.  Nothing in the root is named
 * "secret": whatever leaves the root and reaches DIR/secret is a bug.
 */
static char sandbox_dir[64];

static void remove_sandbox(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", sandbox_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", sandbox_dir);
}

static const char *sandbox(void)
{
	char *dir = sandbox_dir;
	static const char *const links[][2] = {
		{"abs", "/lib"},
		{"up", "../secret"},
		{"lib/up2", "../../secret"},
		{"dirlink", "lib"},
		{"self", "self"},
		{"lib/chain", "../dirlink/../up"},
		{"tmp", "/tmp"},
		{"deep", "lib/up2/x"},
		{"dot", "."},
	};
	char p[128];

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(sandbox_dir), "/tmp/perfdump-fuzz-root.%d",
		 (int)getpid());
	snprintf(p, sizeof(p), "rm -rf %s", dir);
	if (system(p) != 0 || mkdir(dir, 0700) ||
	    mkdir(strcat(strcpy(p, dir), "/root"), 0700) ||
	    mkdir(strcat(strcpy(p, dir), "/root/lib"), 0700) ||
	    mkdir(strcat(strcpy(p, dir), "/root/bin"), 0700) ||
	    mkfifo(strcat(strcpy(p, dir), "/root/fifo"), 0600))
		abort();
	static const char *const files[] = {"/secret", "/root/bin/true",
					    "/root/lib/libc.so.6"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int fd = open(strcat(strcpy(p, dir), files[i]),
			      O_WRONLY | O_CREAT, 0600);

		if (fd < 0 || close(fd))
			abort();
	}
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(p, sizeof(p), "%s/root/%s", dir, links[i][0]);
		if (symlink(links[i][1], p))
			abort();
	}
	atexit(remove_sandbox);
	return dir;
}

/* The kernel's answer: openat2 RESOLVE_IN_ROOT (-errno, or an fd). */
static int kernel_open(int rootfd, const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, rootfd, *rel ? rel : ".", &how,
			  sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/*
 * rootpath.c's walk (PERFDUMP_NO_OPENAT2: the code that is perfdump's own)
 * on a path from the input, which must reach the same file as the kernel
 * resolving in the root, and never DIR/secret.
 */
static void t_rootpath(const uint8_t *data, size_t size)
{
	char path[4096], rel[4096], root[96];
	struct stat secret, ref;
	struct pd_root_file f;
	int rootfd, kfd;

	pd_root_use_openat2(false); /* PERFDUMP_NO_OPENAT2 (cli.c) */
	snprintf(path, sizeof(path), "%s/secret", sandbox());
	if (stat(path, &secret))
		abort();
	snprintf(root, sizeof(root), "%s/root", sandbox());
	if (size >= sizeof(path))
		size = sizeof(path) - 1;
	memcpy(path, data, size);
	path[size] = 0; /* a C string: up to the first NUL */

	pd_root_open(root, path, &f);
	if (f.status == PD_ROOT_FILE && f.st.st_ino == secret.st_ino &&
	    f.st.st_dev == secret.st_dev) {
		fprintf(stderr, "rootpath: '%s' opened the file outside\n",
			path);
		abort();
	}
	/* the same path resolved by the kernel */
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		abort();
	if (pd_root_normalise(path, rel, sizeof(rel)) == 0 &&
	    (kfd = kernel_open(rootfd, rel)) != -ENOSYS) {
		bool kfile =
			kfd >= 0 && !fstat(kfd, &ref) && S_ISREG(ref.st_mode);
		bool same = f.status == PD_ROOT_FILE
				    ? kfile && ref.st_ino == f.st.st_ino
			    : f.status == PD_ROOT_NOT_FILE ? kfd >= 0 && !kfile
							   : kfd < 0;

		if (!same) {
			fprintf(stderr,
				"rootpath: '%s': the walk says %d (errno %d), "
				"openat2 RESOLVE_IN_ROOT %d\n",
				path, f.status, f.err, kfd < 0 ? kfd : 0);
			abort();
		}
		if (kfd >= 0)
			close(kfd);
	}
	close(rootfd);
	if (f.fd >= 0)
		close(f.fd);
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
	/* the session closes standard input when done with it: the pipe's
	 * read end may then be descriptor 0 already */
	if ((size && write(p[1], data, size) != (ssize_t)size) || close(p[1]) ||
	    (p[0] != STDIN_FILENO &&
	     (dup2(p[0], STDIN_FILENO) < 0 || close(p[0]))))
		abort();
	fuzz_cmd(cmd_records, "-", "records", "--json-lines", NULL);
}

/* The commands in the formats the targets leave out: way 0 to FORMAT_WAYS - 1. */
#define FORMAT_WAYS 15

static void format_way(const char *f, unsigned way)
{
	switch (way) {
	case 0: fuzz_cmd(cmd_header, f, "header", "-x", NULL); break;
	case 1: fuzz_cmd(cmd_header, f, "header", "-j", "-x", NULL); break;
	case 2: fuzz_cmd(cmd_features, f, "features", "-x", NULL); break;
	case 3: fuzz_cmd(cmd_features, f, "features", "-p", "-x", NULL); break;
	case 4: fuzz_cmd(cmd_attrs, f, "attrs", "-x", NULL); break;
	case 5: fuzz_cmd(cmd_attrs, f, "attrs", "-j", NULL); break;
	case 6: fuzz_cmd(cmd_records, f, "records", "-x", NULL); break;
	case 7: fuzz_cmd(cmd_records, f, "records", "-j", "-x", NULL); break;
	case 8:
		fuzz_cmd(cmd_records, f, "records", "--order", "time",
			 "--json-lines", NULL);
		break;
	case 9: fuzz_cmd(cmd_stats, f, "stats", NULL); break;
	case 10: fuzz_cmd(cmd_check, f, "check", NULL); break;
	case 11:
		fuzz_cmd(cmd_buildids, f, "buildids", "--no-resolve", NULL);
		break;
	case 12: fuzz_cmd(cmd_summary, f, "summary", "-j", NULL); break;
	case 13: fuzz_cmd(cmd_check, f, "check", "--brief", NULL); break;
	default:
		fuzz_cmd(cmd_stats, f, "stats", "-j", "--top", "3", NULL);
		break;
	}
}

/* One of those per input (its size modulo FORMAT_WAYS says which). */
static void t_formats(const uint8_t *data, size_t size)
{
	format_way(fuzz_file(data, size), size % FORMAT_WAYS);
}

/* ---- copy: the writer, read back ------------------------------------ */

/* The records of a walk, each as a hash of its bytes, in order. */
struct rec_seq {
	uint64_t *h;
	size_t n, cap;
	bool oom;
	bool no_meta; /* leave out a pipe's metadata records (a pipe copy's
		       * head: its attrs, features, tracing data, build-ids) */
};

static bool pipe_meta(uint32_t type)
{
	return (type >= PD_REC_HEADER_ATTR && type <= PD_REC_HEADER_BUILD_ID) ||
	       type == PD_REC_HEADER_FEATURE;
}

static bool seq_event(void *arg, const struct pd_event *ev)
{
	struct rec_seq *q = arg;
	uint64_t h = 1469598103934665603ull;

	if (q->no_meta && pipe_meta(ev->type))
		return true;

	for (uint16_t i = 0; i < ev->size; i++)
		h = (h ^ ev->p[i]) * 1099511628211ull; /* FNV-1a */
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 256;
		uint64_t *v = realloc(q->h, cap * sizeof(*v));

		if (!v) {
			q->oom = true;
			return false;
		}
		q->h = v;
		q->cap = cap;
	}
	q->h[q->n++] = h;
	return true;
}

static void seq_walk(struct pd_session *s, struct rec_seq *q)
{
	static const struct pd_visitor v = {.event = seq_event};
	static const struct pd_walk_opts o = {0};

	if (pd_walk(s, &o, &v, q) < 0)
		q->oom = true;
}

/* check's error codes on the file at path, as bits (none: 0). */
static void check_codes(const char *path, uint8_t *codes, size_t n)
{
	struct pd_session s;
	struct pd_check c = {0};
	char err[256];

	memset(codes, 0, n);
	if (pd_session_open(&s, path, NULL, NULL, NULL, NULL, err,
			    sizeof(err)) < 0)
		return;
	if (pd_check_run(&s, &c) == 0)
		for (size_t i = 0; i < c.n; i++)
			if (c.v[i].sev == PD_ERR && (size_t)c.v[i].ecode < n)
				codes[c.v[i].ecode] = 1;
	pd_check_free(&c);
	pd_session_close(&s);
}

/* A redactor for the writer: every string becomes a token of another
 * length, so the rewritten sizes are exercised. */
static void fuzz_redact(void *ctx, enum pd_copy_str k, unsigned argi,
			const struct pd_tp_field *tp, const char *s, size_t n,
			const char **out, size_t *outlen)
{
	static const char tok[] = "<redacted-token-of-some-length>";

	(void)ctx;
	(void)argi;
	(void)tp;
	(void)s;
	*out = tok;
	*outlen = (n + (size_t)k) % sizeof(tok);
}

/*
 * The writer (lib/write): the input copied to a memory file, read back.
 * The copy's records must be the input's (a subsequence of them, in
 * order: the damaged and the pipe's metadata records are left out), as
 * many as the copy says it wrote, and check must find no error in the
 * copy that it does not find in the input (what the writer cannot repair,
 * a misaligned record, stays; it must add none): a difference aborts.
 * The input's size modulo 3 says how it is written: a file, a pipe
 * (-o -), or a file with its records compressed (--compress).
 * Inputs of an odd size are copied with --redact's rewriting (fuzz_redact):
 * their records differ from the input's, so only their number is compared.
 * Modulo 5, 3 and 4 copy with --event attr0 and attr1 (the first or the
 * second evsel: its attrs and the records that name it, ID_INDEX rewritten):
 * only their number is compared, and check must find no new error (a record
 * with the id of an attr left out would be one).
 */
static void t_copy(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct pd_session s;
	static const struct pd_copy_redact red = {.str = fuzz_redact};
	struct pd_filter ev = PD_FILTER_ALL;
	struct pd_copy_opts o = {.pipe = size % 3 == 1,
				 .compress = size % 3 == 2,
				 .redact = size & 1 ? &red : NULL,
				 /* --attr-size 128: cut where it may be */
				 .attr_size = size % 5 == 3 ? 128 : 0,
				 .build_ids_hit = size % 7 == 2,
				 /* every record a batch of its own */
				 .jobs = 2,
				 .batch_bytes = 1};
	struct pd_copy_result r;
	struct rec_seq in = {.no_meta = o.pipe}, out = {.no_meta = o.pipe};
	uint8_t in_codes[256], out_codes[256];
	const char *f = fuzz_file(data, size);
	int rc;

	if (fd < 0) {
		fd = memfd_create("perfdump-copy", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	if (size % 5 >= 3) {
		ev.event = size % 5 == 3 ? "attr0" : "attr1";
		o.filter = &ev;
	}
	if (fuzz_session(&s, f) < 0)
		return;
	seq_walk(&s, &in);
	rc = pd_copy(&s, fd, &o, &r);
	pd_session_close(&s);
	if (rc == 0 && fuzz_session(&s, path) == 0) {
		seq_walk(&s, &out);
		pd_session_close(&s);
		size_t j = 0;

		for (size_t i = 0; i < in.n && j < out.n; i++)
			j += in.h[i] == out.h[j];
		/* an empty data section gets one FINISHED_ROUND (a
		 * file's: a pipe's may be empty) */
		uint64_t want =
			r.records_written || o.pipe ? r.records_written : 1;

		/* a pipe copy's records of a metadata type (a file's data
		 * may hold some) are read as its head: not counted there */
		bool count_bad = o.pipe ? out.n > want : out.n != want;

		if (!in.oom && !out.oom &&
		    (count_bad || (j != out.n && r.records_written &&
				   !o.redact && !o.filter))) {
			fprintf(stderr,
				"copy: %zu records read back, %llu written, "
				"%zu of them in the input's order\n",
				out.n, (unsigned long long)r.records_written,
				j);
			abort();
		}
		check_codes(f, in_codes, sizeof(in_codes));
		check_codes(path, out_codes, sizeof(out_codes));
		for (size_t k = 0; k < sizeof(in_codes); k++)
			if (out_codes[k] && !in_codes[k]) {
				fprintf(stderr,
					"copy: check finds code %zu in the "
					"copy, not in the input\n",
					k);
				abort();
			}
	}
	free(in.h);
	free(out.h);
}

/* Every target, then every command in the formats they leave out. */
static void t_all(const uint8_t *data, size_t size)
{
	const char *f;

	for (const struct fuzz_target *t = fuzz_targets + 1; t->name; t++)
		if (t->run != t_formats)
			t->run(data, size);
	f = fuzz_file(data, size);
	header_way(f, !(size & 1));
	export_way(f, (size + 1) % 3);
	export_way(f, (size + 2) % 3);
	profile_way(f, (size + 1) % 3);
	tracepoint_way(f, (size + 1) % 3);
	tracepoint_way(f, (size + 2) % 3);
	redact_way(f, (size + 1) % 3);
	redact_way(f, (size + 2) % 3);
	diff_way(f, !(size & 1));
	for (unsigned way = 0; way < FORMAT_WAYS; way++)
		format_way(f, way);
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
	{"rootpath", "a path opened under a root by the walk, against openat2",
	 t_rootpath},
	{"tracepoint", "tracepoint formats, fields and prints", t_tracepoint},
	{"profile", "profile's walk, records --symbols (no files read)",
	 t_profile},
	{"dso", "an ELF as profile reads it: symbols, PLT, DWARF; kallsyms",
	 t_dso},
	{"redact", "--redact=comm: features, records, the summary", t_redact},
	{"export",
	 "export --to folded and chrome: the stacks model, the writers",
	 t_export},
	{"pprof", "export --to pprof, its output unpacked and its ids checked",
	 fuzz_pprof},
	{"diff", "diff: the input against a fixture, and itself", t_diff},
	{"formats",
	 "one command in a format the others leave out (-x, text, JSON)",
	 t_formats},
	{"copy", "the perf.data writer: a copy read back, checked", t_copy},
	{NULL, NULL, NULL},
};
