// SPDX-License-Identifier: MIT
/*
 * Symbols for one address at a time (see symbolize.h).  The DSOs and
 * threads are profile's (profile_dso.c, profile_kernel.c,
 * profile_threads.c): this holds a profile's DSO and thread tables, not
 * its rows, so that both read a DSO and name a thread the same way.
 */
#include "lib/analysis/symbolize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/analysis/buildid_maps.h"
#include "lib/analysis/demangle.h"
#include "lib/analysis/dso_dwarf.h"
#include "lib/analysis/profile_int.h"
#include "lib/analysis/unwind.h"
#include "lib/base/util.h"
#include "lib/format/perf_abi.h"
#include "lib/session/event.h"
#include "lib/session/session.h"

/*
 * The frames resolved lately, by (cpumode, process, address): a sample's
 * callchain repeats its neighbours' addresses, and resolving one (its
 * map, its DSO's symbol) costs far more than finding it here.  An entry
 * holds while the maps' generation it was made under does
 * (pd_bid_maps_gen): a map added, removed or moved, a process forked,
 * and every entry is stale.  Frames with lines are not kept: their
 * inlined calls live in the sample's arrays.
 */
#define FRAME_MEMO 4096u
struct frame_memo {
	uint64_t ip, gen;
	uint32_t pid;
	uint8_t mode;
	bool used;
	struct pd_stack_frame f;
};

struct pd_symbolizer {
	struct pd_profile p; /* its DSOs, threads and arena only */
	struct prof_ctx c;
	struct pd_stack_frame frames[PD_FRAMES_MAX];
	char comm[16];
	uint8_t *warned; /* per DSO: its warning given */
	uint32_t nwarned;
	struct pd_unwinder *uw; /* made at the first stack to unwind */
	uint64_t pcs[PD_FRAMES_MAX];
	bool lines;
	bool empty_ip; /* an empty callchain's frame: the ip (pprof) */
	struct pd_stack_frame br[2 * PD_BRANCHES_MAX];
	struct arena names; /* the sample's inlined calls' demangled names */
	uint32_t ninl;	    /* inl[] used by the sample */
	struct pd_inline_frame inl[PD_INLINES_MAX];
	bool kernel_only;
	struct frame_memo *memo; /* FRAME_MEMO of them, made when first used */
	/* the replicas' (pd_symbolizer_fork): what reading the build-ids
	 * feature said; the once-given diagnostics let through */
	struct prof_said said;
	/* after a parallel walk, the replica that answers for z
	 * (pd_symbolizer_adopt); a replica's session then, z's copied,
	 * what is said into it dropped */
	struct pd_symbolizer *after;
	struct pd_session quiet;
};

struct pd_symbolizer *pd_symbolizer_new(struct pd_session *s,
					const struct pd_prof_where *w,
					bool kernel_only)
{
	struct pd_symbolizer *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->c.p = &z->p;
	z->c.s = s;
	z->c.where = w;
	z->c.funcs = true;
	z->c.threads = !kernel_only;
	z->kernel_only = kernel_only;
	z->c.maps = pd_bid_maps_new(PD_BID_MAPS_JIT_NAMES);
	if (!z->c.maps) {
		free(z);
		return NULL;
	}
	return z;
}

void pd_symbolizer_free(struct pd_symbolizer *z)
{
	if (!z)
		return;
	prof_dsos_free(&z->c);
	pd_bid_maps_free(z->c.maps);
	pd_bid_list_free(&z->c.bids);
	arena_free(&z->c.scratch);
	pd_profile_free(&z->p);
	pd_unwinder_free(z->uw);
	arena_free(&z->names);
	free(z->warned);
	free(z->memo);
	prof_said_free(&z->said);
	pd_symbolizer_free(z->after);
	pd_diags_free(&z->quiet.diags);
	free(z);
}

struct pd_symbolizer *pd_symbolizer_fork(struct pd_symbolizer *z)
{
	struct pd_symbolizer *r;

