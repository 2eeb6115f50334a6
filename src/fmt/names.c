// SPDX-License-Identifier: MIT
/*
 * Name tables for perf_event_attr values (include/uapi/linux/perf_event.h,
 * checked against torvalds/linux 00093b31).  Event names are the
 * parser's (src/lib/format/evname.c).
 */
#include "fmt/names.h"

#include <elf.h>
#include <stdio.h>

#include "lib/session/evlist.h"

/* enum perf_event_sample_format */
const char *const pd_sample_type_names[] = {
	"IP",
	"TID",
	"TIME",
	"ADDR",
	"READ",
	"CALLCHAIN",
	"ID",
	"CPU",
	"PERIOD",
	"STREAM_ID",
	"RAW",
	"BRANCH_STACK",
	"REGS_USER",
	"STACK_USER",
	"WEIGHT",
	"DATA_SRC",
	"IDENTIFIER",
	"TRANSACTION",
	"REGS_INTR",
	"PHYS_ADDR",
	"AUX",
	"CGROUP",
	"DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE",
	"WEIGHT_STRUCT",
};
const size_t pd_nsample_type_names = PD_NELEMS(pd_sample_type_names);

/* enum perf_event_read_format */
const char *const pd_read_format_names[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};
const size_t pd_nread_format_names = PD_NELEMS(pd_read_format_names);

/*
 * The perf_event_attr bit-field.  precise_ip is a 2-bit
 * value: its bits are named precise_ip(1) and precise_ip(2), and the
 * value is shown on its own.
 */
const char *const pd_attr_flag_names[] = {
	"disabled",
	"inherit",
	"pinned",
	"exclusive",
	"exclude_user",
	"exclude_kernel",
	"exclude_hv",
	"exclude_idle",
	"mmap",
	"comm",
	"freq",
	"inherit_stat",
	"enable_on_exec",
	"task",
	"watermark",
	"precise_ip(1)",
	"precise_ip(2)",
	"mmap_data",
	"sample_id_all",
	"exclude_host",
	"exclude_guest",
	"exclude_callchain_kernel",
	"exclude_callchain_user",
	"mmap2",
	"comm_exec",
	"use_clockid",
	"context_switch",
	"write_backward",
	"namespaces",
	"ksymbol",
	"bpf_event",
	"aux_output",
	"cgroup",
	"text_poke",
	"build_id",
	"inherit_thread",
	"remove_on_exec",
	"sigtrap",
	"defer_callchain",
	"defer_output",
};
const size_t pd_nattr_flag_names = PD_NELEMS(pd_attr_flag_names);

/* enum perf_branch_sample_type_shift */
const char *const pd_branch_sample_type_names[] = {
	"USER",	      "KERNEL",	    "HV",	"ANY",	     "ANY_CALL",
	"ANY_RETURN", "IND_CALL",   "ABORT_TX", "IN_TX",     "NO_TX",
	"COND",	      "CALL_STACK", "IND_JUMP", "CALL",	     "NO_FLAGS",
	"NO_CYCLES",  "TYPE_SAVE",  "HW_INDEX", "PRIV_SAVE", "COUNTERS",
};
const size_t pd_nbranch_sample_type_names =
	PD_NELEMS(pd_branch_sample_type_names);

/* the aux_action bit-field at offset 116 (Linux 6.13+) */
const char *const pd_aux_action_names[] = {
	"aux_start_paused",
	"aux_pause",
	"aux_resume",
};
const size_t pd_naux_action_names = PD_NELEMS(pd_aux_action_names);

/* include/uapi/linux/hw_breakpoint.h HW_BREAKPOINT_R, _W, _X */
const char *const pd_bp_type_names[] = {"R", "W", "X"};
const size_t pd_nbp_type_names = PD_NELEMS(pd_bp_type_names);

