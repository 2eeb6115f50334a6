/* SPDX-License-Identifier: MIT */
/* The formatter for the file header, its sections and feature table. */
#ifndef PD_FMT_HEADER_H
#define PD_FMT_HEADER_H

#include "lib/session/session.h"
#include "fmt/emit.h"

/*
 * The "header" object: magic, version, byte order (and how it was
 * decided), mode, header size; the sections, feature bitmap and table
 * (pipe mode: the stream and its feature records; a directory: its
 * files); the header bytes with -x.
 */
void emit_header(struct emitter *e, const struct pd_session *s);

#endif
