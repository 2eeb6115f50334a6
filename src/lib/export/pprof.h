/* SPDX-License-Identifier: MIT */
/*
 * pprof's profile (profile.proto, google/pprof's format, which go tool
 * pprof reads), built from symbolized stacks and written gzipped, as
 * `export --to pprof` writes it.  The message is protobuf-c's, from
 * profile.proto compiled by protoc-c (the Makefile); packing is
 * protobuf-c's, gzip zlib's.
 *
 * What goes in:
 *  - sample types: per event, its samples (count) and its period (the
 *    event's name, in nanoseconds for cpu-clock and task-clock, else in
 *    events); one Sample per distinct stack and thread, its values the
 *    sums of its samples' (zero for the other events), labelled with
 *    the thread's comm, pid and tid;
 *  - a Location per distinct address and map: the address, its mapping,
 *    and its lines: the functions inlined at the address innermost
 *    first, then the function holding it (pprof's form of inlined
 *    frames); an address no symbol holds has no line (pprof shows the
 *    address in its mapping), one no map holds no mapping either;
 *  - a Mapping per map: start, limit, file offset, the DSO's name as
 *    recorded, its build-id in hex, and whether its symbols, files,
 *    lines and inlined frames are known;
 *  - a Function per name and source file: the name as shown, the symbol
 *    table's (mangled) name as system_name, the file.
 * Memory is what the distinct stacks, addresses, maps and names take,
 * never more per sample.  No printing.
 */
#ifndef PD_PPROF_H
#define PD_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_attr;
struct pd_stack_frame;
struct pd_prof_dso;
struct pd_pprof;

/*
 * A profile of nevents events (evsel indices 0..nevents-1); NULL when
 * out of memory.  Each event is named with pd_pprof_event before the
 * encoding.  lines: pd_pprof_add_stacks gives each location its source
 * lines and inlined calls (pd_symbolizer_frame_lines).
 */
struct pd_pprof *pd_pprof_new(uint32_t nevents, bool lines);
void pd_pprof_free(struct pd_pprof *b);

/* Event i's name (perf's: "cpu-clock") and attr (its period's unit, and
 * the profile's period: the first event's). */
void pd_pprof_event(struct pd_pprof *b, uint32_t i, const char *name,
		    const struct pd_attr *attr);

/*
 * The samples' times, first to last, in the recording's clock: the
 * profile's duration, and its time (ns since the epoch) from the
 * recording's CLOCK_DATA (when decoded; else none).
 */
struct pd_session;
void pd_pprof_span(struct pd_pprof *b, const struct pd_session *s,
		   uint64_t first, uint64_t last);

/*
 * The location of a symbolized frame (symbolize.h; its DSO's
 * description, NULL when it has none): its id, made at the first use of
 * the address in that map.  0: a context marker, or out of memory
 * (pd_pprof_oom).
 */
uint64_t pd_pprof_location(struct pd_pprof *b, const struct pd_stack_frame *f,
			   const struct pd_prof_dso *dso);

/* Who a stack ran in: its thread's comm (NULL: none) and ids. */
struct pd_pprof_thread {
	const char *comm;
	bool has_tid;
	uint32_t pid, tid;
};

/*
 * Samples of event `event` on the stack locs[0..n) (leaf first, ids of
 * pd_pprof_location; 0s are left out): added to the Sample of that stack
 * and thread.  false: out of memory (pd_pprof_oom).
 */
bool pd_pprof_sample(struct pd_pprof *b, const uint64_t *locs, uint32_t n,
		     const struct pd_pprof_thread *t, uint32_t event,
		     uint64_t samples, uint64_t period);

/*
 * The stacks model's stacks (stacks.h; its frames from symbolizer z):
 * each frame's location (pd_pprof_location; with the lines pd_pprof_new
 * asked for, from z once per address unless `lines`: the model's frames
 * have theirs), each stack's counts per event added to its Sample
 * (pd_pprof_sample).  false: out of memory.
 */
struct pd_symbolizer;
struct pd_stacks;
bool pd_pprof_add_stacks(struct pd_pprof *b, const struct pd_stacks *st,
			 struct pd_symbolizer *z, bool lines);

/* Something was left out for want of memory. */
bool pd_pprof_oom(const struct pd_pprof *b);

/*
 * The profile, packed and gzipped, in a malloc'd buffer (*out, *len; the
 * caller frees it).  false: out of memory.
 */
bool pd_pprof_encode(struct pd_pprof *b, uint8_t **out, size_t *len);

#endif
