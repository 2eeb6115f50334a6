// SPDX-License-Identifier: MIT
/*
 * Resolution of a recorded build-id against the local machine: which
 * candidate files exist, what build-id each holds, and one status for
 * the entry (see buildid.h for the order perf uses).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/base/arena.h"
#include "lib/analysis/buildid.h"
#include "lib/base/hex.h"
#include "lib/analysis/rootpath.h"
#include "lib/base/util.h"

const char *pd_bid_status_name(enum pd_bid_status st)
{
	static const char *const names[PD_BID_NSTATUS] = {
		[PD_BID_MATCH] = "match",
		[PD_BID_MISMATCH] = "mismatch",
		[PD_BID_MISSING] = "missing",
		[PD_BID_NOT_ELF] = "not-elf",
		[PD_BID_UNREADABLE] = "unreadable",
		[PD_BID_OUTSIDE_ROOT] = "outside-root",
		[PD_BID_PSEUDO] = "pseudo",
		[PD_BID_NOT_CHECKED] = "not-checked",
		[PD_BID_NO_BUILD_ID] = "no-build-id",
	};

	return (unsigned)st < PD_BID_NSTATUS ? names[st] : "?";
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

bool pd_bid_is_kernel(const char *filename, size_t flen)
{
	return starts(filename, flen, "[kernel.kallsyms]");
}

/* perf's is_anon_memory / is_no_dso_memory, and the [name] DSOs. */
bool pd_bid_is_pseudo(const char *filename, size_t flen)
{
	static const char *const prefixes[] = {
		"[",	     "//anon", "/anon_hugepage",
		"/dev/zero", "/SYSV",  "/memfd:",
	};

	for (size_t i = 0; i < PD_NELEMS(prefixes); i++)
		if (starts(filename, flen, prefixes[i]))
			return true;
	return flen == 0;
}

bool pd_bid_equal(const uint8_t *rec, size_t rec_len, const uint8_t *found,
		  size_t found_len)
{
	if (rec_len == found_len)
		return rec_len && memcmp(rec, found, rec_len) == 0;
	/* tools/perf/util/dso.c dso__build_id_equal: a 20-byte field from a
	 * writer that did not store the size, zero-padded */
	if (rec_len == 20 && found_len && found_len < rec_len) {
		if (memcmp(rec, found, found_len) != 0)
			return false;
		for (size_t i = found_len; i < rec_len; i++)
			if (rec[i])
				return false;
		return true;
	}
	return false;
}

static char *adup(struct arena *a, const char *s)
{
	return arena_memdup(a, s, strlen(s) + 1);
}

/* Record one candidate; returns it (NULL when the list is full). */
static struct pd_bid_try *add_try(struct pd_bid_res *r, struct arena *a,
				  const char *path,
				  const struct pd_elf_build_id *b)
{
	struct pd_bid_try *t;

	if (r->ntries >= PD_BID_MAX_TRIES)
		return NULL;
	t = &r->tries[r->ntries++];
	t->path = adup(a, path);
	t->status = b->status;
	t->len = b->len;
	memcpy(t->id, b->id, b->len);
	t->detail = b->status == PD_ELF_OK ? NULL : adup(a, b->detail);
	return t;
}

enum pd_bid_status pd_bid_file_status(enum pd_elf_status st)
{
	switch (st) {
	case PD_ELF_OK:
	case PD_ELF_NO_NOTE: return PD_BID_MISMATCH;
	case PD_ELF_NOT_ELF: return PD_BID_NOT_ELF;
	case PD_ELF_MISSING: return PD_BID_MISSING;
	case PD_ELF_OUTSIDE: return PD_BID_OUTSIDE_ROOT;
	default: return PD_BID_UNREADABLE;
	}
}

static enum pd_bid_status verdict(const struct pd_elf_build_id *b,
				  const uint8_t *id, size_t len)
{
	if (b->status == PD_ELF_OK && pd_bid_equal(id, len, b->id, b->len))
		return PD_BID_MATCH;
	return pd_bid_file_status(b->status);
}

/* The file rel ("/a/b") under root (shown as root + rel), or the
 * kernel's notes at path rel; record it; true when it holds the wanted
 * build-id. */
static bool try_path(struct pd_bid_res *r, struct arena *a, const char *root,
		     const char *rel, const uint8_t *id, size_t len,
		     bool kernel_notes)
{
	char shown[2 * PATH_MAX];
	struct pd_elf_build_id b;
	struct pd_bid_try *t;

	snprintf(shown, sizeof(shown), "%s%s", root ? root : "", rel);
	if (kernel_notes)
		pd_kernel_build_id(rel, &b);
	else
		pd_elf_build_id_in(root, rel, &b);
	t = add_try(r, a, shown, &b);
	if (t)
		t->verdict = verdict(&b, id, len);
	if (b.status == PD_ELF_OK && pd_bid_equal(id, len, b.id, b.len)) {
		r->status = PD_BID_MATCH;
		r->path = t ? t->path : adup(a, shown);
		r->root = root;
		r->rel = adup(a, rel);
		return true;
	}
	return false;
}

