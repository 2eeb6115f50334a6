/* SPDX-License-Identifier: MIT */
/*
 * Source lines of a DSO from its DWARF, with elfutils' libdw: the compile
 * unit holding an address (dwarf_addrdie, or a walk over the units), then
 * its line table (dwarf_getsrc_die).
 *
 * libdw is not hardened against hostile input, so what it is handed is
 * bounded first: every debug section's bytes inside the file (pd_dso_elf_
 * check), each at most PD_DWARF_SECTION_MAX bytes and all of them at most
 * PD_DWARF_TOTAL_MAX once decompressed (a compressed section says its
 * size in its header: a decompression bomb is refused unread).  libdw
 * never opens a file itself: a file that names a dwz file
 * (.gnu_debugaltlink) is used only with that file, found by the caller
 * under its root and handed in (dwarf_setalt); else its DWARF is not
 * used.  No printing.
 */
#ifndef PD_DSO_DWARF_H
#define PD_DSO_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/analysis/buildid.h"

#define PD_DWARF_SECTION_MAX (256u << 20)
#define PD_DWARF_TOTAL_MAX   (1024ull << 20)
/* compile units a lookup without .debug_aranges walks, at most */
#define PD_DWARF_WALK_MAX 100000u

struct pd_dwarf;

/*
 * The DWARF of f, and of its dwz file alt (NULL: none); both must stay
 * open until pd_dwarf_close.  NULL, with the reason in detail, when f has
 * none or it cannot be used.
 */
struct pd_dwarf *pd_dwarf_open(struct pd_elf_file *f, struct pd_elf_file *alt,
			       char *detail, size_t dlen);

/* Does f hold DWARF line information (.debug_line with bytes)? */
bool pd_dwarf_present(struct pd_elf_file *f);

/*
 * The source file and line of addr (an address as the ELF file links it,
 * not a file offset).  file is valid until pd_dwarf_close.  false: none.
 */
bool pd_dwarf_line(struct pd_dwarf *d, uint64_t addr, const char **file,
		   int *line);

/* One call inlined at an address: the function inlined, and where its
 * caller calls it (file NULL: not said). */
struct pd_dwarf_inline {
	const char *name;
	const char *linkage; /* its mangled name, NULL: none (C) */
	const char *call_file;
	int call_line;
};

/*
 * The calls inlined at addr (as pd_dwarf_line's), innermost first, into
 * v[0 .. max): the DW_TAG_inlined_subroutine scopes holding it
 * (dwarf_getscopes), as addr2line -i and perf's inline_list give them.
 * Returns how many; strings valid until pd_dwarf_close.
 */
unsigned pd_dwarf_inlines(struct pd_dwarf *d, uint64_t addr,
			  struct pd_dwarf_inline *v, unsigned max);

void pd_dwarf_close(struct pd_dwarf *d);

#endif
