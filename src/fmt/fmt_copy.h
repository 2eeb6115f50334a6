/* SPDX-License-Identifier: MIT */
/* What perfdump copy wrote (lib/write/copy.h's result). */
#ifndef PD_FMT_COPY_H
#define PD_FMT_COPY_H

#include "fmt/emit.h"
#include "lib/write/copy.h"

/* The copy's object: the output, its records, and what was changed. */
void emit_copy(struct emitter *e, const char *out,
	       const struct pd_copy_result *r);

#endif
