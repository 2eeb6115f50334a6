/* SPDX-License-Identifier: MIT */
/*
 * `perfdump profile`: where the samples land (readperf's overviews).  One
 * walk over the records in time order (order.h), as perf report takes
 * them, gives:
 *
 *  - processes and threads (profile_threads.c): every COMM with its time,
 *    parent and time of FORK, time of EXIT, MMAP/MMAP2 records, samples
 *    and period per event, first and last sample time; names by perf's
 *    thread__fork rule, as stats gives them (stats_threads.c);
 *  - a flat self profile (profile_rows.c): each sample's ip through the
 *    maps in effect at its time (buildid_maps.h) to a DSO and an offset in
 *    it, counted per address; at the end each address is symbolized once
 *    (profile_dso.c) and the addresses fold into rows per event, DSO and
 *    symbol, like `perf report --sort dso,sym`, with the symbol's source
 *    file and the line of its hottest address (DWARF); or per source line
 *    (--by line, profile_lines.c), like `perf report --sort srcline`;
 *  - with callchains, inclusive counts (profile_chain.c): each sample
 *    counted once in the row of its ip and of every callchain address,
 *    resolved as the sample is read, like `perf report --children`.
 *
 * A DSO is symbolized from a file whose build-id is the recording's; a
 * DSO the recording has no build-id for (pipe mode, -z, a killed perf
 * record, a DSO only in callchains) from the file at its path, unchecked,
 * as perf's dso__load does (symbol.c): such a DSO is "unverified" (status
 * not-checked), as are the kernel's symbols from --kallsyms, or from
 * --vmlinux or this machine's kallsyms with no kernel build-id recorded,
 * and a JIT's perf-PID.map.  --strict-build-ids refuses the file at the
 * path and this machine's kallsyms then.  A DSO that cannot be symbolized
 * (mismatch, missing, unreadable...) gets one row per event, named by its
 * status ("[mismatch]"), never wrong symbols.
 *
 * Memory is bounded: the address table holds PD_PROF_MAX_ADDRS entries
 * and is folded into rows when full; rows, threads, COMMs and DSOs have
 * caps whose overflow is counted and warned about (table-full).  The
 * symbol tables of the DSOs in use come on top (with children, of every
 * DSO a callchain reaches, until the end).  No printing.
 */
#ifndef PD_PROFILE_H
#define PD_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/base/arena.h"
#include "lib/analysis/buildid.h"
#include "lib/base/hindex.h"
#include "lib/analysis/symtab.h"

struct pd_session;
struct pd_bid_maps;
struct pd_bid_list;

#define PD_PROF_MAX_ADDRS   (3u << 17) /* 3/4 of 2^19 slots, 16 MiB */
#define PD_PROF_MAX_ROWS    (1u << 18)
#define PD_PROF_MAX_THREADS (1u << 18)
#define PD_PROF_MAX_COMMS   (1u << 18)
/* Threads at most of a parallel walk that symbolizes (profile, export,
 * records --symbols):
 * each reads and keeps the symbol tables of the DSOs and the kernel it
 * meets (some MiB each), so memory grows with them. */
#define PD_PROF_JOBS_MAX 4u
/* the callchain addresses a sample's inclusive counts take: perf
 * report's default --max-stack, the kernel's PERF_MAX_STACK_DEPTH */
#define PD_PROF_MAX_STACK 127u

/* What the table is grouped by (profile --by). */
enum pd_prof_by {
	PD_PROF_BY_FUNCTION,
	PD_PROF_BY_DSO,
	PD_PROF_BY_LINE,
	PD_PROF_BY_PROCESS,
	PD_PROF_BY_THREAD,
};

