// SPDX-License-Identifier: MIT
/*
 * The formatter for stats' counts: records per type, samples per event,
 * CPU, process and thread, data quality, time span, ordering across
 * FINISHED_ROUND, compression, and the byte account of the file.
 */
#include "fmt/fmt_stats.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/format/feat_sys.h"
#include "lib/format/features.h"
#include "fmt/fmt_features.h"
#include "fmt/names.h"
#include "lib/io/reader.h"
#include "lib/format/record_types.h"

static void emit_time_ns(struct emitter *e, const char *key, uint64_t t)
{
	char buf[48], k[48];

	emit_u64(e, key, t);
	format_perf_time(buf, sizeof(buf), t);
	snprintf(k, sizeof(k), "%s_s", key);
	emit_str(e, k, buf);
}

static void emit_records(struct emitter *e, const struct pd_stats *st)
{
	emit_obj_begin(e, "records");
	emit_u64(e, "total", st->total_records);
	emit_size(e, "bytes", st->total_bytes);
	emit_arr_begin(e, "types");
	for (uint32_t i = 0; i < st->ntypes; i++) {
		const struct pd_stats_type *t = &st->types[i];
		const char *name = t->name;

		if (name)
			emit_row_begin_t(e, NULL, "%s", name);
		else
			emit_row_begin_t(e, NULL, "type %u", t->type);
		emit_text_hide(e, true);
		if (t->legacy_feature) /* types 69..80: not what they are */
			emit_null(e, "type");
		else
			emit_u64(e, "type", t->type);
		if (name)
			emit_str(e, "name", name);
		else
			emit_null(e, "name");
		emit_text_hide(e, false);
		emit_u64(e, "count", t->count);
		emit_percent(e, "percent", t->count, st->total_records, 1);
		emit_u64(e, "bytes", t->bytes);
		emit_percent(e, "bytes_percent", t->bytes, st->total_bytes, 1);
		emit_text_hide(e, !t->inner);
		emit_u64(e, "compressed", t->inner);
		emit_text_hide(e, false);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !st->other_type_records);
	emit_u64(e, "other_types", st->other_type_records);
	emit_text_hide(e, false);
	emit_obj_end(e);
}

