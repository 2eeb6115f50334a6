/* SPDX-License-Identifier: MIT */
/* The emitter's insides, shared by emit.c, emit_text.c and emit_dump.c. */
#ifndef PD_EMIT_INT_H
#define PD_EMIT_INT_H

#include "fmt/emit.h"
#include "fmt/json.h"
#include "fmt/redact.h"

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
	bool after_line; /* row: ... or a line under it (emit_line_*) */
	int pad;	 /* row: spaces owed before the first field */
	bool brace;	 /* element of an array in a row: close with '}' */
	bool csv_table;	 /* CSV: the table's array */
	bool csv_row;	 /* CSV: a row of the table: a line */
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
	/* CSV: the open table's columns, and the next one in its row */
	const char *const *cols;
	unsigned ncols, col;
	bool one_line;	      /* emit_doc_begin_line: text is one line */
	bool line_owed;	      /* ... whose value is still to come */
	struct redactor *red; /* --redact, or NULL */
	/* emit_dump_mark(): file ranges [off, end) dumped so far */
	struct {
		uint64_t off, end;
	} marked[EMIT_MAX_MARKS];
	unsigned nmarked;
	/* a forked emitter (emit_fork): its output, in memory
	 * (open_memstream) */
	char *mbuf;
	size_t msize;
	size_t joined; /* of it, written by emit_join_upto */
};

static inline bool is_json(const struct emitter *e)
{
	return e->fmt != EMIT_TEXT && e->fmt != EMIT_CSV;
}

/*
 * Is text output off here (emit_text_hide, or inside a hidden container)?
 * CSV: everywhere but in a table's row (where fields hidden from text are
 * cells too: a row holds every column).
 */
static inline bool text_off(const struct emitter *e)
{
	if (e->fmt == EMIT_CSV)
		return e->text_skip || !e->fr[e->depth].csv_row;
	return e->text_hidden || e->text_skip || e->one_line;
}

struct tframe *top(struct emitter *e);
void indent(struct emitter *e, int n);
/* a scalar row in text: "key: value" or " key=value" in a row */
void text_value(struct emitter *e, const char *key, const char *v);
/* text_value for a number perfdump formatted (n bytes): written as it is */
void text_number(struct emitter *e, const char *key, const char *digits,
		 size_t n);
void json_key(struct emitter *e, const char *key);
/* a string value, already redacted: JSON escaped, text through text_escape */
void write_str(struct emitter *e, const char *key, const char *s, size_t n);

/* emit_text.c: the text rendering */
/* the lead-in for a scalar with this key; the caller prints the value */
void text_lead(struct emitter *e, const char *key);
/* the value of a one-line document (emit_doc_begin_line), if it is owed */
bool text_line_value(struct emitter *e, const char *s, size_t n);
/* a newline after a value in an object */
void text_end_value(struct emitter *e);
/* text_escape() into the output, in double quotes if quote */
void text_bytes(struct emitter *e, const char *s, size_t n, bool quote);
/* open a container (title: text only; NULL for none) / close it */
void text_open(struct emitter *e, const char *key, const char *title,
	       enum tkind kind);
void text_close(struct emitter *e);
/* the open array's first element comes: its title line, once */
void text_arr_start(struct emitter *e);

/* emit_csv.c: the CSV rendering of tables */
void csv_open(struct emitter *e, enum tkind kind);
void csv_close(struct emitter *e);
/* a cell's lead-in: the separator, and the column's name checked */
void csv_lead(struct emitter *e, const char *key);
/* a cell's text: escaped by text_escape, quoted by RFC 4180 */
void csv_bytes(struct emitter *e, const char *s, size_t n);
/* push a frame (emit_text.c) */
void text_push(struct emitter *e, struct tframe f);

#endif
