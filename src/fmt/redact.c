// SPDX-License-Identifier: MIT
/*
 * --redact (see redact.h): the rules per kind of string, and the tokens.
 *
 * Numbered tokens need to remember which strings were seen: a table of
 * 64-bit SipHash values of (kind, string) under a key drawn at start, so
 * a crafted file cannot make two strings collide, 16 bytes per distinct
 * string.  It holds at most REDACT_MAX_SEEN strings; past that, tokens
 * are hashes under that random key (consistent within the run, as
 * promised, only without the short numbers).
 */
#include "fmt/redact.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "fmt/siphash.h"
#include "lib/base/strbuf.h"
#include "lib/base/util.h"

#define REDACT_MAX_SEEN (1u << 20)

static const char *const kind_name[] = {
	[PRIV_NONE] = "user", [PRIV_PATH] = "dir", [PRIV_CGROUP] = "cgroup",
	[PRIV_HOST] = "host", [PRIV_ARG] = "arg",  [PRIV_COMM] = "comm",
	[PRIV_STR] = "str",
};
#define NKINDS PD_NELEMS(kind_name)

struct seen {
	uint64_t h; /* 0: empty */
	uint32_t n; /* the token's number */
};

struct redactor {
	bool comm;
	bool keyed;	     /* --redact-key */
	uint64_t k0, k1;     /* its key, or the run's random one */
	uint64_t r0, r1;     /* the table's key */
	struct seen *seen;   /* open addressing, linear probing */
	uint32_t cap, nseen; /* cap: 0 or a power of two */
	uint32_t next[NKINDS];
	struct strbuf out, tmp;
	struct strbuf runs; /* redact_runs()'s output */
};

struct redactor *redact_new(void)
{
	struct redactor *r = calloc(1, sizeof(*r));
	uint64_t k[4] = {0x70657266, 0x64756d70, 0x72656461, 0x6374};

	if (!r)
		return NULL;
	/* without entropy the fixed key still gives stable tokens */
	if (getrandom(k, sizeof(k), GRND_NONBLOCK) != (ssize_t)sizeof(k))
		k[0] ^= (uint64_t)(uintptr_t)r;
	r->r0 = k[0];
	r->r1 = k[1];
	r->k0 = k[2];
	r->k1 = k[3];
	return r;
}

void redact_free(struct redactor *r)
{
	if (!r)
		return;
	free(r->seen);
	free(r->out.p);
	free(r->tmp.p);
	free(r->runs.p);
	free(r);
}

void redact_set_comm(struct redactor *r, bool on)
{
	r->comm = on;
}

void redact_set_key(struct redactor *r, const char *key)
{
	/* two fixed keys turn KEY, of any length, into 128 bits */
	r->k0 = pd_siphash24(0x7265646163742d6bULL, 0x6579203120706466ULL, key,
			     strlen(key));
	r->k1 = pd_siphash24(0x7265646163742d6bULL, 0x6579203220706466ULL, key,
			     strlen(key));
	r->keyed = true;
}

/* ------------------------------------------------------------- output */

static void puts_(struct strbuf *b, const char *s)
{
	strbuf_put(b, s, strlen(s));
}

/* SipHash of "KIND:" s[0..n) under k0, k1 */
static uint64_t kind_hash(uint64_t k0, uint64_t k1, enum pd_priv k,
			  const char *s, size_t n, struct strbuf *scratch)
{
	scratch->len = 0;
	puts_(scratch, kind_name[k]);
	strbuf_put(scratch, ":", 1);
	strbuf_put(scratch, s, n);
	if (scratch->oom)
		return 0;
	return pd_siphash24(k0, k1, scratch->p, scratch->len);
}

/* Double the table (it is kept at most half full); false if out of memory. */
static bool grow(struct redactor *r)
{
	uint32_t cap = r->cap ? 2 * r->cap : 64;
	struct seen *t = calloc(cap, sizeof(*t));

	if (!t)
		return false;
	for (uint32_t i = 0; i < r->cap; i++) {
		uint32_t j = (uint32_t)r->seen[i].h & (cap - 1);

		if (!r->seen[i].h)
			continue;
		while (t[j].h)
			j = (j + 1) & (cap - 1);
		t[j] = r->seen[i];
	}
	free(r->seen);
	r->seen = t;
	r->cap = cap;
	return true;
}

