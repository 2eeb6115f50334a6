// SPDX-License-Identifier: MIT
/*
 * A sample's callchain as perf walks it (tools/perf/util/machine.c
 * resolve_callchain_sample, add_callchain_ip), shared by records
 * --symbols (symbolize.c) and profile: the entries callee first; a
 * context marker sets the cpumode of the addresses after it; a marker
 * perf does not define ends the chain.  Each address goes through the
 * maps of its cpumode to a DSO, read once (profile_dso.c); a user stack
 * to unwind (unwind.h) through the same maps and files.
 */
#include "lib/analysis/buildid_maps.h"
#include "lib/analysis/profile_int.h"
#include "lib/analysis/unwind.h"
#include "lib/format/perf_abi.h"

/* The cpumode of the addresses after a context marker (machine.c
 * add_callchain_ip); false: a marker perf does not define. */
static bool context_mode(uint64_t ip, unsigned *mode)
{
	switch (ip) {
	case PD_CONTEXT_HV: *mode = PD_MISC_HYPERVISOR; return true;
	case PD_CONTEXT_KERNEL: *mode = PD_MISC_KERNEL; return true;
	case PD_CONTEXT_USER:
	case PD_CONTEXT_USER_DEFERRED: *mode = PD_MISC_USER; return true;
	case PD_CONTEXT_GUEST:
	case PD_CONTEXT_GUEST_KERNEL: *mode = PD_MISC_GUEST_KERNEL; return true;
	case PD_CONTEXT_GUEST_USER: *mode = PD_MISC_GUEST_USER; return true;
	default: return false;
	}
}

enum prof_chain_step prof_chain_next(struct prof_chain *ch, uint64_t *ip)
{
	if (ch->i >= ch->n)
		return PROF_CHAIN_END;
	*ip = ch->ips[ch->i++];
	if (*ip < PD_CONTEXT_MAX)
		return PROF_CHAIN_ADDR;
	if (context_mode(*ip, &ch->mode))
		return PROF_CHAIN_MARKER;
	/* perf discards such a chain (add_callchain_ip: -EINVAL) */
	ch->i = ch->n;
	return PROF_CHAIN_DAMAGED;
}

bool prof_resolve(struct prof_ctx *c, unsigned mode, uint32_t pid, uint64_t ip,
		  bool symbols, struct pd_bid_hit *hit)
{
	if (!pd_bid_maps_sample(c->maps, mode, pid, ip, hit))
		return false;
	if (hit->dso_index >= c->p->ndsos && !prof_dsos_sync(c)) {
		c->oom = true;
		return false;
	}
	/* once: the symbols stay, the files close (opened again for lines) */
	if (prof_dso_load(c, hit->dso_index, symbols))
		prof_dso_release(c, hit->dso_index, false);
	return true;
}

/* unwind.h's view of the maps: a user address's DSO, by the maps of the
 * sample's process */
static bool unwind_find(void *arg, uint32_t pid, uint64_t addr, uint32_t *key,
			uint64_t *base, const char **name)
{
	struct prof_ctx *c = arg;
	struct pd_bid_hit hit;

	if (!pd_bid_maps_sample(c->maps, PD_MISC_USER, pid, addr, &hit))
		return false;
	if (hit.dso_index >= c->p->ndsos && !prof_dsos_sync(c))
		return false;
	*key = hit.dso_index;
	*base = addr - hit.rel;
	*name = c->p->dsos[hit.dso_index].name;
	return true;
}

/* The file a DSO's symbols come from: its CFI is there too. */
static int unwind_open(void *arg, uint32_t key, const char **why)
{
	struct prof_ctx *c = arg;

	if (prof_dso_load(c, key, true))
		prof_dso_release(c, key, false);
	return prof_dso_open(c, key, why);
}

const struct pd_unwind_ops prof_unwind_ops = {unwind_find, unwind_open};
