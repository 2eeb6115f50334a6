// SPDX-License-Identifier: MIT
/* Where records --symbols and profile look for symbols, and how they
 * show them: --symfs, --debug-dir, --vmlinux, --kallsyms, --no-demangle,
 * --strict-build-ids (perfdump.h). */
#include <stdio.h>

#include "perfdump.h"

bool sym_where_opt(struct sym_where *s, int o, const char *arg)
{
	switch ((enum sym_opt)o) {
	case SYM_OPT_SYMFS: s->w.bid.symfs = arg; break;
	case SYM_OPT_DEBUG_DIR:
		s->w.bid.debug_dir = arg;
		s->has_debug_dir = true;
		break;
	case SYM_OPT_VMLINUX: s->w.vmlinux = arg; break;
	case SYM_OPT_KALLSYMS: s->w.kallsyms = arg; break;
	case SYM_OPT_NO_DEMANGLE: s->w.raw_names = true; break;
	case SYM_OPT_STRICT_BUILD_IDS: s->w.strict_build_ids = true; break;
	default: return false;
	}
	return true;
}

int sym_where_check(const char *cmd, const struct sym_where *s)
{
	if (s->w.vmlinux && s->w.kallsyms) {
		usage_error("%s: --vmlinux and --kallsyms: give one", cmd);
		return -1;
	}
	return 0;
}

void sym_where_default(struct sym_where *s, const struct pd_session *ses)
{
	if (!s->has_debug_dir) /* perf's default (cli.c) */
		s->w.bid.debug_dir = ses->opts.buildid_dir;
	/* the running kernel, or the testing aids' stand-in (cli.c) */
	s->w.bid.kernel_notes = ses->opts.kernel_notes;
	s->w.proc_kallsyms = ses->opts.proc_kallsyms;
}
