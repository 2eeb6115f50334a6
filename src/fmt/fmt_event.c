// SPDX-License-Identifier: MIT
/*
 * The formatter for one record as perf processes it (records): its title
 * "0xOFF [0xSIZE] PERF_RECORD_NAME", misc and cpumode, where it came from
 * (compressed container, data.N stream), its event, the decoded sample or
 * record body, the sample_id trailer, and the raw bytes with -x.
 */
#include "fmt/fmt_event.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fmt/fmtnum.h"
#include "fmt/names.h"
#include "fmt/fmt_records.h"
#include "fmt/fmt_sample.h"

/*
 * misc bits 12..15 mean different things per type
 * (include/uapi/linux/perf_event.h: PERF_RECORD_MISC_*)
 */
static void emit_misc(struct emitter *e, uint32_t type, uint16_t misc)
{
	const char *names[16] = {0};

	names[12] = type == PD_REC_MMAP || type == PD_REC_MMAP2
			    ? "PROC_MAP_PARSE_TIMEOUT"
			    : NULL;
	switch (type) {
	case PD_REC_MMAP: names[13] = "MMAP_DATA"; break;
	case PD_REC_MMAP2:
		names[13] = "MMAP_DATA";
		names[14] = "MMAP_BUILD_ID";
		break;
	case PD_REC_COMM: names[13] = "COMM_EXEC"; break;
	case PD_REC_FORK: names[13] = "FORK_EXEC"; break;
	case PD_REC_SAMPLE: names[14] = "EXACT_IP"; break;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		names[13] = "SWITCH_OUT";
		names[14] = "SWITCH_OUT_PREEMPT";
		break;
	case PD_REC_LOST_SAMPLES: names[15] = "LOST_SAMPLES_BPF"; break;
	case PD_REC_HEADER_BUILD_ID: names[15] = "BUILD_ID_SIZE"; break;
	default: break;
	}
	/*
	 * misc is the raw field, as perf report -D prints it ("(IP, 0x1)");
	 * its names are the flag bits, bits 0-2 being the cpumode, decoded
	 * apart.  Text shows what is not 0.
	 */
	emit_text_hide(e, !misc);
	emit_flags_in(e, "misc", misc, ~(uint64_t)PD_MISC_CPUMODE_MASK, names,
		      16);
	emit_text_hide(e, !(misc & PD_MISC_CPUMODE_MASK));
	emit_enum(e, "cpumode", misc & PD_MISC_CPUMODE_MASK,
		  pd_cpumode_name(misc & PD_MISC_CPUMODE_MASK));
	emit_text_hide(e, false);
}

static void emit_sample_id(struct emitter *e, const struct pd_sample_id *id)
{
	if (!id->trailer_size)
		return;
	emit_row_begin(e, "sample_id");
	if (id->has_tid) {
		emit_s64(e, "pid", (int32_t)id->pid);
		emit_s64(e, "tid", (int32_t)id->tid);
	}
	if (id->has_time)
		emit_u64(e, "time", id->time);
	if (id->has_id)
		emit_hex(e, "id", id->id);
	if (id->has_stream_id)
		emit_hex(e, "stream_id", id->stream_id);
	if (id->has_cpu)
		emit_u64(e, "cpu", id->cpu);
	emit_obj_end(e);
}

/* "FILE:LINE" as perf prints a srcline: the file's base name */
static const char *srcline(char *buf, size_t n, const char *file, int line)
{
	const char *base = file ? strrchr(file, '/') : NULL;

	if (!file)
		return NULL;
	snprintf(buf, n, "%s:%d", base ? base + 1 : file, line);
	return buf;
}

/* JSON: "srcline", and "inlined": [{sym, srcline}], innermost first */
static void emit_frame_lines(struct emitter *e, const struct pd_stack_frame *f)
{
	char buf[512];
	const char *l = srcline(buf, sizeof(buf), f->file, f->line);

	emit_private_opt(e, "srcline", PRIV_PATH, l);
	emit_arr_begin(e, "inlined");
	for (uint32_t i = 0; i < f->ninl; i++) {
		const struct pd_inline_frame *in = &f->inl[i];

		emit_obj_begin(e, NULL);
		emit_private_opt(e, "sym", PRIV_NONE, in->sym);
		l = srcline(buf, sizeof(buf), in->file, in->line);
		emit_private_opt(e, "srcline", PRIV_PATH, l);
		emit_obj_end(e);
	}
	emit_arr_end(e);
}

