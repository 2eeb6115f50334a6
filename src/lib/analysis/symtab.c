// SPDX-License-Identifier: MIT
/*
 * Symbol tables (see symtab.h): the table, perf's fix-ups, lookups, and
 * the two text formats perf reads symbols from.
 */
#include "lib/analysis/symtab.h"
#include "lib/analysis/demangle.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pd_sym_src_name(enum pd_sym_src src)
{
	static const char *const names[PD_SYMS_NSRC] = {
		[PD_SYMS_NONE] = "none",       [PD_SYMS_SYMTAB] = "symtab",
		[PD_SYMS_DYNSYM] = "dynsym",   [PD_SYMS_KALLSYMS] = "kallsyms",
		[PD_SYMS_VMLINUX] = "vmlinux", [PD_SYMS_PERF_MAP] = "perf-map",
	};

	return (unsigned)src < PD_SYMS_NSRC ? names[src] : "?";
}

bool pd_symtab_add(struct pd_symtab *t, uint64_t start, uint64_t size,
		   uint8_t bind, uint8_t type, const char *name, size_t len)
{
	struct pd_sym *s;

	if (t->n >= PD_SYMTAB_MAX || len >= PD_SYMTAB_NAMES_MAX ||
	    t->names_len + len + 1 > PD_SYMTAB_NAMES_MAX)
		goto drop;
	if (t->n == t->cap) {
		uint32_t ncap = t->cap ? t->cap * 2 : 256;
		struct pd_sym *nv = realloc(t->v, ncap * sizeof(*nv));

		if (!nv)
			goto drop;
		t->v = nv;
		t->cap = ncap;
	}
	if (t->names_len + len + 1 > t->names_cap) {
		size_t ncap = t->names_cap ? t->names_cap : 4096;
		char *nn;

		while (ncap < t->names_len + len + 1)
			ncap *= 2;
		nn = realloc(t->names, ncap);
		if (!nn)
			goto drop;
		t->names = nn;
		t->names_cap = ncap;
	}
	s = &t->v[t->n];
	*s = (struct pd_sym){
		.start = start,
		/* symbol__new: a size of 0 leaves end at start */
		.end = size > UINT64_MAX - start ? UINT64_MAX : start + size,
		.name = (uint32_t)t->names_len,
		.bind = bind,
		.type = type,
		.seq = t->n,
	};
	memcpy(t->names + t->names_len, name, len);
	t->names[t->names_len + len] = 0;
	t->names_len += len + 1;
	t->n++;
	t->sorted = false;
	return true;
drop:
	t->dropped++;
	return false;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct pd_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static uint64_t page_after(uint64_t a)
{
	/* roundup(a, 4096) + 4096, without wrapping */
	uint64_t r = (a | 4095) + 1;

	return r < a || r > UINT64_MAX - 4096 ? UINT64_MAX : r + 4096;
}

/* symbol.c symbols__fixup_end */
static void fixup_end(struct pd_symtab *t, bool kallsyms)
{
	for (uint32_t i = 1; i < t->n; i++) {
		struct pd_sym *prev = &t->v[i - 1], *curr = &t->v[i];

		if (prev->end != prev->start)
			continue;
		/* the last kernel or module symbol ends at the next page */
		if (kallsyms && prev->module != curr->module) {
			uint64_t e = prev->end > UINT64_MAX - 4096
					     ? UINT64_MAX
					     : prev->end + 4096;

			prev->end =
				(e & ~(uint64_t)4095) < e ? (e | 4095) + 1 : e;
		} else {
			prev->end = curr->start;
		}
	}
	if (t->n && t->v[t->n - 1].end == t->v[t->n - 1].start)
		t->v[t->n - 1].end = page_after(t->v[t->n - 1].start);
}

static int underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* symbol.c choose_best_symbol: true to keep a over b */
static bool better(const struct pd_symtab *t, const struct pd_sym *a,
		   const struct pd_sym *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	const char *na = pd_sym_name(t, a), *nb = pd_sym_name(t, b);
	size_t ka, kb;

	if (!lb && la)
		return true;
	if (!la && lb)
		return false;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (underscores(na) != underscores(nb))
		return underscores(na) < underscores(nb);
	ka = strlen(na);
	kb = strlen(nb);
	return ka >= kb;
}

/* symbol.c symbols__fixup_duplicate: one symbol per address */
static void fixup_duplicate(struct pd_symtab *t)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < t->n; i++) {
		if (k && t->v[k - 1].start == t->v[i].start) {
			if (!better(t, &t->v[k - 1], &t->v[i]))
				t->v[k - 1] = t->v[i];
			continue;
		}
		t->v[k++] = t->v[i];
	}
	t->n = k;
}

