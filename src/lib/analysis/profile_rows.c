// SPDX-License-Identifier: MIT
/*
 * profile's rows (see profile.h): the address table folded into rows per
 * event, DSO and symbol, as perf report's hist entries for --sort dso,sym
 * (tools/perf/util/sort.c: sort__dso_cmp, sort__sym_cmp): a symbol's row
 * is keyed by its start and end; an address no symbol holds has a row of
 * its own (perf's "[.] 0x..."); a DSO that was not symbolized one row per
 * event, named by its status.  --by dso: a row per event and DSO.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/profile_dso.h"

/* --by line: ROW_LINE is (file, line), a the file's name; ROW_SRC an
 * address without a line (b 0), or every such address of a DSO (b 1) */
enum row_kind { ROW_SYM, ROW_ADDR, ROW_LABEL, ROW_DSO, ROW_LINE, ROW_SRC };

static uint32_t row_hash(uint32_t event, uint32_t dso, enum row_kind kind,
			 uint64_t a, uint64_t b)
{
	uint64_t k[4] = {(uint64_t)event << 32 | dso, kind, a, b};

	if (kind == ROW_LINE) {
		const char *file = (const char *)(uintptr_t)a;

		k[2] = pd_fnv1a(file, strlen(file), PD_FNV_SEED);
	}
	return pd_fnv1a(k, sizeof(k), PD_FNV_SEED);
}

static bool row_is(const struct pd_prof_row *r, uint32_t event, uint32_t dso,
		   enum row_kind kind, uint64_t a, uint64_t b)
{
	if (r->event != event || r->dso != dso)
		return false;
	switch (kind) {
	case ROW_SYM: return r->symbol && r->addr == a && r->size == b;
	case ROW_ADDR: return !r->symbol && !r->label && r->addr == a;
	case ROW_LABEL: return r->label != NULL;
	case ROW_LINE:
		return r->source_file && r->line == (int)b &&
		       !strcmp(r->source_file, (const char *)(uintptr_t)a);
	case ROW_SRC: return !r->source_file && r->addr == a && r->size == b;
	default: return true;
	}
}

/* The row for a key, made when new (NULL: the table is full). */
static struct pd_prof_row *row_of(struct prof_ctx *c, uint32_t event,
				  uint32_t dso, enum row_kind kind, uint64_t a,
				  uint64_t b)
{
	struct pd_profile *p = c->p;
	uint32_t h = row_hash(event, dso, kind, a, b), pos = 0, i;
	struct pd_prof_row *r;

	while ((i = pd_hindex_next(&p->row_ix, h, &pos)) != PD_HINDEX_NONE)
		if (row_is(&p->rows[i], event, dso, kind, a, b))
			return &p->rows[i];
	if (p->nrows >= PD_PROF_MAX_ROWS) {
		prof_warn_full(c, &c->rows_warned, "rows",
			       "more rows than the profile keeps: the samples "
			       "of the rest are in the totals only "
			       "(rows_not_kept)");
		return NULL;
	}
	if (p->nrows == p->rows_cap) {
		uint32_t ncap = p->rows_cap ? p->rows_cap * 2 : 256;
		struct pd_prof_row *nv = realloc(p->rows, ncap * sizeof(*nv));

		if (!nv)
			goto oom;
		p->rows = nv;
		p->rows_cap = ncap;
	}
	if (pd_hindex_add(&p->row_ix, h, p->nrows) < 0)
		goto oom;
	r = &p->rows[p->nrows];
	*r = (struct pd_prof_row){.event = event,
				  .dso = dso,
				  .addr = a,
				  .size = b,
				  .next_dso = PD_PROF_NONE};
	/* the DSO's rows, in order */
	if (dso != PD_PROF_NONE) {
		struct dso_state *ds = p->dsos[dso].state;

		p->dsos[dso].nrows++;
		if (ds->first_row == PD_PROF_NONE)
			ds->first_row = p->nrows;
		else
			p->rows[ds->last_row].next_dso = p->nrows;
		ds->last_row = p->nrows;
	}
	p->nrows++;
	return r;
oom:
	c->oom = true;
	return NULL;
}

/* "[mismatch]": a DSO's status as a row's name */
static const char *status_label(struct prof_ctx *c, const struct pd_prof_dso *d)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "[%s]", pd_bid_status_name(d->status));
	return arena_memdup(&c->p->arena, buf, strlen(buf) + 1);
}

