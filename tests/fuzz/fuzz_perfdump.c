// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the whole pipeline (open, header, every feature decoder and
 * formatter, attrs, every record and sample decoder (tracepoint fields and
 * prints too, the time-ordered run through libtraceevent's own print
 * path), file and time order, text and JSON, with and without -x, some
 * under --redact=comm, stats, check, buildids with --hits, the summary,
 * profile by function and by thread (no file outside the recording is
 * looked at: an empty --symfs and build-id cache, a missing --vmlinux),
 * and the same bytes read as an in-memory ELF for a build-id note and for
 * everything profile reads from a DSO: symbols, PLT, DWARF lines, and as
 * kallsyms and a perf map (pd_dso_probe_mem)) on
 * arbitrary bytes, with the output discarded.  Built with libFuzzer by `make fuzz`; built
 * without it (PD_FUZZ_REPLAY) it is a plain program that replays files,
 * so a crash reproduces anywhere: build-asan/perfdump-replay FILE...
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../src/lib/buildid.h"
#include "../../src/lib/dso_elf.h"
#include "../../src/perfdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* red: --redact=comm's redactor, or NULL */
static void run_red(const char *cmd, const char *path, enum emit_format fmt,
		    bool hex, struct redactor *red)
{
	struct opts o = {.fmt = fmt,
			 .hex = hex,
			 .file = "perf.data",
			 .quiet = true,
			 .red = red};
	char *argv[] = {(char *)cmd, (char *)path, NULL};

	switch (cmd[0]) {
	case 'h': cmd_header(&o, 2, argv); break;
	case 'f': cmd_features(&o, 2, argv); break;
	case 'a': cmd_attrs(&o, 2, argv); break;
	case 'r': cmd_records(&o, 2, argv); break;
	case 's': cmd_stats(&o, 2, argv); break;
	case 'c': cmd_check(&o, 2, argv); break;
	case 'S': cmd_summary(&o, 2, argv); break;
	case 'b': { /* every source, the hits walk; no file lookups */
		char *bargv[] = {(char *)"buildids", (char *)"--hits",
				 (char *)"--no-resolve", (char *)path, NULL};

		cmd_buildids(&o, 4, bargv);
		break;
	}
	case 'p': { /* profile: nothing looked at outside the recording */
		char *pargv[] = {
			(char *)"profile",
			(char *)"--symfs",
			(char *)"/nonexistent",
			(char *)"--debug-dir",
			(char *)"/nonexistent",
			(char *)"--vmlinux",
			(char *)"/nonexistent",
			(char *)"--by",
			(char *)(fmt == EMIT_JSON ? "function" : "thread"),
			(char *)path,
			NULL};

		cmd_profile(&o, 10, pargv);
		break;
	}
	case 't': { /* records in time order */
		char *targv[] = {(char *)"records", (char *)"--order",
				 (char *)"time", (char *)path, NULL};

		cmd_records(&o, 4, targv);
		break;
	}
	}
	fflush(stdout);
	clearerr(stdout);
}

static void run(const char *cmd, const char *path, enum emit_format fmt,
		bool hex)
{
	run_red(cmd, path, fmt, hex, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	char path[64];
	int fd;

	if (!init) {
		/* discard the output: only crashes matter here */
		if (!freopen("/dev/null", "w", stdout))
			abort();
		/*
		 * A compressed file-mode input is decompressed to a temporary
		 * file, bounded only by free space: a small zstd input can
		 * declare gigabytes.  Here the write fails at 64 MiB instead
		 * (EFBIG, SIGXFSZ ignored), as on a full disk.
		 */
		struct rlimit fsize = {64u << 20, 64u << 20};

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &fsize) < 0)
			abort();
		init = true;
	}
	fd = memfd_create("perfdump-fuzz", 0);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	struct redactor *red = redact_new();

	if (!red)
		abort();
	redact_set_comm(red, true);
	run("header", path, EMIT_TEXT, false);
	run("header", path, EMIT_JSON, true);
	run("features", path, EMIT_TEXT, true);
	run_red("features", path, EMIT_JSON_PRETTY, false, red);
	run("attrs", path, EMIT_JSON, true);
	run("records", path, EMIT_TEXT, true);
	run_red("records", path, EMIT_JSON, false, red);
	run("Summary", path, EMIT_TEXT, false);
	redact_free(red);
	/* tracepoint prints through libtraceevent's print path too */
	setenv("PERFDUMP_TP_PRINT", "libtraceevent", 1);
	run("time-ordered records", path, EMIT_JSON_LINES, false);
	unsetenv("PERFDUMP_TP_PRINT");
	run("stats", path, EMIT_TEXT, false);
	run("stats", path, EMIT_JSON, false);
	run("check", path, EMIT_JSON, false);
	run("buildids", path, EMIT_JSON, false);
	run("profile", path, EMIT_JSON, false);
	run("profile", path, EMIT_TEXT, false);
	close(fd);

	uint8_t id[64];
	size_t idlen = sizeof(id);

	pd_elf_build_id_mem(data, size, id, &idlen);
	pd_dso_probe_mem(data, size);
	return 0;
}

#ifdef PD_FUZZ_REPLAY
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? cap * 2 : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	return 0;
}
#endif
