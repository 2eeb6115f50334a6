// SPDX-License-Identifier: MIT
/*
 * Everything profile reads from a DSO, on bytes in memory, the results
 * dropped: for the fuzz targets (tests/fuzz/), which hand it arbitrary
 * bytes.  The same calls, in the same order, as profile_dso.c and
 * profile_lines.c make on a file.
 */
#include <elf.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/analysis/dso_dwarf.h"
#include "lib/analysis/dso_elf.h"

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
	if (pd_dso_elf_plt(&f, &t) > 0)
		pd_symtab_resort(&t);
	pd_dso_elf_debuglink(&f, detail, sizeof(detail));
	dw = pd_dwarf_open(&f, NULL, detail, sizeof(detail));
	for (uint32_t i = 0; i < t.n && i < 64; i++) {
		const char *file;
		uint64_t addr;
		int line;

		pd_symtab_find(&t, t.v[i].start + 1);
		if (dw && pd_segs_addr(&segs, t.v[i].start, &addr))
			pd_dwarf_line(dw, addr, &file, &line);
	}
	pd_dwarf_close(dw);
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
		pd_symtab_free(&t);
	}
	close(fd);
}

void pd_dso_probe_mem(const void *p, size_t n)
{
	probe_elf(p, n);
	probe_text(p, n);
}
