// SPDX-License-Identifier: MIT
/* perfdump check: validate the whole recording, list every anomaly. */
#include <getopt.h>
#include <stdio.h>

#include "lib/analysis/check.h"
#include "fmt/fmt_check.h"
#include "perfdump.h"

static int load(struct cmd_run *r);
static void show(struct cmd_run *r);
static void done(struct cmd_run *r);

const struct cmd cmd_check_def = {
	.name = "check",
	.fn = cmd_check,
	.summary = "validate the whole file, list every anomaly",
	.help = "Usage: perfdump check [OPTIONS] [FILE...]\n"
		"\n"
		"Validate the whole recording: the header and its sections, "
		"every\n"
		"feature section decoded, every attr, every record read and "
		"decoded\n"
		"(samples against their attr's sample_type, compressed "
		"records\n"
		"decompressed), time order across FINISHED_ROUND, and the "
		"bytes that\n"
		"belong to no section or record.  Each finding shows its "
		"severity,\n"
		"file offset, the structure, a stable code, what is wrong and "
		"the\n"
		"values involved; a summary counts errors, warnings, the "
		"records\n"
		"checked, those perf reads out of order and the bytes "
		"covered.\n"
		"Warnings are unusual but legal (unknown feature bits or "
		"record\n"
		"types, zero padding, records perf processes out of order and "
		"counts\n"
		"in \"N out of order events recorded\"); errors are damage.  "
		"See\n"
		"perfdump(1) for the list of codes.\n"
		"\n"
		"Exit status: 0 no errors (warnings may be listed), 1 errors "
		"found,\n"
		"2 usage error, 3 cannot read the input or write the output; "
		"with\n"
		"several FILEs, the worst of them.\n"
		"\n"
		"Options:\n"
		"  -b, --brief     one line per FILE, 'FILE: sound', 'FILE: "
		"damaged:\n"
		"                  N errors, first at 0xOFFSET: CODE' or "
		"'FILE: "
		"not a\n"
		"                  perf.data file', and no messages on stderr "
		"(JSON:\n"
		"                  the counts and the first error)\n"
		"  -j, --json      write JSON\n"
		"  -p, --pretty    write indented JSON\n"
		"  --list-codes    list every code: name, severity, meaning "
		"(tab-separated)\n"
		"  -h, --help      show this help\n",
	/* no hook: errors are printed once classified, with check's
	 * severity; an input that is not a recording is shown too: that
	 * is its finding (bad-magic) */
	.setup = CMD_NO_DIAG_HOOK | CMD_NOT_PERF_DATA,
	.load = load,
	.show = show,
	.done = done,
};

/* The options, and the model. */
struct check_cmd {
	bool codes, brief;
	struct pd_check c;
};

/*
 * stderr: one line for a damaged file, at its first error: how many of
 * each code, the likely cause and the repair (the findings themselves
 * are in the output, once).
 */
static void print_summary(const struct opts *o, const struct pd_session *s,
			  const struct pd_check *c)
{
	char buf[2048];
	struct pd_diag d = {.sev = PD_ERR,
			    .offset = PD_NO_OFFSET,
			    .what = (char *)"check: damaged",
			    .detail = buf};

	if (!c->nerr)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].sev == PD_ERR) {
			d.offset = c->v[i].offset;
			break;
		}
	format_check_summary(buf, sizeof(buf), s, c);
	print_diag(&d, (void *)o);
}

enum { OPT_LIST_CODES = 256 };

static int handle(int opt, const char *arg, void *ctx)
{
	struct check_cmd *cc = ctx;

	(void)arg;
	if (opt == OPT_LIST_CODES)
		cc->codes = true;
	else if (opt == 'b')
		cc->brief = true;
	else
		return -1;
	return 0;
}

/* The parser: check's findings, classified; errors printed as found. */
static int load(struct cmd_run *r)
{
	struct check_cmd *cc = r->ctx;
	struct pd_check *c = &cc->c;

	if (pd_check_run(r->s, c) < 0) {
		fprintf(stderr, "perfdump: %s: out of memory\n", r->o->file);
		pd_check_free(c);
		return EXIT_IO;
	}
	/* --brief: the line says it; not a recording: the open's error
	 * says why, as every command does */
	if (!cc->brief && r->s->not_perf_data)
		for (size_t i = 0; i < r->s->diags.n; i++)
			print_diag(&r->s->diags.v[i], (void *)r->o);
	else if (!cc->brief)
		print_summary(r->o, r->s, c);
	r->text_one_line = cc->brief;
	/* the findings are the problems: text lists them once */
	r->diags = &c->diags;
	r->text_diags = false;
	return 0;
}

static void show(struct cmd_run *r)
{
	struct check_cmd *cc = r->ctx;

	if (cc->brief)
		emit_check_brief(r->e, r->s, &cc->c);
	else
		emit_check(r->e, r->s, &cc->c);
}

static void done(struct cmd_run *r)
{
	struct check_cmd *cc = r->ctx;

	pd_check_free(&cc->c);
}

int cmd_check(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"list-codes", no_argument, NULL, OPT_LIST_CODES},
		{"brief", no_argument, NULL, 'b'},
		{NULL, 0, NULL, 0},
	};
	struct check_cmd cc = {0};
	int first, rc;

	rc = parse_cmd_opts(&cmd_check_def, o, argc, argv, "b", longopts,
			    handle, &cc, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	if (cc.codes && first < argc) {
		usage_error("check: --list-codes takes no FILE");
		return EXIT_USAGE;
	}
	if (cc.codes)
		return print_code_list(stdout) ? EXIT_IO : EXIT_SOUND;
	take_file_arg(o, argc, argv, first);
	return cmd_run(&cmd_check_def, o, &cc);
}
