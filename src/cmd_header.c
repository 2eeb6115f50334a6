// SPDX-License-Identifier: MIT
/* perfdump header: the file header, its sections and the feature table. */
#include "fmt/fmt_header.h"
#include "perfdump.h"

static void show(struct cmd_run *r);

const struct cmd cmd_header_def = {
	.name = "header",
	.fn = cmd_header,
	.summary = "file header, sections, feature bitmap and table",
	.help = "Usage: perfdump header [-j|-p] [-x] [FILE...]\n"
		"\n"
		"Show the perf.data file header: magic, byte order and how it "
		"was\n"
		"decided, mode (file, pipe, directory, v1), header size, "
		"attr_size, the\n"
		"attrs/data/event_types sections (offset, size, end), the "
		"feature\n"
		"bitmap by name, and the feature section table (offset, size, "
		"end,\n"
		"whether it lies inside the file).  In pipe mode the stream is "
		"walked and\n"
		"its metadata records are listed instead; for a directory, "
		"each data.N\n"
		"file with its size.  Problems are listed with their file "
		"offsets.\n"
		"\n"
		"Options:\n"
		"  -j, --json      write JSON\n"
		"  -p, --pretty    write indented JSON\n"
		"  -x, --hex       add a hex dump of the header bytes\n"
		"  -h, --help      show this help\n",
	/* data.size 0: where the records end, and why */
	.setup = CMD_WHOLE_STREAM | CMD_TORN | CMD_HEX,
	.show = show,
};

static void show(struct cmd_run *r)
{
	emit_header(r->e, r->s);
}

int cmd_header(struct opts *o, int argc, char **argv)
{
	int first, rc;

	rc = parse_cmd_opts(&cmd_header_def, o, argc, argv, NULL, NULL, NULL,
			    NULL, &first);
	if (rc)
		return rc > 0 ? EXIT_SOUND : EXIT_USAGE;
	take_file_arg(o, argc, argv, first);
	return cmd_run(&cmd_header_def, o, NULL);
}
