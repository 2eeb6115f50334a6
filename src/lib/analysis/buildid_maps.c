// SPDX-License-Identifier: MIT
/* Address maps per process, for buildids --hits and profile (see
 * buildid_maps.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/analysis/buildid.h"
#include "lib/analysis/buildid_maps.h"
#include "lib/base/hindex.h"
#include "lib/io/reader.h"
#include "lib/session/record.h"

struct map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;	     /* an ip is at ip - start + pgoff in the DSO */
	uint32_t dso;
};

struct proc {
	uint32_t pid;
	int32_t parent; /* index into procs, -1: none */
	struct map *maps;
	size_t n, cap;
};

#define NO_SLOT PD_HINDEX_NONE

struct pd_bid_maps {
	struct pd_bid_dso *dsos;
	size_t ndsos, dsos_cap;
	struct pd_hindex dso_ix; /* by name and build-id */
	struct proc *procs;
	size_t nprocs, procs_cap;
	struct pd_hindex proc_ix; /* by pid */
	uint64_t nmaps;		  /* over every process */
	uint64_t gen;		  /* changes whenever a map does */
	unsigned flags;
	char kref_name[16]; /* the kernel MMAP's suffix ("" none) */
	uint64_t kref_addr;
};

struct pd_bid_maps *pd_bid_maps_new(unsigned flags)
{
	struct pd_bid_maps *m = calloc(1, sizeof(struct pd_bid_maps));

	if (m)
		m->flags = flags;
	return m;
}

void pd_bid_maps_free(struct pd_bid_maps *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ndsos; i++)
		free(m->dsos[i].name);
	for (size_t i = 0; i < m->nprocs; i++)
		free(m->procs[i].maps);
	free(m->dsos);
	free(m->procs);
	pd_hindex_free(&m->dso_ix);
	pd_hindex_free(&m->proc_ix);
	free(m);
}

static bool grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 16;
	void *nv;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	nv = realloc(*v, ncap * elem);
	if (!nv)
		return false;
	*v = nv;
	*cap = ncap;
	return true;
}

/* The DSO (name, build-id), added if new; NO_SLOT when full. */
static uint32_t dso_intern(struct pd_bid_maps *m, const char *name,
			   size_t name_len, const uint8_t *bid,
			   uint8_t bid_size)
{
	uint32_t h =
		pd_fnv1a(name, name_len, pd_fnv1a(bid, bid_size, PD_FNV_SEED));
	uint32_t pos = 0, i;
	struct pd_bid_dso *d;

	while ((i = pd_hindex_next(&m->dso_ix, h, &pos)) != NO_SLOT) {
		d = &m->dsos[i];
		if (d->name_len == name_len && d->build_id_size == bid_size &&
		    memcmp(d->name, name, name_len) == 0 &&
		    memcmp(d->build_id, bid, bid_size) == 0)
			return i;
	}
	if (m->ndsos >= PD_BID_MAX_DSOS ||
	    !grow((void **)&m->dsos, &m->dsos_cap, m->ndsos + 1, sizeof(*d)))
		return NO_SLOT;
	d = &m->dsos[m->ndsos];
	memset(d, 0, sizeof(*d));
	d->name = malloc(name_len + 1);
	if (!d->name || pd_hindex_add(&m->dso_ix, h, (uint32_t)m->ndsos) < 0) {
		free(d->name);
		d->name = NULL;
		return NO_SLOT;
	}
	memcpy(d->name, name, name_len);
	d->name[name_len] = 0;
	d->name_len = (uint32_t)name_len;
	d->build_id_size = bid_size;
	memcpy(d->build_id, bid, bid_size);
	return (uint32_t)m->ndsos++;
}

static struct proc *proc_find(struct pd_bid_maps *m, uint32_t pid, bool add)
{
	uint32_t h = pd_fnv1a(&pid, sizeof(pid), PD_FNV_SEED);
	uint32_t pos = 0, i;
	struct proc *p;

