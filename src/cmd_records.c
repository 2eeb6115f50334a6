// SPDX-License-Identifier: MIT
/* perfdump records: the record stream, every record decoded. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/analysis/symbolize.h"
#include "lib/session/event.h"
#include "lib/session/record.h"
#include "lib/tracepoint/tracepoint.h"
#include "lib/session/walk.h"
#include "fmt/fmt_event.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);

const struct cmd cmd_records_def = {
	.name = "records",
	.fn = cmd_records,
	.summary = "the record stream, every record decoded",
	.help = "Usage: perfdump records [OPTIONS] [FILE...]\n"
		"\n"
		"Show every record of the recording with its file offset, "
		"size, type\n"
		"and misc flags, decoded field by field: samples by their "
		"attr's\n"
		"sample_type, other kernel records with their sample_id "
		"trailer, perf's\n"
		"user records.  Compressed records (81, 83) are decompressed: "
		"their\n"
		"records show the container's offset and their offset inside "
		"the\n"
		"decompressed stream.  Pipe mode, directories (data + data.N) "
		"and\n"
		"recordings whose perf record was killed (data.size 0) are "
		"read too.\n"
		"Tracepoint samples show their fields, typed as the format "
		"in the\n"
		"tracing data says, and the print output perf script shows "
		"(-x adds\n"
		"the RAW bytes); tracepoints are named system:name "
		"(sched:sched_switch).\n"
		"A print's kernel function (%ps, %pS) is named from the "
		"kernel's symbols\n"
		"as profile finds them (--vmlinux, --kallsyms, perf's "
		"build-id cache,\n"
		"this machine's when its kernel is the recording's), else "
		"shown in hex.\n"
		"\n"
		"Options:\n"
		"      --type LIST      only these types: names (or their "
		"prefixes)\n"
		"                       or numbers (e.g. "
		"sample,mmap2,68)\n" FILTER_OPTS_HELP
		"      --skip N         leave out the first N records that "
		"match\n"
		"      --limit N        show at most N records\n"
		"      --at OFFSET      start at the record at or after this "
		"file offset\n"
		"      --order file|time  file order (default), or time order "
		"as perf\n"
		"                       processes it (rounds bounded by "
		"FINISHED_ROUND);\n"
		"                       a prefix will do (--order t)\n"
		"      --symbols        each sample's ip and callchain "
		"symbolized: symbol,\n"
		"                       offset and DSO of every frame, "
		"from the maps its\n"
		"                       process had then (implies --order "
		"time); C++\n"
		"                       and Rust names demangled as perf "
		"script shows them\n"
		"      --srcline        with --symbols, each frame's source "
		"file and line,\n"
		"                       and the calls inlined there (implies "
		"--symbols)\n"
		"      --symfs DIR      look for the DSOs under DIR (as "
		"perf's --symfs;\n"
		"                       with --symbols)\n"
		"      --debug-dir DIR  perf's build-id cache (default "
		"~/.debug)\n"
		"      --kallsyms FILE  the kernel's symbols from FILE (for "
		"--symbols and\n"
		"                       tracepoint prints)\n"
		"      --vmlinux FILE   the kernel's symbols from this ELF\n"
		"      --no-demangle    C++ and Rust names as the symbol table "
		"has them\n"
		"                       (with --symbols)\n"
		"      --strict-build-ids  no symbols for a DSO the recording "
		"has no\n"
		"                       build-id for (by default: the file "
		"at its path,\n"
		"                       its frames marked unverified)\n"
		"  -J, --jobs N         decode and format on N threads "
		"(default: the\n"
		"                       online CPUs; a data section of a "
		"few hundred KiB\n"
		"                       or less: 1), the output the same "
		"byte for byte;\n"
		"                       one thread still for --skip, --limit, "
		"-x,\n"
		"                       --redact and directories; at most 4 "
		"with\n"
		"                       --symbols (and prints of kernel "
		"functions)\n"
		"      --json-lines     one JSON object per record; the first "
		"line is a\n"
		"                       preamble, the last the errors and "
		"warnings\n"
		"  -j, --json           write JSON\n"
		"  -p, --pretty         write indented JSON\n"
		"  -x, --hex            add the raw bytes of each record\n"
		"  -h, --help           show this help\n",
	.setup = CMD_TORN | CMD_FEATURE_DEPS | CMD_EVLIST | CMD_HEX,
	.load = load,
	.show = show,
};

struct rec_opts {
	struct pd_filter f;
	bool order_time, order_given;
	bool json_lines;
	bool symbols, srcline;
	struct sym_where where;
};

enum {
	OPT_TYPE = 256,
	OPT_EVENT, /* in filter_opt's order */
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_TIME,
	OPT_SKIP,
	OPT_LIMIT,
	OPT_AT,
	OPT_ORDER,
	OPT_JSON_LINES,
	OPT_SYMBOLS,
	OPT_SRCLINE,
	SYM_WHERE_OPT_VALUES, /* sym_where_opt's */
};

