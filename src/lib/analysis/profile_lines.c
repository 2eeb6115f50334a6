// SPDX-License-Identifier: MIT
/*
 * profile's source lines (see profile.h): for each row of a DSO, the
 * source file of its symbol's first address and the file and line of its
 * hottest address, from the DWARF of the DSO's debug file or of the file
 * itself (dso_dwarf.c).  Row addresses are offsets in the file; DWARF
 * speaks of the addresses the file is linked at: the running file's
 * segments convert them.  A dwz file (.gnu_debugaltlink) is looked for by
 * its build-id under --symfs (/usr/lib/debug/.build-id/XX/REST.debug)
 * and, as named, under the debug file's root.
 *
 * --by line: a row per source line, named as perf report --sort srcline
 * names it (srcline.c: "file:line" with the file's base name); an
 * address without a line is "??:0" when its DSO's file was read (what
 * perf's addr2line answers; no map: the same), else (the kernel, a JIT
 * map, a DSO not symbolized: no file perf hands addr2line, or none of
 * the recording's build-id) "sym+off" or "dso[addr]", one row per
 * address.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/analysis/dso_dwarf.h"
#include "lib/base/hex.h"
#include "lib/analysis/profile_dso.h"

static const char *adup(struct pd_profile *p, const char *s)
{
	return arena_memdup(&p->arena, s, strlen(s) + 1);
}

/* The dwz file of f, when f names one: opened in alt. */
static bool find_alt(struct prof_ctx *c, struct pd_elf_file *f,
		     const char *root, struct pd_elf_file *alt)
{
	char name[256], rel[320], hex[129], detail[160];
	uint8_t id[64];
	size_t idlen = sizeof(id);
	const char *symfs = c->where->bid.symfs;

	if (!pd_dso_elf_altlink(f, name, sizeof(name), id, &idlen) || !idlen)
		return false;
	pd_hex_bytes(hex, id, idlen);
	snprintf(rel, sizeof(rel), "/usr/lib/debug/.build-id/%.2s/%s.debug",
		 hex, hex + 2);
	if (prof_open_checked(symfs, rel, id, idlen, alt, detail,
			      sizeof(detail)))
		return true;
	return name[0] == '/' && prof_open_checked(root, name, id, idlen, alt,
						   detail, sizeof(detail));
}

/* The file to read DWARF from, opened (again after an earlier fold). */
static struct pd_elf_file *dwarf_file(struct dso_state *ds, const char **root)
{
	char detail[160];

	if (ds->dbg_rel && !ds->dbg.elf)
		prof_open_checked(ds->dbg_root, ds->dbg_rel, ds->id, ds->id_len,
				  &ds->dbg, detail, sizeof(detail));
	if (ds->dbg.elf && pd_dwarf_present(&ds->dbg)) {
		*root = ds->dbg_root;
		return &ds->dbg;
	}
	if (ds->rt_rel && !ds->rt.elf)
		prof_open_checked(ds->rt_root, ds->rt_rel, ds->id, ds->id_len,
				  &ds->rt, detail, sizeof(detail));
	*root = ds->rt_root;
	return ds->rt.elf ? &ds->rt : NULL;
}

/* The line of file offset off: false when DWARF has none. */
static bool line_of(struct pd_dwarf *dw, const struct pd_segs *segs,
		    uint64_t off, const char **file, int *line)
{
	uint64_t addr;

	return pd_segs_addr(segs, off, &addr) &&
	       pd_dwarf_line(dw, addr, file, line);
}

/* The DWARF of DSO i, its dwz file in alt; NULL with d->lines why. */
static struct pd_dwarf *open_dwarf(struct prof_ctx *c, uint32_t i,
				   struct pd_elf_file *alt)
{
	struct pd_profile *p = c->p;
	struct pd_prof_dso *d = &p->dsos[i];
	struct dso_state *ds = d->state;
	struct pd_elf_file *f;
	struct pd_dwarf *dw;
	const char *root;
	char detail[160];

	if (d->kernel || d->src == PD_SYMS_PERF_MAP || !ds->syms_ok)
		return NULL;
	if (!(f = dwarf_file(ds, &root))) {
		d->lines = "the file could not be opened again";
		return NULL;
	}
	if (!pd_dwarf_present(f)) {
		d->lines = "no DWARF line table";
		return NULL;
	}
	find_alt(c, f, root, alt);
	dw = pd_dwarf_open(f, alt->elf ? alt : NULL, detail, sizeof(detail));
	if (!dw) {
		d->lines = adup(p, detail);
		pd_elf_file_close(alt);
	}
	return dw;
}

