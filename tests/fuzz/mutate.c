// SPDX-License-Identifier: MIT
/*
 * Mutation test: every input file cut at many offsets and with a few
 * hundred random bytes changed, each mutant run through the whole
 * pipeline (LLVMFuzzerTestOneInput of harness.c, target "perfdump": header, features,
 * attrs, records in file and time order, text and JSON) in a forked
 * child, two at a time.  A mutant fails when its child dies of a signal,
 * exits non-zero (a sanitizer report exits or aborts), prints a sanitizer
 * report, runs longer than -t seconds or peaks above -m MiB of RSS
 * (wait4's ru_maxrss).  Failing mutants are written to -o DIR with the
 * seed and the mutation in their name, so build-asan/perfdump-replay
 * reproduces them; the exit status is then 1.
 *
 * Built against the ASan + UBSan objects (make SANITIZE=1
 * build-asan/perfdump-mutate) and run by `make mutate`, which sets
 * ASAN_OPTIONS so that the RSS bound means something: a small quarantine
 * (freed memory is otherwise kept, 256 MiB of it by default) and
 * max_allocation_size_mb, so one huge allocation is a report, not an OOM.
 *
 * Mutants per file (all reproducible from the seed; each file's mutants
 * depend only on the seed, the file's name and the mutant's index):
 *   - truncations at every structure boundary +-1 the parser can see
 *     (header fields, attrs, data section, the first and last records,
 *     the feature table and each feature section) and at an even spread
 *     of other offsets;
 *   - -n mutants with 1 to 4 bytes changed (random offset, random xor),
 *     a third of them instead setting an aligned 2-, 4- or 8-byte word
 *     (a count, size or offset) to an edge value (0, 0xffff, ~0, ...).
 * Run time budget: the whole test should take under 3 minutes on 2 cores
 * under ASan (measured: 113 files, 14184 mutants, 156 s, peak RSS 62 MiB).
 * A mutant of a big file costs as much as the file, so:
 *   - flips of files larger than PREFIX_MAX (64 KiB) are made in its first
 *     64 KiB and the mutant is that prefix (header, attrs, first records:
 *     where most of the structure is);
 *   - the unmutated file runs first, and its time sets the budget: flip
 *     mutants get FLIP_BUDGET_MS of core time per file (at least
 *     MIN_FLIPS, at most -n), cuts CUT_BUDGET_MS (cuts past 4 KiB thinned
 *     out evenly).  zstd files that expand 30-fold get the fewest.
 * The counts therefore depend on the machine's speed; each mutant does
 * not, and the per-file line says how many each file got.  A failing
 * mutant is saved whole, so it replays anywhere.
 *
 * -T SECONDS bounds the whole run: each file gets an equal share of the
 * time left (so a file that ran short leaves more to the next ones), and
 * its mutants run in an order where every prefix is an even sample: the
 * cuts spread over the file (bit-reversed order), flips and cuts
 * interleaved in their proportion.  When the share is spent no new batch
 * starts, once -M MIN mutants (32 by default, in batches of 8 after the
 * file itself) have started; the per-file line says how many of its
 * mutants ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PREFIX_MAX  (64u << 10)
#define MAX_CUTS    128
#define SPREAD_CUTS 48
#define MIN_FLIPS   24
/* core milliseconds of flip mutants a file may cost before it gets fewer */
#define FLIP_BUDGET_MS 500
#define CUT_BUDGET_MS  300
/* mutants per forked worker under -T (the share is checked between batches) */
#define BATCH_T 8

struct mutant {
	size_t len; /* the mutant is the first len bytes ... */
	int nflip;  /* ... with nflip bytes xor-ed */
	size_t off[8];
	uint8_t x[8];
	int index;
};

static uint64_t seed = 20240601;
static int jobs = 2;
static unsigned timeout_s = 10;
static long max_rss_mb = 256;
static int nflips = 300;
static const char *outdir = "tests/fuzz";
static double total_s; /* -T: the whole run's time, 0 for no bound */
/* -M: mutants a file runs under -T even when its share of the time is spent */
static int min_run = 32;
static struct timespec run_t0;

/* totals */
static unsigned long n_mutants, n_fail;
static long peak_rss_kb;
static char peak_rss_file[256];
static double slowest_ms;

/* ---------------------------------------------------------------- PRNG */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (const char *p = strrchr(s, '/') ? strrchr(s, '/') + 1 : s; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	return h;
}

/* ------------------------------------------------------- cut offsets */

