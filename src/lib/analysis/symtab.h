/* SPDX-License-Identifier: MIT */
/*
 * A DSO's symbol table as perf builds it (tools/perf/util/symbol.c):
 * symbols sorted by start; those without a size end where the next one
 * starts (symbols__fixup_end); of symbols at the same address one is kept
 * (symbols__fixup_duplicate, choose_best_symbol); an address belongs to
 * the symbol whose [start, end) holds it (symbols__find).  Filled from an
 * ELF symbol table (dso_elf.c), a kallsyms file or a JIT's
 * /tmp/perf-PID.map (below).
 *
 * Bounded: at most PD_SYMTAB_MAX symbols and PD_SYMTAB_NAMES_MAX bytes of
 * names; what is past them is counted (dropped).  Text input is read a
 * line at a time, lines longer than PD_SYMTAB_LINE_MAX skipped.  No
 * printing.
 */
#ifndef PD_SYMTAB_H
#define PD_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/base/arena.h"

#define PD_SYMTAB_MAX	    (1u << 22)
#define PD_SYMTAB_NAMES_MAX (256u << 20)
#define PD_SYMTAB_LINE_MAX  4096u
/* A kallsyms or perf map file: read at most this much. */
#define PD_SYMTAB_TEXT_MAX (512u << 20)

/* Where a table's symbols came from (pd_sym_src_name: the output's). */
enum pd_sym_src {
	PD_SYMS_NONE,
	PD_SYMS_SYMTAB,	  /* ELF .symtab */
	PD_SYMS_DYNSYM,	  /* ELF .dynsym (no .symtab anywhere) */
	PD_SYMS_KALLSYMS, /* a kallsyms file */
	PD_SYMS_VMLINUX,  /* a vmlinux ELF's .symtab */
	PD_SYMS_PERF_MAP, /* a JIT's /tmp/perf-PID.map */
	PD_SYMS_NSRC,
};
const char *pd_sym_src_name(enum pd_sym_src src);

struct pd_sym {
	uint64_t start, end; /* [start, end) */
	uint32_t name;	     /* offset in the table's names */
	uint8_t bind, type;  /* STB_*, STT_* */
	bool module;	     /* kallsyms: a module's ("\t[name]") */
	uint32_t seq;	     /* order added: ties keep it (perf's rbtree) */
	/* its name as shown (pd_symtab_name): 0 not made yet,
	 * PD_SYM_SHOWN_AS_READ the name itself, else shown.v[shown - 1] */
	uint32_t shown;
};
#define PD_SYM_SHOWN_AS_READ UINT32_MAX

/* A PLT entry's name is cut to this many bytes, as perf's
 * dso__synthesize_plt_symbols writes "NAME@plt" into char[1024]. */
#define PD_SYMTAB_PLT_NAME_MAX 1023u

struct pd_symtab {
	struct pd_sym *v;
	uint32_t n, cap;
	char *names;
	size_t names_len, names_cap;
	uint64_t dropped; /* past the caps, or out of memory */
	bool sorted;
	/* names shown demangled (demangle.h): a user DSO's ELF symbols,
	 * unless --no-demangle (perf demangles no kernel symbol, and no
	 * JIT's perf map) */
	bool demangle;
	/* the names shown that differ from those read, made when first
	 * asked for: once per symbol, never per sample */
	struct {
		const char **v;
		uint32_t n, cap;
		struct arena names;
	} shown;
};

/* Add a symbol of `size` bytes (0: unknown) named name[0..len). */
bool pd_symtab_add(struct pd_symtab *t, uint64_t start, uint64_t size,
		   uint8_t bind, uint8_t type, const char *name, size_t len);
/* How pd_symtab_finish treats a table: as perf treats what it read. */
enum pd_symtab_kind {
	PD_SYMTAB_ELF,	    /* symbols__fixup_end, then fixup_duplicate */
	PD_SYMTAB_KALLSYMS, /* the same; a module's last symbol ends at
			     * the next page (symbols__fixup_end) */
	PD_SYMTAB_PERF_MAP, /* as read: sizes as given, no fix-ups */
};
/* Sort, and fix up the ends and duplicates as perf does for the kind. */
void pd_symtab_finish(struct pd_symtab *t, enum pd_symtab_kind kind);
/* Symbols added after pd_symtab_finish (PLT entries): sorted in. */
void pd_symtab_resort(struct pd_symtab *t);
/* The symbol holding addr, or NULL. */
const struct pd_sym *pd_symtab_find(const struct pd_symtab *t, uint64_t addr);
/* The name as read (mangled). */
static inline const char *pd_sym_name(const struct pd_symtab *t,
				      const struct pd_sym *s)
{
	return t->names + s->name;
}
/*
 * The name as shown: demangled when t demangles, a PLT entry's cut as
 * perf cuts it; made once and kept with t (valid until it is freed), the
 * name as read when that is the same or out of memory.
 */
const char *pd_symtab_name(struct pd_symtab *t, const struct pd_sym *s);
/* The first symbol named name, or NULL (a linear search). */
const struct pd_sym *pd_symtab_lookup(const struct pd_symtab *t,
				      const char *name);
/* Add delta to every address (a relocated kernel). */
void pd_symtab_shift(struct pd_symtab *t, uint64_t delta);
void pd_symtab_free(struct pd_symtab *t);

/*
 * A kallsyms file ("ADDR TYPE NAME[\t[MODULE]]" lines, /proc/kallsyms'
 * format): the text and data symbols perf keeps (symbol_type__filter:
 * T, W, D, B in either case).  Returns 0, or -1 with the reason in
 * detail (unreadable, no symbols, every address 0: kptr_restrict).
 */
int pd_symtab_read_kallsyms(struct pd_symtab *t, int fd, char *detail,
			    size_t dlen);
/*
 * A JIT's perf map ("START SIZE NAME" lines in hex, symbol.c:
 * read_perf_map): 0, or -1 with the reason in detail.
 */
int pd_symtab_read_perf_map(struct pd_symtab *t, int fd, char *detail,
			    size_t dlen);

#endif
