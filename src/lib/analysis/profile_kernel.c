// SPDX-License-Identifier: MIT
/*
 * profile's kernel symbols (see profile.h), read once and shared by the
 * kernel's maps, in perf's order of preference (symbol.c
 * dso__load_kernel_sym): --vmlinux FILE (its .symtab, when its build-id
 * is the recording's), --kallsyms FILE, perf's build-id cache
 * ([kernel.kallsyms]/ID/kallsyms), and this machine's /proc/kallsyms
 * when the running kernel's build-id (/sys/kernel/notes) is the
 * recording's, or, unverified, when the recording has none and no --symfs
 * is given (perf's last resort, dso__find_kallsyms; with a symfs perf
 * tries no local file).  Addresses are moved by the distance between the
 * reference symbol's address at recording time (the kernel MMAP's
 * "[kernel.kallsyms]_text" and pgoff) and in the file (kallsyms__delta:
 * a kernel relocated at boot), modules' symbols excepted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/analysis/buildid_maps.h"
#include "lib/base/hex.h"
#include "lib/analysis/profile_dso.h"
#include "lib/analysis/rootpath.h"

static char *adup(struct pd_profile *p, const char *s)
{
	return arena_memdup(&p->arena, s, strlen(s) + 1);
}

/* Move the kernel's own symbols so that the reference symbol is where
 * the recording saw it (map__split_kallsyms, dso__load_vmlinux). */
static void relocate(struct prof_ctx *c)
{
	const struct pd_sym *ref;
	const char *name;
	uint64_t addr, delta;

	if (!pd_bid_maps_kernel_ref(c->maps, &name, &addr) || !addr ||
	    !(ref = pd_symtab_lookup(&c->ksyms, name)) || ref->start == addr)
		return;
	delta = addr - ref->start;
	for (uint32_t i = 0; i < c->ksyms.n; i++) {
		struct pd_sym *s = &c->ksyms.v[i];

		if (!s->module) {
			s->start += delta;
			s->end += delta;
		}
	}
	pd_symtab_resort(&c->ksyms);
}

/* A kallsyms file at fd (closed here); false: why in c->kdetail.  Not
 * read when no symbols are wanted (--by dso): found is enough. */
static bool read_kallsyms(struct prof_ctx *c, int fd)
{
	char detail[160];

	if (!c->kread) {
		close(fd);
		return true;
	}
	if (pd_symtab_read_kallsyms(&c->ksyms, fd, detail, sizeof(detail)) <
	    0) {
		close(fd);
		pd_symtab_free(&c->ksyms);
		c->kdetail = adup(c->p, detail);
		return false;
	}
	close(fd);
	c->ksrc = PD_SYMS_KALLSYMS;
	relocate(c);
	return true;
}

/* --vmlinux FILE: its symbols as they are linked, when its build-id is
 * the recording's (or the recording has none). */
static void from_vmlinux(struct prof_ctx *c, const struct pd_prof_dso *d)
{
	struct pd_elf_build_id b;
	struct pd_elf_file f;
	struct pd_segs none = {0};
	char detail[160];

	c->kpath = c->where->vmlinux;
	pd_elf_file_open_path(c->where->vmlinux, &f, &b);
	if (b.status != PD_ELF_OK && b.status != PD_ELF_NO_NOTE) {
		c->kstatus = pd_bid_file_status(b.status);
		c->kdetail = adup(c->p, b.detail);
		return;
	}
	if (d->build_id_size &&
	    (b.status != PD_ELF_OK ||
	     !pd_bid_equal(d->build_id, d->build_id_size, b.id, b.len))) {
		c->kstatus = PD_BID_MISMATCH;
		c->kdetail = "--vmlinux has another build-id";
	} else if (pd_dso_elf_check(&f, detail, sizeof(detail)) < 0 ||
		   (c->kread &&
		    pd_dso_elf_symbols(&f, false, true, &none, &c->ksyms,
				       detail, sizeof(detail)) < 0)) {
		c->kstatus = PD_BID_UNREADABLE;
		c->kdetail = adup(c->p, detail);
	} else {
		pd_symtab_finish(&c->ksyms, PD_SYMTAB_ELF);
		c->kstatus =
			d->build_id_size ? PD_BID_MATCH : PD_BID_NOT_CHECKED;
		c->kdetail = d->build_id_size
				     ? NULL
				     : "the recording has no build-id for the "
				       "kernel: --vmlinux, unverified";
		c->ksrc = c->kread ? PD_SYMS_VMLINUX : PD_SYMS_NONE;
		relocate(c);
	}
	pd_elf_file_close(&f);
}