/* Where symbols are looked for. */
struct pd_prof_where {
	struct pd_bid_where bid; /* --symfs, --debug-dir */
	const char *vmlinux;	 /* --vmlinux FILE (as given) */
	const char *kallsyms;	 /* --kallsyms FILE (as given) */
	/* this machine's, used when its build-id is the recording's, or
	 * the recording has none and no --symfs is given (NULL:
	 * /proc/kallsyms and /sys/kernel/notes) */
	const char *proc_kallsyms;
	/* --no-demangle: user DSOs' names as their symbol tables have
	 * them (demangle.h: else C++ and Rust names demangled) */
	bool raw_names;
	/* --strict-build-ids: a DSO the recording has no build-id for is
	 * not symbolized from the file at its path (nor the kernel from
	 * this machine's kallsyms); --vmlinux and --kallsyms still are */
	bool strict_build_ids;
};

#define PD_PROF_NONE UINT32_MAX

/* A DSO samples landed in, and how it was symbolized. */
struct pd_prof_dso {
	const char *name;	/* as recorded ("[kernel.kallsyms]") */
	const char *short_name; /* perf's: the file's base name, [module] */
	uint8_t build_id[20];
	uint8_t build_id_size; /* 0: the recording has none */
	bool kernel;
	bool ksymbol; /* a KSYMBOL's (a BPF program): one symbol, its name */
	/* status not-checked: symbols (--by dso: the file) from a file whose
	 * build-id was not compared with a recorded one (see above) */
	bool unverified;
	enum pd_bid_status status; /* match: symbols from path */
	const char *detail;	   /* why, when not usable */
	const char *path;	   /* the file symbolized from (shown) */
	const char *debug_path;	   /* a separate debug file used */
	enum pd_sym_src src;	   /* PD_SYMS_NONE: not symbolized */
	uint32_t nsyms;
	const char *lines;	  /* "dwarf", or why there are none */
	uint64_t samples, period; /* every event */
	uint64_t dropped_syms;	  /* past the symbol table's caps */
	uint32_t nrows;		  /* the rows of it */
	void *state;		  /* profile_dso.c's */
};

/* A row of the function (or DSO, or line) profile. */
struct pd_prof_row {
	uint32_t event; /* evsel index */
	uint32_t dso;	/* index in dsos, PD_PROF_NONE: no map ([unknown]) */
	/*
	 * The symbol; NULL for an address no symbol holds (addr is that
	 * address, perf's "0x..." row) and for a DSO that was not
	 * symbolized (label is its status, "[mismatch]").  --by line: no
	 * symbol; label is perf's srcline ("hot_a.c:14"; without a line
	 * "??:0", "sym+25" or "dso[1a2b]": profile_lines.c), source_file
	 * and line the line's.
	 */
	const char *symbol;
	const char *label;
	uint64_t addr, size; /* symbol: its start (in the DSO) and size */
	uint64_t samples, period;
	/* inclusive (pd_profile children): the samples whose own entry or
	 * callchain holds it, each sample once */
	uint64_t children_samples, children_period;
	uint64_t hot_addr, hot_samples; /* the address most samples hit */
	const char *source_file;	/* of the symbol's first address */
	const char *hot_file;		/* of the hottest address */
	int hot_line;			/* 0: unknown */
	int line;	   /* --by line: its line, in source_file (0: none) */
	uint32_t next_dso; /* the DSO's next row (profile's own) */
	uint64_t seen;	   /* the sample that last counted it (its own) */
};

/* A COMM a thread had. */
struct pd_prof_comm {
	char comm[16];
	uint64_t time;
	bool has_time, exec;
	uint32_t next; /* the thread's next, PD_PROF_NONE: last */
};

struct pd_prof_thread {
	uint32_t pid, tid;
	bool has_fork, has_exit;
	uint32_t ppid, ptid; /* from FORK */
	uint64_t fork_time, exit_time;
	char comm[16]; /* its name: its latest COMM, or its parent's */
	bool has_comm_time;
	uint64_t comm_time;
	uint32_t comms, last_comm; /* its COMMs (PD_PROF_NONE: none) */
	uint32_t ncomms;
	uint64_t mmaps; /* MMAP and MMAP2 records */
	uint64_t samples, period;
	bool has_time;
	uint64_t first_time, last_time; /* of its samples */
	uint32_t next_same;		/* an older thread of the same ids */
};

