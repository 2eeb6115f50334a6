// SPDX-License-Identifier: MIT
/*
 * Formatters for the system-description features (models in
 * lib/format/feat_sys.h).
 */
#include <inttypes.h>

#include "fmt/fmt_features.h"
#include "fmt/names.h"

void emit_feat_string(struct emitter *e, const struct pd_session *s,
		      const struct pd_feature *f)
{
	const struct feat_string *m = f->model;

	(void)s;
	/* OSRELEASE, CPUDESC, ... describe the machine's make, not whose */
	emit_private_pstr(e, "value",
			  f->id == HEADER_HOSTNAME ? PRIV_HOST : PRIV_NONE,
			  &m->str);
}

void emit_feat_nrcpus(struct emitter *e, const struct pd_session *s,
		      const struct pd_feature *f)
{
	const struct feat_nrcpus *m = f->model;

	(void)s;
	emit_u64(e, "nr_cpus_avail", m->nr_cpus_avail);
	emit_u64(e, "nr_cpus_online", m->nr_cpus_online);
}

void emit_feat_total_mem(struct emitter *e, const struct pd_session *s,
			 const struct pd_feature *f)
{
	const struct feat_u64 *m = f->model;

	(void)s;
	/* MemTotal from /proc/meminfo, in kB (tools/perf/util/header.c: write_total_mem) */
	emit_u64(e, "total_mem_kb", m->value);
	if (m->value <= UINT64_MAX / 1024)
		emit_size(e, "total_mem_bytes", m->value * 1024);
}

void emit_feat_cmdline(struct emitter *e, const struct pd_session *s,
		       const struct pd_feature *f)
{
	const struct feat_cmdline *m = f->model;

	(void)s;
	emit_u64(e, "nr", m->argv.nr);
	emit_argv(e, "argv", m->argv.v, m->argv.nr);
}

void emit_feat_sample_time(struct emitter *e, const struct pd_session *s,
			   const struct pd_feature *f)
{
	const struct feat_sample_time *m = f->model;
	const struct pd_feature *cd = pd_find_feature(s, HEADER_CLOCK_DATA);
	const struct feat_clock_data *clk = cd ? cd->model : NULL;
	char buf[48];

	emit_u64(e, "first_sample_time", m->first);
	format_perf_time(buf, sizeof(buf), m->first);
	emit_str(e, "first_sample_time_s", buf);
	emit_u64(e, "last_sample_time", m->last);
	format_perf_time(buf, sizeof(buf), m->last);
	emit_str(e, "last_sample_time_s", buf);
	if (m->last >= m->first) {
		emit_u64(e, "duration_ns", m->last - m->first);
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%09" PRIu64,
			 (m->last - m->first) / NSEC_PER_SEC,
			 (m->last - m->first) % NSEC_PER_SEC);
		emit_str(e, "duration_s", buf);
	} else {
		emit_null(e, "duration_ns");
		emit_null(e, "duration_s");
	}
	/* wall clock from CLOCK_DATA: tod_ns + (t - clockid_ns) */
	if (clk && clk->tod_ns && m->first >= clk->clockid_ns) {
		format_iso8601_ns(buf, sizeof(buf),
				  clk->tod_ns + (m->first - clk->clockid_ns));
		emit_str(e, "first_sample_tod", buf);
		format_iso8601_ns(buf, sizeof(buf),
				  clk->tod_ns + (m->last - clk->clockid_ns));
		emit_str(e, "last_sample_tod", buf);
	}
}

void emit_feat_e_machine(struct emitter *e, const struct pd_session *s,
			 const struct pd_feature *f)
{
	const struct feat_e_machine *m = f->model;

	(void)s;
	emit_enum(e, "e_machine", m->e_machine,
		  pd_e_machine_name(m->e_machine));
	emit_hex(e, "e_flags", m->e_flags);
}

void emit_feat_cln_size(struct emitter *e, const struct pd_session *s,
			const struct pd_feature *f)
{
	const struct feat_u32 *m = f->model;

	(void)s;
	emit_u64(e, "cache_line_size", m->value);
}

void emit_feat_clockid(struct emitter *e, const struct pd_session *s,
		       const struct pd_feature *f)
{
	const struct feat_u64 *m = f->model;

	(void)s;
	/* header.c print_clockid: "clockid frequency: res_ns * 1000 MHz" */
	emit_u64(e, "clockid_res_ns", m->value);
	if (m->value <= UINT64_MAX / 1000)
		emit_u64(e, "frequency_mhz", m->value * 1000);
}

void emit_feat_dir_format(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f)
{
	const struct feat_u64 *m = f->model;
	/* tools/perf/util/data.h enum perf_dir_version */
	const char *name = m->value == 0   ? "PERF_DIR_SINGLE_FILE"
			   : m->value == 1 ? "PERF_DIR_VERSION"
					   : NULL;

	(void)s;
	emit_enum(e, "version", m->value, name);
}

void emit_feat_compressed(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f)
{
	const struct feat_compressed *m = f->model;
	/* tools/perf/util/compress.h enum perf_compress_type */
	const char *type = m->type == PD_COMP_NONE   ? "none"
			   : m->type == PD_COMP_ZSTD ? "zstd"
						     : NULL;

	(void)s;
	emit_u64(e, "version", m->version);
	emit_enum(e, "type", m->type, type);
	emit_u64(e, "level", m->level);
	emit_u64(e, "ratio", m->ratio);
	emit_size(e, "mmap_len", m->mmap_len);
}

void emit_feat_clock_data(struct emitter *e, const struct pd_session *s,
			  const struct pd_feature *f)
{
	const struct feat_clock_data *m = f->model;
	char buf[64];

	(void)s;
	emit_u64(e, "version", m->version);
	emit_enum(e, "clockid", m->clockid, pd_clockid_name(m->clockid));
	emit_u64(e, "tod_ns", m->tod_ns);
	format_iso8601_ns(buf, sizeof(buf), m->tod_ns);
	emit_str(e, "tod", buf);
	emit_u64(e, "clockid_ns", m->clockid_ns);
	format_perf_time(buf, sizeof(buf), m->clockid_ns);
	emit_str(e, "clockid_time_s", buf);
}
