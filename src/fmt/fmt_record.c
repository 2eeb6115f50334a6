// SPDX-License-Identifier: MIT
/*
 * The fields of a record other than SAMPLE (model in lib/record.h), written
 * into the row the records command opened.  Keys are the kernel's field
 * names (tools/lib/perf/include/perf/event.h); where one would repeat a key
 * the row already has (offset, size, type), it is prefixed with what it
 * belongs to (auxtrace_size, update_type, ...).  This file: the dispatcher
 * and the kernel's records 1..22; perf's records are in fmt_record_user.c.
 */
#include "fmt_record_int.h"

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

static void emit_mmap(struct emitter *e, const struct pd_rec_mmap *m)
{
	emit_pid_tid(e, m->pid, m->tid);
	emit_hex(e, "addr", m->addr);
	emit_hex(e, "len", m->len);
	emit_hex(e, "pgoff", m->pgoff);
	if (m->is_mmap2) {
		if (m->has_build_id) {
			emit_u64(e, "build_id_size", m->build_id_size);
			if (m->build_id)
				emit_hexstr(e, "build_id", m->build_id,
					    m->build_id_size <= 20
						    ? m->build_id_size
						    : 20);
		} else {
			emit_u64(e, "maj", m->maj);
			emit_u64(e, "min", m->min);
			emit_u64(e, "ino", m->ino);
			emit_u64(e, "ino_generation", m->ino_generation);
		}
		if (m->no_prot_flags) {
			emit_str(e, "layout",
				 "no prot and flags (first MMAP2 layout)");
			emit_pstr(e, "filename", &m->filename);
			return;
		}
		emit_flags(e, "prot", m->prot, prot_names,
			   REC_NELEMS(prot_names));
		emit_flags(e, "flags", m->flags, map_flag_names,
			   REC_NELEMS(map_flag_names));
		/* perf's "r-xp" */
		emit_strf(e, "perms", "%c%c%c%c", m->prot & 1 ? 'r' : '-',
			  m->prot & 2 ? 'w' : '-', m->prot & 4 ? 'x' : '-',
			  m->flags & 1 ? 's' : 'p');
	}
	emit_pstr(e, "filename", &m->filename);
}