/* The row an address entry goes to. */
static struct pd_prof_row *
row_for(struct prof_ctx *c, const struct prof_addr *e, struct pd_symtab *syms)
{
	struct pd_profile *p = c->p;
	const struct pd_sym *s;
	struct pd_prof_row *r;

	if (p->by == PD_PROF_BY_DSO)
		return row_of(c, e->event, e->dso, ROW_DSO, 0, 0);
	if ((!syms || !(s = pd_symtab_find(syms, e->rel))) &&
	    e->dso != PD_PROF_NONE && p->dsos[e->dso].ksymbol) {
		/* machine.c machine__process_ksymbol_register: the map is
		 * one symbol of the KSYMBOL's name, whatever became of the
		 * kernel's symbols */
		r = row_of(c, e->event, e->dso, ROW_LABEL, 0, 0);
		if (r && !r->label)
			r->label = p->dsos[e->dso].name;
		return r;
	}
	if (e->dso != PD_PROF_NONE && !syms) {
		r = row_of(c, e->event, e->dso, ROW_LABEL, 0, 0);
		if (r && !r->label)
			r->label = status_label(c, &p->dsos[e->dso]);
		return r;
	}
	if (!syms || !(s = pd_symtab_find(syms, e->rel)))
		return row_of(c, e->event, e->dso, ROW_ADDR, e->rel, 0);
	r = row_of(c, e->event, e->dso, ROW_SYM, s->start, s->end - s->start);
	if (r && !r->symbol) {
		/* demangled here, once per row */
		const char *name = pd_symtab_name(syms, s);

		r->symbol = arena_memdup(&p->arena, name, strlen(name) + 1);
		if (!r->symbol)
			c->oom = true;
	}
	return r;
}

/* --by line: the row of an address entry's line (l: its DSO's lines). */
static struct pd_prof_row *line_row_for(struct prof_ctx *c,
					const struct prof_addr *e,
					struct pd_symtab *syms)
{
	struct pd_profile *p = c->p;
	const struct pd_prof_dso *d =
		e->dso == PD_PROF_NONE ? NULL : &p->dsos[e->dso];
	struct pd_prof_row *r;
	const char *file;
	int line;

	if (d && prof_dso_line(c, e->dso, e->rel, &file, &line)) {
		r = row_of(c, e->event, e->dso, ROW_LINE, (uintptr_t)file,
			   (uint64_t)line);
		if (r && !r->label) { /* new */
			r->addr = r->size = 0;
			r->line = line;
			r->source_file =
				arena_memdup(&p->arena, file, strlen(file) + 1);
			r->label = prof_srcline(c, file, line);
			c->oom |= !r->source_file;
		}
	} else if (!d || d->src == PD_SYMS_SYMTAB || d->src == PD_SYMS_DYNSYM) {
		/* a file addr2line read, or no map (sort.c map__srcline) */
		r = row_of(c, e->event, e->dso, ROW_SRC, 0, 1);
		if (r && !r->label)
			r->label = "??:0";
	} else {
		r = row_of(c, e->event, e->dso, ROW_SRC, e->rel, 0);
		if (r && !r->label)
			r->label = prof_srcline_none(c, e->dso, e->rel, syms);
	}
	c->oom |= r && !r->label;
	return r;
}

static int cmp_dso_rel(const void *a, const void *b)
{
	const struct prof_addr *x = a, *y = b;

	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	return (x->rel > y->rel) - (x->rel < y->rel);
}

/* The entries [from, to) of one DSO into rows. */
static void fold_group(struct prof_ctx *c, uint32_t from, uint32_t to)
{
	struct pd_profile *p = c->p;
	uint32_t dso = c->addrs.v[from].dso;
	struct pd_symtab *syms = NULL;
	bool by_line = p->by == PD_PROF_BY_LINE, found = false;

	if (dso != PD_PROF_NONE) {
		prof_dso_load(c, dso, p->by != PD_PROF_BY_DSO);
		syms = prof_dso_syms(c, dso);
	}
	for (uint32_t k = from; k < to && !c->oom; k++) {
		const struct prof_addr *e = &c->addrs.v[k];
		struct pd_prof_row *r = by_line ? line_row_for(c, e, syms)
						: row_for(c, e, syms);

		if (dso != PD_PROF_NONE) {
			p->dsos[dso].samples += e->samples;
			p->dsos[dso].period += e->period;
			if (p->dsos[dso].unverified)
				p->unverified_samples += e->samples;
		}
		if (!r) {
			p->rows_not_kept += e->samples;
			continue;
		}
		found |= r->source_file != NULL;
		r->samples += e->samples;
		r->period += e->period;
		/* sorted by address: the lowest of equals stays */
		if (e->samples > r->hot_samples) {
			r->hot_samples = e->samples;
			r->hot_addr = e->rel;
		}
	}
	/* the lines read (prof_dso_release closes them) */
	if (by_line && dso != PD_PROF_NONE && prof_dso_dwarf(c, dso) &&
	    (found || !p->dsos[dso].lines))
		p->dsos[dso].lines =
			found ? "dwarf" : "no line holds the addresses sampled";
}

struct pd_prof_row *prof_row_at(struct prof_ctx *c, uint32_t event,
				uint32_t dso, uint64_t rel)
{
	struct prof_addr e = {.rel = rel, .dso = dso, .event = event};
	struct pd_symtab *syms = NULL;

	if (dso != PD_PROF_NONE) {
		if (dso >= c->p->ndsos && !prof_dsos_sync(c)) {
			c->oom = true;
			return NULL;
		}
		if (prof_dso_load(c, dso, c->p->by == PD_PROF_BY_FUNCTION))
			prof_dso_release(c, dso, false);
		syms = prof_dso_syms(c, dso);
	}
	return row_for(c, &e, syms);
}