static int parse_type_list(struct rec_opts *ro, const char *arg)
{
	const char *names[CHOICES_MAX];
	uint32_t types[CHOICES_MAX];
	struct choices c = {.names = names,
			    .n = pd_record_types(names, types, CHOICES_MAX),
			    .icase = true,
			    .what = "record type",
			    .also = ", or a number"};
	char buf[64];
	const char *p = arg;

	while (*p) {
		size_t n = strcspn(p, ",");
		uint64_t t;
		int i;

		/* no name is that long: an unknown one, cut, to say so */
		snprintf(buf, sizeof(buf), "%.*s", (int)n, p);
		if (!opt_u64(buf, 0, UINT32_MAX, &t)) {
			const char *name = buf;

			if (strncasecmp(name, "PERF_RECORD_", 12) == 0)
				name += 12;
			if ((i = choose(&c, name, "records: --type")) < 0)
				return -1;
			t = types[i];
		}
		if (ro->f.ntypes == PD_FILTER_MAX_TYPES) {
			usage_error("records: --type: more than %d types",
				    PD_FILTER_MAX_TYPES);
			return -1;
		}
		ro->f.types[ro->f.ntypes++] = (uint32_t)t;
		p += n + (p[n] == ',');
	}
	return 0;
}

static int handle(int opt, const char *arg, void *ctx)
{
	struct rec_opts *ro = ctx;

	switch (opt) {
	case OPT_TYPE: return parse_type_list(ro, arg);
	case OPT_EVENT:
	case OPT_PID:
	case OPT_TID:
	case OPT_CPU:
	case OPT_TIME:
		return filter_opt(&ro->f, "records", opt - OPT_EVENT, arg);
	case OPT_JSON_LINES: ro->json_lines = true; return 0;
	case OPT_SYMBOLS: ro->symbols = true; return 0;
	case OPT_SRCLINE: ro->symbols = ro->srcline = true; return 0;
	case OPT_SKIP:
		return opt_number("records: --skip", arg, 0, UINT64_MAX,
				  OPT_COUNT, &ro->f.skip);
	case OPT_LIMIT:
		return opt_number("records: --limit", arg, 0, UINT64_MAX,
				  OPT_COUNT, &ro->f.limit);
	case OPT_AT:
		return opt_number("records: --at", arg, 0, UINT64_MAX,
				  "a file offset (decimal, or hex with 0x)",
				  &ro->f.at);
	case OPT_ORDER: {
		static const char *const orders[] = {"file", "time"};
		static const struct choices values = {
			.names = orders, .n = 2, .what = "value"};
		int i = choose(&values, arg, "records: --order");

		ro->order_time = i == 1;
		ro->order_given = true;
		return i < 0 ? -1 : 0;
	}
	default:
		return sym_where_opt(&ro->where, opt - OPT_SYMFS, arg) ? 0 : -1;
	}
}

/* The options, and where the records go. */
struct rec_ctx {
	struct rec_opts ro;
	struct pd_session *s;
	struct emitter *e;
	struct pd_symbolizer *z; /* --symbols */
};

/* --event names an event of the recording (filter_check_event) */
static int load(struct cmd_run *r)
{
	const struct rec_ctx *c = r->ctx;

	return filter_check_event("records", &c->ro.f, r->s);
}

/* A record into e, with its frames when --symbols and z gives them */
static void emit_record(const struct rec_ctx *c, struct emitter *e,
			struct pd_symbolizer *z, const struct pd_event *ev,
			const struct pd_decoded *d)
{
	struct pd_frames f;

	if (c->ro.symbols && z && ev->type == PD_REC_SAMPLE &&
	    !d->smp.no_attr && pd_symbolizer_sample(z, ev, d, &f))
		emit_event_frames(e, c->s, ev, d, &f);
	else
		emit_event(e, c->s, ev, d);
}