	prof_said_read(&z->said, z->c.s);
	r = pd_symbolizer_new(z->c.s, z->c.where, z->kernel_only);
	if (!r)
		return NULL;
	r->lines = z->lines;
	r->empty_ip = z->empty_ip;
	r->c.bids_said = &z->said.bids;
	return r;
}

void pd_symbolizer_bind(struct pd_symbolizer *z, struct pd_session *s)
{
	z->c.s = s;
}

void pd_symbolizer_adopt(struct pd_symbolizer *z, struct pd_symbolizer *r)
{
	pd_symbolizer_free(z->after);
	r->quiet = *z->c.s;
	r->quiet.diags = (struct pd_diags){0};
	r->c.s = &r->quiet;
	z->after = r;
}

/* DSO i known and read, as the DSO of a frame z gave is: a replica that
 * answers after the walk may not have met it (each reads the same) */
static bool dso_ready(struct pd_symbolizer *z, uint32_t i)
{
	if (i >= z->p.ndsos && !prof_dsos_sync(&z->c))
		return false;
	if (i >= z->p.ndsos)
		return false;
	if (prof_dso_load(&z->c, i, true))
		prof_dso_release(&z->c, i, false);
	return true;
}

bool pd_symbolizer_keep(struct pd_symbolizer *z, const struct pd_diag *g)
{
	return prof_said_keep(&z->said, g);
}

void pd_symbolizer_lines(struct pd_symbolizer *z, bool on)
{
	z->lines = on;
}

void pd_symbolizer_empty_ip(struct pd_symbolizer *z, bool on)
{
	z->empty_ip = on;
}

void pd_symbolizer_record(struct pd_symbolizer *z, const struct pd_event *ev,
			  const struct pd_decoded *d)
{
	if (ev->legacy_feature)
		return;
	/* the kernel's maps: its MMAPs (machine.c
	 * machine__process_mmap_event) and KSYMBOLs */
	if (z->kernel_only && ev->type != PD_REC_KSYMBOL &&
	    ((ev->type != PD_REC_MMAP && ev->type != PD_REC_MMAP2) ||
	     (ev->misc & PD_MISC_CPUMODE_MASK) != PD_MISC_KERNEL))
		return;
	switch (ev->type) {
	case PD_REC_COMM:
	case PD_REC_EXIT: prof_thread_task(&z->c, ev); break;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
	case PD_REC_FORK:
	case PD_REC_KSYMBOL: prof_map_record(&z->c, ev, &d->rec); break;
	default: break;
	}
}

/* A DSO without symbols: said once, with its status and why, and what
 * shows it (its frames, or tracepoint prints). */
static void warn_dso(struct pd_symbolizer *z, uint32_t i, const char *shows)
{
	const struct pd_prof_dso *d = &z->p.dsos[i];

	if (i >= z->nwarned) {
		uint32_t n = z->p.ndsos;
		uint8_t *nv = realloc(z->warned, n);

		if (!nv)
			return;
		memset(nv + z->nwarned, 0, n - z->nwarned);
		z->warned = nv;
		z->nwarned = n;
	}
	if (z->warned[i])
		return;
	z->warned[i] = 1;
	pd_diag_add(&z->c.s->diags, PD_C_DSO_NOT_SYMBOLIZED,
		    PD_AT_NAMED("symbols"), PD_WARN, PD_NO_OFFSET, d->name,
		    "%s%s%s: %s", pd_bid_status_name(d->status),
		    d->detail ? ", " : "", d->detail ? d->detail : "", shows);
}

/* An inlined call's name: its linkage name, demangled when the DSO's
 * symbols are (perf names it from addr2line -f's linkage name and
 * demangles it: srcline.c new_inline_sym), else its DWARF name */
static const char *inline_name(struct pd_symbolizer *z, uint32_t dso,
			       const struct pd_dwarf_inline *in)
{
	const struct pd_symtab *syms = prof_dso_syms(&z->c, dso);
	const char *name = NULL;
	char *d;

	if (!in->linkage || !syms)
		return in->name;
	if (!syms->demangle) /* --no-demangle: as the symbol tables */
		return in->linkage;
	if ((d = pd_demangle(in->linkage))) {
		name = arena_memdup(&z->names, d, strlen(d) + 1);
		free(d);
	}
	return name ? name : in->linkage;
}

