// SPDX-License-Identifier: MIT
/*
 * libtraceevent's parse of a tracing data blob, tried first in a child
 * process (tp_int.h: pd_tp_probe).
 *
 * libtraceevent parses untrusted text in C, and the fuzzer keeps finding
 * format texts that make its parsers dereference NULL: a field line cut
 * short, "REC-> name", a string literal or a type keyword where an operand
 * goes, a stray '#'.  tp_text.c refuses the shapes found so far; the next
 * one must not take perfdump down with it.  So a forked child runs
 * libtraceevent's steps of pd_tp_load on the same bytes and writes, before
 * each step, its index to a pipe.  A child that dies names the step that
 * killed it; that format is left out and a new child goes on from there.
 * The child runs nothing of perfdump's after libtraceevent returns, so
 * perfdump's own code is not hidden from the sanitizers.  What a blob gave
 * is remembered for the process (a fork per input would slow the fuzzer,
 * whose inputs mostly keep their tracing data while other bytes change).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "features.h"
#include "feat_meta.h"
#include "session.h"
#include "tp_int.h"

/* How many steps may crash a child before the rest is left out too. */
#define PROBE_MAX_CRASHES 8

#define STEP_DONE INT32_MAX

static void put_step(int32_t i, void *arg)
{
	int fd = *(int *)arg;

	if (write(fd, &i, sizeof(i)) != (ssize_t)sizeof(i))
		_exit(3);
}

/*
 * The child dies of what killed it, quietly: the default action for the
 * fatal signals, set with the system call itself (a sanitizer's
 * interceptor would keep its own handler, which reports, and libFuzzer's,
 * which writes the input as a crash), and no stderr.
 */
static void die_quietly(void)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		uint64_t mask;
	} dfl = {0};
	int null = open("/dev/null", O_WRONLY);

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		syscall(SYS_rt_sigaction, sigs[i], &dfl, NULL,
			sizeof(dfl.mask));
	if (null >= 0)
		dup2(null, STDERR_FILENO);
}

/*
 * One child, parsing the formats run marks (of n) and the rest unless
 * extras_bad; returns the step that killed it, or STEP_DONE when it
 * finished, or INT32_MIN when no child could be run.
 */
static int32_t run_child(struct pd_session *s,
			 const struct feat_tracing_data *m, const uint8_t *run,
			 size_t n, bool extras_bad)
{
	int32_t step = INT32_MIN, i;
	int fds[2], st = 0;
	pid_t pid, w;

	if (pipe(fds) < 0)
		return INT32_MIN;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return INT32_MIN;
	}
	if (pid == 0) {
		close(fds[0]);
		die_quietly();
		pd_tp_probe_child(s, m, run, n, extras_bad, put_step, &fds[1]);
		put_step(STEP_DONE, &fds[1]);
		_exit(0);
	}
	close(fds[1]);
	for (;;) {
		ssize_t got = read(fds[0], &i, sizeof(i));

		if (got < 0 && errno == EINTR)
			continue;
		if (got != (ssize_t)sizeof(i))
			break;
		step = i;
	}
	close(fds[0]);
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	/* (SIGCHLD ignored: no status to wait for; the pipe said it all) */
	if (step == STEP_DONE &&
	    (w < 0 || (WIFEXITED(st) && WEXITSTATUS(st) == 0)))
		return STEP_DONE;
	/* killed at its last step; a child that said nothing ran nothing */
	return step == STEP_DONE ? INT32_MIN : step;
}

/* FNV-1a, 64 bits, over n bytes from h. */
static uint64_t fnv64(const void *p, size_t n, uint64_t h)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* The bytes one step of libtraceevent reads, with the blob's parameters:
 * format i, or (i == nevents) the header page, kallsyms, printk formats
 * and saved cmdlines. */