/* The number of a string seen before, or a new one; 0 when full. */
static uint32_t number(struct redactor *r, uint64_t h, enum pd_priv k)
{
	uint32_t j;

	h = h ? h : 1; /* 0 marks an empty slot */
	if (r->nseen < REDACT_MAX_SEEN && 2 * (r->nseen + 1) > r->cap)
		grow(r);
	if (!r->cap)
		return 0;
	/* at most half full: the probe ends at an empty slot */
	for (j = (uint32_t)h & (r->cap - 1); r->seen[j].h;
	     j = (j + 1) & (r->cap - 1))
		if (r->seen[j].h == h)
			return r->seen[j].n;
	if (r->nseen >= REDACT_MAX_SEEN || 2 * (r->nseen + 1) > r->cap)
		return 0;
	r->seen[j] = (struct seen){h, ++r->next[k]};
	r->nseen++;
	return r->seen[j].n;
}

/* Append the token of s[0..n) of kind k to b. */
static void token(struct redactor *r, enum pd_priv k, const char *s, size_t n,
		  struct strbuf *b)
{
	char t[64];
	uint32_t num = 0;

	if (!r->keyed)
		num = number(r, kind_hash(r->r0, r->r1, k, s, n, &r->tmp), k);
	if (num)
		snprintf(t, sizeof(t), "<%s-%u>", kind_name[k], num);
	else
		snprintf(t, sizeof(t), "<%s-%012llx>", kind_name[k],
			 (unsigned long long)(kind_hash(r->k0, r->k1, k, s, n,
							&r->tmp) >>
					      16));
	puts_(b, t);
}

/* ------------------------------------------------------------- rules */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
	       c == '@' || c == '+';
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool at(const char *s, size_t n, size_t i, const char *lit)
{
	size_t l = strlen(lit);

	return i + l <= n && memcmp(s + i, lit, l) == 0;
}

/*
 * A user name or id at s[i..]: "/home/NAME", "/run/user/UID",
 * "user-UID.slice", "user@UID.service" (systemd's cgroups and units).
 * Returns the length of the prefix kept before it and sets *len, or 0.
 */
static size_t user_at(const char *s, size_t n, size_t i, size_t *len)
{
	size_t p, e;

	if (at(s, n, i, "/home/"))
		p = 6;
	else if (at(s, n, i, "/run/user/"))
		p = 10;
	else if ((at(s, n, i, "user-") || at(s, n, i, "user@")) &&
		 (i == 0 || !name_char(s[i - 1])))
		p = 5;
	else
		return 0;
	for (e = i + p; e < n && (p == 6 ? name_char(s[e]) : digit(s[e])); e++)
		;
	if (e == i + p)
		return 0;
	if (p == 5 && !at(s, n, e, s[i + 4] == '-' ? ".slice" : ".service"))
		return 0;
	*len = e - i - p;
	return p;
}

/* The user-name rule over s, appended to b; false if nothing matched. */
static bool user_rule(struct redactor *r, const char *s, size_t n,
		      struct strbuf *b)
{
	size_t done = 0, p, len;
	bool any = false;

	if (!memmem(s, n, "/home/", 6) && !memmem(s, n, "/run/user/", 10) &&
	    !memmem(s, n, "user", 4))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!(p = user_at(s, n, i, &len)))
			continue;
		strbuf_put(b, s + done, i + p - done);
		token(r, PRIV_NONE, s + i + p, len, b);
		done = i + p + len;
		i = done - 1;
		any = true;
	}
	if (any)
		strbuf_put(b, s + done, n - done);
	return any;
}

/*
 * A system directory: its files are the same on every machine with the
 * distribution, so they name no one.  The first component decides; a
 * path with "." or ".." components, or "home", is never one.
 */
static bool system_dir(const char *d, size_t n)
{
	static const char *const top[] = {
		"usr",	"lib",	  "lib32",  "lib64", "libx32",	"bin",
		"sbin", "opt",	  "boot",   "etc",   "proc",	"sys",
		"dev",	"system", "vendor", "apex",  "product", "odm",
	};
	size_t c = 1;

	if (n < 2 || d[0] != '/')
		return false;
	for (size_t i = 1, s = 1; i <= n; i++) {
		if (i < n && d[i] != '/')
			continue;
		if ((i - s == 1 && d[s] == '.') ||
		    (i - s == 2 && d[s] == '.' && d[s + 1] == '.') ||
		    (i - s == 4 && !memcmp(d + s, "home", 4)) || i == s)
			return false;
		s = i + 1;
	}
	while (c < n && d[c] != '/')
		c++;
	if (at(d, n, 0, "/dev/shm"))
		return false;
	for (size_t i = 0; i < PD_NELEMS(top); i++)
		if (strlen(top[i]) == c - 1 && !memcmp(d + 1, top[i], c - 1))
			return true;
	return false;
}

