// SPDX-License-Identifier: MIT
/*
 * libtraceevent's parse of a tracing data blob, tried first in a child
 * process (tp_int.h: pd_tp_probe).
 *
 * libtraceevent parses untrusted text in C, and the fuzzer keeps finding
 * format texts that make its parsers dereference NULL: a field line cut
 * short, "REC-> name", a string literal or a type keyword where an operand
 * goes, a stray '#'.  tp_text.c refuses the shapes found so far; the next
 * one must not take perfdump down with it.  So a child process runs
 * libtraceevent's steps of pd_tp_load on the same bytes and writes, before
 * each step, its index to a socket.  A child that dies (or hangs) names
 * the step that killed it; that format is left out and a new child goes
 * on from there.  The child runs nothing of perfdump's after libtraceevent
 * returns, so perfdump's own code is not hidden from the sanitizers.  What
 * a blob gave is remembered for the process, so a step is tried once (the
 * fuzzer's inputs mostly keep their tracing data while other bytes
 * change).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "features.h"
#include "feat_meta.h"
#include "session.h"
#include "tp_int.h"
#include "util.h"

/* How many steps may crash a child before the rest is left out too. */
#define PROBE_MAX_CRASHES 8
/* How long one step may take before its child counts as crashed (the
 * diagnostics in tracepoint.c say 5 s). */
#define PROBE_STEP_MS 5000

#define STEP_DONE INT32_MAX

/*
 * The child: forked once and kept, so a process that loads many blobs
 * (the fuzzer, a directory of recordings) does not pay a fork each (a
 * fork copies the parent's page tables: a third of the fuzzer's time).
 * It reads requests from a socket and answers with step indices; when
 * perfdump exits, the socket closes and so does the child.
 */
static struct {
	pid_t pid;
	int fd;
} child = {-1, -1};

/* One request: the blob's parameters, then its extras (unless
 * extras_bad), then each format to run as a struct req_format and its
 * text, system and name. */
struct req {
	uint64_t n, extras_len[4];
	uint32_t page_size, step, nrun;
	uint8_t extras_bad, endian, long_size, has_saved_cmdlines;
};

struct req_format {
	uint64_t i, id, size, system_len, name_len;
	uint8_t has_id;
};

/* All n bytes sent (without SIGPIPE) or received; false if the other
 * end is gone. */
