// SPDX-License-Identifier: MIT
/*
 * Formatters for BPF_PROG_INFO and BPF_BTF (models in lib/format/feat_meta.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fmt/fmt_features.h"
#include "lib/base/util.h"

/* include/uapi/linux/bpf.h enum bpf_prog_type, without BPF_PROG_TYPE_ */
static const char *prog_type_name(uint64_t type)
{
	static const char *const names[] = {
		"unspec",
		"socket_filter",
		"kprobe",
		"sched_cls",
		"sched_act",
		"tracepoint",
		"xdp",
		"perf_event",
		"cgroup_skb",
		"cgroup_sock",
		"lwt_in",
		"lwt_out",
		"lwt_xmit",
		"sock_ops",
		"sk_skb",
		"cgroup_device",
		"sk_msg",
		"raw_tracepoint",
		"cgroup_sock_addr",
		"lwt_seg6local",
		"lirc_mode2",
		"sk_reuseport",
		"flow_dissector",
		"cgroup_sysctl",
		"raw_tracepoint_writable",
		"cgroup_sockopt",
		"tracing",
		"struct_ops",
		"ext",
		"lsm",
		"sk_lookup",
		"syscall",
		"netfilter",
	};

	return type < PD_NELEMS(names) ? names[type] : NULL;
}

/* tools/perf/util/bpf-utils.h enum perf_bpil_array_types */
static const char *const bpil_names[] = {
	"JITED_INSNS", "XLATED_INSNS",	  "MAP_IDS",
	"JITED_KSYMS", "JITED_FUNC_LENS", "FUNC_INFO",
	"LINE_INFO",   "JITED_LINE_INFO", "PROG_TAGS",
};

static void emit_info_fields(struct emitter *e, const struct pd_bpf_prog *p)
{
	for (size_t i = 0; i < pd_bpf_nfields; i++) {
		const struct pd_bpf_field *fd = &pd_bpf_fields[i];

		if (!(p->have >> i & 1))
			continue;
		switch (fd->kind) {
		case PD_BPF_PROG_TYPE:
			emit_enum(e, fd->name, p->val[i],
				  prog_type_name(p->val[i]));
			break;
		case PD_BPF_TAG:
			emit_hexstr(e, fd->name, p->tag, PD_BPF_TAG_SIZE);
			break;
		case PD_BPF_NAME: emit_pstr(e, fd->name, &p->name); break;
		case PD_BPF_GPL:
			emit_bool(e, fd->name, p->gpl_compatible);
			break;
		case PD_BPF_HEX: emit_hex(e, fd->name, p->val[i]); break;
		default: emit_u64(e, fd->name, p->val[i]); break;
		}
	}
}

static bool info_u32(const struct pd_bpf_prog *p, const char *name, uint64_t *v)
{
	for (size_t i = 0; i < pd_bpf_nfields; i++)
		if (p->have >> i & 1 &&
		    strcmp(pd_bpf_fields[i].name, name) == 0) {
			*v = p->val[i];
			return true;
		}
	return false;
}

/*
 * The symbol perf gives a sub-program (bpf-event.c
 * synthesize_bpf_prog_name) when the program has no BTF: bpf_prog_<tag>
 * then _<name> for a lone program with a name, else _F.  With BTF perf
 * uses the BTF function name, which is not decoded here.
 */
static void emit_ksym(struct emitter *e, const struct pd_bpf_prog *p,
		      const struct pd_bpf_subprog *sp)
{
	uint64_t btf_id = 0;
	char buf[96];
	int n;

	if (info_u32(p, "btf_id", &btf_id) && btf_id) {
		emit_null(e, "ksym");
		return;
	}
	n = snprintf(buf, sizeof(buf), "bpf_prog_");
	for (int i = 0; i < PD_BPF_TAG_SIZE; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%02x",
			      sp->tag[i]);
	if (p->nsub == 1 && p->name.len)
		snprintf(buf + n, sizeof(buf) - (size_t)n, "_%.*s",
			 (int)p->name.len, p->name.s);
	else
		snprintf(buf + n, sizeof(buf) - (size_t)n, "_F");
	emit_str(e, "ksym", buf);
}

static void emit_subprogs(struct emitter *e, const struct pd_bpf_prog *p)
{
	emit_arr_begin(e, "sub_progs");
	for (uint32_t i = 0; i < p->nsub; i++) {
		const struct pd_bpf_subprog *sp = &p->sub[i];

		emit_row_begin(e, NULL);
		emit_hex(e, "addr", sp->addr);
		emit_u64(e, "size", sp->len);
		emit_hexstr(e, "tag", sp->tag, PD_BPF_TAG_SIZE);
		emit_ksym(e, p, sp);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_feat_bpf_prog_info(struct emitter *e, const struct pd_session *s,
			     const struct pd_feature *f)
{
	const struct feat_bpf_prog_info *m = f->model;

	(void)s;
	emit_u64(e, "count", m->count);
	emit_arr_begin(e, "programs");
	for (uint32_t i = 0; i < m->nr_read; i++) {
		const struct pd_bpf_prog *p = &m->v[i];

		emit_obj_begin_t(e, NULL, "program %u", i);
		emit_offset(e, "offset", p->offset);
		emit_u64(e, "info_len", p->info_len);
		emit_u64(e, "data_len", p->data_len);
		emit_flags(e, "arrays", p->arrays, bpil_names,
			   PD_NELEMS(bpil_names));
		emit_info_fields(e, p);
		emit_subprogs(e, p);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

void emit_feat_bpf_btf(struct emitter *e, const struct pd_session *s,
		       const struct pd_feature *f)
{
	const struct feat_bpf_btf *m = f->model;

	(void)s;
	emit_u64(e, "count", m->count);
	emit_arr_begin(e, "btfs");
	for (uint32_t i = 0; i < m->nr_read; i++) {
		const struct pd_bpf_btf *b = &m->v[i];

		emit_row_begin(e, NULL);
		emit_u64(e, "id", b->id);
		emit_u64(e, "data_size", b->data_size);
		emit_offset(e, "offset", b->offset);
		emit_raw(e, b->data, b->data_size, b->offset);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}
