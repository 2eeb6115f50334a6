/* SPDX-License-Identifier: MIT */
/*
 * The emitter: every field is written once, with its key and typed value;
 * the emitter renders it as aligned readelf-like text, compact JSON or
 * pretty JSON.  Formatters never print any other way.
 *
 * Text rendering (the text contract, DESIGN.md):
 *   - a scalar is a row "key: value" at its depth, values aligned;
 *   - an object is a title line "title:" and its fields indented below,
 *     or with emit_row_begin() all its fields on one line "title: k=v k=v";
 *   - an array of scalars is one row "key: a, b, c"; an array of objects
 *     is a title line and one block (or row) per element.
 * Text labels are the JSON keys, so the two outputs share one vocabulary.
 *
 * JSON rendering: keys are the given snake_case keys; integers in full
 * precision; hex values ("0x...") as strings; flag words twice, raw and
 * decoded (KEY and KEY_names).
 */
#ifndef PD_EMIT_H
#define PD_EMIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/base/cursor.h"
#include "lib/base/diag.h"
#include "fmt/redact.h"

enum emit_format {
	EMIT_TEXT,
	EMIT_JSON,
	EMIT_JSON_PRETTY,
	EMIT_JSON_LINES, /* one compact document per line (records) */
	EMIT_CSV,	 /* the tables only (emit_table_begin), RFC 4180 */
};

struct emitter;

struct emitter *emit_new(FILE *out, enum emit_format fmt, bool hex);
/* Returns false if the output had nesting errors (a bug). */
bool emit_free(struct emitter *e);
bool emit_is_json(const struct emitter *e);
/*
 * What has been written so far, out to the FILE and flushed (a stream
 * read as it arrives, a message on stderr): 0, or EOF on a write error.
 */
int emit_flush(struct emitter *e);
/* -x: formatters add raw bytes with emit_raw() */
bool emit_want_hex(const struct emitter *e);
/*
 * --redact: r rewrites the strings that identify a person or machine
 * (redact.h); NULL (the default) shows them.  The caller keeps r.
 */
void emit_set_redact(struct emitter *e, struct redactor *r);
/* --redact is on: what shows undecoded strings is withheld. */
bool emit_redacting(const struct emitter *e);

/*
 * The document: JSON {"perfdump_json_version": 1, "file": ..., and the
 * command's fields}; text "File: NAME" then the command's output.
 */
void emit_doc_begin(struct emitter *e, const char *file);
/*
 * The same, but text is one line, "NAME: " and the first string or number
 * the command writes (a one-line summary, check --brief); nothing else of
 * it.  JSON is the whole document.
 */
void emit_doc_begin_line(struct emitter *e, const char *file);
void emit_doc_end(struct emitter *e);

/*
 * While hidden, fields are written to JSON only: for fields a text title
 * already shows (a record's offset, size and type), or that text leaves
 * out.  One call site still writes each field; the text rendering just
 * leaves it out.  An object or array opened while hidden is left out of
 * text whole, with everything in it, until it is closed.
 */
void emit_text_hide(struct emitter *e, bool hide);

/* Objects.  key is NULL for array elements.  title_fmt: text title only. */
void emit_obj_begin(struct emitter *e, const char *key);
void emit_obj_begin_t(struct emitter *e, const char *key, const char *title_fmt,
		      ...) __attribute__((format(printf, 3, 4)));
/* Like emit_obj_begin_t, but text puts the fields on the title's line. */
void emit_row_begin_t(struct emitter *e, const char *key, const char *title_fmt,
		      ...) __attribute__((format(printf, 3, 4)));
/* A row with a ready-made title (no formatting: the records hot path). */
void emit_row_begin_title(struct emitter *e, const char *key,
			  const char *title);
/* A row titled by its key; inside an array, a bare row of k=v fields. */
void emit_row_begin(struct emitter *e, const char *key);
void emit_obj_end(struct emitter *e);

void emit_arr_begin(struct emitter *e, const char *key);
void emit_arr_end(struct emitter *e);

/*
 * A table: an array of rows (emit_row_begin*(e, NULL)) whose scalar
 * fields are the columns cols[0..ncols), in that order, in every row
 * (emit_null for an empty cell).  Text and JSON: an array like any other.
 * CSV: the table is the output: a line of the column names, then a line
 * per row; each value as text writes it (emit_text_hide does not hide a
 * cell), strings through text_escape() and quoted as RFC 4180 says ("a,b"
 * and "say ""hi"""); containers inside a row and everything outside a
 * table are left out; lines end in LF.  A row whose fields are not the
 * columns is a bug (emit_free returns false).  cols must outlive the
 * table.
 */