/*
 * The frame's source line, and the calls inlined at its address: the
 * innermost's line is the address's, each caller's the call site of the
 * call it holds (perf's inline_list, from addr2line -i).
 */
static void frame_lines(struct pd_symbolizer *z, uint32_t dso,
			struct pd_stack_frame *f)
{
	struct pd_dwarf_inline v[PD_INLINE_DEPTH];
	struct pd_dwarf *dw = prof_dso_dwarf(&z->c, dso);
	const char *file;
	uint64_t addr;
	unsigned k;
	int line;

	if (!dw || !prof_dso_link_addr(&z->c, dso, f->rel, &addr))
		return;
	if (pd_dwarf_line(dw, addr, &file, &line)) {
		f->file = file;
		f->line = line;
	}
	k = pd_dwarf_inlines(dw, addr, v, PD_INLINE_DEPTH);
	if (k > PD_INLINES_MAX - z->ninl)
		k = PD_INLINES_MAX - z->ninl;
	if (!k)
		return;
	f->inl = &z->inl[z->ninl];
	f->ninl = k;
	for (unsigned i = 0; i < k; i++) {
		const char *name = inline_name(z, dso, &v[i]);

		z->inl[z->ninl++] = (struct pd_inline_frame){
			name, v[i].linkage ? v[i].linkage : name, f->file,
			f->line};
		f->file = v[i].call_file;
		f->line = v[i].call_line;
	}
}

/* What a DSO without symbols shows (warn_dso) */
#define SHOWS_FRAMES "its frames have no symbol"
#define SHOWS_PRINTS "tracepoint prints show its addresses in hex"

/* The frame of ip, found in a map (hit: NULL when none): its symbol
 * (with --srcline, its lines); a DSO without symbols is warned about
 * once.  print: for a tracepoint print's %ps, no lines. */
static void frame_at(struct pd_symbolizer *z, uint64_t ip,
		     const struct pd_bid_hit *h, struct pd_stack_frame *f,
		     bool print)
{
	struct prof_ctx *c = &z->c;
	struct pd_symtab *syms;
	const struct pd_sym *s;

	*f = (struct pd_stack_frame){.ip = ip, .rel = ip};
	if (!h)
		return;
	f->rel = h->rel;
	f->dso = z->p.dsos[h->dso_index].name;
	f->dso_index = h->dso_index;
	f->map_start = h->start;
	f->map_end = h->end;
	f->pgoff = h->pgoff;
	syms = prof_dso_syms(c, h->dso_index);
	if (!syms) {
		/* with --symbols, frames show it first and best */
		warn_dso(z, h->dso_index,
			 z->kernel_only ? SHOWS_PRINTS : SHOWS_FRAMES);
		return;
	}
	f->unverified = z->p.dsos[h->dso_index].unverified;
	s = pd_symtab_find(syms, h->rel);
	if (s) {
		f->sym = pd_symtab_name(syms, s); /* made once, kept */
		f->raw_sym = syms->names + s->name;
		f->symoff = h->rel - s->start;
	}
	if (z->lines && !print)
		frame_lines(z, h->dso_index, f);
}

/* Where an address of this cpumode is, and its frame (frame_at). */
static void resolve_now(struct pd_symbolizer *z, unsigned mode, uint32_t pid,
			uint64_t ip, struct pd_stack_frame *f, bool print)
{
	struct pd_bid_hit hit;

	frame_at(z, ip,
		 prof_resolve(&z->c, mode, pid, ip, true, &hit) ? &hit : NULL,
		 f, print);
}