/* include/uapi/linux/time.h CLOCK_* */
const char *pd_clockid_name(int64_t id)
{
	static const char *const names[] = {
		"CLOCK_REALTIME",
		"CLOCK_MONOTONIC",
		"CLOCK_PROCESS_CPUTIME_ID",
		"CLOCK_THREAD_CPUTIME_ID",
		"CLOCK_MONOTONIC_RAW",
		"CLOCK_REALTIME_COARSE",
		"CLOCK_MONOTONIC_COARSE",
		"CLOCK_BOOTTIME",
		"CLOCK_REALTIME_ALARM",
		"CLOCK_BOOTTIME_ALARM",
		NULL,
		"CLOCK_TAI",
	};

	return id >= 0 && (uint64_t)id < PD_NELEMS(names) ? names[id] : NULL;
}

/* include/uapi/linux/perf_event.h, the comment on precise_ip */
const char *pd_precise_ip_meaning(unsigned v)
{
	static const char *const names[] = {
		"arbitrary skid",
		"constant skid",
		"requested zero skid",
		"must have zero skid",
	};

	return v < PD_NELEMS(names) ? names[v] : NULL;
}

/* PERF_ATTR_SIZE_VER0..8, and the pending VER9 (config4) */
const char *pd_attr_size_name(uint32_t size, char *buf, size_t len)
{
	static const uint32_t sizes[] = {
		PD_ATTR_SIZE_VER0, PD_ATTR_SIZE_VER1, PD_ATTR_SIZE_VER2,
		PD_ATTR_SIZE_VER3, PD_ATTR_SIZE_VER4, PD_ATTR_SIZE_VER5,
		PD_ATTR_SIZE_VER6, PD_ATTR_SIZE_VER7, PD_ATTR_SIZE_VER8,
	};
	size_t n = PD_NELEMS(sizes);

	if (size == 0) {
		snprintf(buf, len, "treated as VER0 (64)");
		return buf;
	}
	if (size < sizes[0]) {
		snprintf(buf, len, "smaller than VER0");
		return buf;
	}
	if (size == PD_ATTR_SIZE_VER9) {
		snprintf(buf, len, "VER9 (pending)");
		return buf;
	}
	for (size_t i = n; i-- > 0;) {
		if (size < sizes[i])
			continue;
		if (size == sizes[i])
			snprintf(buf, len, "VER%zu", i);
		else
			snprintf(buf, len, "VER%zu + %u bytes", i,
				 size - sizes[i]);
		return buf;
	}
	return NULL;
}

const char *pd_cpumode_name(unsigned cpumode)
{
	static const char *const names[] = {
		"unknown",    "kernel",	      "user",
		"hypervisor", "guest_kernel", "guest_user",
	};

	return cpumode < PD_NELEMS(names) ? names[cpumode] : NULL;
}

const char *pd_evsel_label(const struct pd_evsel *ev, char *buf, size_t len)
{
	if (ev->name[0])
		return ev->name;
	snprintf(buf, len, "attr%u", ev->idx);
	return buf;
}

const char *pd_e_machine_name(uint32_t em)
{
#define EM(x) \
	case x: return #x
	switch (em) {
		EM(EM_NONE);
		EM(EM_SPARC);
		EM(EM_386);
		EM(EM_68K);
		EM(EM_MIPS);
		EM(EM_PARISC);
		EM(EM_SPARC32PLUS);
		EM(EM_PPC);
		EM(EM_PPC64);
		EM(EM_S390);
		EM(EM_ARM);
		EM(EM_SH);
		EM(EM_SPARCV9);
		EM(EM_IA_64);
		EM(EM_X86_64);
		EM(EM_XTENSA);
		EM(EM_ARCV2);
		EM(EM_AARCH64);
		EM(EM_CSKY);
		EM(EM_RISCV);
		EM(EM_BPF);
		EM(EM_LOONGARCH);
		EM(EM_ALPHA);
	}
#undef EM
	return NULL;
}
