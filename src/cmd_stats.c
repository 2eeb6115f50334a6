// SPDX-License-Identifier: MIT
/* perfdump stats: counts that explain a recording. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/feat_sys.h"
#include "lib/features.h"
#include "lib/reader.h"
#include "lib/stats.h"
#include "lib/torn.h"
#include "fmt/fmt_features.h"
#include "perfdump.h"

const struct cmd cmd_stats_def = {
	.name = "stats",
	.fn = cmd_stats,
	.summary =
		"counts per record type, event, CPU and thread; data quality",
	.help = "Usage: perfdump stats [OPTIONS] [FILE]\n"
		"\n"
		"Count what the recording holds, in one pass that reads only "
		"record\n"
		"headers and the few sample fields a count needs:\n"
		"  records      count, bytes and share per record type "
		"(records inside\n"
		"               COMPRESSED records as their own types, the "
		"containers\n"
		"               as COMPRESSED/COMPRESSED2); totals as perf "
		"report --stats\n"
		"  samples      per event, per CPU, and the top processes and "
		"threads\n"
		"               with their comm (from COMM records)\n"
		"  quality      LOST (records, events lost), LOST_SAMPLES (and "
		"those the\n"
		"               BPF filter dropped), THROTTLE/UNTHROTTLE, AUX "
		"flags\n"
		"               (truncated, partial, collision, overwrite), "
		"AUXTRACE_ERROR,\n"
		"               records of unknown types\n"
		"  time         first and last sample time, duration, samples "
		"per second,\n"
		"               against SAMPLE_TIME in the header; wall clock "
		"from\n"
		"               CLOCK_DATA\n"
		"  ordering     FINISHED_ROUND rounds, the largest one, "
		"samples older than\n"
		"               what perf had already flushed, backward time "
		"steps\n"
		"  compression  compressed and decompressed bytes, the ratio "
		"achieved and\n"
		"               the one the header (COMPRESSED) claims\n"
		"  bytes        every byte of the file: header, attrs, ids, "
		"data, feature\n"
		"               table and sections, and the bytes that belong "
		"to none\n"
		"\n"
		"Options:\n"
		"      --top N      processes and threads listed (default 10, "
		"0: all)\n"
		"  -j, --json       write JSON\n"
		"  -p, --pretty     write indented JSON\n"
		"  -h, --help       show this help\n",
};

enum { OPT_TOP = 256 };

struct stats_opts {
	uint64_t top;
};

static int handle(int opt, const char *arg, void *ctx)
{
	struct stats_opts *so = ctx;
	char *end;

	if (opt != OPT_TOP)
		return -1;
	errno = 0;
	so->top = strtoull(arg, &end, 10);
	if (*arg == '-' || !*arg || *end || errno) {
		usage_error("stats: --top: bad number '%s'", arg);
		return -1;
	}
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void emit_pct(struct emitter *e, const char *key, uint64_t part,
		     uint64_t whole)
{
	emit_double(e, key, pct(part, whole), "%.1f%%");
}

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
		const char *name = pd_record_type_name(t->type);

		if (name)
			emit_row_begin_t(e, NULL, "%s", name);
		else
			emit_row_begin_t(e, NULL, "type %u", t->type);
		emit_text_hide(e, true);
		emit_u64(e, "type", t->type);
		if (name)
			emit_str(e, "name", name);
		else
			emit_null(e, "name");
		emit_text_hide(e, false);
		emit_u64(e, "count", t->count);
		emit_pct(e, "percent", t->count, st->total_records);
		emit_u64(e, "bytes", t->bytes);
		emit_pct(e, "bytes_percent", t->bytes, st->total_bytes);
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

static void event_name(const struct pd_session *s, uint32_t i, char *buf,
		       size_t len)
{
	const struct pd_evsel *ev = &s->evlist.v[i];

	if (ev->name[0])
		snprintf(buf, len, "%s", ev->name);
	else
		snprintf(buf, len, "attr%u", ev->idx);
}

static int cmp_thread_samples(const void *a, const void *b)
{
	const struct pd_stats_thread *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void emit_samples(struct emitter *e, const struct pd_session *s,
			 struct pd_stats *st, uint64_t top)
{
	char name[300];
	struct pd_stats_pid *pids;
	uint32_t npids;

	emit_obj_begin(e, "samples");
	emit_u64(e, "total", st->samples);

	emit_arr_begin(e, "events");
	for (uint32_t i = 0; i < st->nevents; i++) {
		const struct pd_stats_event *ev = &st->events[i];

		event_name(s, i, name, sizeof(name));
		emit_row_begin_t(e, NULL, "%s", name);
		emit_text_hide(e, true);
		emit_str(e, "event", name);
		emit_u64(e, "attr", i);
		emit_text_hide(e, false);
		emit_u64(e, "samples", ev->samples);
		emit_pct(e, "percent", ev->samples, st->samples);
		emit_text_hide(e, !(s->evlist.v[i].attr.sample_type &
				    PD_SAMPLE_PERIOD));
		emit_u64(e, "period", ev->period);
		emit_text_hide(e, false);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !st->samples_unknown_id);
	emit_u64(e, "unknown_id", st->samples_unknown_id);
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
		emit_pct(e, "percent", st->cpu_samples[c], st->samples);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !st->samples_no_cpu);
	emit_u64(e, "no_cpu", st->samples_no_cpu);
	emit_text_hide(e, !st->samples_cpu_out_of_range);
	emit_u64(e, "cpu_out_of_range", st->samples_cpu_out_of_range);
	emit_text_hide(e, false);

	/* the threads with samples, most first (ties by tid), apart from the
	 * table, which pd_stats_pids() sorts by pid and points into */
	struct pd_stats_thread *tv = NULL;
	uint32_t nt = 0, np = 0;

	pids = pd_stats_pids(st, &npids);
	if (st->nthreads)
		tv = calloc(st->nthreads, sizeof(*tv));
	if (tv) {
		for (uint32_t i = 0; i < st->nthreads; i++)
			if (st->threads[i].samples)
				tv[nt++] = st->threads[i];
		qsort(tv, nt, sizeof(*tv), cmp_thread_samples);
	}
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
			emit_bytes_str(e, "comm", pids[i].comm,
				       strlen(pids[i].comm));
		else
			emit_null(e, "comm");
		emit_u64(e, "samples", pids[i].samples);
		emit_pct(e, "percent", pids[i].samples, st->samples);
		emit_u64(e, "threads", pids[i].threads);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_arr_begin(e, "top_threads");
	for (uint32_t k = 0; k < nt && (!top || k < top); k++) {
		const struct pd_stats_thread *t = &tv[k];

		emit_row_begin_t(e, NULL, "tid %d", (int32_t)t->tid);
		emit_text_hide(e, true);
		emit_s64(e, "tid", (int32_t)t->tid);
		emit_text_hide(e, false);
		emit_s64(e, "pid", (int32_t)t->pid);
		if (t->comm[0])
			emit_bytes_str(e, "comm", t->comm, strlen(t->comm));
		else
			emit_null(e, "comm");
		emit_u64(e, "samples", t->samples);
		emit_pct(e, "percent", t->samples, st->samples);
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, !st->samples_no_tid);
	emit_u64(e, "no_tid", st->samples_no_tid);
	emit_text_hide(e, !st->threads_dropped);
	emit_u64(e, "threads_not_kept", st->threads_dropped);
	emit_text_hide(e, false);
	free(tv);
	free(pids);
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

