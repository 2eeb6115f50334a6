// SPDX-License-Identifier: MIT
/*
 * The fuzz harness (harness.h): the input as a memory file, commands run
 * with their output checked by the oracle (oracle.c) and discarded, the
 * target chosen by --target=NAME, and,
 * built with PD_FUZZ_REPLAY instead of libFuzzer, a plain program that
 * replays files through a target, so a crash reproduces anywhere:
 *
 *   build-asan/perfdump-replay [--target=NAME] FILE...
 *   build-asan/perfdump-replay --list
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fmt/redact.h"
#include "lib/session/evlist.h"
#include "lib/io/input_z.h"
#include "lib/session/torn.h"
#include "harness.h"
#include "oracle.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct fuzz_target *target; /* NULL: the first of the table */

/* The input is a zstd, xz or gzip stream: perfdump spools it (below). */
static bool compressed;

const struct fuzz_target *fuzz_find(const char *name)
{
	for (const struct fuzz_target *t = fuzz_targets; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static ssize_t to_oracle(void *cookie, const char *p, size_t n)
{
	(void)cookie;
	fuzz_oracle_write(p, n);
	return (ssize_t)n;
}

/*
 * Standard output to the oracle through a big buffer: no system call,
 * and every byte checked (oracle.c).
 */
static void capture_stdout(void)
{
	static FILE *f;
	static char buf[1 << 20];

	if (f)
		return;
	f = fopencookie(NULL, "w", (cookie_io_functions_t){.write = to_oracle});
	if (!f || setvbuf(f, buf, _IOFBF, sizeof(buf)))
		abort();
	stdout = f;
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("perfdump-fuzz", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

void fuzz_cmd(int (*cmd)(struct opts *o, int argc, char **argv),
	      const char *path, ...)
{
	struct opts o = {.fmt = EMIT_TEXT, .file = "perf.data", .quiet = true};
	enum fuzz_out kind = FUZZ_OUT_TEXT;
	bool refuses = false; /* may write nothing when it fails */
	char *argv[16];
	int argc = 0;
	va_list ap;
	const char *a;
	int rc;

	va_start(ap, path);
	while ((a = va_arg(ap, const char *)) && argc < 14) {
		if (!strcmp(a, "-j") || !strcmp(a, "-p"))
			kind = FUZZ_OUT_JSON;
		else if (!strcmp(a, "--json-lines"))
			kind = FUZZ_OUT_JSON_LINES;
		else if (!strcmp(a, "chrome")) /* export --to chrome's JSON */
			kind = FUZZ_OUT_JSON, refuses = true;
		argv[argc++] = (char *)a;
	}
	va_end(ap);
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	/*
	 * Reading a memory file or a pipe and writing /dev/null cannot fail:
	 * exit status 3 is the emitter's nesting check (or memory).
	 */
	fuzz_oracle_begin(kind, argv[0]);
	rc = cmd(&o, argc, argv);
	redact_free(o.red); /* --redact's, made by the option */
	/* a compressed input's spool may pass the 64 MiB file size limit */
	if (rc == EXIT_IO && !compressed) {
		fprintf(stderr, "fuzz: perfdump");
		for (int i = 0; i < argc - 1; i++)
			fprintf(stderr, " %s", argv[i]);
		fprintf(stderr, ": exit status 3\n");
		abort();
	}
	fflush(stdout);
	if (refuses && rc)
		fuzz_oracle_end_or_nothing();
	else
		fuzz_oracle_end();
}

struct emitter *fuzz_emit_begin(enum emit_format fmt, bool hex,
				const char *what)
{
	struct emitter *e;

	fuzz_oracle_begin(fmt == EMIT_TEXT	   ? FUZZ_OUT_TEXT
			  : fmt == EMIT_JSON_LINES ? FUZZ_OUT_JSON_LINES
						   : FUZZ_OUT_JSON,
			  what);
	e = emit_new(stdout, fmt, hex);
	if (!e)
		abort();
	emit_doc_begin(e, "perf.data");
	return e;
}

void fuzz_emit_end(struct emitter *e)
{
	emit_doc_end(e);
	if (!emit_free(e)) {
		fprintf(stderr, "fuzz: unbalanced output nesting\n");
		abort();
	}
	fflush(stdout);
	fuzz_oracle_end();
}

int fuzz_session(struct pd_session *s, const char *path)
{
	char err[256];

	if (pd_session_open(s, path, NULL, NULL, NULL, NULL, err, sizeof(err)) <
	    0)
		return -1;
	pd_note_torn(s);
	pd_decode_feature_deps(s);
	pd_evlist_load(s);
	return 0;
}

static void list(void)
{
	for (const struct fuzz_target *t = fuzz_targets; t->name; t++)
		printf("%-10s %s\n", t->name, t->what);
}

/* --target=NAME and --list; 0, or -1 for an unknown target. */
static int take_option(const char *arg)
{
	if (!strncmp(arg, "--target=", 9)) {
		target = fuzz_find(arg + 9);
		if (!target) {
			fprintf(stderr,
				"unknown fuzz target '%s'; these are:\n",
				arg + 9);
			for (const struct fuzz_target *t = fuzz_targets;
			     t->name; t++)
				fprintf(stderr, "  %s\n", t->name);
			return -1;
		}
	} else if (!strcmp(arg, "--list")) {
		list();
		exit(0);
	}
	return 0;
}

/*
 * A compressed file-mode input is decompressed to a temporary file,
 * bounded only by free space: a small zstd input can declare gigabytes.
 * Here the write fails at 64 MiB instead (EFBIG, SIGXFSZ ignored), as on
 * a full disk.  Once per process (libFuzzer, replay, mutate's children).
 */
static void limit_file_size(void)
{
	static bool done;
	struct rlimit fsize = {64u << 20, 64u << 20};

	if (done)
		return;
	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &fsize) < 0)
		abort();
	done = true;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	for (int i = 1; i < *argc; i++)
		if (take_option((*argv)[i]) < 0)
			exit(2);
	return 0;
}

/*
 * No kernel symbols from this machine: records reads them for a print's
 * %ps from perf's build-id cache and, when the running kernel is the
 * input's or the input names none, /proc/kallsyms (cli.c read_env);
 * tests/helpers.bash does the same.  Once per process, unless the caller
 * chose them.
 */
static void hermetic(void)
{
	setenv("PERF_BUILDID_DIR", "/nonexistent", 0);
	setenv("PERFDUMP_KERNEL_NOTES", "/dev/null", 0);
	setenv("PERFDUMP_PROC_KALLSYMS", "/nonexistent/perfdump-tests/kallsyms",
	       0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	capture_stdout();
	limit_file_size();
	hermetic();
	compressed = pd_unz_sniff(data, size) != PD_Z_NONE;
	(target ? target : fuzz_targets)->run(data, size);
	return 0;
}

uint8_t *fuzz_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return buf;
}

#ifdef PD_FUZZ_REPLAY

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		uint8_t *buf;
		size_t len;

		if (argv[i][0] == '-' && argv[i][1] == '-') {
			if (take_option(argv[i]) < 0)
				return 2;
			continue;
		}
		buf = fuzz_slurp(argv[i], &len);
		if (!buf) {
			perror(argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	return 0;
}
#endif
