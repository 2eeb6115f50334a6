// SPDX-License-Identifier: MIT
/*
 * The fields of a record other than SAMPLE (model in
 * lib/format/record_model.h), written into the row the records command
 * opened.  Keys are the kernel's field
 * names (tools/lib/perf/include/perf/event.h); where one would repeat a key
 * the row already has (offset, size, type), it is prefixed with what it
 * belongs to (auxtrace_size, update_type, ...).  This file: the dispatcher
 * (a table keyed by record type) and the kernel's records 1..22; perf's
 * records are in fmt_record_user.c.
 */
#include "fmt/fmt_record_int.h"

#include <stdio.h>

/* bytes of an undecoded body shown on the row (all of them: -x) */
#define HEAD_BYTES 32

/* ---- name tables (include/uapi/linux/perf_event.h, uapi mman.h) ------- */

/* AUX flags (PERF_AUX_FLAG_*): bits 0..3; bits 8..15 are the PMU format */
static const char *const aux_flag_names[] = {
	"TRUNCATED",
	"OVERWRITE",
	"PARTIAL",
	"COLLISION",
};

static const char *const prot_names[] = {"PROT_READ", "PROT_WRITE",
					 "PROT_EXEC"};

/*
 * MMAP2 flags as the kernel sets them (perf_event_mmap_event): MAP_SHARED
 * or MAP_PRIVATE, MAP_LOCKED, MAP_HUGETLB, and before 5.15 MAP_DENYWRITE,
 * MAP_EXECUTABLE.  asm-generic / x86 values; a few architectures (alpha,
 * mips, parisc, powerpc, sparc) number MAP_LOCKED differently.
 */
static const char *const map_flag_names[] = {
	[0] = "MAP_SHARED",	 [1] = "MAP_PRIVATE",	[4] = "MAP_FIXED",
	[5] = "MAP_ANONYMOUS",	 [8] = "MAP_GROWSDOWN", [11] = "MAP_DENYWRITE",
	[12] = "MAP_EXECUTABLE", [13] = "MAP_LOCKED",	[14] = "MAP_NORESERVE",
	[15] = "MAP_POPULATE",	 [16] = "MAP_NONBLOCK", [17] = "MAP_STACK",
	[18] = "MAP_HUGETLB",	 [19] = "MAP_SYNC",
};

/* enum perf_record_ksymbol_type */
static const char *const ksym_type_names[] = {"UNKNOWN", "BPF", "OOL"};
static const char *const ksym_flag_names[] = {"UNREGISTER"};

/* enum perf_bpf_event_type */
static const char *const bpf_event_type_names[] = {"UNKNOWN", "PROG_LOAD",
						   "PROG_UNLOAD"};

/* NAMESPACES link_info index (NET_NS_INDEX ...) */
static const char *const ns_names[] = {"net",  "uts", "ipc",   "pid",
				       "user", "mnt", "cgroup"};

/* ---- kernel records ---------------------------------------------------- */

static void emit_pid_tid(struct emitter *e, uint32_t pid, uint32_t tid)
{
	/* -1 for the kernel's own maps, shown signed as perf does */
	emit_s64(e, "pid", (int32_t)pid);
	emit_s64(e, "tid", (int32_t)tid);
}

/* MMAP2's inode or build-id, prot and flags */
static void fmt_mmap2_fields(struct emitter *e, const struct pd_rec_mmap *m)
{
	if (m->has_build_id) {
		emit_u64(e, "build_id_size", m->build_id_size);
		if (m->build_id)
			emit_hexstr(e, "build_id", m->build_id,
				    m->build_id_size <= PD_BUILD_ID_MAX
					    ? m->build_id_size
					    : PD_BUILD_ID_MAX);
	} else {
		emit_u64(e, "maj", m->maj);
		emit_u64(e, "min", m->min);
		emit_u64(e, "ino", m->ino);
		emit_u64(e, "ino_generation", m->ino_generation);
	}
	if (m->no_prot_flags) {
		emit_str(e, "layout", "no prot and flags (first MMAP2 layout)");
		return;
	}
	emit_flags(e, "prot", m->prot, prot_names, PD_NELEMS(prot_names));
	emit_flags(e, "flags", m->flags, map_flag_names,
		   PD_NELEMS(map_flag_names));
	/* perf's "r-xp" */
	emit_strf(e, "perms", "%c%c%c%c", m->prot & 1 ? 'r' : '-',
		  m->prot & 2 ? 'w' : '-', m->prot & 4 ? 'x' : '-',
		  m->flags & 1 ? 's' : 'p');
}