/* No candidate matched: the first one that exists says what is wrong. */
static void settle(struct pd_bid_res *r)
{
	for (unsigned i = 0; i < r->ntries; i++) {
		const struct pd_bid_try *t = &r->tries[i];

		if (t->status == PD_ELF_MISSING)
			continue;
		r->path = t->path;
		r->status = pd_bid_file_status(t->status);
		if (t->status == PD_ELF_OK) {
			r->has_found = true;
			r->found_len = t->len;
			memcpy(r->found, t->id, t->len);
			r->detail = "the file has another build-id";
			return;
		}
		r->detail = t->detail;
		return;
	}
	r->status = PD_BID_MISSING;
	r->detail = r->ntries ? "no such file" : "no file to look for";
}

/* snprintf into path; false (nothing to try) when it does not fit. */
__attribute__((format(printf, 3, 4))) static bool
mkpath(char *path, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, size, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < size;
}

/* rel under root is a directory (links resolved inside root). */
static bool is_dir_in(const char *root, const char *rel)
{
	struct pd_root_file f;

	return pd_root_open(root, rel, &f) == PD_ROOT_NOT_FILE &&
	       S_ISDIR(f.st.st_mode);
}

/* Step 2, perf's build-id cache under dir: <path>/<build-id>/elf, then
 * .build-id/xx/rest: a link to that directory, or to the file in old
 * caches (perf makes it relative, "../../<path>/<build-id>": inside). */
static bool try_cache(struct pd_bid_res *out, struct arena *a, const char *dir,
		      const char *name, const char *hex, const uint8_t *id,
		      size_t len)
{
	char rel[PATH_MAX + 64];

	if (mkpath(rel, sizeof(rel), "%s%s/%s/elf", name[0] == '/' ? "" : "/",
		   name, hex) &&
	    try_path(out, a, dir, rel, id, len, false))
		return true;
	if (len > 1 &&
	    mkpath(rel, sizeof(rel), "/.build-id/%.2s/%s", hex, hex + 2)) {
		if (is_dir_in(dir, rel))
			strcat(rel, "/elf");
		if (try_path(out, a, dir, rel, id, len, false))
			return true;
	}
	return false;
}

void pd_bid_resolve(const struct pd_bid_where *w, const uint8_t *id, size_t len,
		    const char *filename, size_t flen, unsigned cpumode,
		    struct arena *a, struct pd_bid_res *out)
{
	char name[PATH_MAX], path[PATH_MAX + 64],
		hex[2 * PD_ELF_BUILD_ID_MAX + 1];
	const char *symfs = w->symfs && *w->symfs ? w->symfs : NULL;

	(void)cpumode;
	memset(out, 0, sizeof(*out));
	if (len > PD_ELF_BUILD_ID_MAX)
		len = PD_ELF_BUILD_ID_MAX;
	if (flen >= sizeof(name)) {
		out->status = PD_BID_MISSING;
		out->detail = "file name too long";
		return;
	}
	memcpy(name, filename, flen);
	name[flen] = 0;
	if (pd_bid_is_kernel(name, flen)) {
		if (!w->kernel) {
			out->status = PD_BID_NOT_CHECKED;
			out->detail = "the running kernel is compared only "
				      "with --kernel";
			return;
		}
		if (!try_path(out, a, NULL,
			      w->kernel_notes ? w->kernel_notes
					      : "/sys/kernel/notes",
			      id, len, true))
			settle(out);
		return;
	}
	if (pd_bid_is_pseudo(name, flen)) {
		out->status = PD_BID_PSEUDO;
		out->detail = "not a file";
		return;
	}
	pd_hex_bytes(hex, id, len);

	/* 1. the file at its path, under the symfs */
	if (mkpath(path, sizeof(path), "%s%s", name[0] == '/' ? "" : "/",
		   name) &&
	    try_path(out, a, symfs, path, id, len, false))
		return;
	/* 2. perf's build-id cache */
	if (w->debug_dir && *w->debug_dir && len &&
	    try_cache(out, a, w->debug_dir, name, hex, id, len))
		return;
	/* 3. the distribution's debug files */
	if (len > 1 &&
	    mkpath(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug",
		   hex, hex + 2) &&
	    try_path(out, a, symfs, path, id, len, false))
		return;
	settle(out);
}