/* Per event. */
struct pd_prof_event {
	uint64_t samples, period;
	uint64_t unmapped; /* no map: [unknown] */
	uint64_t guest;	   /* guest samples: left out, as perf_host does */
	uint64_t no_ip;	   /* no IP field */
};

struct pd_profile {
	enum pd_prof_by by;
	bool children;	    /* inclusive counts taken (rows' children_*) */
	struct arena arena; /* names, paths, source files */
	uint32_t nevents;
	struct pd_prof_event *events;
	uint64_t samples, period;
	uint64_t samples_no_attr;

	/* functions and DSOs */
	struct pd_prof_dso *dsos;
	uint32_t ndsos;
	struct pd_prof_row *rows;
	uint32_t nrows, rows_cap;
	struct pd_hindex row_ix;
	uint64_t rows_not_kept; /* samples of rows past the row cap */
	uint64_t addr_folds;	/* times the address table was full */
	uint64_t maps_not_kept; /* MMAP, MMAP2, FORK records past caps */
	/* samples in unverified DSOs' rows */
	uint64_t unverified_samples;

	/* processes and threads */
	struct pd_prof_thread *threads;
	uint32_t nthreads, threads_cap;
	uint64_t *thread_ev; /* nthreads x nevents x {samples, period} */
	struct pd_hindex thread_ix;
	struct pd_prof_comm *comms;
	uint32_t ncomms, comms_cap;
	uint64_t threads_not_kept, comms_not_kept;
	uint64_t kernel_mmaps;

	void *walk; /* profile.c's, while collecting */
};

/*
 * Walk the records of s (all data.N streams) and fill p for `by`;
 * symbolize by w.  children: inclusive counts too, by function or DSO,
 * when an event has callchains (perf report --children, its default).
 * jobs > 1: by function, DSO or line, the samples are counted on that
 * many threads (walk.h), each its own maps, symbols and tables, merged
 * at the end: the same profile, but for where the address table was
 * full (address_table_folds and the hot line of rows then depend on
 * where each thread's table filled); the kernel's symbols are read
 * before its first address is looked up (prof_kernel_ready), so its map
 * is fitted to them alike on every thread.  Problems go to s->diags.  Returns
 * 0, or -1 when out of memory.
 */
int pd_profile_collect(struct pd_profile *p, struct pd_session *s,
		       enum pd_prof_by by, bool children,
		       const struct pd_prof_where *w, unsigned jobs);

/* The rows sorted: by event, then (with children) inclusive period,
 * period, samples, DSO and name. */
void pd_profile_sort_rows(struct pd_profile *p);

/* The per-event counts of thread i: {samples, period} for event e. */
static inline const uint64_t *pd_prof_thread_ev(const struct pd_profile *p,
						uint32_t i, uint32_t e)
{
	return &p->thread_ev[((uint64_t)i * p->nevents + e) * 2];
}

/* A process: its threads (by pid) summed; its main thread's ids, name,
 * FORK, EXIT and COMMs (tid == pid, the latest; else its first thread). */
struct pd_prof_process {
	uint32_t pid;
	const struct pd_prof_thread *main;
	uint32_t threads;
	uint64_t mmaps, samples, period;
	bool has_time;
	uint64_t first_time, last_time;
	uint64_t *ev; /* nevents x {samples, period} */
};

/*
 * The processes, most samples first (ties by pid); n may be 0.  Free
 * with pd_profile_processes_free.  NULL with n 0 when out of memory.
 */
struct pd_prof_process *pd_profile_processes(const struct pd_profile *p,
					     uint32_t *n);
void pd_profile_processes_free(struct pd_prof_process *v);

/* The threads' indices, most samples first (ties by pid, tid); free(). */
uint32_t *pd_profile_thread_order(const struct pd_profile *p);

void pd_profile_free(struct pd_profile *p);

#endif
