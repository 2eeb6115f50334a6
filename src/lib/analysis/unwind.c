// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding of user stacks (see unwind.h), the way perf's
 * tools/perf/util/unwind-libdw.c does it: a libdwfl session whose
 * modules are the process's DSOs (dwfl_report_elf at map start - pgoff),
 * the initial registers from the sample's user registers (perf's
 * arch/{x86,arm64}/util/unwind-libdw.c libdw__arch_set_initial_registers),
 * and memory reads from the stack copy.  Unlike perf, which builds and
 * ends a session for every sample, a process's session stays (up to
 * PROCS of them), so each DSO's file and CFI are read once per process;
 * a map that no longer matches its module (an exec, a new mmap over the
 * range) starts the process's session over.
 */
#include "lib/analysis/unwind.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base/util.h"
#include "lib/format/perf_abi.h"
#include "lib/session/sample.h"

#define PROCS 8 /* processes whose sessions stay */

/* DWARF register n is perf register regs[n]; ip, sp: perf's numbers of
 * those; pc_apart: the DWARF numbering has no PC register (arm64). */
struct regmap {
	const int8_t *regs;
	unsigned n;
	int ip, sp;
	bool pc_apart;
};

/* arch/x86/include/uapi/asm/perf_regs.h; the System V x86-64 psABI's
 * DWARF numbers: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
static const int8_t x86_64_regs[] = {0,	 3,  2,	 1,  4,	 5,  6,	 7, 16,
				     17, 18, 19, 20, 21, 22, 23, 8};
/* i386 psABI: eax ecx edx ebx esp ebp esi edi eip */
static const int8_t i386_regs[] = {0, 2, 3, 1, 7, 6, 4, 5, 8};
/* arch/arm64/include/uapi/asm/perf_regs.h: x0..x30, sp; AArch64 DWARF
 * numbers are the same, the PC has none */