static uint64_t step_key(const struct feat_tracing_data *m, size_t i)
{
	uint64_t h = 14695981039346656037ull;
	const uint64_t params[] = {m->step,
				   m->endian,
				   m->long_size,
				   m->page_size,
				   m->has_saved_cmdlines,
				   i == m->nevents};

	h = fnv64(params, sizeof(params), h);
	if (i < m->nevents) {
		const struct pd_trace_format *fm = &m->events[i];
		const uint64_t v[] = {fm->id, fm->has_id, fm->size,
				      fm->system.len, fm->name.len};

		h = fnv64(v, sizeof(v), h);
		h = fnv64(fm->text, (size_t)fm->size, h);
		return fnv64(fm->system.s, fm->system.len, h) | 1;
	}
	if (m->header_page_text)
		h = fnv64(m->header_page_text, m->header_page_size, h);
	if (m->kallsyms_text)
		h = fnv64(m->kallsyms_text, m->kallsyms_size, h);
	if (m->printk_text)
		h = fnv64(m->printk_text, m->printk_size, h);
	if (m->saved_cmdlines_text)
		h = fnv64(m->saved_cmdlines_text, m->saved_cmdlines_size, h);
	return h | 1;
}

/*
 * The steps already tried in this process, good (parsed) or bad (killed
 * a child): a step's key in a slot of its hash, the newest kept.
 */
#define MEMO_SLOTS 4096
static uint64_t memo_good[MEMO_SLOTS], memo_bad[MEMO_SLOTS];

static bool memo_has(const uint64_t *t, uint64_t key)
{
	return t[key % MEMO_SLOTS] == key;
}

static void memo_put(uint64_t *t, uint64_t key)
{
	t[key % MEMO_SLOTS] = key;
}

/*
 * Children until one runs to its end: each crash marks its step in skip
 * (and bad); the steps a child passed are good.  run[i]: the child parses
 * step i (known steps are not tried again).
 */
static void probe(struct pd_session *s, const struct feat_tracing_data *m,
		  const uint64_t *keys, uint8_t *skip, uint8_t *run)
{
	size_t n = m->nevents;

	for (int crashes = 0;; crashes++) {
		int32_t step;

		/* the child's skip: what it does not run (extras: if bad) */
		for (size_t i = 0; i < n; i++)
			run[i] = run[i] && !skip[i];
		step = run_child(s, m, run, n, skip[n]);
		if (step == INT32_MIN)
			return; /* no child: parsed here as before */
		for (size_t i = 0; i < n; i++)
			if (run[i] && (step == STEP_DONE || (int32_t)i < step))
				memo_put(memo_good, keys[i]);
		if (step == STEP_DONE)
			return;
		if (crashes == PROBE_MAX_CRASHES) {
			/* the rest, untried: not parsed either */
			for (size_t i = step < 0 ? 0 : (size_t)step; i < n; i++)
				skip[i] |= run[i];
			skip[n] |= step < 0;
			return;
		}
		if (step < 0) {
			skip[n] = 1;
			memo_put(memo_bad, keys[n]);
		} else {
			skip[step] = 1;
			memo_put(memo_bad, keys[step]);
			for (size_t i = 0; i < (size_t)step; i++)
				run[i] = 0; /* passed */
		}
	}
}

uint8_t *pd_tp_probe(struct pd_session *s, const struct feat_tracing_data *m)
{
	size_t n = m->nevents;
	uint64_t *keys = malloc((n + 1) * sizeof(*keys));
	uint8_t *skip = calloc(n + 1, 1), *run = calloc(n + 1, 1);
	bool todo = false;

	if (!keys || !skip || !run)
		goto out;
	for (size_t i = 0; i <= n; i++) {
		keys[i] = step_key(m, i);
		if (memo_has(memo_bad, keys[i]))
			skip[i] = 1;
		else if (!memo_has(memo_good, keys[i]))
			todo |= run[i] = 1;
	}
	if (todo) {
		probe(s, m, keys, skip, run);
		if (!skip[n] && run[n])
			memo_put(memo_good, keys[n]);
	}
	for (size_t i = 0; i <= n; i++)
		if (skip[i]) {
			free(keys);
			free(run);
			return skip;
		}
out:
	free(keys);
	free(run);
	free(skip);
	return NULL;
}
