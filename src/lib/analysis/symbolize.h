/* SPDX-License-Identifier: MIT */
/*
 * Symbols for one address at a time (records --symbols): a visitor's
 * state of maps and DSOs that a walk in time order keeps up to date, as
 * perf script resolves a sample's ip and callchain
 * (tools/perf/util/machine.c: thread__resolve_callchain,
 * resolve_callchain_sample, add_callchain_ip; thread.c
 * thread__find_symbol).  The maps are buildid_maps.h's; each DSO is
 * looked up and read once, the way profile reads it (profile_dso.c:
 * the file whose build-id is the recording's, under --symfs; with none
 * recorded the file at its path, unverified; the kernel from --kallsyms
 * or --vmlinux).  A DSO that cannot be read (missing, another build-id,
 * none recorded with --strict-build-ids...) gives its frames no symbol,
 * never a wrong one, and one warning.  A frame symbolized from an
 * unverified DSO says so (unverified), without a warning: the frame
 * carries it.  No printing.
 */
#ifndef PD_SYMBOLIZE_H
#define PD_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/analysis/profile.h"

struct pd_session;
struct pd_event;
struct pd_decoded;
struct pd_diag;
struct pd_symbolizer;

/* A call inlined at a frame's ip (--srcline): the function, and its
 * line (file NULL: not known). */
struct pd_inline_frame {
	const char *sym;
	const char *raw_sym; /* its linkage name (mangled), else sym */
	const char *file;
	int line;
};

/* One frame of a sample: its ip, or a context marker. */
struct pd_stack_frame {
	uint64_t ip;
	bool marker;	     /* ip is a PERF_CONTEXT_* marker, not an address */
	uint64_t rel;	     /* ip in its DSO (ip - map start + pgoff), as perf
			  * script prints a callchain's frames; no map: ip */
	const char *sym;     /* NULL: no symbol holds it ([unknown]) */
	const char *raw_sym; /* with sym: as the symbol table has it */
	uint64_t symoff;     /* ip's offset in sym */
	const char *dso;     /* NULL: no map holds it ([unknown]) */
	/* with dso: its index (pd_symbolizer_dso), and the map holding
	 * ip, [map_start, map_end) at pgoff in the DSO */
	uint32_t dso_index;
	uint64_t map_start, map_end, pgoff;
	/* its DSO's symbols come from a file whose build-id was not
	 * compared with a recorded one (profile.h: unverified) */
	bool unverified;
	/* with lines (pd_symbolizer_lines): ip's source line, or with
	 * calls inlined there, the line of the outermost call (file NULL:
	 * not known); the inlined calls, innermost first */
	const char *file;
	int line;
	const struct pd_inline_frame *inl;
	uint32_t ninl;
};

/* The frames of one sample, valid until the next call. */
struct pd_frames {
	const struct pd_stack_frame *v;
	uint32_t n;
	bool callchain; /* the callchain's frames, not the ip alone */
	/* the sample's thread's name at its time, as perf script shows it
	 * (":TID" when no COMM named it); NULL without TID */
	const char *comm;
	bool capped;  /* the callchain was longer than PD_FRAMES_MAX */
	bool damaged; /* it ends at a context marker perf does not define */
	/* --call-graph dwarf: the last `unwound` frames are the user stack
	 * unwound from the sample's registers and stack copy (unwind.h);
	 * unwind_stopped: why it ended before the outermost frame */
	uint32_t unwound;
	const char *unwind_stopped;
	bool lines; /* the frames have their source lines */
	/* the branch stack's entries: br[2i] is entry i's from, br[2i + 1]
	 * its to (nbr entries, at most PD_BRANCHES_MAX) */
	const struct pd_stack_frame *br;
	uint32_t nbr;
};

#define PD_FRAMES_MAX 1024u
/* inlined calls a frame shows, at most; and a sample */
#define PD_INLINE_DEPTH 32u
#define PD_INLINES_MAX	4096u
/* branch stack entries symbolized, at most (LBR: 32; arch LBR: 64) */
#define PD_BRANCHES_MAX 256u

/* kernel_only: for pd_symbolizer_kernel alone, the kernel's maps are
 * kept and no process's (pd_symbolizer_sample is not called then). */
struct pd_symbolizer *pd_symbolizer_new(struct pd_session *s,
					const struct pd_prof_where *w,
					bool kernel_only);
void pd_symbolizer_free(struct pd_symbolizer *z);

/*
 * For a parallel walk (walk.h pd_par_visitor, with state): a replica of
 * z for a worker, with z's options, and maps, DSOs, threads and memo of
 * its own, fed the same records (pd_symbolizer_record) in the same
 * order.  Made on the caller's thread before the workers start: the
 * first reads the recording's build-ids feature for them all (its
 * diagnostics kept, and said by each replica where one thread would
 * have said them).  A replica's DSOs have the same indices as z's would
 * (they follow the map records).  NULL: out of memory.
 */