/* This machine's kallsyms: status match when its build-id is the
 * recording's (checked), not-checked when the recording has none. */
static void from_running(struct prof_ctx *c, enum pd_bid_status status)
{
	const char *proc = c->where->proc_kallsyms ? c->where->proc_kallsyms
						   : "/proc/kallsyms";
	int fd;

	c->kpath = proc;
	fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		c->kstatus =
			errno == ENOENT ? PD_BID_MISSING : PD_BID_UNREADABLE;
		c->kdetail = adup(c->p, strerror(errno));
		return;
	}
	c->kstatus = read_kallsyms(c, fd) ? status : PD_BID_UNREADABLE;
	if (c->kstatus == PD_BID_NOT_CHECKED)
		c->kdetail = "the recording has no build-id for the kernel: "
			     "this machine's kallsyms, unverified";
}

/* perf's cache, then the running kernel's; the build-id is known */
static void from_machine(struct prof_ctx *c, const struct pd_prof_dso *d)
{
	const char *cache = c->where->bid.debug_dir;
	struct pd_elf_build_id run;
	struct pd_root_file f;
	char hex[41], rel[128], path[4200];

	pd_hex_bytes(hex, d->build_id, d->build_id_size);
	snprintf(rel, sizeof(rel), "/[kernel.kallsyms]/%s/kallsyms", hex);
	if (cache && *cache && pd_root_open(cache, rel, &f) == PD_ROOT_FILE) {
		snprintf(path, sizeof(path), "%s%s", cache, rel);
		c->kpath = adup(c->p, path);
		c->kstatus = read_kallsyms(c, f.fd) ? PD_BID_MATCH
						    : PD_BID_UNREADABLE;
		return;
	}
	pd_kernel_build_id(c->where->bid.kernel_notes
				   ? c->where->bid.kernel_notes
				   : "/sys/kernel/notes",
			   &run);
	if (run.status != PD_ELF_OK ||
	    !pd_bid_equal(d->build_id, d->build_id_size, run.id, run.len)) {
		c->kstatus = run.status == PD_ELF_OK ? PD_BID_MISMATCH
						     : PD_BID_MISSING;
		c->kdetail = run.status == PD_ELF_OK
				     ? "the running kernel has another "
				       "build-id, and perf's build-id cache "
				       "has no kallsyms for it"
				     : "not in perf's build-id cache";
		return;
	}
	from_running(c, PD_BID_MATCH);
}

