/* SPDX-License-Identifier: MIT */
/* The emitter's insides, shared by emit.c, emit_text.c and emit_dump.c. */
#ifndef PD_EMIT_INT_H
#define PD_EMIT_INT_H

#include "emit.h"
#include "json.h"

#define TEXT_MAX_DEPTH 64
#define TEXT_VALUE_COL 28
/* one per feature section of a file (PD_FEAT_BITS) */
#define EMIT_MAX_MARKS 256

enum tkind { T_OBJ, T_ROW, T_ARR };

struct tframe {
	enum tkind kind;
	int indent;	 /* columns of this frame's children */
	bool started;	 /* array: something printed */
	bool inline_arr; /* array printed as one row */
	unsigned index;	 /* array: elements so far */
	const char *key; /* array: its key, for the deferred title */
	bool first;	 /* row: no field printed yet */
	bool after_dump; /* row: a hex dump ended the line */
	int pad;	 /* row: spaces owed before the first field */
	bool brace;	 /* element of an array in a row: close with '}' */
};

struct emitter {
	FILE *out;
	enum emit_format fmt;
	bool hex;
	struct json_writer jw;
	struct tframe fr[TEXT_MAX_DEPTH];
	int depth;
	bool bad;
	bool text_hidden; /* emit_text_hide() */
	int text_skip;	  /* open containers begun while hidden: all of
			   * them, whatever they hold, is left out of text */
	/* emit_dump_mark(): file ranges [off, end) dumped so far */
	struct {
		uint64_t off, end;
	} marked[EMIT_MAX_MARKS];
	unsigned nmarked;
};

/* Is text output off here (emit_text_hide, or inside a hidden container)? */
static inline bool text_off(const struct emitter *e)
{
	return e->text_hidden || e->text_skip;
}

struct tframe *top(struct emitter *e);
void indent(struct emitter *e, int n);
/* a scalar row in text: "key: value" or " key=value" in a row */
void text_value(struct emitter *e, const char *key, const char *v);
/* text_value for a number perfdump formatted: written as it is */
void text_number(struct emitter *e, const char *key, const char *digits);
void json_key(struct emitter *e, const char *key);

/* emit_text.c: the text rendering */
/* the lead-in for a scalar with this key; the caller prints the value */
void text_lead(struct emitter *e, const char *key);
/* a newline after a value in an object */
void text_end_value(struct emitter *e);
/* text_escape() into the output, in double quotes if quote */
void text_bytes(struct emitter *e, const char *s, size_t n, bool quote);
/* open a container (title: text only; NULL for none) / close it */
void text_open(struct emitter *e, const char *key, const char *title,
	       enum tkind kind);
void text_close(struct emitter *e);

#endif