struct pd_symbolizer *pd_symbolizer_fork(struct pd_symbolizer *z);
/* A replica's diagnostics from now on go to s's, which it reads (a
 * batch's copy of the session). */
void pd_symbolizer_bind(struct pd_symbolizer *z, struct pd_session *s);
/*
 * After a parallel walk, on the caller's thread: replica r, one whose
 * maps followed every record of the walk (the last batch's), answers
 * for z from now on in pd_symbolizer_frame_lines and pd_symbolizer_dso,
 * reading the DSOs of the frames other replicas gave where it met none
 * (the same files, the same answers).  What it would say is dropped:
 * the replicas said it during the walk.  z frees r.
 */
void pd_symbolizer_adopt(struct pd_symbolizer *z, struct pd_symbolizer *r);
/*
 * On the caller's thread, each diagnostic of the replicas in the walk's
 * order: false when it is one a single symbolizer gives once (a DSO
 * without symbols, a table full, the first unwinding stopped, what the
 * build-ids feature said) and z let it through already.
 */
bool pd_symbolizer_keep(struct pd_symbolizer *z, const struct pd_diag *g);

/* Source lines and inlined calls of every frame from now on (perf
 * script -F srcline --inline), from the DSOs' DWARF. */
void pd_symbolizer_lines(struct pd_symbolizer *z, bool on);

/* A sample whose callchain is empty gets its ip as its one frame, as
 * perf report counts its self time there (hist.c: the sample's own
 * address), not the empty stack perf script shows (pprof's flat). */
void pd_symbolizer_empty_ip(struct pd_symbolizer *z, bool on);

/* Every decoded record, in time order: the maps follow MMAP, MMAP2,
 * FORK and KSYMBOL, the threads' names COMM, FORK and EXIT (kernel_only:
 * the kernel's MMAPs and KSYMBOLs only). */
void pd_symbolizer_record(struct pd_symbolizer *z, const struct pd_event *ev,
			  const struct pd_decoded *d);
/* Those types, as a mask of 1 << type (walk.h pd_par_visitor) */
#define PD_SYMBOLIZER_STATE_TYPES                                           \
	(1ull << PD_REC_MMAP | 1ull << PD_REC_MMAP2 | 1ull << PD_REC_FORK | \
	 1ull << PD_REC_KSYMBOL | 1ull << PD_REC_COMM | 1ull << PD_REC_EXIT)

/*
 * The frames of a decoded sample: its callchain (context markers set the
 * cpumode of the addresses after them), or without one its ip, in the
 * cpumode of its misc; then, when it has user registers and a stack
 * copy, its user stack unwound (machine.c thread__resolve_callchain:
 * callee first); and its branch stack's from and to addresses.  A
 * callchain with nothing in it and nothing unwound is an empty stack:
 * true with n 0 (perf shows the sample, its comm, no frame).  false: no
 * ip, no callchain (n is 0).
 */
bool pd_symbolizer_sample(struct pd_symbolizer *z, const struct pd_event *ev,
			  const struct pd_decoded *d, struct pd_frames *out);
/* Is ev a sample with its attr (one the exports take)?  Then its frames
 * as pd_symbolizer_sample gives them, none (n 0) when it gives none. */
bool pd_symbolizer_sample_frames(struct pd_symbolizer *z,
				 const struct pd_event *ev,
				 const struct pd_decoded *d,
				 struct pd_frames *out);

/*
 * The source line and inlined calls of a frame the symbolizer gave (of
 * any sample, also after the walk: its DSO stays known until
 * pd_symbolizer_free), as pd_symbolizer_lines gives every frame: for a
 * caller that needs them once per address, not per sample (export --to
 * pprof).  The inlined calls it gave before are gone then: a caller
 * copies them before the next call or sample.
 */
void pd_symbolizer_frame_lines(struct pd_symbolizer *z,
			       struct pd_stack_frame *f);

/* A frame's DSO (pd_stack_frame dso_index): its name, build-id, whether
 * it is the kernel's (read now if it was not); valid until
 * pd_symbolizer_free.  NULL: no such. */
const struct pd_prof_dso *pd_symbolizer_dso(struct pd_symbolizer *z,
					    uint32_t dso_index);

/*
 * The kernel function holding addr, from the kernel's maps as the
 * records so far left them, and its first address (*start): perf's
 * machine__resolve_kernel_addr, which perf script gives libtraceevent
 * for the %ps of tracepoint prints.  The kernel's symbols are read at
 * the first call.  NULL: no map or no symbol holds it.
 */
const char *pd_symbolizer_kernel(struct pd_symbolizer *z, uint64_t addr,
				 uint64_t *start);

#endif
