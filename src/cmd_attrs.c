// SPDX-License-Identifier: MIT
/* perfdump attrs: every perf_event_attr, decoded, with names and ids. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/session/evlist.h"
#include "lib/session/id_index.h"
#include "fmt/fmt_attr.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);
static void done(struct cmd_run *r);

const struct cmd cmd_attrs_def = {
	.name = "attrs",
	.fn = cmd_attrs,
	.summary = "every perf_event_attr, decoded, with names and ids",
	.help = "Usage: perfdump attrs [-j|-p] [-x] [FILE...]\n"
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
	/* PMU_MAPPINGS for PMU names, TRACING_DATA for tracepoint names */
	.setup = CMD_WHOLE_STREAM | CMD_TORN | CMD_FEATURE_DEPS | CMD_EVLIST |
		 CMD_HEX,
	.load = load,
	.show = show,
	.done = done,
};

/* The parser: the ID_INDEX entries of the ids. */
static int load(struct cmd_run *r)
{
	pd_id_index_load(r->s, r->ctx);
	return 0;
}

static void show(struct cmd_run *r)
{
	struct pd_session *s = r->s;
	struct emitter *e = r->e;

	emit_arr_begin(e, "attrs");
	for (uint32_t i = 0; i < s->evlist.n; i++) {
		const struct pd_evsel *ev = &s->evlist.v[i];
		const uint8_t *raw = NULL;
		size_t rawlen = 0;

		if (emit_want_hex(e))
			raw = pd_evsel_raw(s, ev, &rawlen);
		emit_evsel(e, s, ev, r->ctx, raw, rawlen);
	}
	emit_arr_end(e);
}

static void done(struct cmd_run *r)
{
	pd_id_index_free(r->ctx);
}

int cmd_attrs(struct opts *o, int argc, char **argv)
{
	struct pd_id_index ix = {0};
	int first, rc;

	rc = parse_cmd_opts(&cmd_attrs_def, o, argc, argv, NULL, NULL, NULL,
			    NULL, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	return cmd_run(&cmd_attrs_def, o, &ix);
}
