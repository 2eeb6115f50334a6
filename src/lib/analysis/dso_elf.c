// SPDX-License-Identifier: MIT
/*
 * Symbols and layout of a DSO's ELF file, for profile (see dso_elf.h).
 * Checked against tools/perf/util/symbol-elf.c (dso__load_sym,
 * elf_sym__filter, dso__synthesize_plt_symbols) of perf 6.1.
 */
#include "lib/analysis/dso_elf.h"

#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The section header table: names and bounds, read once. */
static bool shdr_at(struct pd_elf_file *f, size_t i, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(f->elf, i);

	return scn && gelf_getshdr(scn, sh);
}

static const char *scn_name(struct pd_elf_file *f, const GElf_Shdr *sh)
{
	size_t strndx;
	const char *s;

	if (elf_getshdrstrndx(f->elf, &strndx) != 0)
		return NULL;
	s = elf_strptr(f->elf, strndx, sh->sh_name);
	return s;
}

int pd_dso_elf_check(struct pd_elf_file *f, char *detail, size_t dlen)
{
	for (size_t i = 1; i < f->shnum; i++) {
		GElf_Shdr sh;

		if (!shdr_at(f, i, &sh)) {
			snprintf(detail, dlen, "section header %zu: %s", i,
				 elf_errmsg(-1));
			return -1;
		}
		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
			continue;
		if (sh.sh_offset > f->size ||
		    sh.sh_size > f->size - sh.sh_offset) {
			const char *name = scn_name(f, &sh);

			snprintf(
				detail, dlen,
				"truncated: section %zu (%s) at 0x%llx+0x%llx, "
				"file of %llu bytes",
				i, name ? name : "?",
				(unsigned long long)sh.sh_offset,
				(unsigned long long)sh.sh_size,
				(unsigned long long)f->size);
			return -1;
		}
	}
	return 0;
}

void pd_dso_elf_segs(struct pd_elf_file *f, struct pd_segs *s)
{
	size_t phnum = 0;

	s->n = 0;
	if (elf_getphdrnum(f->elf, &phnum) != 0)
		return;
	for (size_t i = 0; i < phnum && i < 65536 && s->n < PD_SEGS_MAX; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		s->v[s->n++] = (struct pd_seg){ph.p_vaddr, ph.p_memsz,
					       ph.p_offset, ph.p_filesz};
	}
}

bool pd_segs_addr(const struct pd_segs *s, uint64_t off, uint64_t *addr)
{
	for (unsigned i = 0; i < s->n; i++) {
		const struct pd_seg *g = &s->v[i];

		if (off >= g->offset && off - g->offset < g->filesz) {
			*addr = off - g->offset + g->vaddr;
			return true;
		}
	}
	return false;
}

bool pd_segs_offset(const struct pd_segs *s, uint64_t addr, uint64_t *off)
{
	for (unsigned i = 0; i < s->n; i++) {
		const struct pd_seg *g = &s->v[i];

		if (addr >= g->vaddr && addr - g->vaddr < g->memsz) {
			*off = addr - g->vaddr + g->offset;
			return true;
		}
	}
	return false;
}

/* The first section of type sh_type (0: none). */
static size_t find_type(struct pd_elf_file *f, unsigned sh_type, GElf_Shdr *sh)
{
	for (size_t i = 1; i < f->shnum; i++)
		if (shdr_at(f, i, sh) && sh->sh_type == sh_type)
			return i;
	return 0;
}

/* The first section named name (0: none). */
static size_t find_named(struct pd_elf_file *f, const char *name, GElf_Shdr *sh)
{
	for (size_t i = 1; i < f->shnum; i++) {
		const char *n;

		if (shdr_at(f, i, sh) && (n = scn_name(f, sh)) &&
		    strcmp(n, name) == 0)
			return i;
	}
	return 0;
}

bool pd_dso_elf_has(struct pd_elf_file *f, unsigned sh_type)
{
	GElf_Shdr sh;

	return find_type(f, sh_type, &sh) && sh.sh_size > 0;
}

bool pd_dso_elf_has_named(struct pd_elf_file *f, const char *name)
{
	GElf_Shdr sh;

	return find_named(f, name, &sh) && sh.sh_type != SHT_NOBITS &&
	       sh.sh_size > 0;
}

