// SPDX-License-Identifier: MIT
/* Source lines from DWARF with libdw, bounded first (see dso_dwarf.h). */
#include "lib/analysis/dso_dwarf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/dso_elf.h"

struct pd_dwarf {
	Dwarf *dw, *alt;
	unsigned walked; /* units walked for lookups without aranges */
};

static bool is_debug(const char *name)
{
	return strncmp(name, ".debug_", 7) == 0 ||
	       strncmp(name, ".zdebug_", 8) == 0;
}

/* The size section scn has once decompressed (as libelf would make it),
 * or UINT64_MAX when that cannot be read. */
static uint64_t unpacked_size(Elf_Scn *scn, const GElf_Shdr *sh,
			      const char *name)
{
	GElf_Chdr ch;
	Elf_Data *d;

	if (sh->sh_flags & SHF_COMPRESSED)
		return gelf_getchdr(scn, &ch) ? ch.ch_size : UINT64_MAX;
	if (strncmp(name, ".zdebug_", 8) == 0) {
		/* "ZLIB" then the size, 8 bytes big-endian (gnu zdebug) */
		const uint8_t *p;
		uint64_t v = 0;

		d = elf_rawdata(scn, NULL);
		if (!d || d->d_size < 12 || memcmp(d->d_buf, "ZLIB", 4) != 0)
			return UINT64_MAX;
		p = (const uint8_t *)d->d_buf + 4;
		for (int i = 0; i < 8; i++)
			v = v << 8 | p[i];
		return v;
	}
	return sh->sh_size;
}

/* Every debug section within the bounds; 0, or -1 with the reason. */
static int check_sizes(struct pd_elf_file *f, char *detail, size_t dlen)
{
	size_t strndx;
	uint64_t total = 0;

	if (elf_getshdrstrndx(f->elf, &strndx) != 0) {
		snprintf(detail, dlen, "section names: %s", elf_errmsg(-1));
		return -1;
	}
	for (size_t i = 1; i < f->shnum; i++) {
		Elf_Scn *scn = elf_getscn(f->elf, i);
		GElf_Shdr sh;
		const char *name;
		uint64_t size;

		if (!scn || !gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(f->elf, strndx, sh.sh_name)) ||
		    !is_debug(name) || sh.sh_type == SHT_NOBITS)
			continue;
		size = unpacked_size(scn, &sh, name);
		if (size == UINT64_MAX) {
			snprintf(detail, dlen, "%s: damaged compression header",
				 name);
			return -1;
		}
		if (size > PD_DWARF_SECTION_MAX ||
		    size > PD_DWARF_TOTAL_MAX - total) {
			snprintf(detail, dlen,
				 "%s: %llu bytes, more than perfdump reads "
				 "(%u MiB a section, %llu MiB in all)",
				 name, (unsigned long long)size,
				 PD_DWARF_SECTION_MAX >> 20,
				 PD_DWARF_TOTAL_MAX >> 20);
			return -1;
		}
		total += size;
	}
	return 0;
}

bool pd_dwarf_present(struct pd_elf_file *f)
{
	return pd_dso_elf_has_named(f, ".debug_line") ||
	       pd_dso_elf_has_named(f, ".zdebug_line");
}

struct pd_dwarf *pd_dwarf_open(struct pd_elf_file *f, struct pd_elf_file *alt,
			       char *detail, size_t dlen)
{
	struct pd_dwarf *d;
	char name[256];
	uint8_t id[64];
	size_t idlen = sizeof(id);

	if (!pd_dwarf_present(f)) {
		snprintf(detail, dlen, "no .debug_line");
		return NULL;
	}
	if (check_sizes(f, detail, dlen) < 0 ||
	    (alt && check_sizes(alt, detail, dlen) < 0))
		return NULL;
	if (pd_dso_elf_altlink(f, name, sizeof(name), id, &idlen) && !alt) {
		snprintf(detail, dlen, "its dwz file %s was not found", name);
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(detail, dlen, "out of memory");
		return NULL;
	}
	d->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (!d->dw) {
		snprintf(detail, dlen, "%s", dwarf_errmsg(-1));
		free(d);
		return NULL;
	}
	if (alt) {
		d->alt = dwarf_begin_elf(alt->elf, DWARF_C_READ, NULL);
		if (!d->alt) {
			snprintf(detail, dlen, "dwz file: %s",
				 dwarf_errmsg(-1));
			pd_dwarf_close(d);
			return NULL;
		}
		dwarf_setalt(d->dw, d->alt);
	}
	return d;
}

/* The compile unit holding addr: the aranges, or a bounded walk. */
static bool unit_of(struct pd_dwarf *d, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(d->dw, addr, cu))
		return true;
	while (d->walked < PD_DWARF_WALK_MAX &&
	       dwarf_nextcu(d->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		d->walked++;
		if (dwarf_offdie(d->dw, off + hsize, cu) &&
		    dwarf_haspc(cu, addr) > 0)
			return true;
		if (next <= off)
			break;
		off = next;
	}
	return false;
}

bool pd_dwarf_line(struct pd_dwarf *d, uint64_t addr, const char **file,
		   int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;

	if (!d || !unit_of(d, addr, &cu) || !(l = dwarf_getsrc_die(&cu, addr)))
		return false;
	*file = dwarf_linesrc(l, NULL, NULL);
	if (!*file || dwarf_lineno(l, line) != 0)
		return false;
	return true;
}

/* The source file a DW_AT_call_file index names in cu's file table. */
static const char *call_file(Dwarf_Die *cu, Dwarf_Die *scope)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word idx;
	size_t n;

	if (!dwarf_attr(scope, DW_AT_call_file, &a) ||
	    dwarf_formudata(&a, &idx) != 0 ||
	    dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

unsigned pd_dwarf_inlines(struct pd_dwarf *d, uint64_t addr,
			  struct pd_dwarf_inline *v, unsigned max)
{
	Dwarf_Die cu, *scopes = NULL;
	unsigned k = 0;
	int n;

	if (!d || !max || !unit_of(d, addr, &cu))
		return 0;
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (int i = 0; i < n && k < max; i++) {
		Dwarf_Die *sc = &scopes[i];
		Dwarf_Attribute a;
		Dwarf_Word line = 0;

		if (dwarf_tag(sc) != DW_TAG_inlined_subroutine)
			continue;
		/* the name is the abstract origin's */
		v[k].name = dwarf_formstring(
			dwarf_attr_integrate(sc, DW_AT_name, &a));
		v[k].linkage = dwarf_formstring(
			dwarf_attr_integrate(sc, DW_AT_linkage_name, &a));
		if (!v[k].linkage)
			v[k].linkage = dwarf_formstring(dwarf_attr_integrate(
				sc, DW_AT_MIPS_linkage_name, &a));
		v[k].call_file = call_file(&cu, sc);
		if (dwarf_attr(sc, DW_AT_call_line, &a))
			dwarf_formudata(&a, &line);
		v[k].call_line = line > INT32_MAX ? 0 : (int)line;
		k++;
	}
	free(scopes);
	return k;
}

void pd_dwarf_close(struct pd_dwarf *d)
{
	if (!d)
		return;
	if (d->dw)
		dwarf_end(d->dw);
	if (d->alt)
		dwarf_end(d->alt);
	free(d);
}
