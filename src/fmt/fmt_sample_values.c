// SPDX-License-Identifier: MIT
/*
 * Names for the packed sample words, from include/uapi/linux/perf_event.h
 * (PERF_CONTEXT_*, PERF_BR_*, PERF_MEM_*, PERF_TXN_*).  Names are the
 * uapi suffixes.
 */
#include "fmt/fmt_sample.h"

#include "fmt/names.h"

const char *pd_context_name(uint64_t v, bool long_name)
{
	/* the long name is "PERF_CONTEXT_" + the short one in capitals */
	static const struct {
		uint64_t v;
		const char *lng, *shrt;
	} m[] = {
		{PD_CONTEXT_HV, "PERF_CONTEXT_HV", "hv"},
		{PD_CONTEXT_KERNEL, "PERF_CONTEXT_KERNEL", "kernel"},
		{PD_CONTEXT_USER, "PERF_CONTEXT_USER", "user"},
		{PD_CONTEXT_USER_DEFERRED, "PERF_CONTEXT_USER_DEFERRED",
		 "user_deferred"},
		{PD_CONTEXT_GUEST, "PERF_CONTEXT_GUEST", "guest"},
		{PD_CONTEXT_GUEST_KERNEL, "PERF_CONTEXT_GUEST_KERNEL",
		 "guest_kernel"},
		{PD_CONTEXT_GUEST_USER, "PERF_CONTEXT_GUEST_USER",
		 "guest_user"},
	};

	for (size_t i = 0; i < PD_NELEMS(m); i++)
		if (m[i].v == v)
			return long_name ? m[i].lng : m[i].shrt;
	return NULL;
}

/* ---- branch entries (PERF_BR_*) -------------------------------------- */

static const char *const br_type[16] = {
	"UNKNOWN", "COND",    "UNCOND", "IND",	      "CALL",	  "IND_CALL",
	"RET",	   "SYSCALL", "SYSRET", "COND_CALL",  "COND_RET", "ERET",
	"IRQ",	   "SERROR",  "NO_TX",	"EXTEND_ABI",
};

/* new_type (with type EXTEND_ABI); 3..7 are per architecture */
static const char *const br_new_type[8] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
	"ARCH_2",     "ARCH_3",	    "ARCH_4",	  "ARCH_5",
};
static const char *const br_new_type_arm64[8] = {
	"FAULT_ALGN",	    "FAULT_DATA",	"FAULT_INST",
	"ARM64_FIQ",	    "ARM64_DEBUG_HALT", "ARM64_DEBUG_EXIT",
	"ARM64_DEBUG_INST", "ARM64_DEBUG_DATA",
};

static const char *const br_spec[4] = {
	"SPEC_NA",
	"SPEC_WRONG_PATH",
	"NON_SPEC_CORRECT_PATH",
	"SPEC_CORRECT_PATH",
};

static const char *const br_priv[8] = {"UNKNOWN", "USER", "KERNEL", "HV"};

void emit_branch_entry(struct emitter *e, enum pd_arch arch,
		       const struct pd_branch_entry *be)
{
	const char *const *nt =
		arch == PD_ARCH_ARM64 ? br_new_type_arm64 : br_new_type;

	emit_row_begin(e, NULL);
	emit_hex(e, "from", be->from);
	emit_hex(e, "to", be->to);
	emit_hex(e, "flags", be->flags);
	emit_bool(e, "mispred", be->mispred);
	emit_bool(e, "predicted", be->predicted);
	emit_bool(e, "in_tx", be->in_tx);
	emit_bool(e, "abort", be->abort);
	emit_u64(e, "cycles", be->cycles);
	emit_enum(e, "type", be->type, br_type[be->type & 15]);
	emit_enum(e, "spec", be->spec, br_spec[be->spec & 3]);
	emit_enum(e, "new_type", be->new_type,
		  be->new_type < 8 ? nt[be->new_type] : NULL);
	emit_enum(e, "priv", be->priv, br_priv[be->priv & 7]);
	if (be->reserved)
		emit_hex(e, "reserved", be->reserved);
	emit_obj_end(e);
}

/* ---- data_src (PERF_MEM_*) ------------------------------------------- */

static const char *const mem_op[] = {"NA", "LOAD", "STORE", "PFETCH", "EXEC"};
static const char *const mem_lvl[] = {
	"NA",	   "HIT",      "MISS",	   "L1",       "LFB",	   "L2", "L3",
	"LOC_RAM", "REM_RAM1", "REM_RAM2", "REM_CCE1", "REM_CCE2", "IO", "UNC",
};
static const char *const mem_snoop[] = {"NA", "NONE", "HIT", "MISS", "HITM"};
static const char *const mem_lock[] = {"NA", "LOCKED"};
static const char *const mem_dtlb[] = {
	"NA", "HIT", "MISS", "L1", "L2", "WK", "OS",
};
static const char *const mem_snoopx[] = {"FWD", "PEER"};
static const char *const mem_blk[] = {"NA", "DATA", "ADDR"};
/* PERF_MEM_LVLNUM_*; 0: not set (kernels before lvl_num) */
static const char *const mem_lvl_num[16] = {
	"NONE", "L1",  "L2", "L3",	  "L4",	 "L2_MHB", "MSC",  NULL,
	"UNC",	"CXL", "IO", "ANY_CACHE", "LFB", "RAM",	   "PMEM", "NA",
};
/* PERF_MEM_HOPS_*: 1 remote core .. 4 remote board; 0: none */
static const char *const mem_hops[8] = {
	"NONE", "HOPS_0", "HOPS_1", "HOPS_2", "HOPS_3",
};

void emit_data_src(struct emitter *e, uint64_t v)
{
	struct pd_data_src d;

	pd_data_src_split(v, &d);
	emit_row_begin(e, "data_src");
	emit_hex(e, "value", v);
	emit_flags(e, "op", d.op, mem_op, PD_NELEMS(mem_op));
	emit_flags(e, "lvl", d.lvl, mem_lvl, PD_NELEMS(mem_lvl));
	emit_flags(e, "snoop", d.snoop, mem_snoop, PD_NELEMS(mem_snoop));
	emit_flags(e, "lock", d.lock, mem_lock, PD_NELEMS(mem_lock));
	emit_flags(e, "dtlb", d.dtlb, mem_dtlb, PD_NELEMS(mem_dtlb));
	emit_enum(e, "lvl_num", d.lvl_num, mem_lvl_num[d.lvl_num & 15]);
	emit_bool(e, "remote", d.remote);
	emit_flags(e, "snoopx", d.snoopx, mem_snoopx, PD_NELEMS(mem_snoopx));
	emit_flags(e, "blk", d.blk, mem_blk, PD_NELEMS(mem_blk));
	emit_enum(e, "hops", d.hops, mem_hops[d.hops & 7]);
	if (d.reserved)
		emit_hex(e, "reserved", d.reserved);
	emit_obj_end(e);
}

/* ---- transaction (PERF_TXN_*) ---------------------------------------- */

static const char *const txn_flags[] = {
	"ELISION", "TRANSACTION", "SYNC",	    "ASYNC",
	"RETRY",   "CONFLICT",	  "CAPACITY_WRITE", "CAPACITY_READ",
};

void emit_transaction(struct emitter *e, uint64_t v)
{
	emit_row_begin(e, "transaction");
	emit_hex(e, "value", v);
	emit_flags(e, "flags", v & 0xffffffffULL, txn_flags,
		   PD_NELEMS(txn_flags));
	emit_u64(e, "abort_code", v >> 32); /* PERF_TXN_ABORT_SHIFT */
	emit_obj_end(e);
}
