/* SPDX-License-Identifier: MIT */
/* profile's insides, shared by profile*.c (see profile.h). */
#ifndef PD_PROFILE_INT_H
#define PD_PROFILE_INT_H

#include "lib/analysis/buildid_list.h"
#include "lib/analysis/buildid_maps.h"
#include "lib/analysis/profile.h"
#include "lib/session/sample.h"

struct pd_event;
struct pd_record;
struct pd_unwinder;
struct pd_unwind_ops;

/* One address's samples: (event, DSO, offset in it). */
struct prof_addr {
	uint64_t rel; /* in the DSO; with no DSO, the ip */
	uint32_t dso; /* index in the maps' DSOs, or PD_PROF_NONE */
	uint32_t event;
	uint64_t samples, period;
};

/* A hash table of cap slots (a power of two; no samples: empty) holding
 * n entries; prof_addrs_compact() moves them to v[0..n) (no longer a
 * table: for a fold). */
struct prof_addrs {
	struct prof_addr *v;
	uint32_t n, cap;
};
void prof_addrs_compact(struct prof_addrs *a);

/* The callchain entries profile.c reads from a sample in place (else
 * pd_parse_sample decodes it): PD_PROF_MAX_STACK addresses and more. */
#define PROF_CHAIN_READ 512u
#define PROF_EPOCHS	1024u

/* The walk's state (profile.c), handed to the other parts. */
struct prof_ctx {
	struct pd_profile *p;
	struct pd_session *s;
	const struct pd_prof_where *where;
	struct arena scratch;
	struct pd_bid_maps *maps; /* functions and DSOs */
	/* the recording's build-ids (the feature), read at the first fold:
	 * a live pipe stream's come with its last records */
	struct pd_bid_list bids;
	bool bids_read;
	/* a replica's (symbolize.c pd_symbolizer_fork): what reading the
	 * build-ids feature said, said again where it is first read */
	const struct pd_diags *bids_said;
	struct prof_addrs addrs;
	uint32_t max_addrs;	   /* PD_PROF_MAX_ADDRS, or the testing aid's */
	struct pd_sample_pos *pos; /* per evsel: where its fields are */
	bool funcs, threads;
	uint64_t nsample;	       /* the samples counted with children */
	struct prof_row_hit *row_hits; /* with children (profile_chain.c) */
	/* map records seen, per process (by pid % PROF_EPOCHS) and of the
	 * kernel (the last): how old row_hits' entries are */
	uint32_t epochs[PROF_EPOCHS + 1];
	uint64_t chain[PROF_CHAIN_READ]; /* a sample's callchain (profile.c) */
	struct pd_unwinder *uw;		 /* made at the first stack to unwind */
	uint64_t pcs[PD_PROF_MAX_STACK]; /* a sample's user stack unwound */
	bool oom;
	bool maps_warned, rows_warned, threads_warned, comms_warned;
	bool addr_warned, unwind_warned;
	/* the kernel's DSO read before a kernel address was looked up
	 * (prof_kernel_ready); else the maps' generation + 1 when there was
	 * no kernel DSO to read (0: not looked for yet) */
	bool kready;
	uint64_t kready_gen;
	/* the kernel's symbols, shared by its maps (profile_dso.c) */
	struct pd_symtab ksyms;
	bool ksyms_tried, kread;
	enum pd_bid_status kstatus;
	enum pd_sym_src ksrc;
	const char *kdetail, *kpath;
};

/* profile.c: c set up to fill p (zeroed) by `by` (false: out of memory;
 * prof_ctx_free frees what was made) */
bool prof_ctx_init(struct prof_ctx *c, struct pd_profile *p,
		   struct pd_session *s, const struct pd_prof_where *w,
		   enum pd_prof_by by, bool children);
