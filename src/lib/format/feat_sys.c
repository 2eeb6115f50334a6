// SPDX-License-Identifier: MIT
/*
 * Decoders for the system-description features (see feat_sys.h).
 */
#include <string.h>

#include "lib/format/feat_ctx.h"
#include "lib/format/feat_sys.h"

bool pd_read_strlist(struct pd_feat_ctx *x, struct cursor *c, const char *what,
		     struct pd_strlist *out)
{
	uint32_t nr = cur_u32(c, what);

	memset(out, 0, sizeof(*out));
	/* each string needs at least its u32 length */
	out->v = pd_feat_array(x, c, what, nr, 4, sizeof(*out->v));
	if (!out->v)
		return false;
	for (uint32_t i = 0; i < nr && cur_ok(c); i++) {
		out->v[i] = cur_hstring(c, what);
		if (cur_ok(c))
			out->nr = i + 1;
	}
	return cur_ok(c);
}

/*
 * HOSTNAME..CPUID: do_write_string(): u32 len (NUL + padding to 64
 * included); char str[len].
 */
void parse_feat_string(struct pd_feat_ctx *x, struct pd_feature *f,
		       struct cursor *c)
{
	struct feat_string *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	m->str = cur_hstring(c, "string");
	if (!cur_ok(c))
		return;
	f->model = m;
	if (f->id == HEADER_ARCH)
		x->env->arch = m->str;
}

/* NRCPUS: write_nrcpus(): u32 nr_cpus_avail; u32 nr_cpus_online. */
void parse_feat_nrcpus(struct pd_feat_ctx *x, struct pd_feature *f,
		       struct cursor *c)
{
	struct feat_nrcpus *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	/* untrusted count: checked against the bytes left before use (cursor.h) */
	m->nr_cpus_avail = cur_u32(c, "nr_cpus_avail");
	m->nr_cpus_online = cur_u32(c, "nr_cpus_online");
	if (!cur_ok(c))
		return;
	f->model = m;
	x->env->has_nrcpus = true;
	x->env->nr_cpus_avail = m->nr_cpus_avail;
	x->env->nr_cpus_online = m->nr_cpus_online;
	if (m->nr_cpus_online > m->nr_cpus_avail)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_NRCPUS), PD_WARN, c->base,
			    "HEADER_NRCPUS",
			    "nr_cpus_online %u is larger than nr_cpus_avail %u",
			    m->nr_cpus_online, m->nr_cpus_avail);
}

/* TOTAL_MEM (kB), CLOCKID (ns), DIR_FORMAT (version): one u64. */
void parse_feat_u64(struct pd_feat_ctx *x, struct pd_feature *f,
		    struct cursor *c)
{
	struct feat_u64 *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	m->value = cur_u64(c, "value");
	if (cur_ok(c))
		f->model = m;
}

/*
 * E_MACHINE: write_e_machine(): u32 e_machine ("expanded from 16 to
 * 32-bits for alignment"); u32 e_flags; read by process_e_machine() into
 * perf_env.e_machine / e_flags (tools/perf/util/header.c in the
 * perf-tools-next series "perf header: ... e_machine", 2025-26; the
 * torvalds/linux header.c at 00093b31 has no such feature yet).
 */
void parse_feat_e_machine(struct pd_feat_ctx *x, struct pd_feature *f,
			  struct cursor *c)
{
	struct feat_e_machine *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	m->e_machine = cur_u32(c, "e_machine");
	m->e_flags = cur_u32(c, "e_flags");
	if (cur_ok(c))
		f->model = m;
}

/*
 * CLN_SIZE: u32, the cache line size (perf_env.cln_size, an unsigned int;
 * perf-tools-next c66cf8c593c7 "perf tools: Save cln_size header").
 */
void parse_feat_u32(struct pd_feat_ctx *x, struct pd_feature *f,
		    struct cursor *c)
{
	struct feat_u32 *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	m->value = cur_u32(c, "value");
	if (cur_ok(c))
		f->model = m;
}

/* CMDLINE: write_cmdline(): u32 nr; string[nr], perf's path first. */
void parse_feat_cmdline(struct pd_feat_ctx *x, struct pd_feature *f,
			struct cursor *c)
{
	struct feat_cmdline *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	pd_read_strlist(x, c, "argv", &m->argv);
	f->model = m; /* keep what was read even when cut short */
}

/* SAMPLE_TIME: write_sample_time(): u64 first; u64 last. */
void parse_feat_sample_time(struct pd_feat_ctx *x, struct pd_feature *f,
			    struct cursor *c)
{
	struct feat_sample_time *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	m->first = cur_u64(c, "first_sample_time");
	m->last = cur_u64(c, "last_sample_time");
	if (!cur_ok(c))
		return;
	f->model = m;
	if (m->last < m->first)
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_SAMPLE_TIME), PD_WARN, c->base,
			    "HEADER_SAMPLE_TIME",
			    "last sample time %llu is before the first %llu",
			    (unsigned long long)m->last,
			    (unsigned long long)m->first);
}

/* COMPRESSED: write_compressed(): u32 version, type, level, ratio, mmap_len. */
void parse_feat_compressed(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c)
{
	struct feat_compressed *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	m->version = cur_u32(c, "version");
	m->type = cur_u32(c, "type");
	m->level = cur_u32(c, "level");
	m->ratio = cur_u32(c, "ratio");
	m->mmap_len = cur_u32(c, "mmap_len");
	if (cur_ok(c))
		f->model = m;
}

/*
 * CLOCK_DATA: write_clock_data(): u32 version (1); u32 clockid;
 * u64 tod_ns (wall clock); u64 clockid_ns (same instant, sampling clock).
 */
void parse_feat_clock_data(struct pd_feat_ctx *x, struct pd_feature *f,
			   struct cursor *c)
{
	struct feat_clock_data *m = arena_alloc(x->arena, sizeof(*m));

	if (!m)
		return;
	m->version = cur_u32(c, "version");
	if (cur_ok(c) && m->version != 1) {
		/* perf refuses other versions; layout unknown beyond it */
		pd_diag_add(x->diags, PD_C_UNUSUAL,
			    PD_AT_FEATURE(HEADER_CLOCK_DATA), PD_WARN, c->base,
			    "HEADER_CLOCK_DATA",
			    "version %u is not 1; decoding as version 1",
			    m->version);
	}
	m->clockid = cur_u32(c, "clockid");
	m->tod_ns = cur_u64(c, "tod_ns");
	m->clockid_ns = cur_u64(c, "clockid_ns");
	if (cur_ok(c))
		f->model = m;
}

bool feat_clock_wall(const struct feat_clock_data *clk, uint64_t t,
		     uint64_t *ns)
{
	if (!clk || !clk->tod_ns)
		return false;
	if (t >= clk->clockid_ns)
		*ns = clk->tod_ns + (t - clk->clockid_ns);
	else if (clk->clockid_ns - t <= clk->tod_ns)
		*ns = clk->tod_ns - (clk->clockid_ns - t);
	else
		return false;
	return true;
}