/* MMAP and MMAP2 */
static void fmt_mmap(const struct fmt_rec *x)
{
	const struct pd_rec_mmap *m = &x->r->u.mmap;
	struct emitter *e = x->e;

	emit_pid_tid(e, m->pid, m->tid);
	emit_hex(e, "addr", m->addr);
	emit_hex(e, "len", m->len);
	emit_hex(e, "pgoff", m->pgoff);
	if (m->is_mmap2)
		fmt_mmap2_fields(e, m);
	emit_private_pstr(e, "filename", PRIV_PATH, &m->filename);
}

static void fmt_lost(const struct fmt_rec *x)
{
	emit_hex(x->e, "id", x->r->u.lost.id);
	emit_u64(x->e, "lost", x->r->u.lost.lost);
}

static void fmt_comm(const struct fmt_rec *x)
{
	emit_pid_tid(x->e, x->r->u.comm.pid, x->r->u.comm.tid);
	emit_private_pstr(x->e, "comm", PRIV_COMM, &x->r->u.comm.comm);
}

/* EXIT and FORK */
static void fmt_task(const struct fmt_rec *x)
{
	const struct pd_rec_task *m = &x->r->u.task;
	struct emitter *e = x->e;

	emit_s64(e, "pid", (int32_t)m->pid);
	emit_s64(e, "ppid", (int32_t)m->ppid);
	emit_s64(e, "tid", (int32_t)m->tid);
	emit_s64(e, "ptid", (int32_t)m->ptid);
	emit_u64(e, "time", m->time);
}

/* THROTTLE and UNTHROTTLE */
static void fmt_throttle(const struct fmt_rec *x)
{
	const struct pd_rec_throttle *m = &x->r->u.throttle;

	emit_u64(x->e, "time", m->time);
	emit_hex(x->e, "id", m->id);
	emit_hex(x->e, "stream_id", m->stream_id);
}

