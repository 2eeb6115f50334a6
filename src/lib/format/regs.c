// SPDX-License-Identifier: MIT
/*
 * Register names per architecture (see regs.h).  Index = bit number in
 * sample_regs_user / sample_regs_intr = the uapi enum perf_event_*_regs:
 * arch/{x86,arm64,arm,powerpc,s390,riscv,mips,loongarch}/include/uapi/asm/
 * perf_regs.h; names as tools/perf/util/perf-regs-arch/perf_regs_*.c
 * print them.
 */
#include "lib/format/regs.h"
#include "lib/base/util.h"

#include <stdbool.h>
#include <string.h>

/* enum perf_event_x86_regs; XMM0..15 are pairs of u64 from bit 32 on */
static const char *const x86_regs[] = {
	"AX",	    "BX",	"CX",	    "DX",	"SI",
	"DI",	    "BP",	"SP",	    "IP",	"FLAGS",
	"CS",	    "SS",	"DS",	    "ES",	"FS",
	"GS",	    "R8",	"R9",	    "R10",	"R11",
	"R12",	    "R13",	"R14",	    "R15",	[32] = "XMM0_lo",
	"XMM0_hi",  "XMM1_lo",	"XMM1_hi",  "XMM2_lo",	"XMM2_hi",
	"XMM3_lo",  "XMM3_hi",	"XMM4_lo",  "XMM4_hi",	"XMM5_lo",
	"XMM5_hi",  "XMM6_lo",	"XMM6_hi",  "XMM7_lo",	"XMM7_hi",
	"XMM8_lo",  "XMM8_hi",	"XMM9_lo",  "XMM9_hi",	"XMM10_lo",
	"XMM10_hi", "XMM11_lo", "XMM11_hi", "XMM12_lo", "XMM12_hi",
	"XMM13_lo", "XMM13_hi", "XMM14_lo", "XMM14_hi", "XMM15_lo",
	"XMM15_hi",
};

/* enum perf_event_arm_regs (arm64); VG (SVE vector granule) is 46 */
static const char *const arm64_regs[] = {
	"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",	       "x7",  "x8",
	"x9",  "x10", "x11", "x12", "x13", "x14", "x15",       "x16", "x17",
	"x18", "x19", "x20", "x21", "x22", "x23", "x24",       "x25", "x26",
	"x27", "x28", "x29", "lr",  "sp",  "pc",  [46] = "vg",
};

/* enum perf_event_arm_regs (32-bit arm) */
static const char *const arm_regs[] = {
	"r0", "r1", "r2",  "r3", "r4", "r5", "r6", "r7",
	"r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
};

/* enum perf_event_powerpc_regs, extended registers included */
static const char *const powerpc_regs[] = {
	"r0",	 "r1",	  "r2",	     "r3",   "r4",    "r5",    "r6",	"r7",
	"r8",	 "r9",	  "r10",     "r11",  "r12",   "r13",   "r14",	"r15",
	"r16",	 "r17",	  "r18",     "r19",  "r20",   "r21",   "r22",	"r23",
	"r24",	 "r25",	  "r26",     "r27",  "r28",   "r29",   "r30",	"r31",
	"nip",	 "msr",	  "orig_r3", "ctr",  "link",  "xer",   "ccr",	"softe",
	"trap",	 "dar",	  "dsisr",   "sier", "mmcra", "mmcr0", "mmcr1", "mmcr2",
	"mmcr3", "sier2", "sier3",   "pmc1", "pmc2",  "pmc3",  "pmc4",	"pmc5",
	"pmc6",	 "sdar",  "siar",
};

static const char *const s390_regs[] = {
	"R0",	"R1",	"R2",	"R3",	"R4",	"R5",	"R6",  "R7",  "R8",
	"R9",	"R10",	"R11",	"R12",	"R13",	"R14",	"R15", "FP0", "FP1",
	"FP2",	"FP3",	"FP4",	"FP5",	"FP6",	"FP7",	"FP8", "FP9", "FP10",
	"FP11", "FP12", "FP13", "FP14", "FP15", "MASK", "PC",
};

