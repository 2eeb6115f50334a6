// SPDX-License-Identifier: MIT
/*
 * The tests' tracepoint oracle: libtraceevent's own print output of a
 * RAW payload, as `perf script` asks for it
 * (tools/perf/util/trace-event-parse.c event_format__fprintf:
 * tep_print_event(..., "%s", TEP_PRINT_INFO)).  perfdump does not link
 * libtraceevent; tests/tp_oracle.py compares its print outputs with this
 * program's, sample by sample, on the fixtures (trusted input only:
 * libtraceevent reads the payload as the format says, unbounded).
 *
 * Each line of standard input: "FILE OFFSET SIZE BIG_ENDIAN LONG_SIZE
 * SYSTEM HEX": the format text is SIZE bytes at OFFSET of FILE, the
 * payload is HEX.  Each line of output: the print output, its bytes
 * outside printable ASCII as \xNN, or "!" and why there is none.
 */
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

static char *read_text(const char *path, long off, size_t n)
{
	FILE *f = fopen(path, "rb");
	char *t = malloc(n + 1);

	if (!f || !t || fseek(f, off, SEEK_SET) || fread(t, 1, n, f) != n) {
		if (f)
			fclose(f);
		free(t);
		return NULL;
	}
	fclose(f);
	t[n] = 0;
	return t;
}

static size_t unhex(const char *h, unsigned char *out, size_t cap)
{
	size_t n = 0;
	unsigned v;

	while (n < cap && sscanf(h + 2 * n, "%2x", &v) == 1)
		out[n++] = (unsigned char)v;
	return n;
}

static void put_escaped(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\')
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('\n');
}

static void one(const char *path, long off, size_t size, int be, int lsz,
		const char *sys, const char *hex)
{
	static unsigned char data[1 << 16];
	struct tep_record rec = {0};
	struct trace_seq seq;
	struct tep_handle *tep = tep_alloc();
	char *text = read_text(path, off, size);

	if (!tep || !text) {
		puts("! cannot read the format");
		goto out;
	}
	tep_set_file_bigendian(tep, be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, lsz);
	tep_set_page_size(tep, 4096);
	if (tep_parse_event(tep, text, size, sys) != 0) {
		puts("! libtraceevent does not parse the format");
		goto out;
	}
	memset(data, 0, 64);
	rec.size = (int)unhex(hex, data, sizeof(data) - 64);
	rec.data = data;
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	put_escaped(seq.buffer, seq.len);
	trace_seq_destroy(&seq);
out:
	free(text);
	if (tep)
		tep_free(tep);
}

int main(void)
{
	static char line[1 << 18];

	tep_set_loglevel(TEP_LOG_NONE);
	while (fgets(line, sizeof(line), stdin)) {
		char path[4096], sys[256], hex[1 << 17];
		long off;
		size_t size;
		int be, lsz;

		if (sscanf(line, "%4095s %ld %zu %d %d %255s %131071s", path,
			   &off, &size, &be, &lsz, sys, hex) != 7) {
			puts("! bad request");
			continue;
		}
		one(path, off, size, be, lsz, sys, hex);
		fflush(stdout);
	}
	return 0;
}
