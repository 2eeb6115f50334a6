// SPDX-License-Identifier: MIT
/*
 * Folded stacks (see fmt_folded.h): FlameGraph's stackcollapse-perf.pl
 * (https://github.com/brendangregg/FlameGraph) rules on the stacks model.
 */
#include "fmt/fmt_folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/stacks.h"
#include "lib/base/arena.h"
#include "lib/base/strbuf.h"
#include "fmt/emit.h"

struct folded {
	const struct pd_stacks *st;
	const struct folded_opts *o;
	struct arena a;
	const char **seg; /* per frame: its names joined, "" none; NULL:
			   * not made yet */
	struct strbuf b;
	struct strbuf raw;  /* a frame's line as perf script prints it */
	struct strbuf name; /* a name of it before it is tidied */
};

/* One line of the output before it is merged and sorted. */
struct line {
	const char *key;
	uint64_t count;
};

/* Does s look like a Go method name ("net/http.(*Client).Do"): ".("
 * and later ")." (the script's m/\.\(.*\)\./) */
static bool go_name(const char *s)
{
	const char *p = strstr(s, ".(");

	return p && strstr(p + 2, ").");
}

/* The script's $tidy_generic and $tidy_java on name, into b. */
static void tidy(struct strbuf *b, const char *name, bool java)
{
	size_t n = strlen(name);
	bool go = go_name(name);

	/* java: "Lorg/mozilla/...": the L goes (s/^L// if m:/:) */
	if (java && name[0] == 'L' && strchr(name, '/'))
		name++, n--;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		/* everything from the first '(' on is noise, unless it is
		 * "(anonymous namespace)": the script's
		 * s/\((?!anonymous namespace\)).*$// */
		if (c == '(' && !go &&
		    strncmp(name + i, "(anonymous namespace)", 21) != 0)
			break;
		if (c == '"' || c == '\'')
			continue;
		strbuf_put(b, c == ';' ? ":" : &c, 1);
	}
}

/* Is mod (the DSO as perf script shows it) the kernel's, as the script
 * tells: m/(^\[|vmlinux$)/ and not m/unknown/ */
static bool kernel_mod(const char *mod)
{
	size_t n = strlen(mod);

	return (mod[0] == '[' || (n >= 7 && !strcmp(mod + n - 7, "vmlinux"))) &&
	       !strstr(mod, "unknown");
}

/* m:/tmp/perf-\d+\.map: or m:/jitted-\d+-\d+\.so: */
static bool digits_then(const char *p, const char *rest)
{
	const char *q = p;

	while (*q >= '0' && *q <= '9')
		q++;
	return q > p && !strncmp(q, rest, strlen(rest));
}

static bool jit_mod(const char *mod)
{
	const char *p;

	for (p = mod; (p = strstr(p, "/tmp/perf-")); p++)
		if (digits_then(p + 10, ".map"))
			return true;
	for (p = mod; (p = strstr(p, "/jitted-")); p++) {
		const char *q = p + 8;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p + 8 && *q == '-' && digits_then(q + 1, ".so"))
			return true;
	}
	return false;
}

/*
 * The script's reading of a stack line's "FUNC (MOD)", its
 * m/^\s*(\w+)\s*(.+) \((\S*)\)/: the last " (" followed by a non-blank
 * run that holds a ')' (greedy: up to the run's last ')').  A DSO whose
 * name has a blank ("/memfd:x (deleted)") splits there, as it does for
 * the script.  false: no such split (the script's "Unrecognized line").
 */
static bool split_line(char *line, size_t *func_len, char **mod)
{
	size_t n = strlen(line);

	for (size_t p = n; p-- > 1;) {
		size_t last = 0;

		if (line[p] != ' ' || line[p + 1] != '(')
			continue;
		for (size_t q = p + 2;
		     line[q] && !strchr(" \t\n\r\f\v", line[q]); q++)
			if (line[q] == ')')
				last = q;
		if (!last)
			continue;
		line[last] = 0;
		*func_len = p;
		*mod = line + p + 2;
		return true;
	}
	return false;
}

