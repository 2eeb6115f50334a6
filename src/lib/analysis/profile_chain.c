// SPDX-License-Identifier: MIT
/*
 * A sample's callchain as perf walks it (tools/perf/util/machine.c
 * resolve_callchain_sample, add_callchain_ip), shared by records
 * --symbols (symbolize.c) and profile's inclusive counts: the entries
 * callee first; a context marker sets the cpumode of the addresses after
 * it; a marker perf does not define ends the chain.  Each address goes
 * through the maps of its cpumode to a DSO, read once (profile_dso.c).
 */
#include <stdlib.h>

#include "lib/analysis/buildid_maps.h"
#include "lib/analysis/profile_int.h"
#include "lib/session/session.h"
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
	uint64_t gen;

	if (mode == PD_MISC_KERNEL)
		prof_kernel_ready(c, symbols);
	gen = pd_bid_maps_gen(c->maps);
	if (!pd_bid_maps_sample(c->maps, mode, pid, ip, hit))
		return false;
	if (hit->dso_index >= c->p->ndsos && !prof_dsos_sync(c)) {
		c->oom = true;
		return false;
	}
	/* once: the symbols stay, the files close (opened again for lines) */
	if (!prof_dso_load(c, hit->dso_index, symbols))
		return true;
	prof_dso_release(c, hit->dso_index, false);
	/* the kernel's symbols read fit its map to them (profile_kernel.c
	 * fit_map): ip in the map every later sample finds, whichever
	 * sample read them (a parallel walk's replicas each read them) */
	if (pd_bid_maps_gen(c->maps) != gen)
		return pd_bid_maps_sample(c->maps, mode, pid, ip, hit);
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

/* The row of address ip in cpumode mode of process pid, through the
 * cache of recent ones: a callchain's return addresses come back sample
 * after sample. */
static struct pd_prof_row *row_at(struct prof_ctx *c, uint32_t event,
				  unsigned mode, uint32_t pid, uint64_t ip)
{
	bool user = mode == PD_MISC_USER;
	uint32_t space = user ? pid : UINT32_MAX;
	uint32_t epoch = c->epochs[user ? pid % PROF_EPOCHS : PROF_EPOCHS];
	uint64_t h = (ip ^ ((uint64_t)space << 32 | (event ^ mode << 24))) *
		     0x9e3779b97f4a7c15ull;
	struct prof_row_hit *e;
	struct pd_prof_row *r;
	struct pd_bid_hit hit;

	if (!c->row_hits && !(c->row_hits = calloc(1u << PROF_ROW_HITS_BITS,
						   sizeof(*c->row_hits)))) {
		c->oom = true;
		return NULL;
	}
	e = &c->row_hits[h >> (64 - PROF_ROW_HITS_BITS)];
	if (e->row && e->ip == ip && e->space == space && e->event == event &&
	    e->mode == mode && e->epoch == epoch)
		return &c->p->rows[e->row - 1];
	if (prof_resolve(c, mode, pid, ip, c->p->by == PD_PROF_BY_FUNCTION,
			 &hit))
		r = prof_row_at(c, event, hit.dso_index, hit.rel);
	else
		r = c->oom ? NULL : prof_row_at(c, event, PD_PROF_NONE, ip);
	if (!r)
		return NULL;
	*e = (struct prof_row_hit){.ip = ip,
				   .space = space,
				   .event = event,
				   .epoch = epoch,
				   .row = (uint32_t)(r - c->p->rows) + 1,
				   .mode = (uint8_t)mode};
	return r;
}

/* A sample's row: counted once. */
static void count_child(struct prof_ctx *c, struct pd_prof_row *r,
			uint64_t period)
{
	if (!r || r->seen == c->nsample)
		return;
	r->seen = c->nsample;
	r->children_samples++;
	r->children_period += period;
}

/* Does the chain reach a marker perf does not define within the
 * addresses perf report takes?  perf then drops the sample
 * (hist_entry_iter__add fails: "problem adding hist entry"). */
static bool chain_damaged(const uint64_t *ips, uint32_t n)
{
	struct prof_chain ch = {.ips = ips, .n = n};
	enum prof_chain_step step;
	uint32_t entries = 0;
	uint64_t ip;

	while (entries < PD_PROF_MAX_STACK &&
	       (step = prof_chain_next(&ch, &ip)) != PROF_CHAIN_END) {
		if (step == PROF_CHAIN_DAMAGED)
			return true;
		entries += step == PROF_CHAIN_ADDR;
	}
	return false;
}

void prof_children(struct prof_ctx *c, const struct prof_leaf *leaf,
		   const uint64_t *ips, uint32_t n, const uint64_t *pcs,
		   uint32_t npcs)
{
	struct prof_chain ch = {.ips = ips, .n = n, .mode = leaf->mode};
	enum prof_chain_step step;
	uint32_t entries = 0;
	uint64_t ip;

	/* hist.c hist_entry_iter cumulative: the sample's own entry, then
	 * each callchain entry whose entry is not one already counted (the
	 * first PD_PROF_MAX_STACK addresses: machine.c
	 * resolve_callchain_sample).  perf drops a sample whose chain is
	 * damaged; its self counts are profile's still, so its own entry
	 * is its only one: inclusive is never less than self.  Without TID
	 * (whose maps?) the same. */
	c->nsample++;
	if (!leaf->has_tid) { /* the self row's */
		count_child(c,
			    prof_row_at(c, leaf->event, leaf->dso, leaf->rel),
			    leaf->period);
		return;
	}
	count_child(c, row_at(c, leaf->event, leaf->mode, leaf->pid, leaf->ip),
		    leaf->period);
	if (chain_damaged(ips, n))
		return;
	while (entries < PD_PROF_MAX_STACK && !c->oom &&
	       (step = prof_chain_next(&ch, &ip)) != PROF_CHAIN_END) {
		if (step != PROF_CHAIN_ADDR)
			continue;
		entries++;
		count_child(c, row_at(c, leaf->event, ch.mode, leaf->pid, ip),
			    leaf->period);
	}
	/* thread__resolve_callchain_unwind: then the user stack unwound
	 * (unwind__get_entries, max_stack of its own) */
	for (uint32_t i = 0; i < npcs && !c->oom; i++)
		count_child(
			c,
			row_at(c, leaf->event, PD_MISC_USER, leaf->pid, pcs[i]),
			leaf->period);
}

void prof_unwind_stopped(struct prof_ctx *c, uint64_t offset, uint32_t frame,
			 const char *why, const char *later)
{
	if (c->unwind_warned)
		return;
	c->unwind_warned = true;
	pd_diag_add(&c->s->diags, PD_C_STACK_UNWIND_STOPPED,
		    PD_AT_RECORD(PD_REC_SAMPLE), PD_WARN, offset, "user stack",
		    "unwinding stopped at frame %u: %s (%s)", frame, why,
		    later);
}

uint32_t prof_unwind(struct prof_ctx *c, const struct pd_sample *smp,
		     uint64_t offset)
{
	const char *why;
	uint32_t k = 0;

	if (!pd_unwind_possible(smp))
		return 0;
	if (!c->uw && !(c->uw = pd_unwinder_new(&prof_unwind_ops, c))) {
		c->oom = true;
		return 0;
	}
	/* however it ends (the outermost frame, the cap, a stop), the
	 * frames so far, as perf's unwind__get_entries gives them */
	if (pd_unwind(c->uw, smp, smp->arch, c->pcs, PD_PROF_MAX_STACK, &k,
		      &why) == PD_UNWIND_STOPPED)
		prof_unwind_stopped(c, offset, k, why,
				    "said for the first such sample");
	return k;
}
