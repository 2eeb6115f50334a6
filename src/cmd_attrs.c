// SPDX-License-Identifier: MIT
/* perfdump attrs: every perf_event_attr, decoded, with names and ids. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/evlist.h"
#include "lib/features.h"
#include "lib/reader.h"
#include "fmt/fmt_attr.h"
#include "lib/record.h"
#include "lib/torn.h"
#include "perfdump.h"

const struct cmd cmd_attrs_def = {
	.name = "attrs",
	.fn = cmd_attrs,
	.summary = "every perf_event_attr, decoded, with names and ids",
	.help = "Usage: perfdump attrs [-j|-p] [-x] [FILE]\n"
		"\n"
		"Show every perf_event_attr of the recording (the attrs "
		"section, or the\n"
		"HEADER_ATTR records in pipe mode), one block per event: its "
		"name\n"
		"(EVENT_DESC or EVENT_UPDATE), the PMU name of its type "
		"(PMU_MAPPINGS\n"
		"for dynamic PMUs), and every field its attr.size covers, up "
		"to config4\n"
		"(VER9, pending).  Fields beyond attr.size are not shown; "
		"bytes beyond\n"
		"the newest layout known are hex-dumped.\n"
		"\n"
		"Decoded: the attr flag bits, sample_type, read_format,\n"
		"branch_sample_type and aux_action by name (unknown bits as "
		"'bit N');\n"
		"precise_ip with its meaning and perf's ':ppp' modifier; "
		"HARDWARE,\n"
		"HW_CACHE and SOFTWARE configs as perf names them (cycles,\n"
		"L1-dcache-load-misses, cpu-clock, ...) with the hybrid PMU of "
		"config\n"
		"bits 32-63; tracepoint configs as system:event from "
		"TRACING_DATA;\n"
		"breakpoints (bp_type, bp_addr, bp_len); sample_freq or "
		"sample_period;\n"
		"wakeup_events or wakeup_watermark; clockid when use_clockid "
		"is set.\n"
		"Then the event's ids and, when the recording has ID_INDEX "
		"records,\n"
		"each id's idx, cpu and tid.\n"
		"\n"
		"Options:\n"
		"  -j, --json      write JSON\n"
		"  -p, --pretty    write indented JSON\n"
		"  -x, --hex       add a hex dump of each attr's bytes\n"
		"  -h, --help      show this help\n",
};

/* ID_INDEX entries kept at most (32 bytes each, 8 MiB). */
#define ID_INDEX_MAX (1u << 18)
/* Records looked at for ID_INDEX before the first kernel record. */
#define SCAN_MAX 100000

/* PERF_RECORD_* user types (tools/lib/perf/include/perf/event.h) */
enum {
	REC_HEADER_ATTR = 64,
	REC_HEADER_EVENT_TYPE = 65,
	REC_HEADER_TRACING_DATA = 66,
	REC_HEADER_BUILD_ID = 67,
	REC_FINISHED_ROUND = 68,
	REC_ID_INDEX = 69,
	REC_EVENT_UPDATE = 78,
	REC_TIME_CONV = 79,
	REC_HEADER_FEATURE = 80,
};