struct offs {
	size_t *v;
	size_t n, cap;
};

static void add(struct offs *o, uint64_t off)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 256;
		o->v = realloc(o->v, o->cap * sizeof(*o->v));
		if (!o->v)
			abort();
	}
	o->v[o->n++] = off > SIZE_MAX ? SIZE_MAX : (size_t)off;
}

static void add3(struct offs *o, uint64_t off)
{
	if (off)
		add(o, off - 1);
	add(o, off);
	if (off < UINT64_MAX)
		add(o, off + 1);
}

static uint64_t rd(const uint8_t *b, size_t n, uint64_t off, int w, int swap)
{
	uint64_t v = 0;

	if (off > n || n - off < (size_t)w)
		return 0;
	for (int i = 0; i < w; i++)
		v |= (uint64_t)b[off + (swap ? i : w - 1 - i)]
		     << (8 * (w - 1 - i));
	return v;
}

/* Record boundaries from `start` to `end`: the first 64 and the last 16. */
static void add_records(struct offs *o, const uint8_t *b, size_t n,
			uint64_t start, uint64_t end, int swap)
{
	uint64_t last[16];
	unsigned long nrec = 0;
	uint64_t at = start;

	if (end > n)
		end = n;
	while (at + 8 <= end) {
		uint16_t size = (uint16_t)rd(b, n, at + 6, 2, swap);

		if (nrec < 64)
			add3(o, at);
		last[nrec % 16] = at;
		nrec++;
		if (size < 8)
			break;
		at += size;
	}
	for (unsigned long i = 0; i < 16 && i < nrec; i++)
		add3(o, last[i]);
	add3(o, at);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The cut offsets for a file of n bytes, sorted, unique, all < n. */
static void cut_offsets(struct offs *o, const uint8_t *b, size_t n)
{
	static const unsigned fixed[] = {0,  1,	 4,  7,	 8,  9,	 15,  16,  17,
					 23, 24, 25, 31, 32, 39, 40,  47,  48,
					 55, 56, 63, 64, 71, 72, 103, 104, 105};
	int swap;

	o->n = 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add(o, fixed[i]);
	if (n >= 16 && !memcmp(b, "PERFILE2", 8))
		swap = 0;
	else if (n >= 16 && !memcmp(b, "2ELIFREP", 8))
		swap = 1;
	else
		swap = -1;
	if (swap >= 0) {
		uint64_t hsize = rd(b, n, 8, 8, swap);

		add3(o, hsize);
		if (hsize == 16) { /* pipe mode */
			add_records(o, b, n, 16, n, swap);
		} else {
			uint64_t attr_size = rd(b, n, 16, 8, swap);
			uint64_t ao = rd(b, n, 24, 8, swap),
				 as = rd(b, n, 32, 8, swap);
			uint64_t dof = rd(b, n, 40, 8, swap),
				 ds = rd(b, n, 48, 8, swap);
			unsigned nfeat = 0;

			add3(o, ao);
			add3(o, ao + as);
			for (uint64_t a = ao; attr_size && a < ao + as && a < n;
			     a += attr_size) {
				add3(o, a);
				add3(o,
				     a + attr_size - 16); /* the ids section */
			}
			add3(o, dof);
			add3(o, dof + ds);
			add_records(o, b, n, dof, ds ? dof + ds : n, swap);
			for (int i = 0; i < 256 && hsize >= 104; i++)
				if (rd(b, n, 72 + (uint64_t)i / 64 * 8, 8,
				       swap) >>
					    (i % 64) &
				    1)
					nfeat++;
			for (unsigned i = 0; i < nfeat && ds; i++) {
				uint64_t e = dof + ds + 16ull * i;

				add3(o, e);
				add3(o, rd(b, n, e, 8, swap));
				add3(o, rd(b, n, e, 8, swap) +
						rd(b, n, e + 8, 8, swap));
			}
		}
	}
	for (int i = 1; i < SPREAD_CUTS; i++)
		add(o, (uint64_t)n * (uint64_t)i / SPREAD_CUTS);
	qsort(o->v, o->n, sizeof(*o->v), cmp_size);
	size_t k = 0;

	for (size_t i = 0; i < o->n; i++)
		if (o->v[i] < n && (k == 0 || o->v[i] != o->v[k - 1]))
			o->v[k++] = o->v[i];
	o->n = k;
	if (o->n > MAX_CUTS) { /* keep an even selection */
		for (size_t i = 0; i < MAX_CUTS; i++)
			o->v[i] = o->v[i * o->n / MAX_CUTS];
		o->n = MAX_CUTS;
	}
}

/* ------------------------------------------------------------ running */

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void describe(const struct mutant *m, char *buf, size_t len)
{
	int k = snprintf(buf, len, "cut%zu", m->len);

	for (int i = 0; i < m->nflip && k > 0 && (size_t)k < len; i++)
		k += snprintf(buf + k, len - (size_t)k, "-x%zu^%02x", m->off[i],
			      m->x[i]);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* xor the mutant's bytes in (and, called again, out) */
static void apply(uint8_t *buf, const struct mutant *m)
{
	for (int i = 0; i < m->nflip; i++)
		buf[m->off[i]] ^= m->x[i];
}

static void print_stderr(int fd)
{
	char tail[4096];
	ssize_t r;

	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
		return;
	r = read(fd, tail, sizeof(tail) - 1);
	if (r > 0) {
		tail[r] = 0;
		printf("  stderr: %s\n", tail);
	}
}

static void save_failure(const char *file, uint8_t *buf, const struct mutant *m,
			 const char *why, int errfd)
{
	char desc[160], path[512];
	FILE *f;

	describe(m, desc, sizeof(desc));
	snprintf(path, sizeof(path), "%s/mutant-%s-s%llu-%d-%s.data", outdir,
		 base_name(file), (unsigned long long)seed, m->index, desc);
	apply(buf, m);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, m->len, f) != m->len || fclose(f) != 0)
		fprintf(stderr, "mutate: cannot write %s: %s\n", path,
			strerror(errno));
	apply(buf, m);
	printf("FAIL %s mutant %d (seed %llu, %s): %s\n  saved as %s\n", file,
	       m->index, (unsigned long long)seed, desc, why, path);
	print_stderr(errfd);
	fflush(stdout);
	n_fail++;
}