/* The script's s/\+0x[\da-f]+$//: the length without the offset. */
static size_t cut_offset(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') ||
			 (s[i - 1] >= 'a' && s[i - 1] <= 'f')))
		i--;
	if (i < n && i >= 3 && !strncmp(s + i - 3, "+0x", 3))
		return i - 3;
	return n;
}

/* One name of a line (a part of its FUNC split at "->"), after a ';'
 * when b has names already: [unknown] named after MOD, tidied, its
 * annotation. */
static void one_part(struct folded *f, const char *part, size_t n,
		     const char *mod, bool inlined, bool java)
{
	struct strbuf *b = &f->b;
	char *name;

	if (b->len)
		strbuf_put(b, ";", 1);
	f->name.len = 0;
	if (n == 9 && !memcmp(part, "[unknown]", 9)) {
		/* the DSO's base name, if known (s/.*\///) */
		const char *base = strrchr(mod, '/');

		base = base ? base + 1 : mod;
		if (!strcmp(mod, "[unknown]"))
			base = "unknown";
		strbuf_put(&f->name, "[", 1);
		strbuf_put(&f->name, base, strlen(base));
		strbuf_put(&f->name, "]", 1);
	} else {
		strbuf_put(&f->name, part, n);
		strbuf_put(&f->name, "", 0);
	}
	name = f->name.oom || !f->name.p ? "" : f->name.p;
	tidy(b, name, java);
	if (inlined)
		strbuf_put(b, "_[i]", 4);
	else if (f->o->kernel_suffix && kernel_mod(mod))
		strbuf_put(b, "_[k]", 4);
	else if (f->o->jit_suffix && jit_mod(mod))
		strbuf_put(b, "_[j]", 4);
}

/*
 * One line of perf script's stack, "SYM+0xOFF (DSO)" ("[unknown]"
 * without a symbol), folded by the script's rules into b: split into
 * FUNC and MOD, the offset cut, left out when FUNC starts with '(' (its
 * "skip process names"), FUNC's parts between "->" each a name.
 */
static void one_line(struct folded *f, const char *sym, uint64_t symoff,
		     const char *dso, bool java)
{
	char off[24] = "", *line, *mod;
	size_t n, i = 0;

	if (sym)
		snprintf(off, sizeof(off), "+0x%" PRIx64, symoff);
	f->raw.len = 0;
	strbuf_put(&f->raw, sym ? sym : "[unknown]",
		   strlen(sym ? sym : "[unknown]"));
	strbuf_put(&f->raw, off, strlen(off));
	strbuf_put(&f->raw, " (", 2);
	strbuf_put(&f->raw, dso, strlen(dso));
	strbuf_put(&f->raw, ")", 1);
	if (f->raw.oom || !split_line(f->raw.p, &n, &mod))
		return;
	line = f->raw.p;
	n = cut_offset(line, n);
	if (line[0] == '(')
		return;
	/* perl's split /->/: empty parts at the end dropped */
	while (n >= 2 && !strncmp(line + n - 2, "->", 2))
		n -= 2;
	for (bool first = true; n && (i < n || first); first = false) {
		const char *arrow = strstr(line + i, "->");
		size_t end = arrow && (size_t)(arrow - line) < n
				     ? (size_t)(arrow - line)
				     : n;

		one_part(f, line + i, end - i, mod, !first, java);
		i = end + 2;
	}
}

/* A frame's names, outermost first: its function, then the calls
 * inlined there (perf script prints them innermost first, "(inlined)"). */
static const char *frame_names(struct folded *f, uint32_t i, bool java)
{
	const struct pd_stk_frame *fr = &f->st->frames[i];
	char *s;

	if (!java && f->seg[i])
		return f->seg[i];
	f->b.len = 0;
	one_line(f, fr->sym, fr->symoff, fr->dso ? fr->dso : "[unknown]", java);
	bool inl = f->o->inlines == FOLDED_INL_ALL ||
		   (f->o->inlines == FOLDED_INL_UNWOUND && fr->unwound);

	for (uint32_t k = inl ? fr->ninl : 0; k-- > 0;)
		one_line(f, fr->inl[k].sym ? fr->inl[k].sym : "??", 0,
			 "inlined", java);
	if (f->b.oom || f->raw.oom || f->name.oom)
		return NULL;
	if (!(s = arena_alloc(&f->a, f->b.len + 1)))
		return NULL;
	if (f->b.len) /* arena memory is zeroed */
		memcpy(s, f->b.p, f->b.len);
	if (!java)
		f->seg[i] = s;
	return s;
}