/* Wall-clock time of a sample time: tod_ns + (t - clockid_ns). */
static bool wall_clock(const struct feat_clock_data *clk, uint64_t t,
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
		if (wall_clock(clk, st->min_time, &wall)) {
			format_iso8601_ns(buf, sizeof(buf), wall);
			emit_str(e, "wall_clock_first", buf);
		}
		if (wall_clock(clk, st->max_time, &wall)) {
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
		emit_enum(e, "type", hc->type, hc->type == 1 ? "zstd" : NULL);
		emit_u64(e, "level", hc->level);
		emit_u64(e, "ratio", hc->ratio);
		emit_obj_end(e);
	}
	emit_obj_end(e);
}

static void emit_bytes(struct emitter *e, const struct pd_session *s,
		       const struct pd_stats *st)
{
	struct pd_byte_account ba;

	if (pd_byte_account(s, st->data_end, &ba) < 0) {
		emit_null(e, "bytes");
		return;
	}
	emit_obj_begin(e, "bytes");
	emit_size(e, "file_size", ba.file_size);
	emit_arr_begin(e, "regions");
	for (uint32_t i = 0; i < ba.nregions; i++) {
		const struct pd_region *r = &ba.regions[i];

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
	emit_size(e, "covered", ba.covered);
	emit_u64(e, "overlap", ba.overlap);
	emit_u64(e, "unaccounted", ba.unaccounted);
	emit_arr_begin(e, "gaps");
	for (uint32_t i = 0; i < ba.ngaps; i++) {
		emit_row_begin(e, NULL);
		emit_offset(e, "offset", ba.gaps[i].offset);
		emit_u64(e, "size", ba.gaps[i].size);
		if (ba.gaps[i].name)
			emit_str(e, "likely", ba.gaps[i].name);
		else
			emit_null(e, "likely");
		emit_obj_end(e);
	}
	emit_arr_end(e);
	emit_text_hide(e, ba.nall_gaps <= ba.ngaps);
	emit_u64(e, "gaps_total", ba.nall_gaps);
	emit_text_hide(e, false);
	emit_obj_end(e);
	pd_byte_account_free(&ba);
}

int cmd_stats(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"top", required_argument, NULL, OPT_TOP},
		{NULL, 0, NULL, 0},
	};
	struct stats_opts so = {.top = 10};
	struct pd_stats st;
	struct pd_session s;
	struct emitter *e;
	int first, rc;

	rc = parse_cmd_opts(&cmd_stats_def, o, argc, argv, NULL, longopts,
			    handle, &so, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	if (take_file_arg(&cmd_stats_def, o, argc, argv, first))
		return EXIT_USAGE;
	if ((rc = open_session(&s, o)))
		return rc;
	pd_note_torn(&s); /* data.size 0: where the records end, and why */
	pd_decode_feature_deps(&s);
	for (size_t i = 0; i < s.nfeat; i++)
		if (s.feat[i].id == HEADER_SAMPLE_TIME ||
		    s.feat[i].id == HEADER_COMPRESSED)
			pd_decode_feature(&s, &s.feat[i]);
	pd_evlist_load(&s);
	if (pd_stats_collect(&s, &st) < 0)
		pd_diag_add(&s.diags, PD_C_MALFORMED, PD_AT_NAMED("stats"),
			    PD_ERR, PD_NO_OFFSET, "stats",
			    "out of memory; the counts are incomplete");
	e = start_output(o, o->file);
	emit_str(e, "mode",
		 s.mode == PD_MODE_PIPE	 ? "pipe"
		 : s.mode == PD_MODE_DIR ? "directory"
					 : "file");
	emit_records(e, &st);
	emit_samples(e, &s, &st, so.top);
	emit_quality(e, &st);
	emit_time(e, &s, &st);
	emit_ordering(e, &st);
	emit_compression(e, &s, &st);
	emit_bytes(e, &s, &st);
	pd_stats_free(&st);
	rc = finish_output(e, &s);
	pd_session_close(&s);
	return rc;
}
