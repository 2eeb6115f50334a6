// SPDX-License-Identifier: MIT
/*
 * profile's DSOs (see profile.h): which file each is symbolized from, and
 * its symbols.  A user DSO: the file whose build-id is the recording's
 * (buildid_resolve.c: its path under --symfs, perf's build-id cache,
 * /usr/lib/debug/.build-id), and a separate debug file for .symtab and
 * DWARF (.gnu_debuglink, the cache's "debug", /usr/lib/debug/.build-id);
 * symbols from a .symtab, else .dynsym, and the PLT (perf's dso__load).
 * The kernel: profile_kernel.c.  [vdso]: perf's cache ([vdso]/ID/vdso).
 * A JIT's /tmp/perf-PID.map under --symfs.  A DSO the recording has no
 * build-id for: the file at its path under --symfs, unchecked (perf's
 * dso__load).  Every path from the recording is opened under its root
 * (rootpath.h).
 */
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/buildid_maps.h"
#include "lib/analysis/dso_dwarf.h"
#include "lib/analysis/dso_elf.h"
#include "lib/base/hex.h"
#include "lib/analysis/profile_dso.h"
#include "lib/analysis/rootpath.h"
#include "lib/session/session.h"
#include <unistd.h>

static char *adup(struct pd_profile *p, const char *s)
{
	return arena_memdup(&p->arena, s, strlen(s) + 1);
}