/* A path: the directory as a token unless kept, then "/basename". */
static bool path_rule(struct redactor *r, enum pd_priv k, const char *s,
		      size_t n, struct strbuf *b)
{
	const char *slash;
	size_t dl;

	/* [kernel.kallsyms], [vdso], [heap], //anon: names, not files */
	if (!n || s[0] == '[' || at(s, n, 0, "//anon"))
		return false;
	if (!(slash = memrchr(s, '/', n)) || slash == s)
		return false; /* a bare name, or one in the root */
	dl = (size_t)(slash - s);
	if (k == PRIV_PATH && system_dir(s, dl))
		return false;
	token(r, k, s, dl, b);
	/* the basename keeps its name, but not a user's */
	if (!user_rule(r, slash, n - dl, b))
		strbuf_put(b, slash, n - dl);
	return true;
}

/* The rule of kind k over s[0..n), appended to b; false if unchanged. */
static bool apply_rule(struct redactor *r, enum pd_priv k, const char *s,
		       size_t n, struct strbuf *b)
{
	switch (k) {
	case PRIV_PATH:
	case PRIV_CGROUP:
		return path_rule(r, k, s, n, b) || user_rule(r, s, n, b);
	case PRIV_HOST:
	case PRIV_ARG:
	case PRIV_STR: token(r, k, s, n, b); return true;
	case PRIV_COMM:
		if (r->comm) {
			token(r, k, s, n, b);
			return true;
		}
		/* fall through */
	case PRIV_NONE: return user_rule(r, s, n, b);
	}
	return false;
}

void redact_arg(struct redactor *r, struct redact_arg a, const char *s,
		size_t n, const char **out, size_t *outlen)
{
	struct strbuf *b = &r->out;
	size_t keep = a.keep < n ? a.keep : n;
	bool changed;

	b->len = 0;
	b->oom = r->tmp.oom = false;
	if (n == keep) { /* nothing to hide: an empty comm stays empty */
		*out = s;
		*outlen = n;
		return;
	}
	strbuf_put(b, s, keep);
	changed = apply_rule(r, a.kind, s + keep, n - keep, b);
	if (b->oom || r->tmp.oom) { /* never the string itself */
		*out = "<redacted>";
		*outlen = strlen(*out);
	} else if (changed) {
		*out = b->p;
		*outlen = b->len;
	} else {
		*out = s;
		*outlen = n;
	}
}

void redact_str(struct redactor *r, enum pd_priv k, const char *s, size_t n,
		const char **out, size_t *outlen)
{
	redact_arg(r, (struct redact_arg){k, 0}, s, n, out, outlen);
}

/* Append s[0..n) as redact_str(k) shows it; false if out of memory. */
static bool put_redacted(struct redactor *r, enum pd_priv k, const char *s,
			 size_t n)
{
	const char *o;
	size_t on;

	redact_str(r, k, s, n, &o, &on);
	strbuf_put(&r->runs, o, on);
	return !r->runs.oom;
}

void redact_runs(struct redactor *r, const char *s, size_t n,
		 const struct redact_run *runs, size_t nruns, const char **out,
		 size_t *outlen)
{
	struct strbuf *b = &r->runs;
	bool ok = true;
	size_t at = 0;

	b->len = 0;
	b->oom = false;
	strbuf_put(b, "", 0); /* an empty result is "", not NULL */
	for (size_t i = 0; i < nruns && ok; i++) {
		const struct redact_run *u = &runs[i];

		ok = u->off >= at && u->off <= n && u->len <= n - u->off &&
		     put_redacted(r, PRIV_NONE, s + at, u->off - at) &&
		     put_redacted(r, u->kind, u->src, u->srclen);
		at = u->off + u->len;
	}
	ok = ok && put_redacted(r, PRIV_NONE, s + at, n - at);
	if (!ok) { /* never the string itself */
		*out = "<redacted>";
		*outlen = strlen(*out);
		return;
	}
	*out = b->p;
	*outlen = b->len;
}