/* One record that passed the filters (walk.h). */
static bool show_record(void *arg, const struct pd_event *ev,
			const struct pd_decoded *d)
{
	struct rec_ctx *c = arg;

	emit_record(c, c->e, c->z, ev, d);
	return true;
}

/* --jobs: a batch's records rendered on a worker (walk.h) */
struct rec_fork {
	const struct rec_ctx *c;
	struct emitter *e;
	struct pd_symbolizer *z; /* with a symbolizer: the replica running
				  * it (bind_worker), else NULL */
};

static void *fork_batch(void *arg)
{
	struct rec_ctx *c = arg;
	struct rec_fork *f = calloc(1, sizeof(*f));

	if (f && !(f->e = emit_fork(c->e))) {
		free(f);
		return NULL;
	}
	if (f)
		f->c = c;
	return f;
}

static void show_batch_record(void *ctx, const struct pd_event *ev,
			      const struct pd_decoded *d)
{
	struct rec_fork *f = ctx;

	emit_record(f->c, f->e, f->z, ev, d);
}

/* ---- --jobs with a symbolizer (--symbols, or tracepoint prints of
 * kernel functions): a replica of it on each worker (symbolize.h
 * pd_symbolizer_fork), kept up to date by the walk ---------------------- */

/* The replica of the worker on this thread: %ps's resolver is the
 * recording's (its tracepoint formats'), called while a worker decodes */
static __thread struct pd_symbolizer *thread_z;

static void *fork_worker(void *arg)
{
	struct rec_ctx *c = arg;

	return pd_symbolizer_fork(c->z);
}

static void bind_worker(void *wctx, void *ctx, struct pd_session *ws)
{
	pd_symbolizer_bind(wctx, ws);
	thread_z = wctx;
	if (ctx)
		((struct rec_fork *)ctx)->z = wctx;
}

static void worker_state(void *wctx, const struct pd_event *ev,
			 const struct pd_decoded *d)
{
	pd_symbolizer_record(wctx, ev, d);
}

static void unfork_worker(void *arg, void *wctx)
{
	(void)arg;
	thread_z = NULL;
	pd_symbolizer_free(wctx);
}

static bool keep_diag(void *arg, const struct pd_diag *g)
{
	struct rec_ctx *c = arg;

	return pd_symbolizer_keep(c->z, g);
}

static void flush_batch(void *arg, void *ctx)
{
	struct rec_ctx *c = arg;
	struct rec_fork *f = ctx;

	emit_join(c->e, f->e);
}

static void join_batch(void *arg, void *ctx)
{
	struct rec_fork *f = ctx;

	(void)arg;
	emit_fork_free(f->e);
	free(f);
}

/* The symbolizer's maps: every record keeps them up to date */
static void keep_state(void *arg, const struct pd_event *ev,
		       const struct pd_decoded *d)
{
	struct rec_ctx *c = arg;

	pd_symbolizer_record(c->z, ev, d);
}

/* The kernel function of a %ps in a tracepoint print (tracepoint.h) */
static const char *kernel_function(void *ctx, uint64_t addr, uint64_t *start)
{
	struct rec_ctx *c = ctx;

	return pd_symbolizer_kernel(thread_z ? thread_z : c->z, addr, start);
}

/*
 * May a tracepoint sample print a kernel function (%ps...)?  Its format
 * says; one not known yet (a live stream's tracing data comes later) may.
 * Only then are the kernel's maps kept, for perf script's resolver.
 */
static bool prints_functions(struct pd_session *s)
{
	for (uint32_t i = 0; i < s->evlist.n; i++) {
		const struct pd_evsel *ev = &s->evlist.v[i];
		const struct pd_tp_event *t;

		if (ev->attr.type != PD_TYPE_TRACEPOINT)
			continue;
		t = pd_tp_event_of(s, ev);
		if (!t || pd_tp_event_prints_functions(t))
			return true;
	}
	return false;
}