/* A frame: text "IP SYM+OFF (DSO)" as perf script prints it */
static void emit_frame(struct emitter *e, const char *key,
		       const struct pd_stack_frame *f, bool lines)
{
	const char *ctx = f->marker ? pd_context_name(f->ip, true) : NULL;

	emit_row_begin(e, key);
	if (f->marker) { /* a marker perf does not define: its number */
		if (ctx)
			emit_str(e, "context", ctx);
		else
			emit_hex(e, "context", f->ip);
		emit_obj_end(e);
		return;
	}
	emit_hex(e, "ip", f->ip);
	emit_hex(e, "dso_ip", f->rel);
	if (f->sym)
		emit_str(e, "sym", f->sym);
	else
		emit_null(e, "sym");
	emit_text_hide(e, !f->sym);
	if (f->sym)
		emit_hex(e, "symoff", f->symoff);
	else
		emit_null(e, "symoff");
	emit_text_hide(e, false);
	if (f->dso)
		emit_private(e, "dso", PRIV_PATH, f->dso, strlen(f->dso));
	else
		emit_null(e, "dso");
	if (f->unverified) /* said where true: a key a frame is a cost */
		emit_bool(e, "unverified", true);
	if (lines)
		emit_frame_lines(e, f);
	emit_obj_end(e);
}

/*
 * Text: a line a frame, as perf script prints a sample's callchain
 * (builtin-script.c, sample__fprintf_callchain: "%16lx sym+0xoff (dso)",
 * the address in its DSO) or its ip alone (the address as recorded).
 */
/* Text: "SYM+OFF (DSO)" of a frame, as perf names an address; " [unverified]"
 * after it for an unverified DSO's (perf has no mark) */
static void text_sym_dso(struct emitter *e, const struct pd_stack_frame *f)
{
	char buf[32];

	if (f->sym) {
		emit_line_put_str(e, PRIV_NONE, f->sym);
		snprintf(buf, sizeof(buf), "+0x%" PRIx64, f->symoff);
		emit_line_put(e, buf);
	} else {
		emit_line_put(e, "[unknown]");
	}
	emit_line_put(e, " (");
	if (f->dso)
		emit_line_put_str(e, PRIV_PATH, f->dso);
	else
		emit_line_put(e, "[unknown]");
	emit_line_put(e, f->unverified ? ") [unverified]" : ")");
}

/* Text --srcline: "  FILE:LINE[ (inlined)]" under a frame's line, as
 * perf script -F srcline prints it (none when not known) */
static void text_srcline(struct emitter *e, const char *file, int line,
			 bool inlined)
{
	char buf[512];

	if (!srcline(buf, sizeof(buf), file, line))
		return;
	emit_line_begin(e);
	emit_line_put(e, "  ");
	emit_line_put_str(e, PRIV_PATH, buf);
	if (inlined)
		emit_line_put(e, " (inlined)");
	emit_line_end(e);
}

/*
 * Text: a line a frame, as perf script prints a sample's callchain
 * (builtin-script.c, sample__fprintf_callchain: "%16lx sym+0xoff (dso)",
 * the address in its DSO) or its ip alone (the address as recorded).
 * With lines, each call inlined there first, "%16lx sym+0xoff" (the
 * offset in the function holding it) then "  FILE:LINE (inlined)", and
 * the frame's own line under it (perf script --inline -F srcline).
 */
static void text_frame(struct emitter *e, const struct pd_stack_frame *f,
		       bool callchain, bool lines)
{
	uint64_t ip = callchain ? f->rel : f->ip;
	char buf[64];

	emit_line_begin(e);
	if (f->marker) {
		const char *ctx = pd_context_name(f->ip, true);

		if (!ctx)
			snprintf(buf, sizeof(buf), "PERF_CONTEXT 0x%" PRIx64,
				 f->ip);
		emit_line_put(e, ctx ? ctx : buf);
		emit_line_end(e);
		return;
	}
	for (uint32_t i = 0; lines && i < f->ninl; i++) {
		snprintf(buf, sizeof(buf), "%16" PRIx64 " ", ip);
		emit_line_put(e, buf);
		emit_line_put_str(e, PRIV_NONE,
				  f->inl[i].sym ? f->inl[i].sym : "[unknown]");
		snprintf(buf, sizeof(buf), "+0x%" PRIx64, f->symoff);
		emit_line_put(e, buf);
		emit_line_end(e);
		text_srcline(e, f->inl[i].file, f->inl[i].line, true);
		emit_line_begin(e);
	}
	snprintf(buf, sizeof(buf), "%16" PRIx64 " ", ip);
	emit_line_put(e, buf);
	text_sym_dso(e, f);
	emit_line_end(e);
	if (lines)
		text_srcline(e, f->file, f->line, false);
}

/* The branch stack's symbols: JSON "branches": [{"from", "to"}], text a
 * line an entry, "branch FROM -> TO" (perf script -F brstacksym's pair) */
