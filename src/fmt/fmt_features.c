// SPDX-License-Identifier: MIT
#include "fmt/fmt_features.h"
#include "fmt/fmtnum.h"
#include "lib/base/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

static const pd_feat_emit_fn emitters[] = {
	[HEADER_TRACING_DATA] = emit_feat_tracing_data,
	[HEADER_BUILD_ID] = emit_feat_build_id,
	[HEADER_HOSTNAME] = emit_feat_string,
	[HEADER_OSRELEASE] = emit_feat_string,
	[HEADER_VERSION] = emit_feat_string,
	[HEADER_ARCH] = emit_feat_string,
	[HEADER_NRCPUS] = emit_feat_nrcpus,
	[HEADER_CPUDESC] = emit_feat_string,
	[HEADER_CPUID] = emit_feat_string,
	[HEADER_TOTAL_MEM] = emit_feat_total_mem,
	[HEADER_CMDLINE] = emit_feat_cmdline,
	[HEADER_EVENT_DESC] = emit_feat_event_desc,
	[HEADER_CPU_TOPOLOGY] = emit_feat_cpu_topology,
	[HEADER_NUMA_TOPOLOGY] = emit_feat_numa_topology,
	[HEADER_PMU_MAPPINGS] = emit_feat_pmu_mappings,
	[HEADER_GROUP_DESC] = emit_feat_group_desc,
	[HEADER_AUXTRACE] = emit_feat_auxtrace,
	[HEADER_CACHE] = emit_feat_cache,
	[HEADER_SAMPLE_TIME] = emit_feat_sample_time,
	[HEADER_MEM_TOPOLOGY] = emit_feat_mem_topology,
	[HEADER_CLOCKID] = emit_feat_clockid,
	[HEADER_DIR_FORMAT] = emit_feat_dir_format,
	[HEADER_BPF_PROG_INFO] = emit_feat_bpf_prog_info,
	[HEADER_BPF_BTF] = emit_feat_bpf_btf,
	[HEADER_COMPRESSED] = emit_feat_compressed,
	[HEADER_CPU_PMU_CAPS] = emit_feat_cpu_pmu_caps,
	[HEADER_CLOCK_DATA] = emit_feat_clock_data,
	[HEADER_HYBRID_TOPOLOGY] = emit_feat_hybrid_topology,
	[HEADER_PMU_CAPS] = emit_feat_pmu_caps,
	[HEADER_CPU_DOMAIN_INFO] = emit_feat_cpu_domain_info,
	[HEADER_E_MACHINE] = emit_feat_e_machine,
	[HEADER_CLN_SIZE] = emit_feat_cln_size,
};

static pd_feat_emit_fn emitter_for(unsigned id)
{
	if (id < PD_NELEMS(emitters))
		return emitters[id];
	if (id == SP_FEAT_META_INFO)
		return emit_feat_sp_meta_info;
	return NULL;
}

static const char *source_name(enum pd_feat_src src)
{
	switch (src) {
	case PD_FSRC_SECTION: return "section";
	case PD_FSRC_RECORD: return "header_feature_record";
	case PD_FSRC_LEGACY_RECORD: return "legacy_google_record";
	case PD_FSRC_TRACING_RECORD: return "header_tracing_data_record";
	case PD_FSRC_BUILDID_RECORDS: return "header_build_id_records";
	}
	return "?";
}

/*
 * The bytes of a feature: dumped when nothing decodes them, what its
 * decoder left, and all of them with -x.  A file-mode section that
 * overlaps one dumped above (a damaged or hostile feature table) only
 * says so: 256 sections over the same bytes must not dump them 256 times.
 */