	while ((i = pd_hindex_next(&m->proc_ix, h, &pos)) != NO_SLOT) {
		if (m->procs[i].pid == pid)
			return &m->procs[i];
	}
	if (!add || m->nprocs >= PD_BID_MAX_PROCS ||
	    !grow((void **)&m->procs, &m->procs_cap, m->nprocs + 1,
		  sizeof(*p)) ||
	    pd_hindex_add(&m->proc_ix, h, (uint32_t)m->nprocs) < 0)
		return NULL;
	p = &m->procs[m->nprocs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->parent = -1;
	m->nprocs++;
	return p;
}

/* Index of the first map whose end is above addr (ends are sorted too). */
static size_t first_ending_after(const struct proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

struct pd_bid_dso *pd_bid_maps_add(struct pd_bid_maps *m, uint32_t pid,
				   uint64_t start, uint64_t len, uint64_t pgoff,
				   const char *name, size_t name_len,
				   const uint8_t *bid, uint8_t bid_size)
{
	uint64_t end = len > UINT64_MAX - start ? UINT64_MAX : start + len;
	struct map left = {0}, right = {0}, nm;
	bool has_left = false, has_right = false;
	struct proc *p;
	size_t i, j, pieces;

	static const uint8_t no_bid[1];

	if (!bid || !bid_size) {
		bid = no_bid;
		bid_size = 0;
	}
	if (len == 0)
		return NULL;
	if (m->nmaps >= PD_BID_MAX_MAPS)
		return NULL;
	if (!(p = proc_find(m, pid, true)))
		return NULL;
	nm = (struct map){start, end, pgoff,
			  dso_intern(m, name, name_len, bid, bid_size)};
	if (nm.dso == NO_SLOT)
		return NULL;
	/* the kernel's "[kernel.kallsyms]_text", modules, BPF programs */
	m->dsos[nm.dso].kernel |= pid == PD_BID_KERNEL_PID;

	/* the maps [i, j) overlap [start, end): keep only what sticks out */
	i = first_ending_after(p, start);
	for (j = i; j < p->n && p->maps[j].start < end; j++) {
		if (p->maps[j].start < start) {
			left = p->maps[j];
			left.end = start;
			has_left = true;
		}
		if (p->maps[j].end > end) {
			right = p->maps[j];
			/* map.c: maps__fixup_overlappings moves its pgoff */
			right.pgoff += end - right.start;
			right.start = end;
			has_right = true;
		}
	}
	pieces = 1 + has_left + has_right;
	if (!grow((void **)&p->maps, &p->cap, p->n - (j - i) + pieces,
		  sizeof(nm)))
		return NULL;
	memmove(&p->maps[i + pieces], &p->maps[j], (p->n - j) * sizeof(nm));
	m->nmaps = m->nmaps - (j - i) + pieces;
	p->n = p->n - (j - i) + pieces;
	if (has_left)
		p->maps[i++] = left;
	p->maps[i++] = nm;
	if (has_right)
		p->maps[i] = right;
	m->gen++;
	return &m->dsos[nm.dso];
}

/*
 * Remove the map of process pid that holds addr, if its DSO is named
 * (name, name_len): a KSYMBOL unregistered (machine.c:
 * machine__process_ksymbol_unregister).
 */
static void maps_remove(struct pd_bid_maps *m, uint32_t pid, uint64_t addr,
			const char *name, size_t name_len)
{
	struct proc *p = proc_find(m, pid, false);
	size_t i;

	if (!p || (i = first_ending_after(p, addr)) >= p->n ||
	    p->maps[i].start > addr)
		return;
	const struct pd_bid_dso *d = &m->dsos[p->maps[i].dso];

	if (d->name_len != name_len || memcmp(d->name, name, name_len) != 0)
		return;
	memmove(&p->maps[i], &p->maps[i + 1],
		(p->n - i - 1) * sizeof(p->maps[0]));
	p->n--;
	m->nmaps--;
	m->gen++;
}

bool pd_bid_maps_fork(struct pd_bid_maps *m, uint32_t pid, uint32_t ppid)
{
	struct proc *parent, *child;
	int32_t pidx;

	if (pid == ppid)
		return true; /* a thread: same maps */
	if (!(parent = proc_find(m, ppid, false)))
		return true; /* nothing to inherit */
	pidx = (int32_t)(parent - m->procs);
	if (!(child = proc_find(m, pid, true)))
		return false;
	/* a pid reused by a new process: forget the old one's maps */
	m->nmaps -= child->n;
	child->n = 0;
	child->parent = pidx;
	m->gen++;
	return true;
}

/* The map ip is in for process pid, or NULL. */
static const struct map *find_map(struct pd_bid_maps *m, uint32_t pid,
				  uint64_t ip)
{
	struct proc *p = proc_find(m, pid, false);

	/* parents, a few generations up (a cycle cannot loop forever) */
	for (int depth = 0; p && depth < 16; depth++) {
		size_t i = first_ending_after(p, ip);

		if (i < p->n && p->maps[i].start <= ip)
			return &p->maps[i];
		if (p->parent < 0 ||
		    (size_t)p->parent == (size_t)(p - m->procs))
			break;
		p = &m->procs[p->parent];
	}
	return NULL;
}

bool pd_bid_maps_sample(struct pd_bid_maps *m, unsigned cpumode, uint32_t pid,
			uint64_t ip, struct pd_bid_hit *hit)
{
	const struct map *map = NULL;

	/* tools/perf/util/event.c thread__find_map: host modes only */
	if (cpumode == PD_MISC_KERNEL)
		map = find_map(m, PD_BID_KERNEL_PID, ip);
	else if (cpumode == PD_MISC_USER)
		map = find_map(m, pid, ip);
	if (!map)
		return false;
	hit->dso_index = map->dso;
	hit->dso = &m->dsos[map->dso];
	hit->rel = ip - map->start + map->pgoff;
	hit->start = map->start;
	hit->end = map->end;
	hit->pgoff = map->pgoff;
	return true;
}

size_t pd_bid_dso_name_len(const char *name, size_t len)
{
	return pd_bid_is_kernel(name, len) ? strlen("[kernel.kallsyms]") : len;
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

/* map.c: is_anon_memory, is_no_dso_memory */
static bool anon_or_no_dso(const char *s, size_t n)
{
	return (n == 6 && memcmp(s, "//anon", 6) == 0) ||
	       starts(s, n, "/dev/zero") || starts(s, n, "/anon_hugepage") ||
	       starts(s, n, "[stack") || starts(s, n, "/SYSV") ||
	       (n == 6 && memcmp(s, "[heap]", 6) == 0);
}

/* MMAP and MMAP2, as machine__process_mmap2_event and map__new take them */
static bool add_mmap(struct pd_bid_maps *m, const struct pd_event *ev,
		     const struct pd_rec_mmap *r)
{
	bool kernel = (ev->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL;
	bool has_bid = r->has_build_id && r->build_id;
	uint8_t bid_size = has_bid ? r->build_id_size : 0;
	const char *name = r->filename.s;
	size_t nlen = r->filename.len, klen = strlen("[kernel.kallsyms]");
	uint64_t pgoff = r->pgoff;
	/* prot is MMAP2's; an MMAP is executable unless it says data */
	bool exec = r->is_mmap2 && !r->no_prot_flags
			    ? (r->prot & PROT_EXEC) != 0
			    : !(ev->misc & PD_MISC_MMAP_DATA);
	char jit[40];

	if (!name)
		return true;
	if (bid_size > PD_BUILD_ID_MAX)
		bid_size = PD_BUILD_ID_MAX;
	if (kernel) {
		/* [kernel.kallsyms]_text: the reference symbol's address */
		if (pd_bid_is_kernel(name, nlen) && nlen > klen + 1 &&
		    nlen - klen < sizeof(m->kref_name)) {
			memcpy(m->kref_name, name + klen, nlen - klen);
			m->kref_name[nlen - klen] = 0;
			m->kref_addr = r->pgoff;
		}
		/* kernel maps are identity maps (machine.c:
		 * __machine__create_kernel_maps, maps__split_kallsyms) */
		return !r->len ||
		       pd_bid_maps_add(m, PD_BID_KERNEL_PID, r->addr, r->len,
				       r->addr, name,
				       pd_bid_dso_name_len(name, nlen),
				       r->build_id, bid_size);
	}
	if (nlen == 6 && memcmp(name, "[vdso]", 6) == 0)
		pgoff = 0; /* map__new: a vdso map starts at its page 0 */
	if (anon_or_no_dso(name, nlen)) {
		pgoff = r->addr; /* identity__map_ip */
		if (exec && (m->flags & PD_BID_MAPS_JIT_NAMES)) {
			snprintf(jit, sizeof(jit), "/tmp/perf-%d.map",
				 (int32_t)r->pid);
			name = jit;
			nlen = strlen(jit);
		}
	}
	return !r->len || pd_bid_maps_add(m, r->pid, r->addr, r->len, pgoff,
					  name, nlen, r->build_id, bid_size);
}

/*
 * A KSYMBOL (a BPF program, a trampoline) is a kernel map of its own name,
 * unless a map already holds its address (tools/perf/util/machine.c:
 * machine__process_ksymbol_register); unregistered, its map goes.
 */
static bool add_ksymbol(struct pd_bid_maps *m, const struct pd_rec_ksymbol *k)
{
	struct pd_bid_dso *d;

	if (!k->name.s)
		return true;
	if (k->flags & PD_KSYMBOL_FLAG_UNREGISTER) {
		maps_remove(m, PD_BID_KERNEL_PID, k->addr, k->name.s,
			    k->name.len);
		return true;
	}
	if (!k->len || find_map(m, PD_BID_KERNEL_PID, k->addr))
		return true;
	d = pd_bid_maps_add(m, PD_BID_KERNEL_PID, k->addr, k->len, k->addr,
			    k->name.s, k->name.len, NULL, 0);
	if (d)
		d->ksymbol = true;
	return d != NULL;
}

bool pd_bid_maps_record(struct pd_bid_maps *m, const struct pd_event *ev,
			const struct pd_record *rec)
{
	if (rec->too_small)
		return true;
	if (ev->type == PD_REC_FORK)
		return pd_bid_maps_fork(m, rec->u.task.pid, rec->u.task.ppid);
	if (ev->type == PD_REC_MMAP || ev->type == PD_REC_MMAP2)
		return add_mmap(m, ev, &rec->u.mmap);
	if (ev->type == PD_REC_KSYMBOL)
		return add_ksymbol(m, &rec->u.ksymbol);
	return true;
}

bool pd_bid_maps_kernel_ref(const struct pd_bid_maps *m, const char **name,
			    uint64_t *addr)
{
	*name = m->kref_name;
	*addr = m->kref_addr;
	return m->kref_name[0] != 0;
}

void pd_bid_maps_fit_kernel(struct pd_bid_maps *m, uint32_t dso, uint64_t lo,
			    uint64_t hi)
{
	struct proc *p = proc_find(m, PD_BID_KERNEL_PID, false);

	for (size_t i = 0; p && lo < hi && i < p->n; i++) {
		struct map *k = &p->maps[i];
		uint64_t start = lo, end = hi;

		if (k->dso != dso)
			continue;
		/* the maps stay sorted and apart */
		if (i > 0 && start < p->maps[i - 1].end)
			start = p->maps[i - 1].end;
		if (i + 1 < p->n && end > p->maps[i + 1].start)
			end = p->maps[i + 1].start;
		if (start >= end)
			return;
		k->pgoff = k->pgoff - k->start + start;
		k->start = start;
		k->end = end;
		m->gen++;
		return;
	}
}

uint64_t pd_bid_maps_gen(const struct pd_bid_maps *m)
{
	return m->gen;
}

size_t pd_bid_maps_ndsos(const struct pd_bid_maps *m)
{
	return m->ndsos;
}

struct pd_bid_dso *pd_bid_maps_dso(struct pd_bid_maps *m, size_t i)
{
	return &m->dsos[i];
}

uint64_t pd_bid_maps_count(const struct pd_bid_maps *m)
{
	return m->nmaps;
}
