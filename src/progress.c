// SPDX-License-Identifier: MIT
/*
 * The progress line: on stderr, when it is a terminal and a command has
 * read its input for more than a second (PERFDUMP_PROGRESS_DELAY_MS, for
 * the tests), one line redrawn four times a second and erased when the
 * work is done:
 *
 *   perfdump: FILE: 120.0 MiB of 800.0 MiB (15%), 310.2 MiB/s
 *
 * The bytes are the input layer's own count (pd_input_count), read on a
 * helper thread.  The main thread holds the line off while it writes a
 * message to stderr (progress_hold), and stops it before writing output
 * to the same terminal.  One line per process: its state is here.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "perfdump.h"

#define TICK_MS 250

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th;
	bool running, stop;
	bool drawn;		     /* the line is on the terminal */
	struct timespec start, next; /* CLOCK_MONOTONIC */
	long delay_ms;
	struct pd_input_count *count;
	char file[200]; /* escaped */
	/* the phase the rate is measured over */
	const char *doing;
	struct timespec phase_start;
	uint64_t last;
} P = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void add_ms(struct timespec *t, long ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += (ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void put_buf(void *ctx, const char *p, size_t n)
{
	char *b = ctx;
	size_t len = strlen(b);

	if (len + n < sizeof(P.file)) {
		memcpy(b + len, p, n);
		b[len + n] = 0;
	}
}

/* Write all of s to stderr (a terminal: short writes are rare). */
static void put_err(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void erase(void)
{
	if (P.drawn)
		put_err("\r\033[K", 4);
	P.drawn = false;
}

/* Draw the line (P.mu held). */
static void draw(void)
{
	char line[512], d[32], t[32], r[32], what[64] = "";
	uint64_t done, total;
	const char *doing;
	struct winsize ws;
	double secs;
	int n;

	pd_input_count_get(P.count, &done, &total, &doing);
	if (!done && !total && !doing)
		return; /* the input is not open yet: nothing to say */
	if (doing != P.doing || done < P.last) {
		P.doing = doing; /* a new phase: its own rate */
		clock_gettime(CLOCK_MONOTONIC, &P.phase_start);
	}
	P.last = done;
	secs = since(&P.phase_start);
	format_human_size(r, sizeof(r),
			  secs > 0.01 ? (uint64_t)((double)done / secs) : 0);
	/* bytes read again (attrs, a second pass) show as 100% at most */
	if (total && done > total)
		done = total;
	format_human_size(d, sizeof(d), done);
	if (doing)
		snprintf(what, sizeof(what), "%s ", doing);
	if (total) {
		format_human_size(t, sizeof(t), total);
		n = snprintf(line, sizeof(line),
			     "\rperfdump: %s: %s%s of %s "
			     "(%d%%), %s/s\033[K",
			     P.file, what, d, t, (int)(done * 100 / total), r);
	} else {
		n = snprintf(line, sizeof(line),
			     "\rperfdump: %s: %s%s read, %s/s\033[K", P.file,
			     what, d, r);
	}
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	/* one row, or the erase would leave the rest: cut to the width */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8 &&
	    (size_t)n - 4 >= ws.ws_col) {
		n = (int)ws.ws_col - 1 + 1; /* the \r, and one column spare */
		memcpy(line + n, "\033[K", 3);
		n += 3;
	}
	put_err(line, (size_t)n);
	P.drawn = true;
}

static void *run(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&P.mu);
	while (!P.stop) {
		int rc = pthread_cond_timedwait(&P.cv, &P.mu, &P.next);

		if (P.stop)
			break;
		if (rc == ETIMEDOUT) {
			draw();
			add_ms(&P.next, TICK_MS);
		}
	}
	pthread_mutex_unlock(&P.mu);
	return NULL;
}

void progress_start(const struct opts *o, const char *file,
		    struct pd_input_count *count)
{
	pthread_condattr_t ca;
	const char *env = getenv("PERFDUMP_PROGRESS_DELAY_MS");

	if (P.running || o->no_progress || o->quiet || !isatty(STDERR_FILENO))
		return;
	P.delay_ms = env && *env ? atol(env) : 1000;
	if (P.delay_ms < 0)
		P.delay_ms = 0;
	P.count = count;
	P.file[0] = 0;
	text_escape(file, strlen(file), false, put_buf, P.file);
	P.stop = P.drawn = false;
	P.doing = NULL;
	P.last = 0;
	clock_gettime(CLOCK_MONOTONIC, &P.start);
	P.phase_start = P.next = P.start;
	add_ms(&P.next, P.delay_ms);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&P.cv, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&P.th, NULL, run, NULL) != 0) {
		pthread_cond_destroy(&P.cv);
		return;
	}
	P.running = true;
}

void progress_stop(void)
{
	if (!P.running)
		return;
	pthread_mutex_lock(&P.mu);
	P.stop = true;
	pthread_cond_signal(&P.cv);
	pthread_mutex_unlock(&P.mu);
	pthread_join(P.th, NULL);
	pthread_cond_destroy(&P.cv);
	P.running = false;
	/*
	 * Work that took longer than the delay shows its line, even when it
	 * ended before the thread's first tick: then its last state.
	 */
	if (!P.drawn && since(&P.start) * 1000 >= (double)P.delay_ms)
		draw();
	erase();
}

void progress_hold(void)
{
	pthread_mutex_lock(&P.mu);
	erase();
}

void progress_release(void)
{
	pthread_mutex_unlock(&P.mu);
}