static void emit_read(struct emitter *e, const struct pd_rec_read *m)
{
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

static void emit_namespaces(struct emitter *e,
			    const struct pd_rec_namespaces *m)
{
	emit_pid_tid(e, m->pid, m->tid);
	emit_u64(e, "nr_namespaces", m->nr);
	emit_arr_begin(e, "link_info");
	for (uint32_t i = 0; i < m->nread; i++) {
		const char *name = rec_name(ns_names, REC_NELEMS(ns_names), i);

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

static void emit_kernel(struct emitter *e, const struct pd_record *r)
{
	switch (r->type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2: emit_mmap(e, &r->u.mmap); break;
	case PD_REC_LOST:
		emit_hex(e, "id", r->u.lost.id);
		emit_u64(e, "lost", r->u.lost.lost);
		break;
	case PD_REC_COMM:
		emit_pid_tid(e, r->u.comm.pid, r->u.comm.tid);
		emit_pstr(e, "comm", &r->u.comm.comm);
		break;
	case PD_REC_EXIT:
	case PD_REC_FORK:
		emit_s64(e, "pid", (int32_t)r->u.task.pid);
		emit_s64(e, "ppid", (int32_t)r->u.task.ppid);
		emit_s64(e, "tid", (int32_t)r->u.task.tid);
		emit_s64(e, "ptid", (int32_t)r->u.task.ptid);
		emit_u64(e, "time", r->u.task.time);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		emit_u64(e, "time", r->u.throttle.time);
		emit_hex(e, "id", r->u.throttle.id);
		emit_hex(e, "stream_id", r->u.throttle.stream_id);
		break;
	case PD_REC_READ: emit_read(e, &r->u.read); break;
	case PD_REC_AUX:
		emit_hex(e, "aux_offset", r->u.aux.aux_offset);
		emit_hex(e, "aux_size", r->u.aux.aux_size);
		emit_flags(e, "flags", r->u.aux.flags, aux_flag_names,
			   REC_NELEMS(aux_flag_names));
		/* PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK (CoreSight: 0 or 1 raw) */
		emit_u64(e, "pmu_format", r->u.aux.flags >> 8 & 0xff);
		break;
	case PD_REC_ITRACE_START:
		emit_pid_tid(e, r->u.pid_tid.pid, r->u.pid_tid.tid);
		break;
	case PD_REC_SWITCH_CPU_WIDE:
		emit_s64(e, "next_prev_pid", (int32_t)r->u.pid_tid.pid);
		emit_s64(e, "next_prev_tid", (int32_t)r->u.pid_tid.tid);
		break;
	case PD_REC_LOST_SAMPLES:
		emit_u64(e, "lost", r->u.lost_samples.lost);
		break;
	case PD_REC_NAMESPACES: emit_namespaces(e, &r->u.ns); break;
	case PD_REC_KSYMBOL:
		emit_hex(e, "addr", r->u.ksymbol.addr);
		emit_u64(e, "len", r->u.ksymbol.len);
		emit_enum(e, "ksym_type", r->u.ksymbol.ksym_type,
			  rec_name(ksym_type_names, REC_NELEMS(ksym_type_names),
				   r->u.ksymbol.ksym_type));
		emit_flags(e, "flags", r->u.ksymbol.flags, ksym_flag_names,
			   REC_NELEMS(ksym_flag_names));
		emit_pstr(e, "name", &r->u.ksymbol.name);
		break;
	case PD_REC_BPF_EVENT:
		emit_enum(e, "bpf_event_type", r->u.bpf.type,
			  rec_name(bpf_event_type_names,
				   REC_NELEMS(bpf_event_type_names),
				   r->u.bpf.type));
		emit_hex(e, "flags", r->u.bpf.flags);
		emit_u64(e, "id", r->u.bpf.id);
		if (r->u.bpf.tag)
			emit_hexstr(e, "tag", r->u.bpf.tag,
				    PD_BPF_EVENT_TAG_SIZE);
		break;
	case PD_REC_CGROUP:
		emit_hex(e, "id", r->u.cgroup.id);
		emit_pstr(e, "path", &r->u.cgroup.path);
		break;
	case PD_REC_TEXT_POKE:
		emit_hex(e, "addr", r->u.text_poke.addr);
		emit_u64(e, "old_len", r->u.text_poke.old_len);
		emit_u64(e, "new_len", r->u.text_poke.new_len);
		if (r->u.text_poke.old_bytes)
			emit_hexstr(e, "old_bytes", r->u.text_poke.old_bytes,
				    r->u.text_poke.old_len);
		if (r->u.text_poke.new_bytes)
			emit_hexstr(e, "new_bytes", r->u.text_poke.new_bytes,
				    r->u.text_poke.new_len);
		break;
	case PD_REC_AUX_OUTPUT_HW_ID:
		emit_hex(e, "hw_id", r->u.hw_id.hw_id);
		break;
	case PD_REC_CALLCHAIN_DEFERRED:
		emit_hex(e, "cookie", r->u.deferred.cookie);
		emit_u64(e, "nr", r->u.deferred.nr);
		emit_arr_begin(e, "ips");
		for (uint32_t i = 0; i < r->u.deferred.nips; i++)
			emit_hex(e, NULL, r->u.deferred.ips[i]);
		emit_arr_end(e);
		break;
	default: break;
	}
}

void emit_record(struct emitter *e, const struct pd_session *s,
		 const struct pd_event *ev, const struct pd_record *r)
{
	switch (r->kind) {
	case PD_RK_NONE: break;
	case PD_RK_RAW:
		/*
		 * simpleperf's records and unknown types: the size and the
		 * first bytes on the row; all of them with -x (raw)
		 */
		emit_u64(e, "data_size", r->u.raw.n);
		emit_hexstr(e, "data_head", r->u.raw.p,
			    r->u.raw.n < HEAD_BYTES ? r->u.raw.n : HEAD_BYTES);
		break;
	case PD_RK_FIELDS:
		if (r->type < 64 && !r->legacy_feature)
			emit_kernel(e, r);
		else
			emit_record_user(e, s, ev, r);
		break;
	}
	if (r->too_small)
		emit_u64(e, "min_size", r->min_size);
	if (r->ntail) {
		emit_u64(e, "unparsed_size", r->ntail);
		emit_offset(e, "unparsed_offset", r->tail_offset);
		emit_hexstr(e, "unparsed_head", r->tail,
			    r->ntail < HEAD_BYTES ? r->ntail : HEAD_BYTES);
	}
}
