/* SPDX-License-Identifier: MIT */
/*
 * Register names of PERF_SAMPLE_REGS_USER / REGS_INTR: bit N of
 * sample_regs_user / sample_regs_intr is register N of the recording's
 * architecture (arch/<arch>/include/uapi/asm/perf_regs.h; the names are
 * perf's, tools/perf/util/perf-regs-arch/perf_regs_<arch>.c).  The
 * architecture comes from HEADER_ARCH (uname -m of the recording host).
 */
#ifndef PD_REGS_H
#define PD_REGS_H

#include <stddef.h>

enum pd_arch {
	PD_ARCH_UNKNOWN,
	PD_ARCH_X86_64,
	PD_ARCH_X86_32, /* i386 .. i686: the first 16 x86 registers */
	PD_ARCH_ARM64,
	PD_ARCH_ARM,
	PD_ARCH_POWERPC,
	PD_ARCH_S390,
	PD_ARCH_RISCV,
	PD_ARCH_MIPS,
	PD_ARCH_LOONGARCH,
};

/* The architecture a HEADER_ARCH string names (n bytes, not NUL-ended). */
enum pd_arch pd_arch_from_string(const char *s, size_t n);

/* "x86_64", "arm64", ...; "unknown". */
const char *pd_arch_name(enum pd_arch arch);

/* The name of register `bit` on arch, or NULL if it has none. */
const char *pd_reg_name(enum pd_arch arch, unsigned bit);

#endif
