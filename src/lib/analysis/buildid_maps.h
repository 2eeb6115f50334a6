/* SPDX-License-Identifier: MIT */
/*
 * Address maps per process, from MMAP/MMAP2 records, to say which DSO a
 * sample's ip is in and where in it (perf's thread__find_map and
 * map__map_ip, much reduced): a sorted, non-overlapping range list per pid
 * where a new mapping replaces the parts of older ones it covers
 * (maps__fixup_overlappings); pid -1 holds the kernel's maps.  A forked
 * process looks in its parent's maps for what it has not mapped itself.
 * Bounded by the PD_BID_MAX_* caps.  The one place that turns records into
 * maps and a sample into a DSO: `buildids --hits` and `profile` both go
 * through pd_bid_maps_record() and pd_bid_maps_sample().
 *
 * The kernel's maps (pid -1) are machine-wide: the kernel's MMAP, module
 * MMAPs and KSYMBOL records (BPF programs) of any process.  Like perf in
 * a recording it reads (tools/perf/util/session.c: perf_session__new
 * creates no kernel map then; machine.c:
 * machine__process_kernel_mmap_event does), a kernel sample processed
 * before the map that holds it is unmapped.
 */
#ifndef PD_BUILDID_MAPS_H
#define PD_BUILDID_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PD_BID_KERNEL_PID UINT32_MAX

/* the maps' caps (pd_bid_maps_add says when one is reached) */
#define PD_BID_MAX_DSOS	 (1u << 16)
#define PD_BID_MAX_PROCS (1u << 16)
#define PD_BID_MAX_MAPS	 (1u << 19) /* 24 bytes each */

/* A DSO that maps point to: its name and, from MMAP2, its build-id. */
struct pd_bid_dso {
	char *name;
	uint32_t name_len;
	uint8_t build_id[20];
	uint8_t build_id_size; /* 0: the map had none */
	bool kernel;	       /* mapped in the kernel's maps */
	bool ksymbol;	       /* a KSYMBOL's (a BPF program): no file */
	uint64_t samples;
};

struct pd_bid_maps;
struct pd_event;
struct pd_record;

/* What pd_bid_maps_new's flags ask for. */
enum {
	/*
	 * Executable anonymous memory (//anon, /dev/zero, /anon_hugepage,
	 * [stack], [heap], /SYSV...) is named /tmp/perf-PID.map, where JITs
	 * write their symbols (tools/perf/util/map.c: map__new).
	 */
	PD_BID_MAPS_JIT_NAMES = 1 << 0,
};

struct pd_bid_maps *pd_bid_maps_new(unsigned flags);
void pd_bid_maps_free(struct pd_bid_maps *m);

/*
 * Add a mapping of [start, start + len) in process pid to the DSO
 * (name, build-id); an ip in it is at ip - start + pgoff in the DSO.
 * Returns the DSO, or NULL when a cap stopped it (or len is 0: nothing to
 * map; callers skip those).
 */
struct pd_bid_dso *pd_bid_maps_add(struct pd_bid_maps *m, uint32_t pid,
				   uint64_t start, uint64_t len, uint64_t pgoff,
				   const char *name, size_t name_len,
				   const uint8_t *bid, uint8_t bid_size);

/* FORK of a new process pid from ppid: it starts with its parent's maps. */
bool pd_bid_maps_fork(struct pd_bid_maps *m, uint32_t pid, uint32_t ppid);

/*
 * A decoded MMAP, MMAP2 or FORK record into the maps as perf's machine.c
 * takes it (machine__process_mmap2_event, machine__process_fork_event):
 * kernel-mode maps machine-wide; the kernel's name without its
 * "_text"/"_stext" suffix.  Other records are ignored.  Returns false when
 * a cap stopped it.
 */
bool pd_bid_maps_record(struct pd_bid_maps *m, const struct pd_event *ev,
			const struct pd_record *rec);

/* Where a sample's ip landed. */
struct pd_bid_hit {
	struct pd_bid_dso *dso;
	uint32_t dso_index; /* pd_bid_maps_dso(m, dso_index) == dso */
	uint64_t rel;	    /* the ip in the DSO: ip - start + pgoff */
	/* the map: [start, end), at pgoff in the DSO */
	uint64_t start, end, pgoff;
};

/*
 * The DSO of a sample's ip, by the sample's cpumode (the record's misc):
 * kernel ips in the kernel's maps, user ips in process pid's; guest and
 * hypervisor ips in none (perf_host only).  false: no map.
 */
bool pd_bid_maps_sample(struct pd_bid_maps *m, unsigned cpumode, uint32_t pid,
			uint64_t ip, struct pd_bid_hit *hit);

/* The kernel's name in maps and build-id lists: [kernel.kallsyms]. */
size_t pd_bid_dso_name_len(const char *name, size_t len);

/*
 * The kernel's relocation reference: the symbol its MMAP is named after
 * ("[kernel.kallsyms]_text": "_text") and that symbol's address at
 * recording time (the MMAP's pgoff), as perf's kmap ref_reloc_sym.
 * false: no kernel MMAP named so.
 */
bool pd_bid_maps_kernel_ref(const struct pd_bid_maps *m, const char **name,
			    uint64_t *addr);

/*
 * The kernel's map of DSO dso (its index) spans [lo, hi): the first and
 * last of its symbols read from kallsyms, as perf's map__fixup_start and
 * map__fixup_end set it once dso__load_kernel_sym has read them (the
 * MMAP ends at _etext; kallsyms goes on to the init text, start_kernel's).
 * Its addresses keep their meaning (pgoff moves with start); it never
 * grows over a neighbouring map.
 */
void pd_bid_maps_fit_kernel(struct pd_bid_maps *m, uint32_t dso, uint64_t lo,
			    uint64_t hi);

/* A number that changes whenever a map is added, removed or moved, or a
 * process forked: what an address resolved under it still holds while
 * it stays. */
uint64_t pd_bid_maps_gen(const struct pd_bid_maps *m);

size_t pd_bid_maps_ndsos(const struct pd_bid_maps *m);
struct pd_bid_dso *pd_bid_maps_dso(struct pd_bid_maps *m, size_t i);
uint64_t pd_bid_maps_count(const struct pd_bid_maps *m);

#endif