static const int8_t arm64_regs[] = {0,	1,  2,	3,  4,	5,  6,	7,  8,	9,  10,
				    11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
				    22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

struct mod {
	Dwfl_Module *m;
	uint32_t key;
	uint64_t base;
};

struct proc {
	Dwfl *dwfl;
	uint32_t pid;
	bool attached;
	uint64_t used; /* the unwinder's clock when last used */
	struct mod *mods;
	uint32_t nmods, cap;
};

struct pd_unwinder {
	const struct pd_unwind_ops *ops;
	void *arg;
	struct proc procs[PROCS];
	uint64_t clock;
	/* the sample being unwound */
	struct proc *cur;
	const struct regmap *rm;
	const struct pd_sample_regs *regs;
	uint64_t sp;
	const uint8_t *stack;
	uint64_t nstack;
	uint64_t *pcs;
	uint32_t max, n;
	bool first, capped, stopped, remapped;
	/* a read outside the stack copy since the last frame: where */
	bool missed;
	uint64_t missed_addr;
	/* the last frame given, in a module read: its address, its DSO */
	uint64_t last_pc;
	const char *last_name;
	char why[200];
};

/* No separate debug file: the CFI perf unwinds with is the file's own
 * .eh_frame (or .debug_frame in it); nothing of this machine's is read. */
static int no_debuginfo(Dwfl_Module *m, void **ud, const char *name,
			Dwarf_Addr base, const char *file, const char *link,
			GElf_Word crc, char **path)
{
	(void)m, (void)ud, (void)name, (void)base, (void)file, (void)link;
	(void)crc, (void)path;
	return -1;
}

static const Dwfl_Callbacks offline = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct pd_unwinder *pd_unwinder_new(const struct pd_unwind_ops *ops, void *arg)
{
	struct pd_unwinder *u = calloc(1, sizeof(*u));

	if (u) {
		u->ops = ops;
		u->arg = arg;
	}
	return u;
}

static void proc_end(struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	free(p->mods);
	*p = (struct proc){0};
}

void pd_unwinder_free(struct pd_unwinder *u)
{
	if (!u)
		return;
	for (unsigned i = 0; i < PROCS; i++)
		proc_end(&u->procs[i]);
	free(u);
}

static const struct regmap *regmap_of(enum pd_arch arch, uint64_t abi)
{
	static const struct regmap x86_64 = {
		x86_64_regs, PD_NELEMS(x86_64_regs), 8, 7, false};
	static const struct regmap i386 = {i386_regs, PD_NELEMS(i386_regs), 8,
					   7, false};
	static const struct regmap arm64 = {arm64_regs, PD_NELEMS(arm64_regs),
					    32, 31, true};

	abi &= ~(uint64_t)PD_REGS_ABI_SIMD;
	if (arch == PD_ARCH_X86_64 && abi == PD_REGS_ABI_64)
		return &x86_64;
	if ((arch == PD_ARCH_X86_64 || arch == PD_ARCH_X86_32) &&
	    abi == PD_REGS_ABI_32)
		return &i386;
	if (arch == PD_ARCH_ARM64 && abi == PD_REGS_ABI_64)
		return &arm64;
	return NULL;
}

/* perf register r of the sample; false: not recorded */
static bool reg(const struct pd_sample_regs *rs, int r, uint64_t *v)
{
	uint64_t bit = (uint64_t)1 << r;
	unsigned i;

	if (r < 0 || r > 63 || !(rs->mask & bit))
		return false;
	i = (unsigned)__builtin_popcountll(rs->mask & (bit - 1));
	if (i >= rs->nregs)
		return false;
	*v = rs->regs[i];
	return true;
}

bool pd_unwind_possible(const struct pd_sample *smp)
{
	uint64_t both = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;

	/* machine.c thread__resolve_callchain_unwind: registers and a
	 * stack copy, or nothing to unwind */
	return (smp->decoded_type & both) == both && smp->regs_user.abi &&
	       smp->regs_user.nregs && smp->stack.p && smp->stack.size &&
	       (!smp->has_stack_dyn_size || smp->stack_dyn_size);
}

/* unwinding stops: the first reason given is kept */
__attribute__((format(printf, 2, 3))) static void stop(struct pd_unwinder *u,
						       const char *fmt, ...)
{
	va_list ap;

	if (u->stopped)
		return;
	u->stopped = true;
	va_start(ap, fmt);
	vsnprintf(u->why, sizeof(u->why), fmt, ap);
	va_end(ap);
}

static struct mod *mod_of(struct proc *p, Dwfl_Module *m)
{
	for (uint32_t i = 0; i < p->nmods; i++)
		if (p->mods[i].m == m)
			return &p->mods[i];
	return NULL;
}

static Dwfl_Module *report_new(struct pd_unwinder *u, uint32_t key,
			       uint64_t base, const char *name, uint64_t addr)
{
	struct proc *p = u->cur;
	const char *why = "cannot be read";
	Dwfl_Module *m;
	int fd;

	if (p->nmods == p->cap) {
		uint32_t cap = p->cap ? p->cap * 2 : 8;
		struct mod *nv = realloc(p->mods, cap * sizeof(*nv));

		if (!nv) {
			stop(u, "out of memory at 0x%llx",
			     (unsigned long long)addr);
			return NULL;
		}
		p->mods = nv;
		p->cap = cap;
	}
	fd = u->ops->open(u->arg, key, &why);
	if (fd < 0) {
		stop(u, "no CFI for 0x%llx: %s is not read (%s)",
		     (unsigned long long)addr, name, why);
		return NULL;
	}
	dwfl_report_begin_add(p->dwfl);
	/* consumes fd when it succeeds */
	m = dwfl_report_elf(p->dwfl, name, name, fd, base, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!m) {
		close(fd);
		stop(u, "%s: %s", name, dwfl_errmsg(-1));
		return NULL;
	}
	p->mods[p->nmods++] = (struct mod){m, key, base};
	return m;
}

/* The module of addr, reported when it is new; NULL: unwinding stops
 * (u->why), or the process's maps changed (u->remapped). */
static Dwfl_Module *report(struct pd_unwinder *u, uint64_t addr)
{
	struct proc *p = u->cur;
	const char *name;
	uint32_t key;
	uint64_t base;
	Dwfl_Module *m;
	struct mod *md;

	if (!u->ops->find(u->arg, p->pid, addr, &key, &base, &name)) {
		stop(u, "no map holds 0x%llx", (unsigned long long)addr);
		return NULL;
	}
	m = dwfl_addrmodule(p->dwfl, addr);
	if (m) {
		md = mod_of(p, m);
		if (md && md->key == key && md->base == base)
			return m;
		u->remapped = true;
		return NULL;
	}
	m = report_new(u, key, base, name, addr);
	if (m && dwfl_addrmodule(p->dwfl, addr) != m) {
		/* the map lies outside the file's PT_LOAD segments */
		stop(u, "%s does not hold 0x%llx", name,
		     (unsigned long long)addr);
		return NULL;
	}
	return m;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **targ)
{
	if (*targ)
		return 0;
	*targ = arg;
	return dwfl_pid(dwfl);
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **targ)
{
	(void)dwfl, (void)tid;
	*targ = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	struct pd_unwinder *u = arg;
	uint64_t off = addr - u->sp;

	(void)dwfl;
	/* only the stack copy: perf also reads the DSOs' files
	 * (access_dso_mem), which CFI of compiled code does not need */
	if (addr < u->sp || off > u->nstack || u->nstack - off < sizeof(*out)) {
		u->missed = true;
		u->missed_addr = addr;
		return false;
	}
	memcpy(out, u->stack + off, sizeof(*out));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *t, void *arg)
{
	struct pd_unwinder *u = arg;
	const struct regmap *rm = u->rm;
	uint64_t v;

	for (unsigned i = 0; i < rm->n; i++) {
		Dwarf_Word w;

		if (!reg(u->regs, rm->regs[i], &v))
			continue;
		w = v;
		if (!dwfl_thread_state_registers(t, (int)i, 1, &w))
			return false;
	}
	if (rm->pc_apart && reg(u->regs, rm->ip, &v))
		dwfl_thread_state_register_pc(t, v);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* The last frame given is at pc, in a module that is read. */
static void last_frame(struct pd_unwinder *u, uint64_t pc)
{
	u->last_pc = pc;
	u->last_name = dwfl_module_info(dwfl_addrmodule(u->cur->dwfl, pc), NULL,
					NULL, NULL, NULL, NULL, NULL, NULL);
}

/*
 * A frame: its pc, a caller's return address less one, in the call
 * (dwfl_frame_pc's activation rule, as unwind-libdw.c frame_callback and
 * perf 6.1's unwind-libunwind-local.c get_entries give it).
 */
static int frame(Dwfl_Frame *state, void *arg)
{
	struct pd_unwinder *u = arg;
	bool activation;
	Dwarf_Addr pc;

	if (!u->first) { /* the sample's IP: pcs[0] already */
		u->first = true;
		return DWARF_CB_OK;
	}
	/* the module first: whether the frame is an activation (a signal
	 * frame) is in its CFI */
	if (!dwfl_frame_pc(state, &pc, NULL)) {
		stop(u, "%s", dwfl_errmsg(-1));
		return DWARF_CB_ABORT;
	}
	if (!report(u, pc)) { /* shown, but not unwound past (u->why) */
		u->pcs[u->n++] = pc - 1;
		return DWARF_CB_ABORT;
	}
	last_frame(u, pc);
	/* this unwinds the next frame (is it a signal frame?): the reads
	 * outside the stack copy from here on are this frame's */
	u->missed = false;
	if (!dwfl_frame_pc(state, &pc, &activation)) {
		stop(u, "%s", dwfl_errmsg(-1));
		return DWARF_CB_ABORT;
	}
	u->pcs[u->n++] = activation ? pc : pc - 1;
	if (u->n == u->max) {
		u->capped = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* The session of process pid: the one it has, or a new one in place of
 * the least recently used. */
static struct proc *proc_of(struct pd_unwinder *u, uint32_t pid)
{
	struct proc *p = &u->procs[0];

	for (unsigned i = 0; i < PROCS; i++) {
		struct proc *q = &u->procs[i];

		if (q->dwfl && q->pid == pid) {
			p = q;
			goto found;
		}
		if (!q->dwfl || q->used < p->used)
			p = q;
	}
	proc_end(p);
	p->dwfl = dwfl_begin(&offline);
	p->pid = pid;
	if (!p->dwfl)
		return NULL;
found:
	p->used = ++u->clock;
	return p;
}

static enum pd_unwind_end unwind_once(struct pd_unwinder *u, uint32_t pid,
				      uint32_t tid, uint64_t ip)
{
	int r;

	u->cur = proc_of(u, pid);
	if (!u->cur) {
		stop(u, "libdwfl: out of memory at 0x%llx",
		     (unsigned long long)ip);
		return PD_UNWIND_STOPPED;
	}
	u->pcs[0] = ip;
	u->n = 1;
	if (!report(u, ip))
		goto out;
	last_frame(u, ip);
	if (!u->cur->attached) {
		/* the architecture: the first module's */
		if (!dwfl_attach_state(u->cur->dwfl, NULL,
				       (pid_t)(pid ? pid : 1),
				       &thread_callbacks, u)) {
			stop(u, "%s", dwfl_errmsg(-1));
			goto out;
		}
		u->cur->attached = true;
	}
	if (u->max == 1) {
		u->capped = true;
		goto out;
	}
	r = dwfl_getthread_frames(u->cur->dwfl, (pid_t)(tid ? tid : 1), frame,
				  u);
	/* past the last frame: its module is read, its CFI does not go on
	 * (a file without .eh_frame: "No DWARF information found") */
	if (r < 0 && u->last_name)
		stop(u, "0x%llx in %s: %s", (unsigned long long)u->last_pc,
		     u->last_name, dwfl_errmsg(-1));
	else if (r < 0)
		stop(u, "%s", dwfl_errmsg(-1));
	/* libdwfl ends a backtrace, with no error, where a return address
	 * cannot be read: a stack copy cut short is such an end */
	if (u->missed)
		stop(u,
		     "0x%llx is outside the stack copy (%llu bytes from SP "
		     "0x%llx)",
		     (unsigned long long)u->missed_addr,
		     (unsigned long long)u->nstack, (unsigned long long)u->sp);
out:
	if (u->remapped || (u->stopped && !u->capped))
		return PD_UNWIND_STOPPED;
	return u->capped    ? PD_UNWIND_CAPPED
	       : u->stopped ? PD_UNWIND_STOPPED
			    : PD_UNWIND_DONE;
}

enum pd_unwind_end pd_unwind(struct pd_unwinder *u, const struct pd_sample *smp,
			     enum pd_arch arch, uint64_t *pcs, uint32_t max,
			     uint32_t *n, const char **why)
{
	uint32_t pid = smp->common.pid, tid = smp->common.tid;
	enum pd_unwind_end end = PD_UNWIND_STOPPED;
	uint64_t ip;

	*n = 0;
	*why = u->why;
	u->rm = regmap_of(arch, smp->regs_user.abi);
	u->regs = &smp->regs_user;
	if (!max || !pd_unwind_possible(smp))
		return PD_UNWIND_DONE;
	if (!u->rm) {
		snprintf(u->why, sizeof(u->why),
			 "no unwinding for %s registers (ABI %llu)",
			 pd_arch_name(arch),
			 (unsigned long long)smp->regs_user.abi);
		return PD_UNWIND_STOPPED;
	}
	if (!reg(u->regs, u->rm->sp, &u->sp) || !reg(u->regs, u->rm->ip, &ip)) {
		snprintf(u->why, sizeof(u->why),
			 "the sample has no user stack pointer or IP");
		return PD_UNWIND_STOPPED;
	}
	u->stack = smp->stack.p;
	/* evsel.c perf_evsel__parse_sample: the dump's dyn_size bytes */
	u->nstack =
		smp->has_stack_dyn_size && smp->stack_dyn_size < smp->stack.size
			? smp->stack_dyn_size
			: smp->stack.size;
	u->pcs = pcs;
	u->max = max;
	for (int pass = 0; pass < 2; pass++) {
		u->first = u->capped = u->stopped = u->remapped = false;
		u->missed = false;
		u->why[0] = 0;
		end = unwind_once(u, pid, tid, ip);
		if (!u->remapped)
			break;
		/* the maps changed under the session: start it over */
		proc_end(u->cur);
	}
	if (u->remapped)
		snprintf(u->why, sizeof(u->why),
			 "the maps of process %u changed twice", pid);
	*n = u->n;
	return end;
}
