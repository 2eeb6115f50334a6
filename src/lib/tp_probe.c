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
 * One child from step `from` on; returns the step that killed it, or
 * STEP_DONE when it finished, or INT32_MIN when no child could be run.
 */
static int32_t run_child(struct pd_session *s,
			 const struct feat_tracing_data *m, const uint8_t *skip)
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
		pd_tp_probe_child(s, m, skip, put_step, &fds[1]);
		put_step(STEP_DONE, &fds[1]);
		_exit(0);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n = read(fds[0], &i, sizeof(i));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(i))
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

/* Everything of the blob libtraceevent's steps read. */
static uint64_t blob_key(const struct feat_tracing_data *m)
{
	uint64_t h = 14695981039346656037ull;
	const uint32_t params[] = {m->step, m->endian, m->long_size,
				   m->page_size, m->has_saved_cmdlines};

	h = fnv64(params, sizeof(params), h);
	if (m->header_page_text)
		h = fnv64(m->header_page_text, m->header_page_size, h);
	if (m->kallsyms_text)
		h = fnv64(m->kallsyms_text, m->kallsyms_size, h);
	if (m->printk_text)
		h = fnv64(m->printk_text, m->printk_size, h);
	if (m->saved_cmdlines_text)
		h = fnv64(m->saved_cmdlines_text, m->saved_cmdlines_size, h);
	for (size_t i = 0; i < m->nevents; i++) {
		const struct pd_trace_format *fm = &m->events[i];
		const uint64_t v[] = {fm->id, fm->has_id, fm->size,
				      fm->system.len, fm->name.len};

		h = fnv64(v, sizeof(v), h);
		h = fnv64(fm->text, (size_t)fm->size, h);
		h = fnv64(fm->system.s, fm->system.len, h);
	}
	return h;
}

/* What the blobs probed gave: NULL skip for "all parsed". */
#define MEMO_SLOTS 64
static struct {
	uint64_t key;
	size_t n;
	uint8_t *skip;
	bool used;
} memo[MEMO_SLOTS];
static unsigned memo_next;

static uint8_t *memo_copy(const uint8_t *skip, size_t n)
{
	uint8_t *c = skip ? malloc(n) : NULL;

	if (c)
		memcpy(c, skip, n);
	return c;
}

static void memo_put(uint64_t key, const uint8_t *skip, size_t n)
{
	unsigned k = memo_next++ % MEMO_SLOTS;

	free(memo[k].skip);
	memo[k].key = key;
	memo[k].n = n;
	memo[k].skip = memo_copy(skip, n);
	memo[k].used = !skip || memo[k].skip;
}

static uint8_t *probe(struct pd_session *s, const struct feat_tracing_data *m);

uint8_t *pd_tp_probe(struct pd_session *s, const struct feat_tracing_data *m)
{
	uint64_t key = blob_key(m);
	uint8_t *skip;

	for (unsigned k = 0; k < MEMO_SLOTS; k++)
		if (memo[k].used && memo[k].key == key &&
		    memo[k].n == m->nevents + 1)
			return memo_copy(memo[k].skip, memo[k].n);
	skip = probe(s, m);
	memo_put(key, skip, m->nevents + 1);
	return skip;
}

static uint8_t *probe(struct pd_session *s, const struct feat_tracing_data *m)
{
	uint8_t *skip = calloc(m->nevents + 1, 1);
	int32_t step;

	if (!skip)
		return NULL;
	for (int crashes = 0;; crashes++) {
		step = run_child(s, m, skip);
		if (step == STEP_DONE || step == INT32_MIN)
			break;
		if (crashes == PROBE_MAX_CRASHES) {
			/* the rest, untried: not parsed either */
			memset(skip + (step < 0 ? 0 : step), 1,
			       m->nevents - (size_t)(step < 0 ? 0 : step));
			skip[m->nevents] |= step < 0;
			break;
		}
		skip[step < 0 ? m->nevents : (size_t)step] = 1;
	}
	for (size_t i = 0; i <= m->nevents; i++)
		if (skip[i])
			return skip;
	free(skip);
	return NULL;
}