/* The bytes of section i (NULL: none, or NOBITS). */
static Elf_Data *scn_data(struct pd_elf_file *f, size_t i)
{
	Elf_Scn *scn = elf_getscn(f->elf, i);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return NULL;
	return elf_getdata(scn, NULL);
}

/* A NUL-terminated string at off in strs, or NULL. */
static const char *str_at(const Elf_Data *strs, uint64_t off, size_t *len)
{
	const char *p;
	const char *nul;

	if (!strs || !strs->d_buf || off >= strs->d_size)
		return NULL;
	p = (const char *)strs->d_buf + off;
	nul = memchr(p, 0, strs->d_size - off);
	if (!nul)
		return NULL;
	*len = (size_t)(nul - p);
	return p;
}

/* symbol-elf.c elf_sym__filter / elf_sym__is_label */
static bool wanted(const GElf_Sym *sym, bool *label)
{
	unsigned type = GELF_ST_TYPE(sym->st_info);

	*label = type == STT_NOTYPE && sym->st_name &&
		 sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS;
	if (*label)
		return true;
	return (type == STT_FUNC || type == STT_GNU_IFUNC ||
		type == STT_OBJECT) &&
	       sym->st_name && sym->st_shndx != SHN_UNDEF;
}

/* ARM's mapping symbols ($a, $d, $t, $x): not functions */
static bool arm_mapping(unsigned machine, const char *name)
{
	return (machine == EM_ARM || machine == EM_AARCH64) && name[0] == '$' &&
	       name[1] && strchr("adtx", name[1]) &&
	       (name[2] == 0 || name[2] == '.');
}

/* One symbol: perf's filters, then its file offset.  false: skipped. */
static bool take_sym(struct pd_elf_file *f, const GElf_Ehdr *eh, GElf_Sym sym,
		     const char *name, size_t len, bool absolute,
		     const struct pd_segs *segs, struct pd_symtab *t)
{
	GElf_Shdr sh;
	bool label;
	const char *sname;
	uint64_t v = sym.st_value, off;

	if (!wanted(&sym, &label) || arm_mapping(eh->e_machine, name))
		return false;
	/* a section this table can name; SHN_ABS and the reserved ones
	 * have none (perf gives up on the whole table there) */
	if (sym.st_shndx >= SHN_LORESERVE || sym.st_shndx >= f->shnum ||
	    !shdr_at(f, sym.st_shndx, &sh))
		return false;
	if (!(sh.sh_flags & SHF_ALLOC))
		return false; /* not loaded */
	sname = scn_name(f, &sh);
	if (label && (!sname || !strstr(sname, "text")))
		return false; /* elf_sec__filter: labels in text only */
	/* thumb functions have bit 0 set */
	if (eh->e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
		v &= ~(uint64_t)1;
	if (!absolute) {
		if (pd_segs_offset(segs, v, &off))
			v = off;
		else
			v = v - sh.sh_addr + sh.sh_offset;
	}
	pd_symtab_add(t, v, sym.st_size, GELF_ST_BIND(sym.st_info),
		      GELF_ST_TYPE(sym.st_info), name, len);
	return true;
}

long pd_dso_elf_symbols(struct pd_elf_file *f, bool dynsym, bool absolute,
			const struct pd_segs *segs, struct pd_symtab *t,
			char *detail, size_t dlen)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Data *syms, *strs;
	size_t i, n, ent;
	long added = 0;

	i = find_type(f, dynsym ? SHT_DYNSYM : SHT_SYMTAB, &sh);
	if (!i || !gelf_getehdr(f->elf, &eh)) {
		snprintf(detail, dlen, "no %s", dynsym ? ".dynsym" : ".symtab");
		return -1;
	}
	ent = gelf_fsize(f->elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!(syms = scn_data(f, i)) || !ent || sh.sh_link >= f->shnum ||
	    !(strs = scn_data(f, sh.sh_link))) {
		snprintf(detail, dlen, "%s: %s", dynsym ? ".dynsym" : ".symtab",
			 elf_errmsg(-1));
		return -1;
	}
	n = syms->d_size / ent;
	for (size_t k = 1; k < n; k++) {
		GElf_Sym sym;
		const char *name;
		size_t len;

		if (!gelf_getsym(syms, (int)k, &sym) ||
		    !(name = str_at(strs, sym.st_name, &len)))
			continue;
		added += take_sym(f, &eh, sym, name, len, absolute, segs, t);
	}
	return added;
}