void prof_ctx_free(struct prof_ctx *c);
/* the walk's visitor of events (arg: the prof_ctx), and its samples */
bool prof_visit(void *arg, const struct pd_event *ev);
void prof_sample(struct prof_ctx *c, const struct pd_event *ev);
/* another table's addresses counted into c's (folded when full) */
void prof_addrs_merge(struct prof_ctx *c, const struct prof_addrs *from);

/* profile_rows.c: another profile's row (a replica's) into c's rows: its
 * counts added to the row of its key, made when new */
void prof_row_merge(struct prof_ctx *c, const struct pd_prof_row *f);

/* profile_par.c: the walk on several threads (walk.h pd_par_visitor),
 * each with a replica of c, merged into c at the end; said (zeroed) is
 * theirs, and c's until it is freed (struct prof_said) */
struct pd_walk_opts;
struct prof_said;
int prof_walk_par(struct prof_ctx *c, const struct pd_walk_opts *o,
		  struct prof_said *said);

/*
 * What the replicas of a parallel walk share: what reading the build-ids
 * feature said, read on the caller's thread before they start (each
 * replica says it again where it first reads the feature: bids_said),
 * and the diagnostics a replica gives once that were let through.
 */
struct prof_said {
	bool read;
	struct pd_diags bids;
	char **keys;
	uint32_t n, cap;
};
void prof_said_read(struct prof_said *w, struct pd_session *s);
/* walk.h pd_par_visitor keep: false for one given once, said already */
bool prof_said_keep(struct prof_said *w, const struct pd_diag *g);
void prof_said_free(struct prof_said *w);

/* profile_rows.c: fold the address table into rows (final: the last
 * time, source lines too); false when out of memory */
bool prof_fold(struct prof_ctx *c, bool final);
/* The row of address rel in DSO dso (PD_PROF_NONE: rel is the ip, in no
 * map) for event, made when new, the DSO read first; NULL: not kept. */
struct pd_prof_row *prof_row_at(struct prof_ctx *c, uint32_t event,
				uint32_t dso, uint64_t rel);

/* profile_chain.c: a callchain's entries, as perf's machine.c
 * resolve_callchain_sample takes them (callee first) */
struct prof_chain {
	const uint64_t *ips;
	uint32_t n, i;
	unsigned mode; /* the cpumode of the next address */
};
enum prof_chain_step {
	PROF_CHAIN_ADDR,    /* an address, in ch->mode */
	PROF_CHAIN_MARKER,  /* a context marker: ch->mode is its cpumode */
	PROF_CHAIN_DAMAGED, /* a marker perf does not define: the end */
	PROF_CHAIN_END,
};
enum prof_chain_step prof_chain_next(struct prof_chain *ch, uint64_t *ip);
/* The DSO of address ip of process pid in cpumode mode (hit), read once
 * (with symbols: its symbols loaded; its files closed).  false: no map
 * holds it (or out of memory: c->oom). */
bool prof_resolve(struct prof_ctx *c, unsigned mode, uint32_t pid, uint64_t ip,
		  bool symbols, struct pd_bid_hit *hit);
/* The row an address went to, recently (profile_chain.c's cache, good
 * while no map record came: a row keeps its index until the rows are
 * sorted).  space: the process for a user address, else none. */
struct prof_row_hit {
	uint64_t ip;
	uint32_t space, event;
	uint32_t epoch;
	uint32_t row; /* its index + 1; 0: empty */
	uint8_t mode;
};
#define PROF_ROW_HITS_BITS 14
/* A sample's own entry: its ip, and where it went (DSO and offset, or no
 * map) */
struct prof_leaf {
	uint32_t event, pid;
	bool has_tid;  /* without, the callchain's maps are unknown */
	unsigned mode; /* the sample's cpumode */
	uint64_t ip;
	uint32_t dso; /* PD_PROF_NONE: no map, rel is the ip */
	uint64_t rel, period;
};
/* Its inclusive counts: the rows of its entry and of its callchain's
 * first PD_PROF_MAX_STACK addresses, each row once. */