/* READ's values as the attr's read_format lays them out */
static void fmt_read_values(struct emitter *e, const struct pd_rec_read *m)
{
	if (!(m->read_format & PD_FORMAT_GROUP)) {
		if (m->nvalues && (m->read_format & PD_FORMAT_ID))
			emit_hex(e, "id", m->values[0].id);
		if (m->nvalues && (m->read_format & PD_FORMAT_LOST))
			emit_u64(e, "lost", m->values[0].lost);
		return;
	}
	emit_arr_begin(e, "values");
	for (uint32_t i = 0; i < m->nvalues; i++) {
		emit_row_begin(e, NULL);
		emit_u64(e, "value", m->values[i].value);
		if (m->read_format & PD_FORMAT_ID)
			emit_hex(e, "id", m->values[i].id);
		if (m->read_format & PD_FORMAT_LOST)
			emit_u64(e, "lost", m->values[i].lost);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

static void fmt_read(const struct fmt_rec *x)
{
	const struct pd_rec_read *m = &x->r->u.read;
	struct emitter *e = x->e;

	emit_pid_tid(e, m->pid, m->tid);
	if (!m->has_format) {
		/* no attr for it: the u64 words as they are */
		emit_arr_begin(e, "words");
		for (uint32_t i = 0; i < m->nraw; i++)
			emit_u64(e, NULL, m->raw[i]);
		emit_arr_end(e);
		return;
	}
	if (m->read_format & PD_FORMAT_GROUP)
		emit_u64(e, "nr", m->nr);
	else if (m->nvalues)
		emit_u64(e, "value", m->values[0].value);
	if (m->read_format & PD_FORMAT_TOTAL_TIME_ENABLED)
		emit_u64(e, "time_enabled", m->time_enabled);
	if (m->read_format & PD_FORMAT_TOTAL_TIME_RUNNING)
		emit_u64(e, "time_running", m->time_running);
	fmt_read_values(e, m);
}

static void fmt_aux(const struct fmt_rec *x)
{
	const struct pd_rec_aux *m = &x->r->u.aux;
	struct emitter *e = x->e;

	emit_hex(e, "aux_offset", m->aux_offset);
	emit_hex(e, "aux_size", m->aux_size);
	emit_flags(e, "flags", m->flags, aux_flag_names,
		   PD_NELEMS(aux_flag_names));
	/* PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK (CoreSight: 0 or 1 raw) */
	emit_u64(e, "pmu_format",
		 (m->flags & PD_AUX_FLAG_PMU_FORMAT_TYPE_MASK) >> 8);
}

static void fmt_itrace_start(const struct fmt_rec *x)
{
	emit_pid_tid(x->e, x->r->u.pid_tid.pid, x->r->u.pid_tid.tid);
}

static void fmt_switch_cpu_wide(const struct fmt_rec *x)
{
	emit_s64(x->e, "next_prev_pid", (int32_t)x->r->u.pid_tid.pid);
	emit_s64(x->e, "next_prev_tid", (int32_t)x->r->u.pid_tid.tid);
}

static void fmt_lost_samples(const struct fmt_rec *x)
{
	emit_u64(x->e, "lost", x->r->u.lost_samples.lost);
}

static void fmt_namespaces(const struct fmt_rec *x)
{
	const struct pd_rec_namespaces *m = &x->r->u.ns;
	struct emitter *e = x->e;

	emit_pid_tid(e, m->pid, m->tid);
	emit_u64(e, "nr_namespaces", m->nr);
	emit_arr_begin(e, "link_info");
	for (uint32_t i = 0; i < m->nread; i++) {
		const char *name = rec_name(ns_names, PD_NELEMS(ns_names), i);

		emit_row_begin(e, NULL);
		if (name)
			emit_str(e, "name", name);
		else
			emit_null(e, "name");
		emit_hex(e, "dev", m->v[i].dev);
		emit_hex(e, "ino", m->v[i].ino);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

static void fmt_ksymbol(const struct fmt_rec *x)
{
	const struct pd_rec_ksymbol *m = &x->r->u.ksymbol;
	struct emitter *e = x->e;

	emit_hex(e, "addr", m->addr);
	emit_u64(e, "len", m->len);
	emit_enum(e, "ksym_type", m->ksym_type,
		  rec_name(ksym_type_names, PD_NELEMS(ksym_type_names),
			   m->ksym_type));
	emit_flags(e, "flags", m->flags, ksym_flag_names,
		   PD_NELEMS(ksym_flag_names));
	emit_pstr(e, "name", &m->name);
}

static void fmt_bpf_event(const struct fmt_rec *x)
{
	const struct pd_rec_bpf_event *m = &x->r->u.bpf;
	struct emitter *e = x->e;

	emit_enum(e, "bpf_event_type", m->type,
		  rec_name(bpf_event_type_names,
			   PD_NELEMS(bpf_event_type_names), m->type));
	emit_hex(e, "flags", m->flags);
	emit_u64(e, "id", m->id);
	if (m->tag)
		emit_hexstr(e, "tag", m->tag, PD_BPF_TAG_SIZE);
}

static void fmt_cgroup(const struct fmt_rec *x)
{
	emit_hex(x->e, "id", x->r->u.cgroup.id);
	emit_private_pstr(x->e, "path", PRIV_CGROUP, &x->r->u.cgroup.path);
}

static void fmt_text_poke(const struct fmt_rec *x)
{
	const struct pd_rec_text_poke *m = &x->r->u.text_poke;
	struct emitter *e = x->e;

	emit_hex(e, "addr", m->addr);
	emit_u64(e, "old_len", m->old_len);
	emit_u64(e, "new_len", m->new_len);
	if (m->old_bytes)
		emit_hexstr(e, "old_bytes", m->old_bytes, m->old_len);
	if (m->new_bytes)
		emit_hexstr(e, "new_bytes", m->new_bytes, m->new_len);
}

static void fmt_hw_id(const struct fmt_rec *x)
{
	emit_hex(x->e, "hw_id", x->r->u.hw_id.hw_id);
}

static void fmt_callchain_deferred(const struct fmt_rec *x)
{
	const struct pd_rec_callchain_deferred *m = &x->r->u.deferred;
	struct emitter *e = x->e;

	emit_hex(e, "cookie", m->cookie);
	emit_u64(e, "nr", m->nr);
	emit_arr_begin(e, "ips");
	for (uint32_t i = 0; i < m->nips; i++)
		emit_hex(e, NULL, m->ips[i]);
	emit_arr_end(e);
}

/* ---- the dispatcher ---------------------------------------------------- */

/*
 * The formatter of each type whose body is decoded field by field, keyed
 * by the type as the registry (lib/format/record_types.c) is.
 */
static const fmt_rec_fn fmt_types[PD_REC_HEADER_MAX] = {
	[PD_REC_MMAP] = fmt_mmap,
	[PD_REC_LOST] = fmt_lost,
	[PD_REC_COMM] = fmt_comm,
	[PD_REC_EXIT] = fmt_task,
	[PD_REC_THROTTLE] = fmt_throttle,
	[PD_REC_UNTHROTTLE] = fmt_throttle,
	[PD_REC_FORK] = fmt_task,
	[PD_REC_READ] = fmt_read,
	[PD_REC_MMAP2] = fmt_mmap,
	[PD_REC_AUX] = fmt_aux,
	[PD_REC_ITRACE_START] = fmt_itrace_start,
	[PD_REC_LOST_SAMPLES] = fmt_lost_samples,
	[PD_REC_SWITCH_CPU_WIDE] = fmt_switch_cpu_wide,
	[PD_REC_NAMESPACES] = fmt_namespaces,
	[PD_REC_KSYMBOL] = fmt_ksymbol,
	[PD_REC_BPF_EVENT] = fmt_bpf_event,
	[PD_REC_CGROUP] = fmt_cgroup,
	[PD_REC_TEXT_POKE] = fmt_text_poke,
	[PD_REC_AUX_OUTPUT_HW_ID] = fmt_hw_id,
	[PD_REC_CALLCHAIN_DEFERRED] = fmt_callchain_deferred,

	[PD_REC_HEADER_ATTR] = fmt_header_attr,
	[PD_REC_HEADER_EVENT_TYPE] = fmt_event_type,
	[PD_REC_HEADER_TRACING_DATA] = fmt_tracing_data,
	[PD_REC_HEADER_BUILD_ID] = fmt_build_id,
	[PD_REC_ID_INDEX] = fmt_id_index,
	[PD_REC_AUXTRACE_INFO] = fmt_auxtrace_info,
	[PD_REC_AUXTRACE] = fmt_auxtrace,
	[PD_REC_AUXTRACE_ERROR] = fmt_auxtrace_error,
	[PD_REC_THREAD_MAP] = fmt_thread_map,
	[PD_REC_CPU_MAP] = fmt_cpu_map_rec,
	[PD_REC_STAT_CONFIG] = fmt_stat_config,
	[PD_REC_STAT] = fmt_stat,
	[PD_REC_STAT_ROUND] = fmt_stat_round,
	[PD_REC_EVENT_UPDATE] = fmt_event_update,
	[PD_REC_TIME_CONV] = fmt_time_conv,
	[PD_REC_HEADER_FEATURE] = fmt_header_feature,
	[PD_REC_COMPRESSED] = fmt_compressed,
	[PD_REC_COMPRESSED2] = fmt_compressed,
	[PD_REC_BPF_METADATA] = fmt_bpf_metadata,
	[PD_REC_SCHEDSTAT_CPU] = fmt_schedstat,
	[PD_REC_SCHEDSTAT_DOMAIN] = fmt_schedstat,
};

void emit_record(struct emitter *e, const struct pd_session *s,
		 const struct pd_event *ev, const struct pd_record *r)
{
	const struct fmt_rec x = {.e = e, .s = s, .r = r};

	(void)ev;
	switch (r->kind) {
	case PD_RK_NONE: break;
	case PD_RK_RAW:
		/*
		 * simpleperf's records and unknown types: the size and the
		 * first bytes on the row; all of them with -x (raw)
		 */
		emit_u64(e, "data_size", r->u.raw.n);
		emit_hexbytes(e, "data_head", r->u.raw.p,
			      r->u.raw.n < HEAD_BYTES ? r->u.raw.n
						      : HEAD_BYTES);
		break;
	case PD_RK_FIELDS:
		/* a legacy feature record is a feature, whatever its type */
		if (r->legacy_feature)
			fmt_header_feature(&x);
		else if (r->type < PD_NELEMS(fmt_types) && fmt_types[r->type])
			fmt_types[r->type](&x);
		break;
	}
	if (r->too_small)
		emit_u64(e, "min_size", r->min_size);
	if (r->ntail) {
		emit_u64(e, "unparsed_size", r->ntail);
		emit_offset(e, "unparsed_offset", r->tail_offset);
		emit_hexbytes(e, "unparsed_head", r->tail,
			      r->ntail < HEAD_BYTES ? r->ntail : HEAD_BYTES);
	}
}