/* The kernel's symbols, once: which source, and its status. */
static void load_ksyms(struct prof_ctx *c, const struct pd_prof_dso *d,
		       bool symbols)
{
	c->ksyms_tried = true;
	c->kread = symbols;
	c->ksrc = PD_SYMS_NONE;
	if (c->where->vmlinux) {
		from_vmlinux(c, d);
	} else if (c->where->kallsyms) {
		int fd = open(c->where->kallsyms, O_RDONLY | O_CLOEXEC);

		c->kpath = c->where->kallsyms;
		if (fd < 0) {
			c->kstatus = errno == ENOENT ? PD_BID_MISSING
						     : PD_BID_UNREADABLE;
			c->kdetail = adup(c->p, strerror(errno));
		} else if (read_kallsyms(c, fd)) {
			c->kstatus = PD_BID_NOT_CHECKED;
			c->kdetail = "--kallsyms: a kallsyms file has no "
				     "build-id to check";
		} else {
			c->kstatus = PD_BID_UNREADABLE;
		}
	} else if (d->build_id_size) {
		from_machine(c, d);
	} else if (c->where->strict_build_ids) {
		c->kstatus = PD_BID_NO_BUILD_ID;
		c->kdetail = "the recording has no build-id for the kernel "
			     "(--strict-build-ids)";
	} else if (c->where->bid.symfs && *c->where->bid.symfs) {
		/* symbol.c dso__load_kernel_sym: "do not try local files if
		 * a symfs was given" */
		c->kstatus = PD_BID_NO_BUILD_ID;
		c->kdetail = "the recording has no build-id for the kernel, "
			     "and with --symfs this machine's kallsyms is not "
			     "used";
	} else {
		from_running(c, PD_BID_NOT_CHECKED);
	}
	if (c->ksrc == PD_SYMS_NONE)
		pd_symtab_free(&c->ksyms);
}

/* The kernel's map from its first to its last own symbol read from
 * kallsyms (symbol.c dso__load_kernel_sym: map__fixup_start and
 * map__fixup_end, for kallsyms only). */
static void fit_map(struct prof_ctx *c, uint32_t dso)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (uint32_t i = 0; i < c->ksyms.n; i++) {
		const struct pd_sym *s = &c->ksyms.v[i];

		if (s->module)
			continue;
		if (s->start < lo)
			lo = s->start;
		if (s->end > hi)
			hi = s->end;
	}
	pd_bid_maps_fit_kernel(c->maps, dso, lo, hi);
}

/* The kernel's own DSO, [kernel.kallsyms] (the last of that name), or
 * PD_PROF_NONE */
static uint32_t kernel_dso(const struct prof_ctx *c)
{
	uint32_t k = PD_PROF_NONE;

	for (uint32_t i = 0; i < c->p->ndsos; i++)
		if (strcmp(c->p->dsos[i].name, "[kernel.kallsyms]") == 0)
			k = i;
	return k;
}

void prof_kernel_load(struct prof_ctx *c, struct pd_prof_dso *d,
		      struct dso_state *ds, bool symbols)
{
	uint32_t ki = kernel_dso(c);
	/* the build-id is [kernel.kallsyms]'s, for its modules too */
	struct pd_prof_dso *k = ki == PD_PROF_NONE ? d : &c->p->dsos[ki];

	if (!c->ksyms_tried)
		load_ksyms(c, k, symbols);
	d->status = c->kstatus;
	d->detail = c->kdetail;
	d->path = c->kpath;
	d->lines = "not read for the kernel";
	if (c->ksrc == PD_SYMS_NONE)
		return;
	/* a module's symbols are only in kallsyms */
	if (d != k && c->ksrc != PD_SYMS_KALLSYMS) {
		d->status = PD_BID_MISSING;
		d->detail = "a module's symbols come from kallsyms";
		return;
	}
	if (d == k && c->ksrc == PD_SYMS_KALLSYMS)
		fit_map(c, (uint32_t)(k - c->p->dsos));
	d->src = c->ksrc;
	d->nsyms = c->ksyms.n;
	d->dropped_syms = c->ksyms.dropped;
	ds->kernel_syms = true;
	ds->syms_ok = true;
}

void prof_kernel_ready(struct prof_ctx *c, bool symbols)
{
	uint64_t gen = pd_bid_maps_gen(c->maps);
	uint32_t k;

	if (c->kready || (c->kready_gen == gen + 1))
		return;
	/* no kernel DSO: looked for again when the maps change */
	c->kready_gen = gen + 1;
	if (!prof_dsos_sync(c)) {
		c->oom = true;
		return;
	}
	if ((k = kernel_dso(c)) == PD_PROF_NONE)
		return;
	c->kready = true;
	if (prof_dso_load(c, k, symbols))
		prof_dso_release(c, k, false);
}
