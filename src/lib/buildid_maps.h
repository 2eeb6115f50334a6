/* SPDX-License-Identifier: MIT */
/*
 * Address maps per process, from MMAP/MMAP2 records, to say which DSO a
 * sample's ip is in (perf's thread__find_map, much reduced): a sorted,
 * non-overlapping range list per pid where a new mapping replaces the
 * parts of older ones it covers (maps__fixup_overlappings); pid -1 holds
 * the kernel's maps.  A forked process looks in its parent's maps for
 * what it has not mapped itself.  Bounded by the PD_BID_MAX_* caps.
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

struct pd_bid_maps *pd_bid_maps_new(void);
void pd_bid_maps_free(struct pd_bid_maps *m);

/*
 * Add a mapping of [start, start + len) in process pid to the DSO
 * (name, build-id).  Returns the DSO, or NULL when a cap stopped it
 * (or len is 0: nothing to map; callers skip those).
 */
struct pd_bid_dso *pd_bid_maps_add(struct pd_bid_maps *m, uint32_t pid,
				   uint64_t start, uint64_t len,
				   const char *name, size_t name_len,
				   const uint8_t *bid, uint8_t bid_size);

/*
 * Remove the map of process pid that holds addr, if its DSO is named
 * (name, name_len): a KSYMBOL unregistered (machine.c:
 * machine__process_ksymbol_unregister).
 */
void pd_bid_maps_remove(struct pd_bid_maps *m, uint32_t pid, uint64_t addr,
			const char *name, size_t name_len);

/* FORK of a new process pid from ppid: it starts with its parent's maps. */
bool pd_bid_maps_fork(struct pd_bid_maps *m, uint32_t pid, uint32_t ppid);

/* The DSO that ip is in for process pid, or NULL. */
struct pd_bid_dso *pd_bid_maps_find(struct pd_bid_maps *m, uint32_t pid,
				    uint64_t ip);

size_t pd_bid_maps_ndsos(const struct pd_bid_maps *m);
struct pd_bid_dso *pd_bid_maps_dso(struct pd_bid_maps *m, size_t i);
uint64_t pd_bid_maps_count(const struct pd_bid_maps *m);

#endif
