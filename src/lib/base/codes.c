// SPDX-License-Identifier: MIT
/* The table of diagnostic codes (codes.h), in one place. */
#include "lib/base/codes.h"

const struct pd_code_info pd_codes[PD_NCODES] = {
	[PD_C_BAD_MAGIC] = {"bad-magic", PD_ERR, 0, "not a perf.data file"},
	[PD_C_HEADER_TRUNCATED] = {"header-truncated", PD_ERR, 0,
				   "the file ends inside the file header"},
	[PD_C_BAD_HEADER_SIZE] = {"bad-header-size", PD_ERR, 0,
				  "header size is not 104, 72 or 16"},
	[PD_C_BAD_ATTR_SIZE] = {"bad-attr-size", PD_ERR, 0,
				"attr_size is 0 or too small, or unknown (v1)"},
	[PD_C_SECTION_OUT_OF_FILE] =
		{"section-out-of-file", PD_ERR, 0,
		 "a section, ids array or the feature table extends past the "
		 "end of the file, or its offset + size overflows"},
	[PD_C_SECTION_OVERLAP] = {"section-overlap", PD_ERR, 0,
				  "two sections overlap, or a section lies "
				  "inside the file header"},
	[PD_C_SECTION_TOO_LARGE] =
		{"section-too-large", PD_ERR, 0,
		 "a feature section larger than perfdump loads"},
	[PD_C_ATTRS_SIZE_MISMATCH] =
		{"attrs-size-mismatch", PD_ERR, 0,
		 "attrs.size is not a multiple of attr_size"},
	[PD_C_ATTR_SIZE_MISMATCH] =
		{"attr-size-mismatch", PD_WARN, 0,
		 "an attr's own size differs from the header's attr_size"},
	[PD_C_IDS_SIZE_MISMATCH] =
		{"ids-size-mismatch", PD_ERR, 0,
		 "an ids array whose size is not a multiple of 8"},
	[PD_C_EVENT_TYPES_SIZE] = {"event-types-size", PD_WARN, 0,
				   "event_types size is not a multiple of 72"},
	[PD_C_NO_ATTRS] = {"no-attrs", PD_ERR, 0,
			   "the recording has no attr to decode samples with"},
	[PD_C_DATA_SIZE_ZERO] =
		{"data-size-zero", PD_ERR, 0,
		 "data.size is 0 (perf record killed) and no record follows"},
	[PD_C_DATA_SIZE_ZERO_WITH_RECORDS] =
		{"data-size-zero-with-records", PD_ERR, 0,
		 "data.size is 0 (perf record killed) while records follow "
		 "data.offset"},
	[PD_C_FEATURES_MISSING] = {"features-missing", PD_ERR, 0,
				   "the bitmap announces feature sections that "
				   "were never written"},
	[PD_C_RESERVED_FEATURE_BIT] = {"reserved-feature-bit", PD_WARN, 0,
				       "bit 0 (HEADER_RESERVED) is set"},
	[PD_C_BITMAP_GUESS] = {"bitmap-guess", PD_WARN, 0,
			       "a byte-swapped feature bitmap needed a guess"},
	[PD_C_UNKNOWN_FEATURE] =
		{"unknown-feature", PD_WARN, 0,
		 "a feature bit no perf or simpleperf defines"},
	[PD_C_FEATURE_TRUNCATED] =
		{"feature-truncated", PD_ERR, 0,
		 "a feature section is cut short by the end of the file"},
	[PD_C_FEATURE_TRAILING_BYTES] =
		{"feature-trailing-bytes", PD_WARN, 0,
		 "bytes at the end of a feature section were not decoded"},
	[PD_C_FEATURE_SHORT] =
		{"feature-short", PD_ERR, 0,
		 "a feature's fields need more bytes than its section has"},
	[PD_C_FEATURE_UNDECODABLE] = {"feature-undecodable", PD_ERR, 0,
				      "a feature section that does not decode"},
	[PD_C_FEATURE_ID_INVALID] =
		{"feature-id-invalid", PD_ERR, 0,
		 "a HEADER_FEATURE record's feat_id is beyond the 256 bits"},
	[PD_C_DUPLICATE_FEATURE] =
		{"duplicate-feature", PD_WARN, 0,
		 "a feature or end marker appears twice in a pipe stream"},
	[PD_C_STRING_NO_NUL] = {"string-no-nul", PD_ERR, PD_CODE_RAISE,
				"a string has no NUL inside its length"},
	[PD_C_COUNT_TOO_LARGE] =
		{"count-too-large", PD_ERR, 0,
		 "a count larger than the bytes of its section or record"},
	[PD_C_RECORD_TOO_SMALL] =
		{"record-too-small", PD_ERR, 0,
		 "a record smaller than its 8-byte header, its type's minimum "
		 "or its sample_id trailer"},
	[PD_C_RECORD_MISALIGNED] =
		{"record-misaligned", PD_ERR, 0,
		 "a kernel record whose size is not a multiple of 8"},
	[PD_C_RECORD_PAST_END] =
		{"record-past-end", PD_ERR, 0,
		 "a record (or its payload) extends past the end of the data"},
	[PD_C_RECORD_SHORT] =
		{"record-short", PD_ERR, 0,
		 "a record's fields need more bytes than the record has"},
	[PD_C_RECORD_TRAILING_BYTES] =
		{"record-trailing-bytes", PD_WARN, 0,
		 "non-zero bytes after a record's decoded fields"},
	[PD_C_RECORD_UNDECODABLE] = {"record-undecodable", PD_ERR, 0,
				     "a record that does not decode"},
	[PD_C_UNKNOWN_RECORD_TYPE] =
		{"unknown-record-type", PD_WARN, 0,
		 "a record type no perf or simpleperf defines"},
	[PD_C_SAMPLE_SIZE_MISMATCH] = {"sample-size-mismatch", PD_ERR, 0,
				       "a sample shorter or longer than its "
				       "attr's sample_type implies"},
	[PD_C_UNKNOWN_SAMPLE_ID] = {"unknown-sample-id", PD_ERR, 0,
				    "a record's id belongs to no attr (a "
				    "warning with one attr: perf takes it)"},
	[PD_C_DUPLICATE_ID] = {"duplicate-id", PD_WARN, 0,
			       "an id listed by two attrs"},
	[PD_C_SAMPLE_ID_LAYOUT_MISMATCH] =
		{"sample-id-layout-mismatch", PD_ERR, PD_CODE_RAISE,
		 "attrs place the sample id differently or disagree on "
		 "sample_id_all (perf refuses the file)"},
	[PD_C_UNKNOWN_BITS] = {"unknown-bits", PD_WARN, 0,
			       "sample_type, read_format or regs abi bits "
			       "perfdump does not know"},
	[PD_C_TIME_BACKWARDS_ACROSS_ROUND] =
		{"time-backwards-across-round", PD_WARN, 0,
		 "a record older than what perf already flushed at a "
		 "FINISHED_ROUND: perf reads it out of order (\"N out of "
		 "order events recorded\")"},
	[PD_C_DECOMPRESS_FAILED] = {"decompress-failed", PD_ERR, 0,
				    "a compressed record does not decompress"},
	[PD_C_TORN_COMPRESSED_RECORD] =
		{"torn-compressed-record", PD_ERR, 0,
		 "compressed records decompress to a torn record"},
	[PD_C_ZSTD_WINDOW_TOO_LARGE] =
		{"zstd-window-too-large", PD_ERR, 0,
		 "a zstd frame needs a window larger than perfdump keeps"},
	[PD_C_DECOMPRESSED_TOO_LARGE] =
		{"decompressed-too-large", PD_ERR, 0,
		 "a compressed record decompresses to more than the 16 MiB "
		 "perfdump keeps of one"},
	[PD_C_INPUT_DECOMPRESS_FAILED] =
		{"input-decompress-failed", PD_ERR, 0,
		 "the zstd, xz or gzip stream the recording is read from is "
		 "corrupt or cut short, or needs more memory than perfdump "
		 "allows; the recording ends where its decoding stopped"},
	[PD_C_TRAILING_BYTES] =
		{"trailing-bytes", PD_ERR, 0,
		 "bytes after the last record of a data section or stream, too "
		 "few for a record (an error), or after the last section of a "
		 "file (a warning: nobody reads them)"},
	[PD_C_TRAILING_PADDING] = {"trailing-padding", PD_WARN, 0,
				   "zero bytes after the last section"},
	[PD_C_UNREFERENCED_BYTES] =
		{"unreferenced-bytes", PD_WARN, 0,
		 "non-zero bytes between sections that belong to nothing"},
	[PD_C_UNREFERENCED_PADDING] = {"unreferenced-padding", PD_WARN, 0,
				       "zero bytes between sections"},
	[PD_C_READ_ERROR] = {"read-error", PD_ERR, 0,
			     "the input could not be read"},
	[PD_C_ORDER_QUEUE_FULL] =
		{"order-queue-full", PD_WARN, 0,
		 "the time-order queue reached its bound before a "
		 "FINISHED_ROUND: records may come out of time order"},
	[PD_C_TABLE_FULL] =
		{"table-full", PD_WARN, 0,
		 "a table perfdump keeps (threads, build-ids, maps, attrs, "
		 "ids) is full: what did not fit is counted, not kept"},
	[PD_C_NOT_REGULAR_FILE] =
		{"not-regular-file", PD_ERR, 0,
		 "a directory recording's data.N is not a regular file (a "
		 "FIFO, a device): it is skipped"},
	[PD_C_TRACEPOINT_FORMAT_REJECTED] =
		{"tracepoint-format-rejected", PD_ERR, 0,
		 "a tracepoint format's field lines do not parse: the samples "
		 "of that event show no fields"},
	[PD_C_TRACEPOINT_PRINT_FAILED] =
		{"tracepoint-print-failed", PD_WARN, 0,
		 "a tracepoint format's print fmt cannot be parsed (its "
		 "samples print in perf's raw form, \"[FAILED TO PARSE] "
		 "NAME=VALUE ...\"), or a sample's print args would read past "
		 "its RAW payload or divide by zero (no print output; the "
		 "fields are still shown)"},
	[PD_C_TRACEPOINT_FIELD_OUTSIDE_RAW] =
		{"tracepoint-field-outside-raw", PD_ERR, 0,
		 "a tracepoint field, or the data its __data_loc points to, "
		 "lies outside the sample's RAW payload"},
	[PD_C_TRACEPOINT_NO_FORMAT] =
		{"tracepoint-no-format", PD_WARN, 0,
		 "a tracepoint attr's ID has no format in the tracing data: "
		 "its samples show no fields"},
	[PD_C_DSO_NOT_SYMBOLIZED] =
		{"dso-not-symbolized", PD_WARN, 0,
		 "a DSO samples land in has no symbols to read (missing, "
		 "another build-id, none recorded): its frames show none, "
		 "or the kernel's %ps in tracepoint prints its addresses; "
		 "records only"},
	[PD_C_STACK_UNWIND_STOPPED] =
		{"stack-unwind-stopped", PD_WARN, 0,
		 "a sample's user stack (--call-graph dwarf) could not be "
		 "unwound to its outermost frame: its frames end there; said "
		 "for the first such sample; records --symbols and profile"},
	[PD_C_MALFORMED] = {"malformed", PD_ERR, 0, "any other error"},
	[PD_C_UNUSUAL] = {"unusual", PD_WARN, 0, "any other warning"},
};