struct pd_dwarf *prof_dso_dwarf(struct prof_ctx *c, uint32_t i)
{
	struct dso_state *ds = c->p->dsos[i].state;

	if (!ds->dw_tried) {
		ds->dw_tried = true;
		ds->alt = (struct pd_elf_file){.fd = -1};
		ds->dw = open_dwarf(c, i, &ds->alt);
	}
	return ds->dw;
}

bool prof_dso_link_addr(struct prof_ctx *c, uint32_t i, uint64_t off,
			uint64_t *addr)
{
	const struct dso_state *ds = c->p->dsos[i].state;

	return pd_segs_addr(&ds->segs, off, addr);
}

void prof_dso_lines(struct prof_ctx *c, uint32_t i)
{
	struct pd_profile *p = c->p;
	struct pd_prof_dso *d = &p->dsos[i];
	struct dso_state *ds = d->state;
	struct pd_elf_file alt = {.fd = -1};
	struct pd_dwarf *dw;
	const char *file;
	int line;
	uint64_t found = 0;

	if (ds->first_row == PD_PROF_NONE || !(dw = open_dwarf(c, i, &alt)))
		return;
	for (uint32_t r = ds->first_row; r != PD_PROF_NONE;
	     r = p->rows[r].next_dso) {
		struct pd_prof_row *row = &p->rows[r];

		if (row->symbol &&
		    line_of(dw, &ds->segs, row->addr, &file, &line)) {
			row->source_file = adup(p, file);
			found++;
		}
		/* a row of callers alone has no hottest address */
		if (row->hot_samples &&
		    line_of(dw, &ds->segs, row->hot_addr, &file, &line)) {
			row->hot_file = adup(p, file);
			row->hot_line = line;
			found++;
		}
	}
	d->lines = found ? "dwarf" : "no line holds the addresses sampled";
	pd_dwarf_close(dw);
	pd_elf_file_close(&alt);
}

bool prof_dso_line(struct prof_ctx *c, uint32_t i, uint64_t off,
		   const char **file, int *line)
{
	struct pd_dwarf *dw = prof_dso_dwarf(c, i);
	uint64_t addr;

	return dw && prof_dso_link_addr(c, i, off, &addr) &&
	       pd_dwarf_line(dw, addr, file, line);
}

/* ---- --by line: perf's srcline ---------------------------------------- */

/* "NAME" then "NUM" as fmt prints it, whole, in the profile's arena */
static const char *name_num(struct pd_profile *p, const char *name,
			    const char *fmt, uint64_t num)
{
	size_t n = strlen(name);
	char tail[32], *s;
	int k = snprintf(tail, sizeof(tail), fmt, num);

	if (!(s = arena_alloc(&p->arena, n + (size_t)k + 1)))
		return NULL;
	memcpy(s, name, n);
	memcpy(s + n, tail, (size_t)k + 1);
	return s;
}

const char *prof_srcline(struct prof_ctx *c, const char *file, int line)
{
	/* srcline.c srcline_from_fileline: the base name (no
	 * --full-source-path), ":", the line */
	const char *base = strrchr(file, '/');

	return name_num(c->p, base ? base + 1 : file, ":%" PRIu64,
			(uint64_t)(unsigned)line);
}

const char *prof_srcline_none(struct prof_ctx *c, uint32_t dso, uint64_t rel,
			      struct pd_symtab *syms)
{
	const struct pd_prof_dso *d = &c->p->dsos[dso];
	const struct pd_sym *s = syms ? pd_symtab_find(syms, rel) : NULL;

	/* srcline.c __get_srcline when addr2line has no file to read: the
	 * symbol and the offset in it (decimal), else the DSO and the
	 * address; a KSYMBOL's map is its one symbol (machine.c
	 * machine__process_ksymbol_register) */
	if (s)
		return name_num(c->p, pd_symtab_name(syms, s), "+%" PRIu64,
				rel - s->start);
	if (d->ksymbol)
		return name_num(c->p, d->name, "+%" PRIu64, rel);
	return name_num(c->p, d->short_name, "[%" PRIx64 "]", rel);
}