void pd_symtab_finish(struct pd_symtab *t, enum pd_symtab_kind kind)
{
	pd_symtab_resort(t);
	if (kind == PD_SYMTAB_PERF_MAP)
		return;
	fixup_end(t, kind == PD_SYMTAB_KALLSYMS);
	fixup_duplicate(t);
}

/* Already in cmp_sym's order?  /proc/kallsyms and perf-PID.map files
 * come sorted: checking was 1 instruction in 80 of sorting them. */
static bool in_order(const struct pd_symtab *t)
{
	for (uint32_t i = 1; i < t->n; i++)
		if (cmp_sym(&t->v[i - 1], &t->v[i]) > 0)
			return false;
	return true;
}

void pd_symtab_resort(struct pd_symtab *t)
{
	if (t->n && !in_order(t))
		qsort(t->v, t->n, sizeof(*t->v), cmp_sym);
	t->sorted = true;
}

const struct pd_sym *pd_symtab_find(const struct pd_symtab *t, uint64_t addr)
{
	uint32_t lo = 0, hi = t->n;

	/* the last symbol starting at or below addr */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* a few back: a symbol may hold others (perf's tree finds it) */
	for (uint32_t k = 0; k < 4 && lo > 0; k++, lo--) {
		const struct pd_sym *s = &t->v[lo - 1];

		if (addr < s->end)
			return s;
	}
	return NULL;
}

const struct pd_sym *pd_symtab_lookup(const struct pd_symtab *t,
				      const char *name)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (strcmp(pd_sym_name(t, &t->v[i]), name) == 0)
			return &t->v[i];
	return NULL;
}

void pd_symtab_shift(struct pd_symtab *t, uint64_t delta)
{
	for (uint32_t i = 0; i < t->n; i++) {
		t->v[i].start += delta;
		t->v[i].end += delta;
	}
}

/* s's shown name made: name demangled, cut; NULL when it is name itself */
static char *make_shown(const struct pd_symtab *t, const char *name)
{
	size_t n = strlen(name);
	bool plt = n > 4 && strcmp(name + n - 4, "@plt") == 0;
	char *d = t->demangle ? pd_demangle(name) : NULL;

	if (plt && (d ? strlen(d) : n) > PD_SYMTAB_PLT_NAME_MAX) {
		if (!d)
			d = strndup(name, PD_SYMTAB_PLT_NAME_MAX);
		else
			d[PD_SYMTAB_PLT_NAME_MAX] = 0;
	}
	return d;
}

const char *pd_symtab_name(struct pd_symtab *t, const struct pd_sym *s)
{
	struct pd_sym *m = &t->v[s - t->v];
	const char *name = t->names + s->name;
	char *d;
	const char *kept;

	if (m->shown == PD_SYM_SHOWN_AS_READ)
		return name;
	if (m->shown)
		return t->shown.v[m->shown - 1];
	m->shown = PD_SYM_SHOWN_AS_READ;
	if (!(d = make_shown(t, name)))
		return name;
	if (t->shown.n == t->shown.cap) {
		uint32_t ncap = t->shown.cap ? t->shown.cap * 2 : 64;
		const char **nv =
			ncap > t->shown.cap
				? realloc(t->shown.v, ncap * sizeof(*nv))
				: NULL;

		if (!nv)
			goto out;
		t->shown.v = nv;
		t->shown.cap = ncap;
	}
	t->shown.names.limit = PD_SYMTAB_NAMES_MAX;
	if ((kept = arena_memdup(&t->shown.names, d, strlen(d) + 1))) {
		t->shown.v[t->shown.n++] = kept;
		m->shown = t->shown.n;
		name = kept;
	}
out:
	free(d);
	return name;
}

void pd_symtab_free(struct pd_symtab *t)
{
	free(t->v);
	free(t->names);
	free(t->shown.v);
	arena_free(&t->shown.names);
	memset(t, 0, sizeof(*t));
}

/* ---- text formats ---------------------------------------------------- */

/*
 * Call line() for each line of fd (without its '\n'), reading at most
 * PD_SYMTAB_TEXT_MAX bytes; lines longer than PD_SYMTAB_LINE_MAX are
 * skipped.  0, or -1 on a read error (errno).
 */