/* A string of another profile's, as c's own (NULL: none) */
static const char *own(struct prof_ctx *c, const char *str)
{
	const char *v;

	if (!str)
		return NULL;
	if (!(v = arena_memdup(&c->p->arena, str, strlen(str) + 1)))
		c->oom = true;
	return v;
}

void prof_row_merge(struct prof_ctx *c, const struct pd_prof_row *f)
{
	enum pd_prof_by by = c->p->by;
	enum row_kind kind = ROW_ADDR;
	uint64_t a = f->addr, b = 0;
	struct pd_prof_row *r;

	/* its key, as row_for and line_row_for make it */
	if (by == PD_PROF_BY_DSO)
		kind = ROW_DSO, a = 0;
	else if (by == PD_PROF_BY_LINE && f->source_file)
		kind = ROW_LINE, a = (uintptr_t)f->source_file, b = f->line;
	else if (by == PD_PROF_BY_LINE)
		kind = ROW_SRC, b = f->size;
	else if (f->symbol)
		kind = ROW_SYM, b = f->size;
	else if (f->label)
		kind = ROW_LABEL, a = 0;
	if (!(r = row_of(c, f->event, f->dso, kind, a, b))) {
		c->p->rows_not_kept += f->samples;
		return;
	}
	if (!r->symbol && !r->label && !r->source_file) { /* new */
		r->addr = f->addr;
		r->size = f->size;
		r->line = f->line;
		r->symbol = own(c, f->symbol);
		r->label = own(c, f->label);
		r->source_file = own(c, f->source_file);
	}
	r->samples += f->samples;
	r->period += f->period;
	r->children_samples += f->children_samples;
	r->children_period += f->children_period;
	if (f->hot_samples > r->hot_samples ||
	    (f->hot_samples == r->hot_samples && f->hot_addr < r->hot_addr)) {
		r->hot_samples = f->hot_samples;
		r->hot_addr = f->hot_addr;
	}
}

bool prof_fold(struct prof_ctx *c, bool final)
{
	struct prof_addrs *a = &c->addrs;
	struct pd_profile *p = c->p;
	uint32_t from = 0;

	if (!prof_dsos_sync(c))
		return false;
	prof_addrs_compact(a);
	if (a->n)
		qsort(a->v, a->n, sizeof(*a->v), cmp_dso_rel);
	while (from < a->n && !c->oom) {
		uint32_t to = from + 1, dso = a->v[from].dso;

		while (to < a->n && a->v[to].dso == dso)
			to++;
		fold_group(c, from, to);
		if (dso != PD_PROF_NONE) {
			if (final && p->by == PD_PROF_BY_FUNCTION)
				prof_dso_lines(c, dso);
			prof_dso_release(c, dso, final);
		}
		from = to;
	}
	/* DSOs whose samples all came in an earlier fold */
	for (uint32_t i = 0; final && i < p->ndsos; i++) {
		struct dso_state *ds = p->dsos[i].state;

		if (ds->syms_ok && ds->first_row != PD_PROF_NONE &&
		    p->by == PD_PROF_BY_FUNCTION && !p->dsos[i].lines)
			prof_dso_lines(c, i);
		prof_dso_release(c, i, true);
	}
	return !c->oom;
}

static int cmp_row(const void *a, const void *b, void *arg)
{
	const struct pd_prof_row *x = a, *y = b;
	const struct pd_profile *p = arg;
	const char *nx, *ny;
	int k;

	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	/* perf report --children: by the inclusive period first */
	if (p->children && x->children_period != y->children_period)
		return x->children_period > y->children_period ? -1 : 1;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	nx = x->dso == PD_PROF_NONE ? "" : p->dsos[x->dso].short_name;
	ny = y->dso == PD_PROF_NONE ? "" : p->dsos[y->dso].short_name;
	if ((k = strcmp(nx, ny)))
		return k;
	nx = x->symbol ? x->symbol : x->label ? x->label : "";
	ny = y->symbol ? y->symbol : y->label ? y->label : "";
	if ((k = strcmp(nx, ny)))
		return k;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* the rest of the key (row_is): ties are not left to the order
	 * rows were made in, which threads change (profile_par.c) */
	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if ((k = strcmp(x->source_file ? x->source_file : "",
			y->source_file ? y->source_file : "")))
		return k;
	return (x->line > y->line) - (x->line < y->line);
}

void pd_profile_sort_rows(struct pd_profile *p)
{
	if (p->nrows)
		qsort_r(p->rows, p->nrows, sizeof(*p->rows), cmp_row, p);
	/* the order changed: the index and the DSO lists are stale */
	pd_hindex_free(&p->row_ix);
	for (uint32_t i = 0; i < p->nrows; i++)
		p->rows[i].next_dso = PD_PROF_NONE;
}
