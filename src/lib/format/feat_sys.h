/* SPDX-License-Identifier: MIT */
/*
 * Models of the system-description features: the header strings, NRCPUS,
 * TOTAL_MEM, CMDLINE, SAMPLE_TIME, CLOCKID, DIR_FORMAT, COMPRESSED,
 * CLOCK_DATA.  Layouts checked against tools/perf/util/header.c
 * (write_* / process_*), torvalds/linux 00093b31.
 */
#ifndef PD_FEAT_SYS_H
#define PD_FEAT_SYS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/cursor.h"

struct pd_feat_ctx;
struct pd_feature;

/* u32 nr; header-string[nr] */
struct pd_strlist {
	uint32_t nr;
	struct pd_str *v;
};

/* Read a string list; allocation checked against the bytes left. */
bool pd_read_strlist(struct pd_feat_ctx *x, struct cursor *c, const char *what,
		     struct pd_strlist *out);

/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: one header string. */
struct feat_string {
	struct pd_str str;
};

/* NRCPUS: u32 nr_cpus_avail; u32 nr_cpus_online (avail first: header.c write_nrcpus). */
struct feat_nrcpus {
	uint32_t nr_cpus_avail;
	uint32_t nr_cpus_online;
};

/* TOTAL_MEM (kB), CLOCKID (resolution ns), DIR_FORMAT (version): one u64. */
struct feat_u64 {
	uint64_t value;
};

/* E_MACHINE: the recording's ELF machine and flags (<elf.h> EM_*). */
struct feat_e_machine {
	uint32_t e_machine;
	uint32_t e_flags;
};

/* CLN_SIZE: the cache line size in bytes. */
struct feat_u32 {
	uint32_t value;
};

/* CMDLINE: string list, argv[0] is the perf binary. */
struct feat_cmdline {
	struct pd_strlist argv;
};

/* SAMPLE_TIME: first and last sample time, perf clock ns. */
struct feat_sample_time {
	uint64_t first, last;
};

/* COMPRESSED: u32 version, type (1 = zstd), level, ratio, mmap_len. */
struct feat_compressed {
	uint32_t version, type, level, ratio, mmap_len;
};

/* CLOCK_DATA: u32 version; u32 clockid; u64 tod_ns; u64 clockid_ns. */
struct feat_clock_data {
	uint32_t version, clockid;
	uint64_t tod_ns, clockid_ns;
};

/* The wall-clock time (ns since the epoch) of a time t of the recording's
 * clock: tod_ns + (t - clockid_ns).  false: no CLOCK_DATA's time of day,
 * or t before the epoch. */
bool feat_clock_wall(const struct feat_clock_data *clk, uint64_t t,
		     uint64_t *ns);

void parse_feat_string(struct pd_feat_ctx *x, struct pd_feature *f,
		       struct cursor *c);
void parse_feat_nrcpus(struct pd_feat_ctx *x, struct pd_feature *f,
		       struct cursor *c);
void parse_feat_e_machine(struct pd_feat_ctx *x, struct pd_feature *f,
			  struct cursor *c);
void parse_feat_u32(struct pd_feat_ctx *x, struct pd_feature *f,
		    struct cursor *c);
void parse_feat_u64(struct pd_feat_ctx *x, struct pd_feature *f,
		    struct cursor *c);
void parse_feat_cmdline(struct pd_feat_ctx *x, struct pd_feature *f,
			struct cursor *c);
void parse_feat_sample_time(struct pd_feat_ctx *x, struct pd_feature *f,
			    struct cursor *c);
void parse_feat_compressed(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c);
void parse_feat_clock_data(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c);

#endif