static int each_line(int fd, void (*line)(void *arg, char *s, size_t n),
		     void *arg)
{
	enum { CHUNK = 1 << 20 };
	char *buf = malloc(CHUNK + PD_SYMTAB_LINE_MAX + 1);
	size_t have = 0, total = 0;
	bool skipping = false;

	if (!buf)
		return -1;
	for (;;) {
		ssize_t got = read(fd, buf + have, CHUNK);
		char *p = buf, *nl;
		size_t left;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return -1;
		}
		total += (size_t)got;
		left = have + (size_t)got;
		while ((nl = memchr(p, '\n', left))) {
			size_t n = (size_t)(nl - p);

			if (!skipping && n <= PD_SYMTAB_LINE_MAX) {
				*nl = 0;
				line(arg, p, n);
			}
			skipping = false;
			left -= n + 1;
			p = nl + 1;
		}
		if (got == 0 || total >= PD_SYMTAB_TEXT_MAX) {
			if (left && !skipping && left <= PD_SYMTAB_LINE_MAX) {
				p[left] = 0;
				line(arg, p, left); /* the last, without '\n' */
			}
			break;
		}
		if (left > PD_SYMTAB_LINE_MAX) {
			skipping = true; /* a line too long: drop it all */
			left = 0;
		}
		memmove(buf, p, left);
		have = left;
	}
	free(buf);
	return 0;
}

/* hex digits at s (util/string.c hex2u64): how many.  From a table:
 * isxdigit and tolower per digit were a quarter of reading kallsyms. */
static size_t hex_u64(const char *s, uint64_t *v)
{
	/* a digit's value + 1; 0: not a hex digit */
	static const uint8_t val[256] = {
		['0'] = 1,  ['1'] = 2,	['2'] = 3,  ['3'] = 4,	['4'] = 5,
		['5'] = 6,  ['6'] = 7,	['7'] = 8,  ['8'] = 9,	['9'] = 10,
		['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
		['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
		['E'] = 15, ['F'] = 16,
	};
	uint64_t x = 0;
	size_t i = 0;

	for (uint8_t d; (d = val[(unsigned char)s[i]]); i++)
		x = (x << 4) | (uint64_t)(d - 1);
	*v = x;
	return i;
}

struct ksym_read {
	struct pd_symtab *t;
	uint64_t lines, nonzero;
};

/* tools/lib/symbol/kallsyms.c kallsyms__parse, symbol.c
 * map__process_kallsym_symbol: "ADDR TYPE NAME[\t[MODULE]]" */
static void kallsyms_line(void *arg, char *s, size_t n)
{
	struct ksym_read *k = arg;
	uint64_t addr;
	size_t i = hex_u64(s, &addr), len;
	char type, up;
	char *name, *tab;
	uint8_t bind;

	if (!i || i + 3 > n || s[i] != ' ' || s[i + 2] != ' ')
		return;
	type = s[i + 1];
	name = s + i + 3;
	up = (char)toupper((unsigned char)type);
	k->lines++;
	if (up != 'T' && up != 'W' && up != 'D' && up != 'B')
		return;
	k->nonzero += addr != 0;
	tab = strchr(name, '\t');
	len = tab ? (size_t)(tab - name) : strlen(name);
	bind = type == 'W' ? STB_WEAK
			   : (isupper((unsigned char)type) ? STB_GLOBAL
							   : STB_LOCAL);
	if (pd_symtab_add(k->t, addr, 0, bind,
			  up == 'T' || up == 'W' ? STT_FUNC : STT_OBJECT, name,
			  len))
		k->t->v[k->t->n - 1].module = tab && strchr(tab, '[');
}

int pd_symtab_read_kallsyms(struct pd_symtab *t, int fd, char *detail,
			    size_t dlen)
{
	struct ksym_read k = {.t = t};

	if (each_line(fd, kallsyms_line, &k) < 0) {
		snprintf(detail, dlen, "%s", strerror(errno));
		return -1;
	}
	if (!t->n) {
		snprintf(detail, dlen, "no symbols in %llu lines",
			 (unsigned long long)k.lines);
		return -1;
	}
	if (!k.nonzero) {
		snprintf(detail, dlen,
			 "every address is 0 (kernel.kptr_restrict)");
		return -1;
	}
	pd_symtab_finish(t, PD_SYMTAB_KALLSYMS);
	return 0;
}

/* symbol.c read_perf_map: "START SIZE NAME", hex without 0x */
static void perf_map_line(void *arg, char *s, size_t n)
{
	struct pd_symtab *t = arg;
	uint64_t start, size;
	size_t len = hex_u64(s, &start) + 1;

	if (len + 2 >= n)
		return;
	len += hex_u64(s + len, &size) + 1;
	if (len + 2 >= n)
		return;
	pd_symtab_add(t, start, size, STB_GLOBAL, STT_FUNC, s + len, n - len);
}

int pd_symtab_read_perf_map(struct pd_symtab *t, int fd, char *detail,
			    size_t dlen)
{
	if (each_line(fd, perf_map_line, t) < 0) {
		snprintf(detail, dlen, "%s", strerror(errno));
		return -1;
	}
	if (!t->n) {
		snprintf(detail, dlen, "no symbols");
		return -1;
	}
	pd_symtab_finish(t, PD_SYMTAB_PERF_MAP);
	return 0;
}