static bool sanitizer_report(int fd)
{
	char b[8192];
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return false;
	r = read(fd, b, sizeof(b) - 1);
	if (r <= 0)
		return false;
	b[r] = 0;
	return strstr(b, "Sanitizer") || strstr(b, "runtime error:");
}

/*
 * A worker runs a batch of up to BATCH mutants one after the other (a
 * fork per mutant costs more than a small file's whole pipeline), each
 * with its own alarm, telling the parent through shared memory which one
 * it is in.  Its peak RSS bounds every one of them.  The last batches of a
 * file share what is left between the workers.  When a batch fails,
 * its mutants from the one that was running on are run again one per
 * worker, which says exactly which mutant fails.
 */
#define BATCH 32

struct shared {
	volatile int cur;	   /* mutant of the batch being run */
	volatile double ms[BATCH]; /* each one's run time */
};

struct slot {
	pid_t pid;
	int idx[BATCH], n; /* the batch: indices into mutants[] */
	struct shared *sh;
	int errfd;
};

struct file_run {
	const char *file;
	uint8_t *buf;
	struct mutant *m;
	int n;
	int *retry, nretry; /* mutants to run alone */
	long max_rss_kb;
	double max_ms, total_ms;
	unsigned long fails;
	struct timespec t0; /* when the file's mutants began */
	double share_ms;    /* -T: the file's share of the time, else 0 */
	int ran;	    /* mutants started */
};

static void done_ok(struct file_run *fr, double ms)
{
	n_mutants++;
	fr->total_ms += ms;
	if (ms > fr->max_ms)
		fr->max_ms = ms;
	if (ms > slowest_ms)
		slowest_ms = ms;
}