/* The thread as the first frame: comm, comm-PID or comm-PID/TID, its
 * spaces '_' (the script's $pname) */
static void first_frame(struct folded *f, const struct pd_stk_thread *t)
{
	char id[32] = "";

	if (f->o->first == FOLDED_PID)
		snprintf(id, sizeof(id), "-%" PRId32, (int32_t)t->pid);
	else if (f->o->first == FOLDED_TID)
		snprintf(id, sizeof(id), "-%" PRId32 "/%" PRId32,
			 (int32_t)t->pid, (int32_t)t->tid);
	f->b.len = 0;
	strbuf_put(&f->b, t->comm, strlen(t->comm));
	strbuf_put(&f->b, id, strlen(id));
	for (size_t i = 0; f->b.p && i < f->b.len; i++)
		if (f->b.p[i] == ' ')
			f->b.p[i] = '_';
}

/* A stack's line: its key made in the arena; false: out of memory. */
static bool stack_key(struct folded *f, const struct pd_stk_stack *s,
		      struct line *l)
{
	const char *names[PD_FRAMES_MAX];
	bool java;
	size_t len;
	char *key;

	first_frame(f, &f->st->threads[s->thread]);
	java = f->b.len == 4 && !memcmp(f->b.p, "java", 4);
	len = f->b.len;
	for (uint32_t i = 0; i < s->nframes && i < PD_FRAMES_MAX; i++) {
		if (!(names[i] = frame_names(f, s->frames[i], java)))
			return false;
		len += strlen(names[i]) + 1;
	}
	first_frame(f, &f->st->threads[s->thread]);
	if (f->b.oom || !(key = arena_alloc(&f->a, len + 1)))
		return false;
	if (f->b.len)
		memcpy(key, f->b.p, f->b.len);
	len = f->b.len;
	for (uint32_t i = s->nframes; i-- > 0;) { /* outermost first */
		size_t n = strlen(names[i]);

		if (!n)
			continue;
		key[len++] = ';';
		memcpy(key + len, names[i], n);
		len += n;
	}
	key[len] = 0;
	l->key = key;
	return true;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->key,
		      ((const struct line *)b)->key);
}

static void put_file(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, ctx);
}

/* Sorted by the stack's bytes, as the script; written through the text
 * output's escaping (emit.h text_escape: a name's control bytes, which
 * would break the lines, as \xNN) */
static int write_lines(FILE *out, struct line *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_key);
	for (size_t i = 0; i < n;) {
		uint64_t count = 0;
		size_t j = i;

		for (; j < n && !strcmp(v[j].key, v[i].key); j++)
			count += v[j].count;
		text_escape(v[i].key, strlen(v[i].key), false, put_file, out);
		fprintf(out, " %" PRIu64 "\n", count);
		i = j;
	}
	return 0;
}

int fmt_folded(FILE *out, const struct pd_stacks *st,
	       const struct folded_opts *o)
{
	struct folded f = {.st = st, .o = o};
	struct line *v = calloc(st->nstacks ? st->nstacks : 1, sizeof(*v));
	size_t n = 0;
	int rc = -1;

	f.seg = calloc(st->nframes ? st->nframes : 1, sizeof(*f.seg));
	if (!v || !f.seg)
		goto out;
	for (uint32_t i = 0; i < st->nstacks; i++) {
		const struct pd_stk_stack *s = &st->stacks[i];
		uint32_t c = s->count;

		while (c != PD_STK_NONE && st->counts[c].event != o->event)
			c = st->counts[c].next;
		if (c == PD_STK_NONE)
			continue;
		v[n].count = o->period ? st->counts[c].period
				       : st->counts[c].samples;
		if (!stack_key(&f, s, &v[n++]))
			goto out;
	}
	rc = write_lines(out, v, n);
out:
	free(v);
	free(f.seg);
	free(f.b.p);
	free(f.raw.p);
	free(f.name.p);
	arena_free(&f.a);
	return rc;
}