void emit_table_begin(struct emitter *e, const char *key,
		      const char *const *cols, unsigned ncols);
void emit_table_end(struct emitter *e);

/* Scalars.  key is NULL inside arrays. */
void emit_u64(struct emitter *e, const char *key, uint64_t v);
void emit_s64(struct emitter *e, const char *key, int64_t v);
/* v / 10^decimals (1 to 9), exactly, in both formats: a time in ns
 * as microseconds, emit_fixed(e, "ts", ns, 3) 1952504587.123 */
void emit_fixed(struct emitter *e, const char *key, uint64_t v,
		unsigned decimals);
void emit_double(struct emitter *e, const char *key, double v,
		 const char *text_fmt);
/*
 * part of whole as a percentage (0 when whole is 0): JSON a number, text
 * "62.31%", CSV 62.31 (decimals digits after the point).
 */
void emit_percent(struct emitter *e, const char *key, uint64_t part,
		  uint64_t whole, int decimals);
void emit_hex(struct emitter *e, const char *key, uint64_t v);
/* A file offset: JSON integer, text "0x1a8". */
void emit_offset(struct emitter *e, const char *key, uint64_t v);
void emit_bool(struct emitter *e, const char *key, bool v);
void emit_null(struct emitter *e, const char *key);
/* A string: JSON escaped (json.h); text through text_escape(). */
void emit_str(struct emitter *e, const char *key, const char *s);
void emit_strf(struct emitter *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Bytes from the file: text_escape() for text, sanitized for JSON. */
void emit_bytes_str(struct emitter *e, const char *key, const char *s,
		    size_t n);
void emit_pstr(struct emitter *e, const char *key, const struct pd_str *s);
/*
 * A string from the file that may identify a person or machine: a path,
 * a cgroup, a host name, an argument, a comm (enum pd_priv).  Written as
 * emit_bytes_str(), through --redact's rule for its kind.  Every string
 * emitted otherwise gets only the user-name rule, so such strings must
 * come through here (tests/redact.bats checks the formatters' keys).
 */
void emit_private(struct emitter *e, const char *key, enum pd_priv kind,
		  const char *s, size_t n);
void emit_private_pstr(struct emitter *e, const char *key, enum pd_priv kind,
		       const struct pd_str *s);
/*
 * perf's recorded command line (CMDLINE): JSON an array of strings; text
 * one row, the arguments separated by blanks, each quoted as a POSIX
 * shell needs it typed ('a b', 'it'\''s', $'\x1b[m' for what text_escape
 * escapes), as perf report --header-only shows it.  --redact keeps perf's
 * own subcommand and options (redact_argv_next).
 */
void emit_argv(struct emitter *e, const char *key, const struct pd_str *v,
	       uint32_t n);
/*
 * A string from the file of which runs show other strings (a tracepoint's
 * print output, with the string fields it prints): as emit_bytes_str(),
 * but under --redact each run shows what emit_private() would of its
 * source (redact_runs()).
 */
void emit_private_runs(struct emitter *e, const char *key, const char *s,
		       size_t n, const struct redact_run *runs, size_t nruns);
/* emit_private of a C string; NULL: null in JSON, nothing in text. */
void emit_private_opt(struct emitter *e, const char *key, enum pd_priv kind,
		      const char *s);
/* A byte count: JSON integer, text "N (1.5 MiB)" when large. */
void emit_size(struct emitter *e, const char *key, uint64_t bytes);
/* A value with a name: JSON KEY: v, KEY_name: "name"; text "v (name)". */
void emit_enum(struct emitter *e, const char *key, uint64_t v,
	       const char *name);
/*
 * A flag word: JSON KEY: "0x..", KEY_names: [...]; text "0x.. (A|B)".
 * names[i] names bit i (NULL: unnamed -> "bit i").
 */
void emit_flags(struct emitter *e, const char *key, uint64_t v,
		const char *const *names, size_t nnames);
/*
 * The same for a word of which only flag_bits are flags (the rest a field
 * shown apart, as misc's cpumode): the raw word, the names of its flags.
 */
void emit_flags_in(struct emitter *e, const char *key, uint64_t v,
		   uint64_t flag_bits, const char *const *names, size_t nnames);
/* Hex string of bytes (build-ids, tags): "0a1b..." in both formats. */
void emit_hexstr(struct emitter *e, const char *key, const uint8_t *p,
		 size_t n);
/*
 * The same for bytes perfdump does not decode (a tracepoint's fields, an
 * unknown record's head): they may hold any string, so under --redact
 * the value is "<redacted>".
 */
void emit_hexbytes(struct emitter *e, const char *key, const uint8_t *p,
		   size_t n);
/*
 * A hex dump of file bytes: JSON {"offset": N, "size": N, "hex": ".."};
 * text a title and canonical 16-byte lines with file offsets.  Under
 * --redact the bytes are left out: JSON {"offset", "size", "redacted":
 * true}, text the title line only.
 */
void emit_hexdump(struct emitter *e, const char *key, const uint8_t *p,
		  size_t n, uint64_t file_off);
/* emit_hexdump(e, "raw", ...) only when -x was given. */
void emit_raw(struct emitter *e, const uint8_t *p, size_t n, uint64_t file_off);

/*
 * Text only (JSON and CSV: nothing): a line of its own under the current
 * row, the row's line ended first, as a hex dump is: emit_line_put()
 * writes perfdump's own text as it is, emit_line_put_str() a string from
 * the file, escaped (and redacted as kind says).  records --symbols'
 * frames, laid out as perf script lays them out.
 */
void emit_line_begin(struct emitter *e);
void emit_line_put(struct emitter *e, const char *s);
void emit_line_put_str(struct emitter *e, enum pd_priv kind, const char *s);
void emit_line_end(struct emitter *e);

/*
 * Structures that a damaged file can make overlap (feature sections: 256
 * of them over the same megabytes) must not multiply the hex dumps.  The
 * formatter of such a structure marks the file range it dumped; a later
 * one whose range overlaps a marked one (emit_dump_repeats) writes
 * emit_hexdump_repeat() instead of its dumps: JSON {"offset": N, "size":
 * N, "repeat": true}, text a line "KEY: N bytes at 0xOFF: overlap bytes
 * dumped above, not repeated".  The bytes of a file are then dumped
 * about once, whatever its table says.
 */
bool emit_dump_repeats(const struct emitter *e, uint64_t file_off, uint64_t n);
void emit_dump_mark(struct emitter *e, uint64_t file_off, uint64_t n);
void emit_hexdump_repeat(struct emitter *e, const char *key, size_t n,
			 uint64_t file_off);

/*
 * Elements of the open array (or JSON lines) rendered on other threads
 * (records --jobs): emit_fork makes an emitter in e's state that writes
 * into memory, as if an element of the array came before it; the
 * caller's thread writes what it holds into e with emit_join (the
 * elements' order is the joins'), which empties it for more.  A forked
 * emitter writes only whole elements; --redact (a redactor's state) is
 * not for one.  e must not change but by joins while forks are out.
 */
struct emitter *emit_fork(const struct emitter *e);
void emit_join(struct emitter *e, struct emitter *fork);
void emit_fork_free(struct emitter *fork);
/*
 * A place between a fork's elements (on its thread: the bytes it wrote
 * so far), and on the caller's thread its elements up to that place
 * written into e: so that e may take elements of its own among a fork's
 * (export --to chrome's run slices, made in order); emit_join writes
 * the rest.
 */
size_t emit_fork_pos(struct emitter *fork);
void emit_join_upto(struct emitter *e, struct emitter *fork, size_t pos);

/*
 * Diagnostics: JSON "errors": [...] and "warnings": [...] (always
 * present); text a "problems:" block listing both, when there are any.
 */
void emit_diags(struct emitter *e, const struct pd_diags *d);

/*
 * The one escaping rule of text output (emit_text.c); every string the
 * text rendering writes passes through it, and so does perfdump's stderr.
 * Printable ASCII and valid UTF-8 pass unchanged, except:
 *   a backslash -> \\, and '"' -> \" when quote is set (quoted values);
 *   newline and tab -> \n and \t;
 *   other C0 controls (< 0x20) and DEL (0x7f) -> \xNN;
 *   C1 controls U+0080..U+009F (UTF-8 C2 80..C2 9F) -> \xc2\xNN;
 *   bytes that are not valid UTF-8 (a lone 0x9b, 0xff) -> \xNN.
 * So the output holds no control character and is valid UTF-8, and the
 * original bytes can be read back from it.  put() receives the result in
 * pieces.
 */
typedef void text_put_fn(void *ctx, const char *p, size_t n);
void text_escape(const char *s, size_t n, bool quote, text_put_fn *put,
		 void *ctx);

/* "1.5 MiB" style, for text output. */
void format_human_size(char *buf, size_t len, uint64_t bytes);

#endif