/* Records stream out as they are read: no model is kept. */
static void show(struct cmd_run *r)
{
	static const struct pd_par_visitor par = {.fork = fork_batch,
						  .record = show_batch_record,
						  .flush = flush_batch,
						  .join = join_batch};
	static const struct pd_visitor plain = {.record = show_record,
						.par = &par};
	static const struct pd_par_visitor par_symbols = {
		.fork = fork_batch,
		.record = show_batch_record,
		.flush = flush_batch,
		.join = join_batch,
		.worker = fork_worker,
		.bind = bind_worker,
		.state = worker_state,
		.unfork = unfork_worker,
		.keep = keep_diag,
		.state_types = PD_SYMBOLIZER_STATE_TYPES};
	static const struct pd_visitor symbols = {.record = show_record,
						  .state = keep_state,
						  .par = &par_symbols};
	struct rec_ctx *c = r->ctx;
	bool dir = r->s->mode == PD_MODE_DIR;
	struct pd_walk_opts o = {
		.flags = (c->ro.order_time ? PD_WALK_TIME_ORDER : 0) |
			 (dir ? PD_WALK_DATA_N : 0) |
			 (emit_want_hex(r->e) ? PD_WALK_PAYLOADS : 0),
		.filter = &c->ro.f,
		/* tracepoint samples: their fields and print output */
		.tp_want = PD_TP_FIELDS | PD_TP_PRINT,
		/* a redactor has state (its tokens, in order): one
		 * thread; the symbolizer a replica per thread */
		.jobs = emit_redacting(r->e) ? 1 : opts_jobs(r->o),
		.batch_bytes = r->o->read.batch_bytes,
	};
	const struct pd_tp_resolver funcs = {kernel_function, c};

	c->s = r->s;
	c->e = r->e;
	c->z = NULL;
	/* perf script resolves %ps by default (builtin-script.c
	 * cmd_script: tep_set_function_resolver) */
	if (c->ro.symbols || prints_functions(r->s)) {
		sym_where_default(&c->ro.where, r->s);
		c->z = pd_symbolizer_new(r->s, &c->ro.where.w, !c->ro.symbols);
		if (c->z)
			pd_symbolizer_lines(c->z, c->ro.srcline);
		else
			pd_diag_add(&r->s->diags, PD_C_MALFORMED,
				    PD_AT_NAMED("symbols"), PD_ERR,
				    PD_NO_OFFSET, "symbols", "out of memory");
	}
	pd_tp_set_resolver(r->s, c->z ? &funcs : NULL);
	/* each replica keeps symbol tables of its own (symbolize.h) */
	if (c->z && o.jobs > PD_PROF_JOBS_MAX)
		o.jobs = PD_PROF_JOBS_MAX;
	if (r->o->fmt != EMIT_JSON_LINES)
		emit_arr_begin(c->e, "records");
	pd_walk(r->s, &o, c->z ? &symbols : &plain,
		c); /* each FILE on its own */
	if (r->o->fmt != EMIT_JSON_LINES)
		emit_arr_end(c->e);
	pd_tp_set_resolver(r->s, NULL);
	pd_symbolizer_free(c->z);
	c->z = NULL;
}

int cmd_records(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"type", required_argument, NULL, OPT_TYPE},
		{"event", required_argument, NULL, OPT_EVENT},
		{"pid", required_argument, NULL, OPT_PID},
		{"tid", required_argument, NULL, OPT_TID},
		{"cpu", required_argument, NULL, OPT_CPU},
		{"time", required_argument, NULL, OPT_TIME},
		{"skip", required_argument, NULL, OPT_SKIP},
		{"limit", required_argument, NULL, OPT_LIMIT},
		{"at", required_argument, NULL, OPT_AT},
		{"order", required_argument, NULL, OPT_ORDER},
		{"json-lines", no_argument, NULL, OPT_JSON_LINES},
		{"symbols", no_argument, NULL, OPT_SYMBOLS},
		{"srcline", no_argument, NULL, OPT_SRCLINE},
		SYM_WHERE_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct rec_ctx c = {.ro = {.f = PD_FILTER_ALL}};
	int first, rc;

	rc = parse_cmd_opts(&cmd_records_def, o, argc, argv, NULL, longopts,
			    handle, &c.ro, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	if (c.ro.json_lines)
		o->fmt = EMIT_JSON_LINES;
	if (sym_where_check("records", &c.ro.where) < 0)
		return EXIT_USAGE;
	/* the others are the kernel's symbols of tracepoint prints too */
	if (!c.ro.symbols &&
	    (c.ro.where.w.bid.symfs || c.ro.where.w.raw_names)) {
		usage_error("records: --symfs and --no-demangle go with "
			    "--symbols");
		return EXIT_USAGE;
	}
	/* perf script resolves samples in time order, the maps too */
	if (c.ro.symbols && !c.ro.order_given)
		c.ro.order_time = true;
	return cmd_run(&cmd_records_def, o, &c);
}