static bool xfer(int fd, char *b, size_t n, bool send_them)
{
	while (n) {
		ssize_t k = send_them ? send(fd, b, n, MSG_NOSIGNAL)
				      : read(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		b += k;
		n -= (size_t)k;
	}
	return true;
}

static bool put(int fd, const void *p, size_t n)
{
	return xfer(fd, (char *)p, n, true);
}

static bool get(int fd, void *p, size_t n)
{
	return xfer(fd, p, n, false);
}

static void put_step(int32_t i, void *arg)
{
	if (!put(*(int *)arg, &i, sizeof(i)))
		_exit(3);
}

/* n bytes from the socket into a new buffer (empty: a valid pointer) */
static char *get_text(int fd, uint64_t n)
{
	char *t = malloc(n ? n : 1);

	if (!t || !get(fd, t, n))
		_exit(3);
	return t;
}

/* The child's side of one request: the blob rebuilt from it, parsed. */
static bool serve_one(int fd)
{
	struct feat_tracing_data m = {0};
	struct pd_session s = {0};
	const char **extras[4] = {&m.header_page_text, &m.kallsyms_text,
				  &m.printk_text, &m.saved_cmdlines_text};
	struct req rq;
	uint8_t *run;

	if (!get(fd, &rq, sizeof(rq)))
		return false; /* perfdump is gone */
	m.step = (enum pd_trace_step)rq.step;
	m.endian = rq.endian;
	m.long_size = rq.long_size;
	m.page_size = rq.page_size;
	m.has_saved_cmdlines = rq.has_saved_cmdlines;
	m.header_page_size = rq.extras_len[0];
	m.kallsyms_size = (uint32_t)rq.extras_len[1];
	m.printk_size = (uint32_t)rq.extras_len[2];
	m.saved_cmdlines_size = rq.extras_len[3];
	m.nevents = rq.n;
	m.events = calloc(rq.n ? rq.n : 1, sizeof(*m.events));
	run = calloc(rq.n ? rq.n : 1, 1);
	if (!m.events || !run)
		_exit(3);
	for (int k = 0; k < 4 && !rq.extras_bad; k++)
		*extras[k] = get_text(fd, rq.extras_len[k]);
	for (uint32_t k = 0; k < rq.nrun; k++) {
		struct req_format rf;
		struct pd_trace_format *fm;

		if (!get(fd, &rf, sizeof(rf)) || rf.i >= rq.n)
			_exit(3);
		fm = &m.events[rf.i];
		run[rf.i] = 1;
		fm->id = rf.id;
		fm->has_id = rf.has_id;
		fm->size = rf.size;
		fm->text = get_text(fd, rf.size);
		fm->system.s = get_text(fd, rf.system_len);
		fm->system.len = rf.system_len;
		fm->name.s = get_text(fd, rf.name_len);
		fm->name.len = rf.name_len;
	}
	pd_tp_probe_child(&s, &m, run, rq.n, rq.extras_bad, put_step, &fd);
	put_step(STEP_DONE, &fd);
	for (size_t i = 0; i < rq.n; i++)
		if (run[i]) {
			free((char *)m.events[i].text);
			free((char *)m.events[i].system.s);
			free((char *)m.events[i].name.s);
		}
	for (int k = 0; k < 4 && !rq.extras_bad; k++)
		free((char *)*extras[k]);
	free(m.events);
	free(run);
	pd_diags_free(&s.diags);
	arena_free(&s.arena);
	return true;
}

/*
 * The child dies of what killed it, quietly: the default action for the
 * fatal signals, set with the system call itself (a sanitizer's
 * interceptor would keep its own handler, which reports, and libFuzzer's,
 * which writes the input as a crash), and no standard input, output or
 * error (a reader of perfdump's output must not wait for the child to
 * close it, nor a writer of its input).
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
	int null = open("/dev/null", O_RDWR);

	for (size_t i = 0; i < PD_NELEMS(sigs); i++)
		syscall(SYS_rt_sigaction, sigs[i], &dfl, NULL,
			sizeof(dfl.mask));
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
}

static void child_stop(void)
{
	int st;

	if (child.pid < 0)
		return;
	close(child.fd);
	kill(child.pid, SIGKILL);
	while (waitpid(child.pid, &st, 0) < 0 && errno == EINTR)
		;
	child.pid = child.fd = -1;
}

static bool child_start(void)
{
	int sv[2];
	pid_t pid;

	if (child.pid >= 0)
		return true;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return false;
	}
	if (pid == 0) {
		close(sv[0]);
		die_quietly();
		while (serve_one(sv[1]))
			;
		_exit(0);
	}
	close(sv[1]);
	child.pid = pid;
	child.fd = sv[0];
	return true;
}

/* The request for the formats run marks (of m's), extras unless bad. */
static bool send_request(int fd, const struct feat_tracing_data *m,
			 const uint8_t *run, bool extras_bad)
{
	const char *extras[4] = {m->header_page_text, m->kallsyms_text,
				 m->printk_text, m->saved_cmdlines_text};
	struct req rq = {.n = m->nevents,
			 .extras_len = {m->header_page_size, m->kallsyms_size,
					m->printk_size, m->saved_cmdlines_size},
			 .page_size = m->page_size,
			 .step = (uint32_t)m->step,
			 .extras_bad = extras_bad,
			 .endian = m->endian,
			 .long_size = m->long_size,
			 .has_saved_cmdlines = m->has_saved_cmdlines};
	bool ok;

	for (size_t i = 0; i < m->nevents; i++)
		rq.nrun += run[i];
	for (int k = 0; k < 4; k++)
		if (!extras[k])
			rq.extras_len[k] = 0;
	ok = put(fd, &rq, sizeof(rq));
	for (int k = 0; ok && k < 4 && !extras_bad; k++)
		ok = put(fd, extras[k], rq.extras_len[k]);
	for (size_t i = 0; ok && i < m->nevents; i++) {
		const struct pd_trace_format *fm = &m->events[i];
		struct req_format rf = {.i = i,
					.id = fm->id,
					.size = fm->text ? fm->size : 0,
					.system_len = fm->system.len,
					.name_len = fm->name.len,
					.has_id = fm->has_id};

		if (run[i])
			ok = put(fd, &rf, sizeof(rf)) &&
			     put(fd, fm->text, rf.size) &&
			     put(fd, fm->system.s, rf.system_len) &&
			     put(fd, fm->name.s, rf.name_len);
	}
	return ok;
}

/*
 * The last step the child began, STEP_DONE when it finished, or
 * INT32_MIN when it began none; a child that dies or outlasts
 * PROBE_STEP_MS in a step is stopped.
 */
static int32_t read_steps(void)
{
	int32_t step = INT32_MIN, i;
	struct pollfd pfd = {.fd = child.fd, .events = POLLIN};

	for (;;) {
		int k = poll(&pfd, 1, PROBE_STEP_MS);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || !get(child.fd, &i, sizeof(i)))
			break;
		step = i;
		if (step == STEP_DONE)
			return step;
	}
	child_stop();
	return step;
}

/*
 * One request: the step that killed (or hung) the child, STEP_DONE when
 * it finished, or INT32_MIN when no child could be run.  A child found
 * gone before it began (it was killed between requests) is made again,
 * once.
 */
static int32_t run_child(const struct feat_tracing_data *m, const uint8_t *run,
			 bool extras_bad)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		int32_t step;

		if (!child_start())
			return INT32_MIN;
		step = send_request(child.fd, m, run, extras_bad) ? read_steps()
								  : INT32_MIN;
		if (step != INT32_MIN)
			return step;
		child_stop();
	}
	return INT32_MIN;
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
static void probe(const struct feat_tracing_data *m, const uint64_t *keys,
		  uint8_t *skip, uint8_t *run)
{
	size_t n = m->nevents;

	for (int crashes = 0;; crashes++) {
		int32_t step;

		/* the child's skip: what it does not run (extras: if bad) */
		for (size_t i = 0; i < n; i++)
			run[i] = run[i] && !skip[i];
		step = run_child(m, run, skip[n]);
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

uint8_t *pd_tp_probe(const struct feat_tracing_data *m)
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
		probe(m, keys, skip, run);
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
