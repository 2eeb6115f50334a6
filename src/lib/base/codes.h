/* SPDX-License-Identifier: MIT */
/*
 * The stable codes of diagnostics (shown by perfdump check, listed in
 * perfdump(1)).  Users script against the names: never rename one.  Every
 * diagnostic gets its code where it is raised (pd_diag_add), never from its
 * message text.  Name, severity and meaning of each: pd_codes[] (codes.c);
 * a new code needs a line in man/perfdump.1 and a fixture that raises it
 * (tests/codes.bats checks both).
 */
#ifndef PD_CODES_H
#define PD_CODES_H

enum pd_code {
	PD_C_BAD_MAGIC,
	PD_C_HEADER_TRUNCATED,
	PD_C_BAD_HEADER_SIZE,
	PD_C_BAD_ATTR_SIZE,
	PD_C_SECTION_OUT_OF_FILE,
	PD_C_SECTION_OVERLAP,
	PD_C_SECTION_TOO_LARGE,
	PD_C_ATTRS_SIZE_MISMATCH,
	PD_C_ATTR_SIZE_MISMATCH,
	PD_C_IDS_SIZE_MISMATCH,
	PD_C_EVENT_TYPES_SIZE,
	PD_C_NO_ATTRS,
	PD_C_DATA_SIZE_ZERO,
	PD_C_DATA_SIZE_ZERO_WITH_RECORDS,
	PD_C_FEATURES_MISSING,
	PD_C_RESERVED_FEATURE_BIT,
	PD_C_BITMAP_GUESS,
	PD_C_UNKNOWN_FEATURE,
	PD_C_FEATURE_TRUNCATED,
	PD_C_FEATURE_TRAILING_BYTES,
	PD_C_FEATURE_SHORT,
	PD_C_FEATURE_UNDECODABLE,
	PD_C_FEATURE_ID_INVALID,
	PD_C_DUPLICATE_FEATURE,
	PD_C_STRING_NO_NUL,
	PD_C_COUNT_TOO_LARGE,
	PD_C_RECORD_TOO_SMALL,
	PD_C_RECORD_MISALIGNED,
	PD_C_RECORD_PAST_END,
	PD_C_RECORD_SHORT,
	PD_C_RECORD_TRAILING_BYTES,
	PD_C_RECORD_UNDECODABLE,
	PD_C_UNKNOWN_RECORD_TYPE,
	PD_C_SAMPLE_SIZE_MISMATCH,
	PD_C_UNKNOWN_SAMPLE_ID,
	PD_C_DUPLICATE_ID,
	PD_C_SAMPLE_ID_LAYOUT_MISMATCH,
	PD_C_UNKNOWN_BITS,
	PD_C_TIME_BACKWARDS_ACROSS_ROUND,
	PD_C_DECOMPRESS_FAILED,
	PD_C_TORN_COMPRESSED_RECORD,
	PD_C_ZSTD_WINDOW_TOO_LARGE,
	PD_C_DECOMPRESSED_TOO_LARGE,
	PD_C_INPUT_DECOMPRESS_FAILED,
	PD_C_TRAILING_BYTES,
	PD_C_TRAILING_PADDING,
	PD_C_UNREFERENCED_BYTES,
	PD_C_UNREFERENCED_PADDING,
	PD_C_READ_ERROR,
	PD_C_ORDER_QUEUE_FULL,
	PD_C_TABLE_FULL,
	PD_C_NOT_REGULAR_FILE,
	PD_C_TRACEPOINT_FORMAT_REJECTED,
	PD_C_TRACEPOINT_PRINT_FAILED,
	PD_C_TRACEPOINT_FIELD_OUTSIDE_RAW,
	PD_C_TRACEPOINT_NO_FORMAT,
	PD_C_DSO_NOT_SYMBOLIZED,
	PD_C_STACK_UNWIND_STOPPED,
	PD_C_MALFORMED,
	PD_C_UNUSUAL,
	PD_NCODES
};

/* How bad a diagnostic is (each code has its own, pd_codes[]). */
enum pd_sev {
	PD_WARN, /* unusual but legal, or a guess was needed */
	PD_ERR,	 /* damaged: something could not be decoded */
};

/* One entry of the code table (codes.c), indexed by enum pd_code. */
struct pd_code_info {
	const char *name; /* "record-too-small": stable */
	enum pd_sev sev;  /* the severity perfdump(1) documents */
	unsigned flags;	  /* PD_CODE_RAISE */
	const char *meaning;
};

/*
 * check reports a finding of this code at the code's severity even where the
 * parser only warns (perf refuses such files; the other commands go on).
 */
#define PD_CODE_RAISE 1u

extern const struct pd_code_info pd_codes[PD_NCODES];

#endif