static int cmp_entry(const void *a, const void *b)
{
	const struct pd_id_index_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Keep the entries of an ID_INDEX (69) record, decoded by pd_parse_record
 * (record_user.c), with their file offsets.
 */
static void parse_id_index(struct pd_session *s, const struct pd_event *ev,
			   struct pd_id_index *ix, size_t *cap,
			   struct arena *scratch)
{
	struct pd_record rec;
	const struct pd_rec_id_index *m = &rec.u.id_index;

	ix->present = true;
	ix->nrecords++;
	arena_reset(scratch);
	pd_parse_record(s, ev, 0, scratch, &rec);
	for (uint32_t i = 0; i < m->nread; i++) {
		struct pd_id_index_entry *x;

		if (ix->n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;

			if (ix->n >= ID_INDEX_MAX) {
				pd_diag_add(&s->diags, PD_C_UNUSUAL,
					    PD_AT_RECORD(PD_REC_ID_INDEX),
					    PD_WARN, ev->offset,
					    "PERF_RECORD_ID_INDEX",
					    "more than %u entries; the rest "
					    "are not shown",
					    ID_INDEX_MAX);
				return;
			}
			x = realloc(ix->v, ncap * sizeof(*x));
			if (!x)
				return;
			ix->v = x;
			*cap = ncap;
		}
		x = &ix->v[ix->n++];
		x->id = m->v[i].id;
		x->idx = m->v[i].idx;
		x->cpu = m->v[i].cpu;
		x->tid = m->v[i].tid;
		x->offset = ev->compressed ? ev->offset
					   : ev->offset + 16 + 32ULL * i;
		x->has_guest = m->has_guest;
		x->machine_pid = m->has_guest ? m->v[i].machine_pid : 0;
		x->vcpu = m->has_guest ? m->v[i].vcpu : 0;
	}
}

/*
 * The records perf synthesizes before ID_INDEX (builtin-record.c
 * record__synthesize: the pipe-mode metadata, TIME_CONV, then "id_index
 * before auxtrace_info").  HEADER_TRACING_DATA only in pipe mode:
 * simpleperf writes its own form of it into file-mode data sections.
 */
static bool before_id_index(const struct pd_session *s, uint32_t type)
{
	switch (type) {
	case REC_HEADER_ATTR:
	case REC_HEADER_EVENT_TYPE:
	case REC_HEADER_BUILD_ID:
	case REC_FINISHED_ROUND:
	case REC_ID_INDEX:
	case REC_EVENT_UPDATE:
	case REC_TIME_CONV:
	case REC_HEADER_FEATURE: return true;
	case REC_HEADER_TRACING_DATA: return s->mode == PD_MODE_PIPE;
	}
	return false;
}

/*
 * ID_INDEX records come before the first kernel record and before
 * FINISHED_INIT, so the walk stops at the first record that does not
 * precede them: bounded, whatever the size of the recording.
 */
static void load_id_index(struct pd_session *s, struct pd_id_index *ix)
{
	struct pd_reader *r;
	struct pd_event ev;
	struct arena scratch = {0};
	size_t cap = 0;

	/* the pre-upstream Google pipe format uses 69 for a feature */
	if (s->mode == PD_MODE_PIPE && s->pipe.legacy_google)
		return;
	r = pd_reader_open(s, 0);
	if (!r)
		return;
	for (unsigned n = 0; n < SCAN_MAX && pd_reader_next(r, &ev) > 0; n++) {
		if (!before_id_index(s, ev.type))
			break;
		if (ev.type == REC_ID_INDEX)
			parse_id_index(s, &ev, ix, &cap, &scratch);
	}
	pd_reader_close(r);
	arena_free(&scratch);
	if (ix->n)
		qsort(ix->v, ix->n, sizeof(*ix->v), cmp_entry);
}

/*
 * ID_INDEX ids that no attr has.  (idx is the id's index in its event's
 * cpu/thread map, evlist.c perf_evlist__set_sid_idx, not the attr's.)
 */
static void check_id_index(struct pd_session *s, const struct pd_id_index *ix)
{
	for (size_t i = 0; i < ix->n; i++)
		if (!pd_evlist_find(s, ix->v[i].id))
			pd_diag_add(&s->diags, PD_C_UNKNOWN_SAMPLE_ID,
				    PD_AT_RECORD(PD_REC_ID_INDEX), PD_WARN,
				    ix->v[i].offset, "PERF_RECORD_ID_INDEX",
				    "id 0x%llx belongs to no attr",
				    (unsigned long long)ix->v[i].id);
}

/*
 * The attr's bytes for -x: pipe mode keeps the HEADER_ATTR records; in
 * file mode they are read again (attr.size bytes at most, u32-bounded by
 * the evlist's own read).
 */
static const uint8_t *attr_bytes(struct pd_session *s,
				 const struct pd_evsel *ev, size_t *len)
{
	const struct pd_attr *a = &ev->attr;
	uint8_t *b;
	ssize_t got;

	*len = 0;
	if (!a->avail)
		return NULL;
	if (s->mode == PD_MODE_PIPE) {
		for (size_t i = 0; i < s->npipe_attrs; i++) {
			const struct pd_part *p = &s->pipe_attrs[i];

			if (p->offset == ev->entry_offset &&
			    p->loaded >= 8 + (uint64_t)a->avail) {
				*len = a->avail;
				return p->bytes + 8;
			}
		}
		return NULL;
	}
	b = arena_alloc(&s->arena, a->avail);
	if (!b)
		return NULL;
	got = pd_input_pread(&s->in, a->offset, b, a->avail);
	if (got < 0) {
		pd_diag_add(&s->diags, PD_C_READ_ERROR, PD_AT_ATTRS, PD_ERR,
			    a->offset, "perf_event_attr", "read error: %s",
			    strerror(errno));
		return NULL;
	}
	*len = (size_t)got;
	return b;
}

int cmd_attrs(struct opts *o, int argc, char **argv)
{
	struct pd_id_index ix = {0};
	struct pd_session s;
	struct emitter *e;
	int first, rc;

	rc = parse_cmd_opts(&cmd_attrs_def, o, argc, argv, NULL, NULL, NULL,
			    NULL, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	if (first < argc)
		o->file = argv[first++];
	if (first < argc) {
		usage_error("attrs: unexpected argument '%s'", argv[first]);
		return EXIT_USAGE;
	}

	if ((rc = open_session(&s, o)))
		return rc;
	pd_note_torn(&s); /* data.size 0: where the records end, and why */
	/* PMU_MAPPINGS for PMU names, TRACING_DATA for tracepoint names */
	pd_decode_feature_deps(&s);
	pd_evlist_load(&s);
	load_id_index(&s, &ix);
	check_id_index(&s, &ix);

	e = start_output(o, o->file);
	emit_arr_begin(e, "attrs");
	for (uint32_t i = 0; i < s.evlist.n; i++) {
		const struct pd_evsel *ev = &s.evlist.v[i];
		const uint8_t *raw = NULL;
		size_t rawlen = 0;

		if (emit_want_hex(e))
			raw = attr_bytes(&s, ev, &rawlen);
		emit_evsel(e, &s, ev, &ix, raw, rawlen);
	}
	emit_arr_end(e);
	rc = finish_output(e, &s);
	free(ix.v);
	pd_session_close(&s);
	return rc;
}