/* perf's short name: a module's [name], else the file's base name */
static const char *short_name(struct pd_profile *p, const char *name,
			      bool kernel)
{
	const char *base = strrchr(name, '/');
	char buf[256];
	size_t n;

	base = base ? base + 1 : name;
	if (!kernel || name[0] == '[' || !*base)
		return *base ? adup(p, base) : adup(p, name);
	/* util/dso.c kmod_path__parse_name: "ext4.ko.xz" -> "[ext4]" */
	n = strcspn(base, ".");
	if (n > sizeof(buf) - 3)
		n = sizeof(buf) - 3;
	buf[0] = '[';
	for (size_t i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = 0;
	return adup(p, buf);
}

/* The recording's build-id for a DSO without one in its maps: the last
 * entry of that name (perf's __event_process_build_id sets it). */
static void feature_build_id(struct prof_ctx *c, struct pd_prof_dso *d)
{
	size_t len = strlen(d->name);

	for (size_t i = c->bids.n; i-- > 0;) {
		const struct pd_bid_entry *b = &c->bids.v[i];

		if (b->filename_len == len &&
		    memcmp(b->filename, d->name, len) == 0 &&
		    b->build_id_size) {
			d->build_id_size = b->build_id_size > PD_BUILD_ID_MAX
						   ? PD_BUILD_ID_MAX
						   : b->build_id_size;
			memcpy(d->build_id, b->build_id, d->build_id_size);
			return;
		}
	}
}

bool prof_dsos_sync(struct prof_ctx *c)
{
	struct pd_profile *p = c->p;
	size_t n = pd_bid_maps_ndsos(c->maps);
	struct pd_prof_dso *nv;

	if (!c->bids_read) {
		c->bids_read = true;
		for (size_t i = 0; c->bids_said && i < c->bids_said->n; i++) {
			const struct pd_diag *g = &c->bids_said->v[i];

			pd_diag_add(&c->s->diags, g->code, g->where, g->sev,
				    g->offset, g->what, "%s", g->detail);
		}
		if (pd_bid_list_build(&c->bids, c->s, false, false) < 0)
			return false;
	}
	if (n == p->ndsos)
		return true;
	nv = realloc(p->dsos, n * sizeof(*nv));
	if (!nv)
		return false;
	p->dsos = nv;
	for (size_t i = p->ndsos; i < n; i++) {
		const struct pd_bid_dso *m = pd_bid_maps_dso(c->maps, i);
		struct pd_prof_dso *d = &p->dsos[i];
		struct dso_state *ds;

		memset(d, 0, sizeof(*d));
		d->name = arena_memdup(&p->arena, m->name, m->name_len + 1);
		d->kernel = m->kernel;
		d->ksymbol = m->ksymbol;
		/* machine.c machine__process_ksymbol_register: dso__new(name) */
		d->short_name = d->name && !d->ksymbol
					? short_name(p, d->name, d->kernel)
					: d->name;
		ds = calloc(1, sizeof(*ds));
		if (ds) {
			ds->first_row = ds->last_row = PD_PROF_NONE;
			/* not open: prof_dso_release closes no descriptor */
			ds->rt = ds->dbg = (struct pd_elf_file){.fd = -1};
		}
		d->state = ds;
		if (!d->name || !d->short_name || !d->state) {
			p->ndsos = (uint32_t)i + 1;
			return false;
		}
		d->build_id_size = m->build_id_size;
		memcpy(d->build_id, m->build_id, m->build_id_size);
		if (!d->build_id_size)
			feature_build_id(c, d);
		p->ndsos = (uint32_t)i + 1;
	}
	return true;
}

/* ---- opening the files ----------------------------------------------- */

bool prof_open_checked(const char *root, const char *rel, const uint8_t *id,
		       size_t len, struct pd_elf_file *f, char *detail,
		       size_t dlen)
{
	struct pd_elf_build_id b;

	pd_elf_file_open_in(root, rel, f, &b);
	if (b.status != PD_ELF_OK && b.status != PD_ELF_NO_NOTE) {
		snprintf(detail, dlen, "%s", b.detail);
		return false;
	}
	if (len &&
	    (b.status != PD_ELF_OK || !pd_bid_equal(id, len, b.id, b.len))) {
		snprintf(detail, dlen, "the file has another build-id");
		pd_elf_file_close(f);
		return false;
	}
	if (pd_dso_elf_check(f, detail, dlen) < 0) {
		pd_elf_file_close(f);
		return false;
	}
	return true;
}

/* A debug file: one of perf's places for it, under its root. */
static bool try_debug(struct prof_ctx *c, struct dso_state *ds,
		      const char *root, const char *rel, const uint8_t *id,
		      size_t len)
{
	char detail[160];

	if (ds->rt_root == root && ds->rt_rel && strcmp(ds->rt_rel, rel) == 0)
		return false; /* the running file itself */
	if (!prof_open_checked(root, rel, id, len, &ds->dbg, detail,
			       sizeof(detail)))
		return false;
	if (!pd_dso_elf_has(&ds->dbg, SHT_SYMTAB) &&
	    !pd_dwarf_present(&ds->dbg)) {
		pd_elf_file_close(&ds->dbg);
		return false;
	}
	ds->dbg_root = root;
	ds->dbg_rel = adup(c->p, rel);
	return true;
}

/* perf's DEBUGLINK, BUILD_ID_CACHE_DEBUGINFO and BUILDID_DEBUGINFO */
static void find_debug(struct prof_ctx *c, struct pd_prof_dso *d,
		       struct dso_state *ds)
{
	const char *symfs = c->where->bid.symfs && *c->where->bid.symfs
				    ? c->where->bid.symfs
				    : NULL;
	const char *cache = c->where->bid.debug_dir;
	char hex[41], link[256], dir[PATH_MAX], rel[PATH_MAX + 320];
	const char *slash = strrchr(d->name, '/');
	const uint8_t *id = ds->id;
	size_t len = ds->id_len;

	pd_hex_bytes(hex, id, len);
	if (pd_dso_elf_debuglink(&ds->rt, link, sizeof(link)) && slash &&
	    (size_t)(slash - d->name) < sizeof(dir)) {
		static const char *const fmt[] = {"%s/%s", "%s/.debug/%s",
						  "/usr/lib/debug%s/%s"};

		memcpy(dir, d->name, (size_t)(slash - d->name));
		dir[slash - d->name] = 0;
		for (unsigned i = 0; i < 3; i++) {
			snprintf(rel, sizeof(rel), fmt[i], dir, link);
			if (try_debug(c, ds, symfs, rel, id, len))
				return;
		}
	}
	if (cache && *cache && len > 1) {
		snprintf(rel, sizeof(rel), "%s%s/%s/debug",
			 d->name[0] == '/' ? "" : "/", d->name, hex);
		if (try_debug(c, ds, cache, rel, id, len))
			return;
		snprintf(rel, sizeof(rel), "/.build-id/%.2s/%s/debug", hex,
			 hex + 2);
		if (try_debug(c, ds, cache, rel, id, len))
			return;
	}
	if (len > 1) {
		snprintf(rel, sizeof(rel),
			 "/usr/lib/debug/.build-id/%.2s/%s.debug", hex,
			 hex + 2);
		try_debug(c, ds, symfs, rel, id, len);
	}
}

/* Symbols of the open files: a .symtab (the debug file's first), else
 * the running file's .dynsym; then its PLT.  false: none (detail). */
static bool read_symbols(struct prof_ctx *c, struct pd_prof_dso *d,
			 struct dso_state *ds)
{
	char detail[160] = "";
	struct pd_elf_file *from = NULL;
	bool dynsym = false;
	long n;

	if (ds->dbg.elf && pd_dso_elf_has(&ds->dbg, SHT_SYMTAB))
		from = &ds->dbg;
	else if (pd_dso_elf_has(&ds->rt, SHT_SYMTAB))
		from = &ds->rt;
	else if (pd_dso_elf_has(&ds->rt, SHT_DYNSYM))
		from = &ds->rt, dynsym = true;
	if (!from) {
		d->detail = "no .symtab or .dynsym";
		return false;
	}
	n = pd_dso_elf_symbols(from, dynsym, false, &ds->segs, &ds->syms,
			       detail, sizeof(detail));
	if (n < 0) {
		d->detail = adup(c->p, detail);
		return false;
	}
	pd_symtab_finish(&ds->syms, PD_SYMTAB_ELF);
	/* symbol-elf.c demangle_sym: a user DSO's names (want_demangle) */
	ds->syms.demangle = !c->where->raw_names;
	if (pd_dso_elf_plt(&ds->rt, &ds->syms) > 0)
		pd_symtab_resort(&ds->syms);
	d->src = dynsym ? PD_SYMS_DYNSYM : PD_SYMS_SYMTAB;
	if (from == &ds->dbg)
		d->debug_path = ds->dbg_path;
	return true;
}

/* The open running file checked; segments, debug file and symbols. */
static void load_elf(struct prof_ctx *c, struct pd_prof_dso *d,
		     struct dso_state *ds)
{
	char detail[160];

	if (!prof_open_checked(ds->rt_root, ds->rt_rel, ds->id, ds->id_len,
			       &ds->rt, detail, sizeof(detail))) {
		/* it matched a moment ago: damaged, or changed since */
		d->status = PD_BID_UNREADABLE;
		d->detail = adup(c->p, detail);
		return;
	}
	pd_dso_elf_segs(&ds->rt, &ds->segs);
	if (!pd_dso_elf_has(&ds->rt, SHT_SYMTAB) || !pd_dwarf_present(&ds->rt))
		find_debug(c, d, ds);
	if (ds->dbg_rel) {
		snprintf(detail, sizeof(detail), "%s%s",
			 ds->dbg_root ? ds->dbg_root : "", ds->dbg_rel);
		ds->dbg_path = adup(c->p, detail);
	}
	if (!read_symbols(c, d, ds)) {
		d->status = PD_BID_UNREADABLE;
		return;
	}
	d->nsyms = ds->syms.n;
	d->dropped_syms = ds->syms.dropped;
	ds->syms_ok = true;
}

/*
 * A DSO the recording has no build-id for: the file at its path under
 * --symfs, whatever its build-id, as perf's dso__load does (symbol.c: it
 * reads the file's build-id and takes it as the DSO's, then symsrc__init
 * checks the files against it).  Unverified: status not-checked.
 */
static void load_unverified(struct prof_ctx *c, struct pd_prof_dso *d,
			    struct dso_state *ds, bool symbols)
{
	const char *symfs = c->where->bid.symfs && *c->where->bid.symfs
				    ? c->where->bid.symfs
				    : NULL;
	char rel[PATH_MAX], shown[2 * PATH_MAX];
	struct pd_elf_build_id b;
	int n;

	if (c->where->strict_build_ids) {
		d->status = PD_BID_NO_BUILD_ID;
		d->detail = "the recording has no build-id for it "
			    "(--strict-build-ids)";
		return;
	}
	n = snprintf(rel, sizeof(rel), "%s%s", d->name[0] == '/' ? "" : "/",
		     d->name);
	if (n < 0 || (size_t)n >= sizeof(rel)) {
		d->status = PD_BID_MISSING;
		d->detail = "file name too long";
		return;
	}
	snprintf(shown, sizeof(shown), "%s%s", symfs ? symfs : "", rel);
	pd_elf_build_id_in(symfs, rel, &b);
	if (b.status != PD_ELF_OK && b.status != PD_ELF_NO_NOTE) {
		d->status = pd_bid_file_status(b.status);
		d->detail = b.status == PD_ELF_MISSING ? "no such file"
						       : adup(c->p, b.detail);
		if (b.status != PD_ELF_MISSING)
			d->path = adup(c->p, shown);
		return;
	}
	ds->id_len = b.status == PD_ELF_OK ? b.len : 0;
	memcpy(ds->id, b.id, ds->id_len);
	d->status = PD_BID_NOT_CHECKED;
	d->detail = "the recording has no build-id for it: the file at its "
		    "path, unverified";
	d->path = adup(c->p, shown);
	if (!symbols)
		return;
	ds->rt_root = symfs;
	ds->rt_rel = adup(c->p, rel);
	load_elf(c, d, ds);
}

/* A user DSO's file: the one with the recording's build-id. */
static void load_user(struct prof_ctx *c, struct pd_prof_dso *d,
		      struct dso_state *ds, bool symbols)
{
	struct pd_bid_res res;

	if (!d->build_id_size) {
		load_unverified(c, d, ds, symbols);
		return;
	}
	pd_bid_resolve(&c->where->bid, d->build_id, d->build_id_size, d->name,
		       strlen(d->name), PD_MISC_USER, &c->p->arena, &res);
	d->status = res.status;
	d->detail = res.detail;
	d->path = res.path;
	if (res.status != PD_BID_MATCH || !symbols)
		return;
	ds->rt_root = res.root;
	ds->rt_rel = res.rel;
	load_elf(c, d, ds);
}

/* [vdso]: perf's build-id cache keeps it as [vdso]/ID/vdso */
static void load_vdso(struct prof_ctx *c, struct pd_prof_dso *d,
		      struct dso_state *ds, bool symbols)
{
	const char *cache = c->where->bid.debug_dir;
	char hex[41], rel[128], detail[160];
	struct pd_elf_file f;
	const char *fmt[] = {"/[vdso]/%s/vdso", "/.build-id/%.2s/%s/vdso"};

	d->status = PD_BID_MISSING;
	d->detail = "not in the build-id cache";
	if (!d->build_id_size) {
		d->status = PD_BID_NO_BUILD_ID;
		d->detail = "the recording has no build-id for it";
		return;
	}
	if (!cache || !*cache)
		return;
	pd_hex_bytes(hex, d->build_id, d->build_id_size);
	for (unsigned i = 0; i < 2; i++) {
		if (i == 0)
			snprintf(rel, sizeof(rel), fmt[0], hex);
		else
			snprintf(rel, sizeof(rel), fmt[1], hex, hex + 2);
		if (!prof_open_checked(cache, rel, d->build_id,
				       d->build_id_size, &f, detail,
				       sizeof(detail)))
			continue;
		pd_elf_file_close(&f);
		d->status = PD_BID_MATCH;
		d->detail = NULL;
		snprintf(detail, sizeof(detail), "%s%s", cache, rel);
		d->path = adup(c->p, detail);
		ds->rt_root = cache;
		ds->rt_rel = adup(c->p, rel);
		if (symbols)
			load_elf(c, d, ds);
		return;
	}
}

/* A JIT's /tmp/perf-PID.map, under --symfs (no build-id to check) */
static void load_perf_map(struct prof_ctx *c, struct pd_prof_dso *d,
			  struct dso_state *ds, bool symbols)
{
	struct pd_root_file f;
	char detail[160];

	switch (pd_root_open(c->where->bid.symfs, d->name, &f)) {
	case PD_ROOT_FILE: break;
	case PD_ROOT_MISSING:
		d->status = PD_BID_MISSING;
		d->detail = "no such file";
		return;
	case PD_ROOT_OUTSIDE:
		d->status = PD_BID_OUTSIDE_ROOT;
		d->detail = "'..' leads outside the root";
		return;
	default:
		d->status = PD_BID_UNREADABLE;
		d->detail = "not a readable regular file";
		return;
	}
	snprintf(detail, sizeof(detail), "%s%s",
		 c->where->bid.symfs ? c->where->bid.symfs : "", d->name);
	d->path = adup(c->p, detail);
	d->status = PD_BID_NOT_CHECKED;
	d->detail = "a JIT's symbol map: no build-id to check";
	if (symbols && pd_symtab_read_perf_map(&ds->syms, f.fd, detail,
					       sizeof(detail)) < 0) {
		d->status = PD_BID_UNREADABLE;
		d->detail = adup(c->p, detail);
	} else if (symbols) {
		d->src = PD_SYMS_PERF_MAP;
		d->nsyms = ds->syms.n;
		ds->syms_ok = true;
	}
	close(f.fd);
}

static bool is_perf_map(const char *name)
{
	size_t n = strlen(name);

	return strncmp(name, "/tmp/perf-", 10) == 0 && n > 14 &&
	       strcmp(name + n - 4, ".map") == 0;
}

bool prof_dso_load(struct prof_ctx *c, uint32_t i, bool symbols)
{
	struct pd_prof_dso *d = &c->p->dsos[i];
	struct dso_state *ds = d->state;

	if (ds->loaded)
		return false;
	ds->loaded = true;
	ds->id_len = d->build_id_size;
	memcpy(ds->id, d->build_id, d->build_id_size);
	if (d->kernel)
		prof_kernel_load(c, d, ds, symbols);
	else if (strcmp(d->name, "[vdso]") == 0)
		load_vdso(c, d, ds, symbols);
	else if (is_perf_map(d->name))
		load_perf_map(c, d, ds, symbols);
	else if (pd_bid_is_pseudo(d->name, strlen(d->name))) {
		d->status = PD_BID_PSEUDO;
		d->detail = "not a file";
	} else
		load_user(c, d, ds, symbols);
	d->unverified = d->status == PD_BID_NOT_CHECKED;
	return true;
}

int prof_dso_open(struct prof_ctx *c, uint32_t i, const char **why)
{
	const struct pd_prof_dso *d = &c->p->dsos[i];
	const struct dso_state *ds = d->state;
	struct pd_root_file f;

	*why = d->detail ? d->detail : pd_bid_status_name(d->status);
	if (!ds->syms_ok || ds->kernel_syms || !ds->rt_rel)
		return -1;
	if (pd_root_open(ds->rt_root, ds->rt_rel, &f) != PD_ROOT_FILE) {
		*why = "cannot be opened";
		return -1;
	}
	return f.fd;
}

struct pd_symtab *prof_dso_syms(struct prof_ctx *c, uint32_t i)
{
	struct dso_state *ds = c->p->dsos[i].state;

	if (!ds->syms_ok)
		return NULL;
	return ds->kernel_syms ? &c->ksyms : &ds->syms;
}

void prof_dso_release(struct prof_ctx *c, uint32_t i, bool final)
{
	struct dso_state *ds = c->p->dsos[i].state;

	if (ds->dw_tried) { /* prof_dso_dwarf's, before its files */
		pd_dwarf_close(ds->dw);
		pd_elf_file_close(&ds->alt);
		ds->dw = NULL;
		ds->dw_tried = false;
	}
	pd_elf_file_close(&ds->rt);
	pd_elf_file_close(&ds->dbg);
	if (final) {
		pd_symtab_free(&ds->syms);
		ds->syms_ok = false;
	}
}

void prof_dsos_free(struct prof_ctx *c)
{
	struct pd_profile *p = c->p;

	for (uint32_t i = 0; i < p->ndsos; i++) {
		struct dso_state *ds = p->dsos[i].state;

		if (ds) {
			prof_dso_release(c, i, true);
			free(ds);
		}
		p->dsos[i].state = NULL;
	}
	pd_symtab_free(&c->ksyms);
}