/* The processes and threads with samples, the first v->top of each. */
static void emit_top(struct emitter *e, const struct stats_view *v)
{
	const struct pd_stats *st = v->st;
	const struct pd_stats_pid *pids = v->pids;
	uint32_t npids = v->npids, nt = v->nthreads, np = 0;
	uint64_t top = v->top;

	while (np < npids && pids[np].samples)
		np++;
	emit_u64(e, "threads", nt);
	emit_u64(e, "processes", np);
	emit_arr_begin(e, "top_processes");
	for (uint32_t i = 0; i < npids && (!top || i < top); i++) {
		if (!pids[i].samples)
			break;
		emit_row_begin_t(e, NULL, "pid %d", (int32_t)pids[i].pid);
		emit_text_hide(e, true);
		emit_s64(e, "pid", (int32_t)pids[i].pid);
		emit_text_hide(e, false);
		if (pids[i].comm)
			emit_private(e, "comm", PRIV_COMM, pids[i].comm,
				     strlen(pids[i].comm));
		else
			emit_null(e, "comm");
		emit_u64(e, "samples", pids[i].samples);
		emit_percent(e, "percent", pids[i].samples, st->samples, 1);
		emit_u64(e, "threads", pids[i].threads);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_arr_begin(e, "top_threads");
	for (uint32_t k = 0; k < nt && (!top || k < top); k++) {
		const struct pd_stats_thread *t = &v->threads[k];

		emit_row_begin_t(e, NULL, "tid %d", (int32_t)t->tid);
		emit_text_hide(e, true);
		emit_s64(e, "tid", (int32_t)t->tid);
		emit_text_hide(e, false);
		emit_s64(e, "pid", (int32_t)t->pid);
		if (t->comm[0])
			emit_private(e, "comm", PRIV_COMM, t->comm,
				     strlen(t->comm));
		else
			emit_null(e, "comm");
		emit_u64(e, "samples", t->samples);
		emit_percent(e, "percent", t->samples, st->samples, 1);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !st->samples_no_tid);
	emit_u64(e, "no_tid", st->samples_no_tid);
	emit_text_hide(e, !st->threads_dropped);
	emit_u64(e, "threads_not_kept", st->threads_dropped);
	emit_text_hide(e, false);
}

static void emit_samples(struct emitter *e, const struct pd_session *s,
			 const struct stats_view *v)
{
	const struct pd_stats *st = v->st;
	char buf[32];

	emit_obj_begin(e, "samples");
	emit_u64(e, "total", st->samples);

	emit_arr_begin(e, "events");
	for (uint32_t i = 0; i < st->nevents; i++) {
		const struct pd_stats_event *ev = &st->events[i];

		const char *name =
			pd_evsel_label(&s->evlist.v[i], buf, sizeof(buf));

		emit_row_begin_t(e, NULL, "%s", name);
		emit_text_hide(e, true);
		emit_str(e, "event", name);
		emit_u64(e, "attr", i);
		emit_text_hide(e, false);
		emit_u64(e, "samples", ev->samples);
		emit_percent(e, "percent", ev->samples, st->samples, 1);
		emit_text_hide(e, !(s->evlist.v[i].attr.sample_type &
				    PD_SAMPLE_PERIOD));
		emit_u64(e, "period", ev->period);
		emit_text_hide(e, false);
		/* PERF_SAMPLE_READ: the event's own SAMPLE records apart */
		if (ev->read)
			emit_u64(e, "sample_records", ev->records);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !st->samples_unknown_id);
	emit_u64(e, "unknown_id", st->samples_unknown_id);
	if (st->read_unknown_id || st->read_short) {
		emit_u64(e, "read_unknown_id", st->read_unknown_id);
		emit_u64(e, "read_short", st->read_short);
	}
	emit_text_hide(e, !st->samples_no_attr);
	emit_u64(e, "no_attr", st->samples_no_attr);
	emit_text_hide(e, false);

	emit_arr_begin(e, "cpus");
	for (uint32_t c = 0; c < st->ncpus; c++) {
		if (!st->cpu_samples[c])
			continue;
		emit_row_begin_t(e, NULL, "cpu %u", c);
		emit_text_hide(e, true);
		emit_u64(e, "cpu", c);
		emit_text_hide(e, false);
		emit_u64(e, "samples", st->cpu_samples[c]);
		emit_percent(e, "percent", st->cpu_samples[c], st->samples, 1);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !st->samples_no_cpu);
	emit_u64(e, "no_cpu", st->samples_no_cpu);
	emit_text_hide(e, !st->samples_cpu_out_of_range);
	emit_u64(e, "cpu_out_of_range", st->samples_cpu_out_of_range);
	emit_text_hide(e, false);

	emit_top(e, v);
	emit_obj_end(e);
}

static void emit_quality(struct emitter *e, const struct pd_stats *st)
{
	emit_obj_begin(e, "quality");
	emit_row_begin(e, "lost");
	emit_u64(e, "records", st->lost_records);
	emit_u64(e, "events", st->lost);
	emit_obj_end(e);
	emit_row_begin(e, "lost_samples");
	emit_u64(e, "records", st->lost_samples_records);
	emit_u64(e, "samples", st->lost_samples);
	emit_u64(e, "bpf_records", st->lost_samples_bpf_records);
	emit_u64(e, "bpf_samples", st->lost_samples_bpf);
	emit_obj_end(e);
	emit_u64(e, "throttle", st->throttle);
	emit_u64(e, "unthrottle", st->unthrottle);
	emit_row_begin(e, "aux");
	emit_u64(e, "records", st->aux_records);
	emit_u64(e, "truncated", st->aux_truncated);
	emit_u64(e, "partial", st->aux_partial);
	emit_u64(e, "collision", st->aux_collision);
	emit_u64(e, "overwrite", st->aux_overwrite);
	emit_obj_end(e);
	emit_u64(e, "auxtrace_errors", st->auxtrace_errors);
	emit_u64(e, "unknown_type_records", st->unknown_type_records);
	emit_obj_end(e);
}

static void emit_duration(struct emitter *e, uint64_t ns)
{
	char buf[48];

	emit_u64(e, "duration_ns", ns);
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%09" PRIu64, ns / NSEC_PER_SEC,
		 ns % NSEC_PER_SEC);
	emit_str(e, "duration_s", buf);
}

