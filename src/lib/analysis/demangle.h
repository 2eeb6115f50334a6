/* SPDX-License-Identifier: MIT */
/*
 * Symbol names as people read them: C++ and legacy Rust names demangled
 * the way perf report and perf script show them by default.
 *
 * The demangler is the C++ runtime's (libstdc++'s abi::__cxa_demangle,
 * which has C linkage; elfutils' tools call it the same way).  What perf
 * prints is then made of its output:
 *
 *  - C++ (tools/perf/util/symbol-elf.c demangle_sym): perf 6.1 asks
 *    libbfd's or libiberty's demangler for DMGL_NO_OPTS unless run with
 *    -v, and gets the function's qualified name alone: no parameters,
 *    no return type (a template's), no const or & of the method, no
 *    "[clone .constprop.0]" and no "@@VERSION" after the name.  Those
 *    parts of __cxa_demangle's full signature are cut off (a name it
 *    does not take because of a suffix after a variable's or a Rust
 *    name, ".llvm.123", is taken without it); where the cut cannot be
 *    made (a template returning a pointer to an array), the full
 *    signature is kept.  Special names (vtables,
 *    typeinfo, thunks, guard variables) keep their parameters, as
 *    libiberty prints them.  "name@plt" (a PLT entry): name demangled,
 *    then "@plt", as dso__synthesize_plt_symbols names it.
 *  - Legacy Rust names (_ZN...17h<16 hex digits>E): Itanium names that
 *    __cxa_demangle gives as "core::fmt::write::h0123...": the hash is
 *    dropped and $LT$, $GT$, .. and the other escapes undone, as perf's
 *    tools/perf/util/demangle-rust.c (rust_is_mangled, rust_demangle_sym)
 *    does; a "hash" of fewer than 5 or more than 15 distinct digits is
 *    not one there, and stays.
 *  - Rust v0 names (_R...) are not Itanium names: __cxa_demangle does not
 *    take them, and perfdump shows them as they are.  (perf 6.1 built
 *    with libiberty's cplus_demangle, as Debian's, demangles them with
 *    libiberty's Rust demangler; newer perf without libbfd does not.)
 *
 * Only names starting with "_Z" are given to the demangler (a C name
 * such as "f" would otherwise read as a type, "float").  No printing.
 */
#ifndef PD_DEMANGLE_H
#define PD_DEMANGLE_H

#include <stddef.h>

/* Longer mangled names are shown as they are. */
#define PD_DEMANGLE_MAX 4096u

/*
 * name as people read it, in a malloc'd string (the caller frees it), or
 * NULL when it is shown as it is (not mangled, not a name the demangler
 * takes, out of memory).
 */
char *pd_demangle(const char *name);

#endif