/* resolve_now, through the memo of recent frames */
static void resolve(struct pd_symbolizer *z, unsigned mode, uint32_t pid,
		    uint64_t ip, struct pd_stack_frame *f, bool print)
{
	struct frame_memo *e;
	uint64_t h;

	if (print || z->lines ||
	    (!z->memo && !(z->memo = calloc(FRAME_MEMO, sizeof(*z->memo))))) {
		resolve_now(z, mode, pid, ip, f, print);
		return;
	}
	/* the kernel's maps are every process's */
	if (mode == PD_MISC_KERNEL)
		pid = 0;
	h = (ip ^ ((uint64_t)pid << 32) ^ mode) * 0x9e3779b97f4a7c15ull;
	e = &z->memo[(h >> 40) & (FRAME_MEMO - 1)];
	if (e->used && e->ip == ip && e->pid == pid && e->mode == mode &&
	    e->gen == pd_bid_maps_gen(z->c.maps)) {
		*f = e->f;
		return;
	}
	resolve_now(z, mode, pid, ip, f, print);
	/* (the kernel's map moves when its symbols are first read) */
	*e = (struct frame_memo){
		ip, pd_bid_maps_gen(z->c.maps), pid, (uint8_t)mode, true, *f};
}

/* The user stack unwound after the n frames of the callchain. */
static uint32_t unwind_stack(struct pd_symbolizer *z, const struct pd_event *ev,
			     const struct pd_sample *smp, uint32_t n,
			     struct pd_frames *out)
{
	enum pd_unwind_end end;
	const char *why;
	uint32_t k;

	if (!z->uw && !(z->uw = pd_unwinder_new(&prof_unwind_ops, &z->c)))
		return n;
	end = pd_unwind(z->uw, smp, smp->arch, z->pcs, PD_FRAMES_MAX - n, &k,
			&why);
	for (uint32_t i = 0; i < k; i++)
		resolve(z, PD_MISC_USER, smp->common.pid, z->pcs[i],
			&z->frames[n + i], false);
	out->unwound = k;
	out->callchain = true;
	if (end == PD_UNWIND_CAPPED && n + k == PD_FRAMES_MAX)
		out->capped = true;
	if (end == PD_UNWIND_STOPPED) {
		out->unwind_stopped = why;
		prof_unwind_stopped(&z->c, ev->offset, n + k, why,
				    "later samples: their unwind_stopped");
	}
	return n + k;
}

/*
 * A branch address: the map of the first cpumode that has one, user then
 * kernel, as machine.c ip__resolve_ams (thread__find_cpumode_addr_location)
 * resolves a branch stack's addresses, which carry no cpumode.
 */
static void resolve_branch(struct pd_symbolizer *z, uint32_t pid, uint64_t ip,
			   struct pd_stack_frame *f)
{
	struct pd_bid_hit hit;
	bool found = prof_resolve(&z->c, PD_MISC_USER, pid, ip, true, &hit) ||
		     prof_resolve(&z->c, PD_MISC_KERNEL, pid, ip, true, &hit);

	frame_at(z, ip, found ? &hit : NULL, f, false);
}

static void branches(struct pd_symbolizer *z, const struct pd_sample *smp,
		     uint32_t pid, struct pd_frames *out)
{
	const struct pd_branch_stack *b = &smp->branch;
	uint32_t n =
		b->nentries < PD_BRANCHES_MAX ? b->nentries : PD_BRANCHES_MAX;

	for (uint32_t i = 0; i < n; i++) {
		resolve_branch(z, pid, b->entries[i].from, &z->br[2 * i]);
		resolve_branch(z, pid, b->entries[i].to, &z->br[2 * i + 1]);
	}
	out->br = z->br;
	out->nbr = n;
}

bool pd_symbolizer_sample_frames(struct pd_symbolizer *z,
				 const struct pd_event *ev,
				 const struct pd_decoded *d,
				 struct pd_frames *out)
{
	if (ev->type != PD_REC_SAMPLE || d->smp.no_attr || !d->evsel)
		return false;
	if (!pd_symbolizer_sample(z, ev, d, out))
		out->n = 0;
	return true;
}

