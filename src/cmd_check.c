// SPDX-License-Identifier: MIT
/* perfdump check: validate the whole recording, list every anomaly. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/check.h"
#include "perfdump.h"

const struct cmd cmd_check_def = {
	.name = "check",
	.fn = cmd_check,
	.summary = "validate the whole file, list every anomaly",
	.help = "Usage: perfdump check [OPTIONS] [FILE]\n"
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
		"checked and the bytes covered.  Warnings are unusual but "
		"legal\n"
		"(unknown feature bits or record types, zero padding); errors "
		"are\n"
		"damage.  See perfdump(1) for the list of codes.\n"
		"\n"
		"Exit status: 0 no errors (warnings may be listed), 1 errors "
		"found,\n"
		"2 usage error, 3 cannot read the input or write the output.\n"
		"\n"
		"Options:\n"
		"  -j, --json      write JSON\n"
		"  -p, --pretty    write indented JSON\n"
		"  --list-codes    list every code: name, severity, meaning "
		"(tab-separated)\n"
		"  -h, --help      show this help\n",
};

static const char *sev_name(enum pd_sev sev)
{
	return sev == PD_ERR ? "error" : "warning";
}

static void emit_finding(struct emitter *e, const struct pd_finding *f)
{
	char title[192];

	if (f->offset != PD_NO_OFFSET)
		snprintf(title, sizeof(title), "%s 0x%" PRIx64 " %s [%s]",
			 sev_name(f->sev), f->offset, f->structure, f->code);
	else
		snprintf(title, sizeof(title), "%s - %s [%s]", sev_name(f->sev),
			 f->structure, f->code);
	emit_row_begin_title(e, NULL, title);
	/* the title shows these in text */
	emit_text_hide(e, true);
	emit_str(e, "severity", sev_name(f->sev));
	if (f->offset != PD_NO_OFFSET)
		emit_offset(e, "offset", f->offset);
	else
		emit_null(e, "offset");
	emit_str(e, "structure", f->structure);
	emit_str(e, "code", f->code);
	emit_str(e, "what", f->what);
	emit_text_hide(e, false);
	emit_str(e, "message", f->message);
	/* JSON: always an object; text: only when there are values */
	emit_text_hide(e, !f->nvalues);
	emit_row_begin(e, "values");
	emit_text_hide(e, false);
	for (unsigned i = 0; i < f->nvalues; i++) {
		if (f->values[i].hex)
			emit_hex(e, f->values[i].key, f->values[i].v);
		else
			emit_u64(e, f->values[i].key, f->values[i].v);
	}
	emit_obj_end(e);
	emit_obj_end(e);
}

/* Errors on stderr, with check's severities, as every command writes them. */
static void print_errors(const struct opts *o, const struct pd_check *c)
{
	for (size_t i = 0; i < c->diags.n; i++)
		print_diag(&c->diags.v[i], (void *)o);
}

enum { OPT_LIST_CODES = 256 };

static int handle(int opt, const char *arg, void *ctx)
{
	(void)arg;
	if (opt != OPT_LIST_CODES)
		return -1;
	*(bool *)ctx = true;
	return 0;
}

/* --list-codes: the code table, one line each, for scripts and docs. */
static int list_codes(void)
{
	for (int i = 0; i < PD_NCODES; i++)
		printf("%s\t%s\t%s\n", pd_codes[i].name,
		       sev_name(pd_codes[i].sev), pd_codes[i].meaning);
	return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_SOUND : EXIT_IO;
}

int cmd_check(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"list-codes", no_argument, NULL, OPT_LIST_CODES},
		{NULL, 0, NULL, 0},
	};
	bool codes = false;
	struct pd_session s;
	struct pd_check c;
	struct emitter *e;
	char err[512];
	int first, rc;

	rc = parse_cmd_opts(&cmd_check_def, o, argc, argv, NULL, longopts,
			    handle, &codes, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	if (codes && first < argc) {
		usage_error("check: --list-codes takes no FILE");
		return EXIT_USAGE;
	}
	if (codes)
		return list_codes();
	if (take_file_arg(&cmd_check_def, o, argc, argv, first))
		return EXIT_USAGE;
	/* no hook: errors are printed once classified, with check's severity */
	if (pd_session_open(&s, o->file, NULL, NULL, err, sizeof(err)) < 0) {
		if (!o->quiet)
			fprintf(stderr, "perfdump: %s: %s\n", o->file, err);
		return EXIT_IO;
	}
	if (pd_check_run(&s, &c) < 0) {
		fprintf(stderr, "perfdump: %s: out of memory\n", o->file);
		pd_check_free(&c);
		pd_session_close(&s);
		return EXIT_IO;
	}
	print_errors(o, &c);

	e = start_output(o, o->file);
	emit_obj_begin_t(e, "check", "Check");
	emit_bool(e, "sound", c.nerr == 0);
	emit_arr_begin(e, "findings");
	for (size_t i = 0; i < c.n; i++)
		emit_finding(e, &c.v[i]);
	emit_arr_end(e);
	emit_obj_begin_t(e, "summary", "Summary");
	emit_u64(e, "errors", c.nerr);
	emit_u64(e, "warnings", c.nwarn);
	if (c.dropped)
		emit_u64(e, "findings_not_listed", c.dropped);
	emit_u64(e, "records_checked", c.records_checked);
	emit_size(e, "bytes_covered", c.bytes_covered);
	emit_size(e, "file_size", c.file_size);
	emit_str(e, "result", c.nerr ? "damaged" : "sound");
	emit_obj_end(e);
	emit_obj_end(e);
	/* the findings are the problems: text lists them once */
	emit_text_hide(e, true);
	emit_diags(e, &c.diags);
	emit_text_hide(e, false);
	emit_doc_end(e);
	rc = c.nerr ? EXIT_DAMAGED : EXIT_SOUND;
	if (!emit_free(e)) {
		fprintf(stderr, "perfdump: internal error: unbalanced output "
				"nesting\n");
		rc = EXIT_IO;
	}
	pd_check_free(&c);
	pd_session_close(&s);
	return rc;
}
