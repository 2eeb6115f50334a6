/* SPDX-License-Identifier: MIT */
/*
 * A formatter's output as a tree (lib/base/jtree.h), for diff: what fn
 * writes is rendered as -j renders it, into memory, and read back.  The
 * tree is then exactly what a user sees in JSON (its keys, its typed
 * values), and a structure's fields are listed once, by its formatter.
 */
#ifndef PD_CAPTURE_H
#define PD_CAPTURE_H

#include "lib/base/arena.h"
#include "lib/base/jtree.h"
#include "fmt/emit.h"

typedef void emit_capture_fn(struct emitter *e, void *arg);

/*
 * The value fn writes (one, with a NULL key: an object or an array as an
 * array's element), in a's memory, its strings as --redact (red; NULL: off)
 * shows them; NULL when out of memory (or a formatter bug).
 */
struct pd_jnode *emit_capture(struct arena *a, struct redactor *red,
			      emit_capture_fn *fn, void *arg);

#endif
