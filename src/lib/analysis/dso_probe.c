// SPDX-License-Identifier: MIT
/*
 * Everything profile and records --symbols read from a DSO, on bytes in
 * memory, the results dropped: for the fuzz targets (tests/fuzz/), which
 * hand it arbitrary bytes.  The same calls, in the same order, as
 * profile_dso.c, profile_lines.c, symbolize.c (inlined calls) and
 * unwind.c (CFI, a stack copy) make on a file, and the names demangled
 * as rows and frames show them.
 */
#include <elf.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/analysis/dso_dwarf.h"
#include "lib/analysis/dso_elf.h"
#include "lib/analysis/unwind.h"
#include "lib/format/perf_abi.h"
#include "lib/session/sample.h"

/* unwind.h's view of a process that maps the probed image at 0 */
static bool probe_find(void *arg, uint32_t pid, uint64_t addr, uint32_t *key,
		       uint64_t *base, const char **name)
{
	(void)arg, (void)pid, (void)addr;
	*key = 0;
	*base = 0;
	*name = "probe";
	return true;
}

static int probe_open(void *arg, uint32_t key, const char **why)
{
	int fd = dup(*(const int *)arg);

	(void)key;
	*why = "cannot be opened";
	return fd;
}

/*
 * A DWARF unwinding whose CFI is the image's and whose stack copy is its
 * last bytes, from each of the first symbols: what records --symbols does
 * with a --call-graph dwarf sample (x86_64 registers).
 */
static void probe_unwind(const void *p, size_t n, const struct pd_symtab *t,
			 const struct pd_segs *segs)
{
	static const struct pd_unwind_ops ops = {probe_find, probe_open};
	uint64_t regs[24] = {0}, pcs[64], ip;
	struct pd_sample smp = {0};
	struct pd_unwinder *u;
	const char *why;
	uint32_t k;
	int fd = memfd_create("perfdump-probe-elf", MFD_CLOEXEC);

	if (fd < 0 || write(fd, p, n) != (ssize_t)n ||
	    !(u = pd_unwinder_new(&ops, &fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	smp.decoded_type = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	smp.regs_user = (struct pd_sample_regs){.abi = PD_REGS_ABI_64,
						.mask = 0xff0fff,
						.regs = regs,
						.nregs = 20};
	smp.stack.size = n < 2048 ? n : 2048;
	smp.stack.p = (const uint8_t *)p + n - smp.stack.size;
	smp.common.pid = smp.common.tid = 1;
	regs[7] = 0x7ff000000000ull; /* SP; BP above it */
	regs[6] = regs[7] + 16;
	for (uint32_t i = 0; i < t->n && i < 8; i++) {
		if (!pd_segs_addr(segs, t->v[i].start, &ip))
			continue;
		regs[8] = ip + 1; /* IP */
		pd_unwind(u, &smp, PD_ARCH_X86_64, pcs, 64, &k, &why);
	}
	pd_unwinder_free(u);
	close(fd);
}

/* The names shown of the first and the last 64 symbols (the PLT's are
 * last), twice: made, then kept. */
static void name_some(struct pd_symtab *t)
{
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < t->n; i++) {
			if (i == 64 && t->n > 128)
				i = t->n - 64;
			pd_symtab_name(t, &t->v[i]);
		}
}

/* The symbols and lines of an ELF image. */
static void probe_elf(const void *p, size_t n)
{
	struct pd_elf_build_id b;
	struct pd_elf_file f;
	struct pd_symtab t = {0};
	struct pd_segs segs;
	struct pd_dwarf *dw;
	char detail[160];
	bool dynsym;

	pd_elf_file_open_mem(p, n, &f, &b);
	if (!f.elf)
		return;
	if (pd_dso_elf_check(&f, detail, sizeof(detail)) < 0)
		goto out;
	pd_dso_elf_segs(&f, &segs);
	dynsym = !pd_dso_elf_has(&f, SHT_SYMTAB);
	pd_dso_elf_symbols(&f, dynsym, false, &segs, &t, detail,
			   sizeof(detail));
	pd_symtab_finish(&t, PD_SYMTAB_ELF);
	t.demangle = true;
	if (pd_dso_elf_plt(&f, &t) > 0)
		pd_symtab_resort(&t);
	name_some(&t);
	pd_dso_elf_debuglink(&f, detail, sizeof(detail));
	dw = pd_dwarf_open(&f, NULL, detail, sizeof(detail));
	for (uint32_t i = 0; i < t.n && i < 64; i++) {
		const char *file;
		uint64_t addr;
		int line;

		struct pd_dwarf_inline inl[8];

		pd_symtab_find(&t, t.v[i].start + 1);
		if (dw && pd_segs_addr(&segs, t.v[i].start, &addr)) {
			pd_dwarf_line(dw, addr, &file, &line);
			pd_dwarf_inlines(dw, addr + 1, inl, 8);
		}
	}
	pd_dwarf_close(dw);
	probe_unwind(p, n, &t, &segs);
out:
	pd_symtab_free(&t);
	pd_elf_file_close(&f);
}

/* The same bytes as kallsyms and as a JIT's perf map. */
static void probe_text(const void *p, size_t n)
{
	struct pd_symtab t = {0};
	char detail[160];
	int fd = memfd_create("perfdump-probe", MFD_CLOEXEC);

	if (fd < 0)
		return;
	if (n && write(fd, p, n) == (ssize_t)n) {
		lseek(fd, 0, SEEK_SET);
		pd_symtab_read_kallsyms(&t, fd, detail, sizeof(detail));
		pd_symtab_find(&t, 0xffffffff81000000ull);
		pd_symtab_free(&t);
		lseek(fd, 0, SEEK_SET);
		pd_symtab_read_perf_map(&t, fd, detail, sizeof(detail));
		/* profile shows a perf map's names as they are; here they
		 * are the demangler's input, which a text gives directly */
		t.demangle = true;
		name_some(&t);
		pd_symtab_free(&t);
	}
	close(fd);
}

void pd_dso_probe_mem(const void *p, size_t n)
{
	probe_elf(p, n);
	probe_text(p, n);
}