static void emit_branches(struct emitter *e, const struct pd_frames *f)
{
	emit_text_hide(e, true);
	emit_arr_begin(e, "branches");
	for (uint32_t i = 0; i < f->nbr; i++) {
		emit_obj_begin(e, NULL);
		emit_frame(e, "from", &f->br[2 * i], f->lines);
		emit_frame(e, "to", &f->br[2 * i + 1], f->lines);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, false);
	for (uint32_t i = 0; i < f->nbr && !emit_is_json(e); i++) {
		emit_line_begin(e);
		emit_line_put(e, "branch ");
		text_sym_dso(e, &f->br[2 * i]);
		emit_line_put(e, " -> ");
		text_sym_dso(e, &f->br[2 * i + 1]);
		emit_line_end(e);
	}
}

static void emit_frames(struct emitter *e, const struct pd_frames *f)
{
	if (f->comm)
		emit_private(e, "comm", PRIV_COMM, f->comm, strlen(f->comm));
	emit_text_hide(e, true);
	emit_arr_begin(e, "frames");
	for (uint32_t i = 0; i < f->n; i++)
		emit_frame(e, NULL, &f->v[i], f->lines);
	emit_arr_end(e);
	emit_text_hide(e, false);
	if (f->capped)
		emit_bool(e, "frames_capped", true);
	if (f->damaged)
		emit_bool(e, "frames_damaged", true);
	emit_text_hide(e, true);
	if (f->unwound)
		emit_u64(e, "frames_unwound", f->unwound);
	emit_text_hide(e, false);
	if (f->unwind_stopped)
		emit_str(e, "unwind_stopped", f->unwind_stopped);
	for (uint32_t i = 0; i < f->n && !emit_is_json(e); i++)
		text_frame(e, &f->v[i], f->callchain, f->lines);
	if (f->nbr)
		emit_branches(e, f);
}

void emit_event(struct emitter *e, const struct pd_session *s,
		const struct pd_event *ev, const struct pd_decoded *d)
{
	emit_event_frames(e, s, ev, d, NULL);
}

void emit_event_frames(struct emitter *e, const struct pd_session *s,
		       const struct pd_event *ev, const struct pd_decoded *d,
		       const struct pd_frames *f)
{
	const char *tname = ev->legacy_feature ? "LEGACY_GOOGLE_FEATURE"
					       : pd_record_type_name(ev->type);
	const struct pd_evsel *evsel = d->evsel;
	uint64_t rid = d->rid;

	/* "0x1a8 [0x28] PERF_RECORD_COMM", built without printf (hot) */
	char title[96], *t = title;

	t += fmt_hex(t, ev->offset);
	memcpy(t, " [", 2);
	t += 2;
	t += fmt_hex(t, ev->size);
	if (tname) {
		memcpy(t, "] PERF_RECORD_", 14);
		t += 14;
		fmt_copy(t, sizeof(title) - (size_t)(t - title), tname);
	} else {
		snprintf(t, sizeof(title) - (size_t)(t - title),
			 "] <unknown: %u>", ev->type);
	}
	emit_row_begin_title(e, NULL, title);
	/* the title shows offset, size and type */
	emit_text_hide(e, true);
	emit_offset(e, "offset", ev->offset);
	emit_u64(e, "size", ev->size);
	emit_enum(e, "type", ev->type, tname);
	emit_text_hide(e, false);
	emit_misc(e, ev->type, ev->misc);
	if (ev->compressed)
		emit_offset(e, "inner_offset", ev->inner_offset);
	if (ev->stream >= 0)
		emit_str(e, "stream", s->dir[ev->stream].name);
	if (evsel && ev->type < PD_REC_USER_START) {
		char label[32];

		emit_str(e, "event",
			 pd_evsel_label(evsel, label, sizeof(label)));
	} else if (ev->type < PD_REC_USER_START && ev->type != 0 &&
		   s->evlist.n > 1 && rid) {
		emit_hex(e, "unknown_id", rid);
	}
	if (ev->type == PD_REC_SAMPLE)
		emit_sample(e, s, evsel, ev, &d->smp);
	if (ev->type == PD_REC_SAMPLE && f)
		emit_frames(e, f);
	if (ev->type != PD_REC_SAMPLE)
		emit_record(e, s, ev, &d->rec);
	emit_sample_id(e, &d->id);
	if (ev->payload)
		emit_u64(e, "payload_size", ev->payload);
	emit_raw(e, ev->p, ev->size, ev->offset);
	if (ev->payload_bytes)
		emit_hexdump(e, "payload", ev->payload_bytes,
			     (size_t)ev->payload, ev->payload_offset);
	emit_obj_end(e);
}
