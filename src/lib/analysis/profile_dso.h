/* SPDX-License-Identifier: MIT */
/* profile's DSO state, shared by profile_dso.c, profile_kernel.c and
 * profile_lines.c (see profile.h). */
#ifndef PD_PROFILE_DSO_H
#define PD_PROFILE_DSO_H

#include "lib/analysis/dso_dwarf.h"
#include "lib/analysis/dso_elf.h"
#include "lib/analysis/profile_int.h"

struct dso_state {
	bool loaded;	  /* resolved (its status is set) */
	bool syms_ok;	  /* symbols to look addresses up in */
	bool kernel_syms; /* they are the kernel's (prof_ctx ksyms) */
	struct pd_symtab syms;
	/* the build-id its files are checked against: the recording's, or
	 * an unverified DSO's file's own (perf's dso__load reads it, so that
	 * its debug files are found by it); 0 bytes: none, any file */
	uint8_t id[PD_ELF_BUILD_ID_MAX];
	size_t id_len;
	struct pd_segs segs; /* the running file's: offset -> address */
	/* the running file and the separate debug file, under their roots */
	const char *rt_root, *rt_rel;
	const char *dbg_root, *dbg_rel, *dbg_path;
	struct pd_elf_file rt, dbg;   /* open while loaded for a fold */
	uint32_t first_row, last_row; /* its rows (row next_dso) */
	/* prof_dso_dwarf's: the DWARF kept open, its dwz file */
	struct pd_dwarf *dw;
	struct pd_elf_file alt;
	bool dw_tried;
};

/* The kernel's DSOs: the kernel's symbols, once (profile_kernel.c). */
void prof_kernel_load(struct prof_ctx *c, struct pd_prof_dso *d,
		      struct dso_state *ds, bool symbols);

/* Open rel under root, an ELF of build-id id (len 0: any, unchecked, as
 * perf's symsrc__init checks only a DSO that has one) whose sections lie
 * inside it; false (why in detail) otherwise.  f stays open on success. */
bool prof_open_checked(const char *root, const char *rel, const uint8_t *id,
		       size_t len, struct pd_elf_file *f, char *detail,
		       size_t dlen);

/* profile_lines.c: the file and line of DSO i's file offset off, from
 * its DWARF (prof_dso_dwarf); false: none */
bool prof_dso_line(struct prof_ctx *c, uint32_t i, uint64_t off,
		   const char **file, int *line);
/* perf's srcline of a line ("hot_a.c:14"), and of an address of DSO dso
 * without one that no file could say ("sym+25", "dso[1a2b]"). */
const char *prof_srcline(struct prof_ctx *c, const char *file, int line);
const char *prof_srcline_none(struct prof_ctx *c, uint32_t dso, uint64_t rel,
			      struct pd_symtab *syms);

#endif
