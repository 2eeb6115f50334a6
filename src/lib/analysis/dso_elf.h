/* SPDX-License-Identifier: MIT */
/*
 * What profile reads from a DSO's ELF file besides its build-id: the
 * section table checked against the file, the PT_LOAD segments, the
 * symbols of .symtab or .dynsym as perf's dso__load_sym takes them
 * (tools/perf/util/symbol-elf.c), the PLT entries it names "NAME@plt"
 * (dso__synthesize_plt_symbols), and the names of separate debug files
 * (.gnu_debuglink, .gnu_debugaltlink).
 *
 * The file is untrusted: every section's bytes must lie inside the file
 * before anything is read (a truncated file is refused whole, with the
 * section named), every index and string offset is checked, counts are
 * capped.  No printing.
 */
#ifndef PD_DSO_ELF_H
#define PD_DSO_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/analysis/buildid.h"
#include "lib/analysis/symtab.h"

#define PD_SEGS_MAX 64

/* PT_LOAD segments: where file offsets are at run time. */
struct pd_segs {
	struct pd_seg {
		uint64_t vaddr, memsz, offset, filesz;
	} v[PD_SEGS_MAX];
	unsigned n;
};

/*
 * Check f's sections: every one but SHT_NOBITS inside the file, names
 * inside the section name table.  0, or -1 with the reason in detail.
 */
int pd_dso_elf_check(struct pd_elf_file *f, char *detail, size_t dlen);

/* f's PT_LOAD segments (at most PD_SEGS_MAX). */
void pd_dso_elf_segs(struct pd_elf_file *f, struct pd_segs *s);

/*
 * The address a file offset is loaded at (by the segment holding it), or
 * the reverse; false when no segment holds it.
 */
bool pd_segs_addr(const struct pd_segs *s, uint64_t off, uint64_t *addr);
bool pd_segs_offset(const struct pd_segs *s, uint64_t addr, uint64_t *off);

/* Does f have a section of this type with bytes (SHT_SYMTAB...)? */
bool pd_dso_elf_has(struct pd_elf_file *f, unsigned sh_type);
/* Does f have a section named name with bytes? */
bool pd_dso_elf_has_named(struct pd_elf_file *f, const char *name);

/*
 * Add f's function, object and text-label symbols from .symtab (dynsym
 * false) or .dynsym to t.  User DSOs (absolute false): each address moved
 * to its file offset by the segment holding it in `segs` (the running
 * file's), else by its section, as perf does, so that a sample's
 * ip - start + pgoff finds it.  absolute (a vmlinux): as they are.
 * Returns the symbols added, or -1 with the reason in detail.
 */
long pd_dso_elf_symbols(struct pd_elf_file *f, bool dynsym, bool absolute,
			const struct pd_segs *segs, struct pd_symtab *t,
			char *detail, size_t dlen);

/* The PLT entries of f (its .rela.plt or .rel.plt over .dynsym), as
 * "NAME@plt" symbols at their file offsets; how many. */
long pd_dso_elf_plt(struct pd_elf_file *f, struct pd_symtab *t);

/* The file name in .gnu_debuglink (false: none). */
bool pd_dso_elf_debuglink(struct pd_elf_file *f, char *name, size_t len);

/*
 * .gnu_debugaltlink (a dwz file): its name and build-id.  false: none.
 */
bool pd_dso_elf_altlink(struct pd_elf_file *f, char *name, size_t len,
			uint8_t *id, size_t *idlen);

/*
 * Everything profile reads from a DSO (its ELF symbols, PLT and DWARF
 * lines; the same bytes as kallsyms and as a perf map), on p[0..n) in
 * memory, the results dropped: for the fuzz targets (dso_probe.c).
 */
void pd_dso_probe_mem(const void *p, size_t n);

#endif