static void emit_feature_bytes(struct emitter *e, const struct pd_feature *f,
			       bool decoded)
{
	const struct pd_part *p0 = f->nparts ? &f->parts[0] : NULL;
	uint64_t size = 0, loaded = 0;
	bool sect = f->src == PD_FSRC_SECTION && f->nparts == 1 && p0->bytes;
	bool again = sect && emit_dump_repeats(e, p0->offset, p0->loaded);
	bool dumped = false;

	for (size_t i = 0; i < f->nparts; i++) {
		size += f->parts[i].size;
		loaded += f->parts[i].loaded;
	}
	if (!decoded && size && loaded) {
		/* nothing decodes it (unknown or opaque): show the bytes */
		for (size_t i = 0; i < f->nparts && !again; i++)
			emit_hexdump(e, "bytes", f->parts[i].bytes,
				     (size_t)f->parts[i].loaded,
				     f->parts[i].offset);
		if (again)
			emit_hexdump_repeat(e, "bytes", (size_t)p0->loaded,
					    p0->offset);
		dumped = true;
	}
	if (f->model && f->consumed < loaded) {
		/* the decoder stopped early: show what it left */
		emit_u64(e, "unparsed_bytes", loaded - f->consumed);
		if (p0 && f->nparts == 1 && f->unparsed_off >= p0->offset) {
			uint64_t at = f->unparsed_off - p0->offset;

			if (at < p0->loaded && again)
				emit_hexdump_repeat(e, "unparsed",
						    (size_t)(p0->loaded - at),
						    f->unparsed_off);
			else if (at < p0->loaded)
				emit_hexdump(e, "unparsed", p0->bytes + at,
					     (size_t)(p0->loaded - at),
					     f->unparsed_off);
			dumped = at < p0->loaded;
		}
	}
	if ((f->model || !size) && emit_want_hex(e)) {
		for (size_t i = 0; i < f->nparts && !again; i++)
			emit_raw(e, f->parts[i].bytes,
				 (size_t)f->parts[i].loaded,
				 f->parts[i].offset);
		if (again)
			emit_hexdump_repeat(e, "raw", (size_t)p0->loaded,
					    p0->offset);
		dumped = true;
	}
	if (sect && dumped && !again)
		emit_dump_mark(e, p0->offset, p0->loaded);
}

void emit_feature(struct emitter *e, const struct pd_session *s,
		  const struct pd_feature *f)
{
	const char *name = pd_feat_name(f->id);
	const struct pd_part *p0 = f->nparts ? &f->parts[0] : NULL;
	uint64_t size = 0;
	pd_feat_emit_fn fn = emitter_for(f->id);

	for (size_t i = 0; i < f->nparts; i++)
		size += f->parts[i].size;
	char title[64];

	if (!name)
		snprintf(title, sizeof(title), "<unknown: %u>", f->id);
	else if (f->id < SP_FEAT_FILE)
		snprintf(title, sizeof(title), "HEADER_%s (%u)", name, f->id);
	else
		snprintf(title, sizeof(title), "%s (%u)", name, f->id);
	if (f->nparts > 1)
		emit_obj_begin_t(e, NULL,
				 "%s in %zu records, %" PRIu64 " bytes", title,
				 f->nparts, size);
	else
		emit_obj_begin_t(e, NULL,
				 "%s at 0x%" PRIx64 ", %" PRIu64 " bytes",
				 title, p0 ? p0->offset : 0, size);
	emit_u64(e, "id", f->id);
	if (name)
		emit_str(e, "name", name);
	else
		emit_null(e, "name");
	emit_str(e, "source", source_name(f->src));
	if (p0) {
		emit_offset(e, "offset", p0->offset);
		if (f->src != PD_FSRC_SECTION && f->nparts == 1)
			emit_offset(e, "record_offset", p0->rec_offset);
	}
	emit_size(e, "size", size);
	if (f->nparts > 1)
		emit_u64(e, "records", f->nparts);

	if (f->model && fn)
		fn(e, s, f);
	emit_feature_bytes(e, f, f->model && fn);
	emit_obj_end(e);
}

void emit_feature_list(struct emitter *e, const struct pd_session *s)
{
	emit_arr_begin(e, "features");
	for (unsigned id = 1; id < 256; id++) {
		const char *n = pd_feat_name(id);
		const struct pd_feature *f = pd_find_feature(s, id);

		if (id == HEADER_LAST_FEATURE)
			continue;
		if (!n && !f)
			continue;
		emit_row_begin(e, NULL);
		emit_u64(e, "id", id);
		if (n)
			emit_str(e, "name", n);
		else
			emit_null(e, "name");
		emit_bool(e, "present", f != NULL);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_strlist(struct emitter *e, const char *key,
		  const struct pd_strlist *l)
{
	emit_arr_begin(e, key);
	for (uint32_t i = 0; i < l->nr; i++)
		emit_pstr(e, NULL, &l->v[i]);
	emit_arr_end(e);
}

void format_iso8601_ns(char *buf, size_t len, uint64_t ns)
{
	time_t sec = (time_t)(ns / NSEC_PER_SEC);
	struct tm tm;

	if (!gmtime_r(&sec, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%09" PRIu64 "Z",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ns % NSEC_PER_SEC);
}

void format_perf_time(char *buf, size_t len, uint64_t ns)
{
	/* "123.456789": seconds, 6 digits of microseconds (hot: no printf) */
	char tmp[48];
	uint64_t usec = ns % NSEC_PER_SEC / 1000;
	size_t n = fmt_u64(tmp, ns / NSEC_PER_SEC);

	tmp[n++] = '.';
	for (int i = 5; i >= 0; i--, usec /= 10)
		tmp[n + (size_t)i] = (char)('0' + usec % 10);
	tmp[n + 6] = 0;
	fmt_copy(buf, len, tmp);
}