void prof_children(struct prof_ctx *c, const struct prof_leaf *leaf,
		   const uint64_t *ips, uint32_t n, const uint64_t *pcs,
		   uint32_t npcs);
/* The user stack of a sample recorded with --call-graph dwarf (the
 * record at offset), unwound into c->pcs (at most PD_PROF_MAX_STACK
 * frames): how many, 0 when it carries none.  The first stop before the
 * outermost frame is warned of (stack-unwind-stopped). */
uint32_t prof_unwind(struct prof_ctx *c, const struct pd_sample *smp,
		     uint64_t offset);
/* A sample's unwinding (the record at offset) stopped at frame: said
 * for the first such sample only, `later` saying where the others are */
void prof_unwind_stopped(struct prof_ctx *c, uint64_t offset, uint32_t frame,
			 const char *why, const char *later);
/* unwind.h's ops over c's maps and DSOs (arg: the prof_ctx) */
extern const struct pd_unwind_ops prof_unwind_ops;

/* profile_kernel.c: before a kernel address is looked up, the kernel's
 * DSO read (with symbols: its symbols, which may fit its map to them),
 * once: every lookup then sees the map as it stays, whichever sample is
 * the first (perf loads the map at its first sample: map__load) */
void prof_kernel_ready(struct prof_ctx *c, bool symbols);

/* profile_dso.c */
/* p->dsos grown to the maps' DSOs (new ones unresolved) */
bool prof_dsos_sync(struct prof_ctx *c);
/* resolve DSO i if not yet, and with symbols load them (status says);
 * true: it was resolved now */
bool prof_dso_load(struct prof_ctx *c, uint32_t i, bool symbols);
/* a new read-only descriptor of the file DSO i's symbols come from (a
 * user DSO's ELF file); -1 when it has none, why in *why */
int prof_dso_open(struct prof_ctx *c, uint32_t i, const char **why);
/* the symbol table of DSO i (NULL: not symbolized); not const: the
 * names it shows are made as they are asked for (pd_symtab_name) */
struct pd_symtab *prof_dso_syms(struct prof_ctx *c, uint32_t i);
/* DSO i's DWARF, opened at the first call and kept open (its files too)
 * until prof_dso_release; NULL: none (d->lines says why). */
struct pd_dwarf *prof_dso_dwarf(struct prof_ctx *c, uint32_t i);
/* DSO i's file offset off as the address its DWARF speaks of */
bool prof_dso_link_addr(struct prof_ctx *c, uint32_t i, uint64_t off,
			uint64_t *addr);
/* Source lines of DSO i's rows: source_file, hot_file, hot_line. */
void prof_dso_lines(struct prof_ctx *c, uint32_t i);
/* done with DSO i for this fold: files closed (final: symbols freed) */
void prof_dso_release(struct prof_ctx *c, uint32_t i, bool final);
void prof_dsos_free(struct prof_ctx *c);

/* profile.c: a decoded MMAP, MMAP2, FORK or KSYMBOL into the maps (a
 * table-full warning once), and with threads the thread's counts */
void prof_map_record(struct prof_ctx *c, const struct pd_event *ev,
		     const struct pd_record *rec);

/* profile_threads.c */
void prof_thread_task(struct prof_ctx *c, const struct pd_event *ev);
void prof_thread_mmap(struct prof_ctx *c, uint32_t pid, uint32_t tid);
void prof_thread_sample(struct prof_ctx *c, uint32_t pid, uint32_t tid,
			uint32_t event, uint64_t period, bool has_time,
			uint64_t time);
void prof_threads_finish(struct prof_ctx *c);
/* The name thread (pid, tid) has now (its latest COMM, or its parent's),
 * "" when none; tid 0 is swapper, as prof_threads_finish names it. */
const char *prof_thread_comm(struct prof_ctx *c, uint32_t pid, uint32_t tid);

/* A table-full warning, once per `warned` flag. */
void prof_warn_full(struct prof_ctx *c, bool *warned, const char *what,
		    const char *detail);

#endif