static void emit_time(struct emitter *e, const struct pd_session *s,
		      const struct pd_stats *st)
{
	const struct pd_feature *f = pd_find_feature(s, HEADER_SAMPLE_TIME);
	const struct feat_sample_time *hst = f && f->decoded ? f->model : NULL;
	const struct pd_feature *cf = pd_find_feature(s, HEADER_CLOCK_DATA);
	const struct feat_clock_data *clk =
		cf && cf->decoded ? cf->model : NULL;
	uint64_t wall;
	char buf[64];

	emit_obj_begin(e, "time");
	emit_u64(e, "timed_samples", st->timed_samples);
	if (st->timed_samples) {
		uint64_t d = st->max_time - st->min_time;

		emit_time_ns(e, "first", st->min_time);
		emit_time_ns(e, "last", st->max_time);
		emit_duration(e, d);
		if (d)
			emit_double(e, "samples_per_second",
				    (double)st->timed_samples * 1e9 / (double)d,
				    "%.1f");
		else
			emit_null(e, "samples_per_second");
		if (feat_clock_wall(clk, st->min_time, &wall)) {
			format_iso8601_ns(buf, sizeof(buf), wall);
			emit_str(e, "wall_clock_first", buf);
		}
		if (feat_clock_wall(clk, st->max_time, &wall)) {
			format_iso8601_ns(buf, sizeof(buf), wall);
			emit_str(e, "wall_clock_last", buf);
		}
	}
	if (hst) {
		emit_obj_begin(e, "header_sample_time");
		emit_time_ns(e, "first", hst->first);
		emit_time_ns(e, "last", hst->last);
		if (!hst->first && !hst->last) {
			/* perf leaves it 0 when it skips the build-id pass
			 * (pipe mode, -z, --no-buildid) */
			emit_null(e, "agrees");
		} else if (st->timed_samples) {
			emit_bool(e, "agrees",
				  hst->first == st->min_time &&
					  hst->last == st->max_time);
			emit_s64(e, "first_diff_ns",
				 (int64_t)(st->min_time - hst->first));
			emit_s64(e, "last_diff_ns",
				 (int64_t)(st->max_time - hst->last));
		}
		emit_obj_end(e);
	}
	emit_obj_end(e);
}

static void emit_ordering(struct emitter *e, const struct pd_stats *st)
{
	emit_obj_begin(e, "ordering");
	emit_u64(e, "rounds", st->rounds);
	emit_row_begin(e, "largest_round");
	emit_u64(e, "records", st->largest_round_records);
	emit_u64(e, "bytes", st->largest_round_bytes);
	emit_offset(e, "offset", st->largest_round_offset);
	emit_obj_end(e);
	emit_u64(e, "late_samples", st->late_samples);
	emit_u64(e, "max_late_ns", st->max_late_ns);
	emit_u64(e, "backward_steps", st->backward_steps);
	emit_u64(e, "max_backward_ns", st->max_backward_ns);
	emit_text_hide(e, !st->backward_steps);
	emit_offset(e, "max_backward_offset", st->max_backward_offset);
	emit_text_hide(e, false);
	emit_obj_end(e);
}