bool pd_symbolizer_sample(struct pd_symbolizer *z, const struct pd_event *ev,
			  const struct pd_decoded *d, struct pd_frames *out)
{
	const struct pd_sample *smp = &d->smp;
	unsigned mode = ev->misc & PD_MISC_CPUMODE_MASK;
	/* without TID: no process's maps, the kernel's still */
	uint32_t pid = smp->decoded_type & PD_SAMPLE_TID ? smp->common.pid : 0;
	uint32_t n = 0;

	*out = (struct pd_frames){.v = z->frames, .lines = z->lines};
	z->ninl = 0;
	arena_reset(&z->names);
	if (smp->decoded_type & PD_SAMPLE_TID) {
		/* thread.c thread__comm_str: ":TID" until a COMM names it */
		out->comm = prof_thread_comm(&z->c, pid, smp->common.tid);
		if (!out->comm[0]) {
			snprintf(z->comm, sizeof(z->comm), ":%d",
				 (int32_t)smp->common.tid);
			out->comm = z->comm;
		}
	}
	if (smp->decoded_type & PD_SAMPLE_CALLCHAIN) {
		struct prof_chain ch = {.ips = smp->callchain,
					.n = smp->ncallchain,
					.mode = mode};
		enum prof_chain_step step = PROF_CHAIN_ADDR;
		uint64_t ip;

		out->callchain = true;
		while (step != PROF_CHAIN_DAMAGED &&
		       (step = prof_chain_next(&ch, &ip)) != PROF_CHAIN_END) {
			if (n == PD_FRAMES_MAX) {
				out->capped = true;
				break;
			}
			if (step == PROF_CHAIN_ADDR) {
				resolve(z, ch.mode, pid, ip, &z->frames[n++],
					false);
				continue;
			}
			z->frames[n++] = (struct pd_stack_frame){
				.ip = ip, .marker = true};
			/* a marker perf does not define: the chain is
			 * damaged, perf discards it; it ends here */
			out->damaged = step == PROF_CHAIN_DAMAGED;
		}
	}
	/* machine.c thread__resolve_callchain: callee first, the
	 * callchain's (kernel) frames, then the user stack's */
	if (pd_unwind_possible(smp) && !out->capped && !out->damaged)
		n = unwind_stack(z, ev, smp, n, out);
	/* no callchain: the ip is the frame, as perf script prints it
	 * then (builtin-script.c perf_sample__fprintf_sym).  A callchain
	 * with nothing in it (nr 0, nothing unwound) is an empty stack:
	 * machine.c thread__resolve_callchain leaves the cursor empty and
	 * evsel_fprintf.c sample__fprintf_callchain prints no frame. */
	if (!n && (!(smp->decoded_type & PD_SAMPLE_CALLCHAIN) || z->empty_ip) &&
	    smp->decoded_type & PD_SAMPLE_IP) {
		out->callchain = false;
		resolve(z, mode, pid, smp->ip, &z->frames[n++], false);
	}
	out->n = n;
	if (smp->decoded_type & PD_SAMPLE_BRANCH_STACK && smp->branch.nentries)
		branches(z, smp, pid, out);
	return n > 0 || out->callchain;
}

void pd_symbolizer_frame_lines(struct pd_symbolizer *z,
			       struct pd_stack_frame *f)
{
	if (z->after) {
		pd_symbolizer_frame_lines(z->after, f);
		return;
	}
	if (f->marker || !f->dso || !f->sym || !dso_ready(z, f->dso_index))
		return;
	z->ninl = 0;
	arena_reset(&z->names);
	f->file = NULL;
	f->line = 0;
	f->inl = NULL;
	f->ninl = 0;
	frame_lines(z, f->dso_index, f);
}

const struct pd_prof_dso *pd_symbolizer_dso(struct pd_symbolizer *z,
					    uint32_t dso_index)
{
	if (z->after)
		return pd_symbolizer_dso(z->after, dso_index);
	return dso_ready(z, dso_index) ? &z->p.dsos[dso_index] : NULL;
}

const char *pd_symbolizer_kernel(struct pd_symbolizer *z, uint64_t addr,
				 uint64_t *start)
{
	struct pd_stack_frame f;

	/* the kernel's maps are every process's (pid unused) */
	resolve(z, PD_MISC_KERNEL, 0, addr, &f, true);
	*start = addr - f.symoff;
	return f.sym;
}