/* symbol-elf.c dso__synthesize_plt_symbols: the header's and an entry's
 * sizes by machine */
static void plt_sizes(unsigned machine, uint64_t entsize, uint64_t *head,
		      uint64_t *entry)
{
	switch (machine) {
	case EM_ARM: *head = 20, *entry = 12; return;
	case EM_AARCH64: *head = 32, *entry = 16; return;
	case EM_SPARC: *head = 48, *entry = 12; return;
	case EM_SPARCV9: *head = 128, *entry = 32; return;
	default: *head = *entry = entsize; return;
	}
}

/* "NAME@plt", whole: shown cut as perf cuts it (pd_symtab_name), after
 * NAME is demangled */
static bool add_plt(struct pd_symtab *t, uint64_t off, uint64_t size,
		    const char *name, size_t len)
{
	char buf[256], *p = len + 5 <= sizeof(buf) ? buf : malloc(len + 5);
	bool ok;

	if (!p) {
		t->dropped++;
		return false;
	}
	memcpy(p, name, len);
	memcpy(p + len, "@plt", 5);
	ok = pd_symtab_add(t, off, size, STB_GLOBAL, STT_FUNC, p, len + 4);
	if (p != buf)
		free(p);
	return ok;
}

long pd_dso_elf_plt(struct pd_elf_file *f, struct pd_symtab *t)
{
	GElf_Shdr rel, plt, dyn;
	GElf_Ehdr eh;
	Elf_Data *reld, *syms, *strs;
	size_t ri, di;
	uint64_t off, head, entry, nrel;
	long added = 0;

	if (!gelf_getehdr(f->elf, &eh) ||
	    !(di = find_type(f, SHT_DYNSYM, &dyn)))
		return 0;
	if (!(ri = find_named(f, ".rela.plt", &rel)) &&
	    !(ri = find_named(f, ".rel.plt", &rel)))
		return 0;
	if (rel.sh_link != di || !rel.sh_entsize ||
	    !find_named(f, ".plt", &plt))
		return 0;
	if (!(reld = scn_data(f, ri)) || !(syms = scn_data(f, di)) ||
	    dyn.sh_link >= f->shnum || !(strs = scn_data(f, dyn.sh_link)))
		return 0;
	plt_sizes(eh.e_machine, plt.sh_entsize, &head, &entry);
	if (!entry)
		return 0;
	nrel = rel.sh_size / rel.sh_entsize;
	off = plt.sh_offset + head;
	for (uint64_t k = 0; k < nrel && k < PD_SYMTAB_MAX; k++, off += entry) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t symidx;
		const char *name;
		size_t len;

		if (rel.sh_type == SHT_RELA) {
			if (!gelf_getrela(reld, (int)k, &ra))
				break;
			symidx = GELF_R_SYM(ra.r_info);
		} else {
			if (!gelf_getrel(reld, (int)k, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		}
		if (!gelf_getsym(syms, (int)symidx, &sym) ||
		    !(name = str_at(strs, sym.st_name, &len)))
			continue;
		added += add_plt(t, off, entry, name, len);
	}
	return added;
}

bool pd_dso_elf_debuglink(struct pd_elf_file *f, char *name, size_t len)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i = find_named(f, ".gnu_debuglink", &sh), n;
	const char *s;

	if (!i || !(d = scn_data(f, i)) || !(s = str_at(d, 0, &n)) || !n ||
	    n >= len)
		return false;
	memcpy(name, s, n + 1);
	return true;
}

bool pd_dso_elf_altlink(struct pd_elf_file *f, char *name, size_t len,
			uint8_t *id, size_t *idlen)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i = find_named(f, ".gnu_debugaltlink", &sh), n, rest;
	const char *s;

	/* the file name, NUL, the build-id's bytes */
	if (!i || !(d = scn_data(f, i)) || !(s = str_at(d, 0, &n)) || n >= len)
		return false;
	memcpy(name, s, n + 1);
	rest = d->d_size - n - 1;
	if (rest > *idlen)
		rest = *idlen;
	memcpy(id, (const char *)d->d_buf + n + 1, rest);
	*idlen = rest;
	return true;
}