static const char *const riscv_regs[] = {
	"pc", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
	"a1", "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
	"s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const mips_regs[] = {
	"PC",  "$1",  "$2",  "$3",  "$4",  "$5",  "$6",	 "$7",
	"$8",  "$9",  "$10", "$11", "$12", "$13", "$14", "$15",
	"$16", "$17", "$18", "$19", "$20", "$21", "$22", "$23",
	"$24", "$25", "$26", "$27", "$28", "$29", "$30", "$31",
};

static const char *const loongarch_regs[] = {
	"PC",	"%r1",	"%r2",	"%r3",	"%r4",	"%r5",	"%r6",	"%r7",
	"%r8",	"%r9",	"%r10", "%r11", "%r12", "%r13", "%r14", "%r15",
	"%r16", "%r17", "%r18", "%r19", "%r20", "%r21", "%r22", "%r23",
	"%r24", "%r25", "%r26", "%r27", "%r28", "%r29", "%r30", "%r31",
};

static bool prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

static bool equal(const char *s, size_t n, const char *p)
{
	return n == strlen(p) && memcmp(s, p, n) == 0;
}

enum pd_arch pd_arch_from_string(const char *s, size_t n)
{
	if (!s)
		return PD_ARCH_UNKNOWN;
	if (equal(s, n, "x86_64") || equal(s, n, "amd64"))
		return PD_ARCH_X86_64;
	if ((n == 4 && s[0] == 'i' && s[2] == '8' && s[3] == '6') ||
	    equal(s, n, "x86"))
		return PD_ARCH_X86_32;
	if (equal(s, n, "aarch64") || equal(s, n, "arm64") ||
	    prefix(s, n, "aarch64_"))
		return PD_ARCH_ARM64;
	if (prefix(s, n, "arm"))
		return PD_ARCH_ARM;
	if (prefix(s, n, "ppc") || prefix(s, n, "powerpc"))
		return PD_ARCH_POWERPC;
	if (prefix(s, n, "s390"))
		return PD_ARCH_S390;
	if (prefix(s, n, "riscv"))
		return PD_ARCH_RISCV;
	if (prefix(s, n, "mips"))
		return PD_ARCH_MIPS;
	if (prefix(s, n, "loongarch"))
		return PD_ARCH_LOONGARCH;
	return PD_ARCH_UNKNOWN;
}

const char *pd_arch_name(enum pd_arch arch)
{
	switch (arch) {
	case PD_ARCH_X86_64: return "x86_64";
	case PD_ARCH_X86_32: return "x86_32";
	case PD_ARCH_ARM64: return "arm64";
	case PD_ARCH_ARM: return "arm";
	case PD_ARCH_POWERPC: return "powerpc";
	case PD_ARCH_S390: return "s390";
	case PD_ARCH_RISCV: return "riscv";
	case PD_ARCH_MIPS: return "mips";
	case PD_ARCH_LOONGARCH: return "loongarch";
	case PD_ARCH_UNKNOWN: break;
	}
	return "unknown";
}

const char *pd_reg_name(enum pd_arch arch, unsigned bit)
{
	const char *const *t;
	size_t n;

	switch (arch) {
	case PD_ARCH_X86_64:
		t = x86_regs;
		n = PD_NELEMS(x86_regs);
		break;
	case PD_ARCH_X86_32:
		t = x86_regs;
		n = 16;
		break; /* AX .. GS */
	case PD_ARCH_ARM64:
		t = arm64_regs;
		n = PD_NELEMS(arm64_regs);
		break;
	case PD_ARCH_ARM:
		t = arm_regs;
		n = PD_NELEMS(arm_regs);
		break;
	case PD_ARCH_POWERPC:
		t = powerpc_regs;
		n = PD_NELEMS(powerpc_regs);
		break;
	case PD_ARCH_S390:
		t = s390_regs;
		n = PD_NELEMS(s390_regs);
		break;
	case PD_ARCH_RISCV:
		t = riscv_regs;
		n = PD_NELEMS(riscv_regs);
		break;
	case PD_ARCH_MIPS:
		t = mips_regs;
		n = PD_NELEMS(mips_regs);
		break;
	case PD_ARCH_LOONGARCH:
		t = loongarch_regs;
		n = PD_NELEMS(loongarch_regs);
		break;
	default: return NULL;
	}
	return bit < n ? t[bit] : NULL;
}