static void emit_compression(struct emitter *e, const struct pd_session *s,
			     const struct pd_stats *st)
{
	const struct pd_feature *f = pd_find_feature(s, HEADER_COMPRESSED);
	const struct feat_compressed *hc = f && f->decoded ? f->model : NULL;

	if (!st->containers && !hc) {
		emit_null(e, "compression");
		return;
	}
	emit_obj_begin(e, "compression");
	emit_u64(e, "containers", st->containers);
	emit_size(e, "container_bytes", st->container_bytes);
	emit_size(e, "compressed_bytes", st->compressed_bytes);
	emit_size(e, "decompressed_bytes", st->decompressed_bytes);
	if (st->compressed_bytes)
		emit_double(e, "ratio",
			    (double)st->decompressed_bytes /
				    (double)st->compressed_bytes,
			    "%.2f");
	else
		emit_null(e, "ratio");
	if (hc) {
		emit_row_begin(e, "header");
		emit_enum(e, "type", hc->type,
			  hc->type == PD_COMP_ZSTD ? "zstd" : NULL);
		emit_u64(e, "level", hc->level);
		emit_u64(e, "ratio", hc->ratio);
		emit_obj_end(e);
	}
	emit_obj_end(e);
}

static void emit_bytes(struct emitter *e, const struct pd_byte_account *ba)
{
	emit_obj_begin(e, "bytes");
	emit_size(e, "file_size", ba->file_size);
	emit_arr_begin(e, "regions");
	for (uint32_t i = 0; i < ba->nregions; i++) {
		const struct pd_region *r = &ba->regions[i];

		if (r->name)
			emit_row_begin_t(e, NULL, "%s %s", r->what, r->name);
		else
			emit_row_begin_t(e, NULL, "%s", r->what);
		emit_text_hide(e, true);
		emit_str(e, "what", r->what);
		if (r->name)
			emit_str(e, "name", r->name);
		else
			emit_null(e, "name");
		emit_text_hide(e, false);
		emit_offset(e, "offset", r->offset);
		emit_u64(e, "size", r->size);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_size(e, "covered", ba->covered);
	emit_u64(e, "overlap", ba->overlap);
	emit_u64(e, "unaccounted", ba->unaccounted);
	emit_arr_begin(e, "gaps");
	for (uint32_t i = 0; i < ba->ngaps; i++) {
		emit_row_begin(e, NULL);
		/* a data.N file's gap: its offset is in that file */
		if (ba->gaps[i].file)
			emit_private(e, "file", PRIV_PATH, ba->gaps[i].file,
				     strlen(ba->gaps[i].file));
		emit_offset(e, "offset", ba->gaps[i].offset);
		emit_u64(e, "size", ba->gaps[i].size);
		if (ba->gaps[i].name)
			emit_str(e, "likely", ba->gaps[i].name);
		else
			emit_null(e, "likely");
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, ba->nall_gaps <= ba->ngaps);
	emit_u64(e, "gaps_total", ba->nall_gaps);
	emit_text_hide(e, false);
	emit_obj_end(e);
}

void emit_stats(struct emitter *e, const struct pd_session *s,
		const struct stats_view *v)
{
	emit_obj_begin(e, "stats"); /* the key named after the command */
	emit_str(e, "mode",
		 s->mode == PD_MODE_PIPE  ? "pipe"
		 : s->mode == PD_MODE_DIR ? "directory"
					  : "file");
	emit_records(e, v->st);
	emit_samples(e, s, v);
	emit_stats_counters(e, s, v->st);
	emit_quality(e, v->st);
	emit_time(e, s, v->st);
	emit_ordering(e, v->st);
	emit_compression(e, s, v->st);
	if (v->bytes)
		emit_bytes(e, v->bytes);
	else
		emit_null(e, "bytes");
	emit_obj_end(e);
}