static void reap(struct slot *slots, struct file_run *fr)
{
	struct rusage ru;
	int st, i;
	pid_t pid = wait4(-1, &st, 0, &ru);

	if (pid < 0) {
		perror("mutate: wait4");
		exit(2);
	}
	for (i = 0; i < jobs && slots[i].pid != pid; i++)
		;
	if (i == jobs)
		return;

	struct slot *s = &slots[i];
	char why[160];
	int cur = s->sh->cur;

	s->pid = 0;
	if (ru.ru_maxrss > fr->max_rss_kb)
		fr->max_rss_kb = ru.ru_maxrss;
	if (ru.ru_maxrss > peak_rss_kb) {
		peak_rss_kb = ru.ru_maxrss;
		snprintf(peak_rss_file, sizeof(peak_rss_file), "%s", fr->file);
	}
	why[0] = 0;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		snprintf(why, sizeof(why), "still running after %u s",
			 timeout_s);
	else if (WIFSIGNALED(st))
		snprintf(why, sizeof(why), "killed by signal %d (%s)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WEXITSTATUS(st) != 0)
		snprintf(why, sizeof(why), "exit status %d", WEXITSTATUS(st));
	else if (ru.ru_maxrss > max_rss_mb * 1024)
		snprintf(why, sizeof(why), "peak RSS %ld MiB > %ld MiB",
			 ru.ru_maxrss / 1024, max_rss_mb);
	else if (sanitizer_report(s->errfd))
		snprintf(why, sizeof(why), "sanitizer report");
	if (!why[0]) {
		for (int k = 0; k < s->n; k++)
			done_ok(fr, s->sh->ms[k]);
	} else if (s->n == 1) {
		done_ok(fr, s->sh->ms[0]);
		save_failure(fr->file, fr->buf, &fr->m[s->idx[0]], why,
			     s->errfd);
	} else {
		/* those before `cur` passed; the rest run again, alone */
		if (cur < 0 || cur >= s->n || !WIFSIGNALED(st) ||
		    ru.ru_maxrss > max_rss_mb * 1024)
			cur = 0; /* failed at exit (a leak) or on RSS: all */
		for (int k = 0; k < cur; k++)
			done_ok(fr, s->sh->ms[k]);
		for (int k = cur; k < s->n; k++)
			fr->retry[fr->nretry++] = s->idx[k];
	}
	close(s->errfd);
}

static void spawn(struct slot *s, struct file_run *fr, const int *idx, int n)
{
	char tmpl[] = "/tmp/perfdump-mutate-XXXXXX";
	int fd = mkstemp(tmpl);

	if (fd < 0) {
		perror("mutate: mkstemp");
		exit(2);
	}
	unlink(tmpl);
	fflush(stdout);
	fflush(stderr);
	memcpy(s->idx, idx, (size_t)n * sizeof(*idx));
	s->n = n;
	s->errfd = fd;
	s->sh->cur = -1;
	s->pid = fork();
	if (s->pid < 0) {
		perror("mutate: fork");
		exit(2);
	}
	if (s->pid == 0) {
		dup2(fd, 2);
		for (int k = 0; k < n; k++) {
			const struct mutant *m = &fr->m[idx[k]];
			struct timespec t0;

			s->sh->cur = k;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			alarm(timeout_s);
			apply(fr->buf, m);
			LLVMFuzzerTestOneInput(fr->buf, m->len);
			apply(fr->buf, m);
			alarm(0);
			s->sh->ms[k] = ms_since(&t0);
		}
		s->sh->cur = n;
		exit(0);
	}
}

/* Run mutants [first, last) of fr, then every retry, and wait for all. */
static void run_all(struct slot *slots, struct file_run *fr, int first,
		    int last)
{
	for (;;) {
		int i, busy = 0;

		for (i = 0; i < jobs; i++)
			busy += slots[i].pid != 0;
		for (i = 0; i < jobs && slots[i].pid; i++)
			;
		if (i < jobs && fr->nretry) {
			spawn(&slots[i], fr, &fr->retry[--fr->nretry], 1);
		} else if (i < jobs && first < last && fr->share_ms > 0 &&
			   fr->ran >= min_run &&
			   ms_since(&fr->t0) >= fr->share_ms) {
			last = first; /* the file's share of -T is spent */
		} else if (i < jobs && first < last) {
			int idx[BATCH], n = 0;
			int share = (last - first + jobs - 1) / jobs;
			int max = fr->share_ms > 0 ? BATCH_T : BATCH;

			while (n < max && n < share && first < last)
				idx[n++] = first++;
			fr->ran += n;
			spawn(&slots[i], fr, idx, n);
		} else if (busy) {
			reap(slots, fr);
		} else {
			return;
		}
	}
}

/* Bit-reversed order of 0..n-1: every prefix is spread over the range. */
static void spread_order(int *out, int n)
{
	int bits = 0, k = 0;

	while ((1 << bits) < n)
		bits++;
	for (int i = 0; i < (1 << bits); i++) {
		int r = 0;

		for (int b = 0; b < bits; b++)
			if (i >> b & 1)
				r |= 1 << (bits - 1 - b);
		if (r < n)
			out[k++] = r;
	}
}

/*
 * Under -T: mutants 1..nm-1 (ncuts cuts, then flips) reordered so that
 * every prefix holds cuts spread over the file and flips, in proportion.
 */
static void interleave(struct mutant *m, int nm, int ncuts)
{
	int nflip = nm - 1 - ncuts, ci = 0, fi = 0;
	int *order = calloc((size_t)ncuts + 1, sizeof(*order));
	struct mutant *tmp = calloc((size_t)nm, sizeof(*tmp));

	if (!order || !tmp)
		abort();
	spread_order(order, ncuts);
	for (int k = 1; k < nm; k++) {
		/* the list that is further behind its share goes next */
		if (fi >= nflip ||
		    (ci < ncuts && (double)ci * nflip <= (double)fi * ncuts))
			tmp[k] = m[1 + order[ci++]];
		else
			tmp[k] = m[1 + ncuts + fi++];
	}
	memcpy(m + 1, tmp + 1, (size_t)(nm - 1) * sizeof(*m));
	free(tmp);
	free(order);
}

static int mutate_file(struct slot *slots, const char *file, int files_left)
{
	struct file_run fr = {.file = file};
	struct offs cuts = {0};
	size_t size, len, ncuts = 0;
	unsigned long fails = n_fail;
	int flips, nm = 0;
	double base_ms, cut_cost = 0;

	fr.buf = fuzz_slurp(file, &size);
	if (!fr.buf) {
		printf("FAIL %s: cannot read: %s\n", file, strerror(errno));
		n_fail++;
		return -1;
	}
	len = size > PREFIX_MAX ? PREFIX_MAX : size;
	cut_offsets(&cuts, fr.buf, size);
	fr.m = calloc(cuts.n + (size_t)nflips + 1, sizeof(*fr.m));
	fr.retry = calloc(cuts.n + (size_t)nflips + 1, sizeof(*fr.retry));
	if (!fr.m || !fr.retry)
		abort();

	clock_gettime(CLOCK_MONOTONIC, &fr.t0);
	if (total_s > 0) {
		double left = total_s * 1e3 - ms_since(&run_t0);

		/* no share left: min_run mutants, then the next file */
		fr.share_ms = left > files_left ? left / files_left : 1;
	}
	/* the file itself first: its cost sets how many mutants it gets */
	fr.m[nm] = (struct mutant){.len = size, .index = nm};
	nm++;
	run_all(slots, &fr, 0, nm);
	base_ms = fr.max_ms > 0.1 ? fr.max_ms : 0.1;

	/* a cut costs about its share of the file: thin the far ones out */
	for (size_t i = 0; i < cuts.n; i++)
		cut_cost += base_ms * (double)cuts.v[i] / (double)size;
	for (size_t i = 0; i < cuts.n; i++) {
		double keep = CUT_BUDGET_MS * jobs / cut_cost;

		if (cuts.v[i] > 4096 && keep < 1 &&
		    (size_t)(i * keep) == (size_t)((i + 1) * keep))
			continue;
		fr.m[nm] = (struct mutant){.len = cuts.v[i], .index = nm};
		nm++;
		ncuts++;
	}

	flips = nflips;
	if (size > PREFIX_MAX) /* the prefix costs about that much less */
		base_ms = base_ms * (double)PREFIX_MAX / (double)size;
	if (base_ms * flips > FLIP_BUDGET_MS * jobs)
		flips = (int)(FLIP_BUDGET_MS * jobs / base_ms);
	if (flips < MIN_FLIPS)
		flips = MIN_FLIPS;
	if (flips > nflips)
		flips = nflips;
	for (int i = 0; i < flips && len; i++) {
		uint64_t rng = seed ^ hash_name(file) ^
			       (uint64_t)i * 0x2545f4914f6cdd1dull;
		struct mutant *m = &fr.m[nm];

		*m = (struct mutant){.len = len, .index = nm};
		nm++;
		if (splitmix(&rng) % 3 == 0) {
			/* an edge value over an aligned count, size or offset */
			static const uint64_t edge[] = {
				0,
				1,
				7,
				8,
				0x7f,
				0xff,
				0x7fff,
				0xffff,
				0x7fffffff,
				0xffffffff,
				0x100000000ull,
				UINT64_MAX,
				0x7fffffffffffffffull,
			};
			uint64_t r = splitmix(&rng);
			int w = 2 << (r % 3); /* 2, 4 or 8 bytes */
			uint64_t v = edge[(r >> 8) %
					  (sizeof(edge) / sizeof(edge[0]))];
			size_t at =
				(size_t)((r >> 16) %
					 (len > 4096 && (r & 8) ? 4096 : len));

			at &= ~(size_t)(w - 1);
			for (int k = 0; k < w && at + (size_t)k < len; k++) {
				uint8_t b =
					(uint8_t)(v >>
						  (8 * k)); /* little-endian */

				if (b != fr.buf[at + (size_t)k]) {
					m->off[m->nflip] = at + (size_t)k;
					m->x[m->nflip++] =
						b ^ fr.buf[at + (size_t)k];
				}
			}
			continue;
		}
		m->nflip = 1 + (int)(splitmix(&rng) % 4);
		for (int k = 0; k < m->nflip; k++) {
			uint64_t r = splitmix(&rng);

			/* half of the changes land in the first 4 KiB: the
			 * header, attrs, first records, most of the structure */
			m->off[k] =
				(size_t)((r >> 8) %
					 ((r & 1) && len > 4096 ? 4096 : len));
			m->x[k] = (uint8_t)(splitmix(&rng) % 255 + 1);
		}
		/* no two changes at one offset (they could cancel out) */
		for (int k = 1; k < m->nflip; k++)
			for (int j = 0; j < k; j++)
				if (m->off[k] == m->off[j])
					m->nflip = k;
	}
	if (fr.share_ms > 0)
		interleave(fr.m, nm, (int)ncuts);
	fr.ran = 0;
	run_all(slots, &fr, 1, nm);
	printf("%-4s %s: %zu bytes%s, %zu cuts + %d flip mutants",
	       n_fail > fails ? "FAIL" : "ok", file, size,
	       size > PREFIX_MAX ? " (flips in the first 64 KiB)" : "", ncuts,
	       flips);
	if (fr.ran < nm - 1)
		printf(" (%d of them in its %.1f s of -T)", fr.ran,
		       fr.share_ms / 1e3);
	printf(", %.0f ms each on average, slowest %.0f ms, peak RSS %ld MiB\n",
	       fr.total_ms / (fr.ran + 1), fr.max_ms,
	       (fr.max_rss_kb + 1023) / 1024);
	fflush(stdout);
	free(cuts.v);
	free(fr.m);
	free(fr.retry);
	free(fr.buf);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: perfdump-mutate [-s SEED] [-n FLIPS] [-j JOBS] "
			"[-t SECONDS] [-m MIB]\n"
			"                       [-T SECONDS [-M MIN]] [-o DIR] "
			"FILE...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct slot slots[16];
	struct timespec t0;
	struct shared *sh;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:j:t:m:o:T:M:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': nflips = atoi(optarg); break;
		case 'j': jobs = atoi(optarg); break;
		case 't': timeout_s = (unsigned)atoi(optarg); break;
		case 'm': max_rss_mb = atol(optarg); break;
		case 'o': outdir = optarg; break;
		case 'T': total_s = strtod(optarg, NULL); break;
		case 'M': min_run = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind >= argc || jobs < 1 || jobs > 16 || nflips < 0 ||
	    min_run < 1)
		usage();
	memset(slots, 0, sizeof(slots));
	sh = mmap(NULL, sizeof(*sh) * (size_t)jobs, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mutate: mmap");
		return 2;
	}
	for (int i = 0; i < jobs; i++)
		slots[i].sh = &sh[i];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run_t0 = t0;
	printf("mutate: seed %llu, %d jobs, limits %u s and %ld MiB per mutant"
	       "%s (replay a failure: build-asan/perfdump-replay FILE)\n",
	       (unsigned long long)seed, jobs, timeout_s, max_rss_mb,
	       total_s > 0 ? ", the whole run bounded by -T" : "");
	int nfiles = 0, left = 0;
	struct stat sb;

	for (int i = optind; i < argc; i++)
		left += stat(argv[i], &sb) == 0 && S_ISREG(sb.st_mode);
	for (int i = optind; i < argc; i++) {
		if (stat(argv[i], &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		mutate_file(slots, argv[i], left--);
		nfiles++;
	}
	printf("mutate: seed %llu: %lu mutants of %d files in %.1f s; peak RSS "
	       "%ld MiB (%s), slowest mutant %.0f ms; %lu failed\n",
	       (unsigned long long)seed, n_mutants, nfiles, ms_since(&t0) / 1e3,
	       (peak_rss_kb + 1023) / 1024, peak_rss_file, slowest_ms, n_fail);
	return n_fail ? 1 : 0;
}
