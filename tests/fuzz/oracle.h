/* SPDX-License-Identifier: MIT */
/*
 * The output oracle of the fuzz targets (oracle.c): text holds no control
 * byte and is UTF-8, JSON is valid.  Begin, write the output in pieces,
 * end; a violation aborts.
 */
#ifndef PD_FUZZ_ORACLE_H
#define PD_FUZZ_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

enum fuzz_out {
	FUZZ_OUT_TEXT,
	FUZZ_OUT_JSON,	     /* -j, -p: one document */
	FUZZ_OUT_JSON_LINES, /* --json-lines: one per line */
};

/* what: the command, for the message */
void fuzz_oracle_begin(enum fuzz_out kind, const char *what);
void fuzz_oracle_write(const char *p, size_t n);
void fuzz_oracle_end(void);
/* The same, but no output at all passes too: a command that refused its
 * input before writing (export --to chrome, exit status not 0). */
void fuzz_oracle_end_or_nothing(void);

#endif
