/* SPDX-License-Identifier: MIT */
/* Shared by the files that make up the session (not a public API). */
#ifndef PD_SESSION_INT_H
#define PD_SESSION_INT_H

#include "lib/session/session.h"

/* One feature section (or pipe payload) larger than this is not loaded. */
#define PD_FEAT_MAX_LOAD (64ULL << 20)
/*
 * All that the session keeps (feature sections, pipe metadata records,
 * attrs, ids) together: overlapping sections cannot multiply the file.
 */
#define PD_SESSION_ARENA_MAX ((size_t)128 << 20)

void sess_err(struct pd_session *s, enum pd_code code, struct pd_where at,
	      uint64_t off, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void sess_warn(struct pd_session *s, enum pd_code code, struct pd_where at,
	       uint64_t off, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

unsigned popcount256(const uint64_t w[4]);

/* A whole file header (its first PD_HEADER_SIZE bytes b, fields decoded):
 * its bitmap, sections, attrs and feature table (session_header.c). */
void sess_check_file_header(struct pd_session *s, const uint8_t *b);
struct pd_feature *sess_add_feature(struct pd_session *s, unsigned id,
				    enum pd_feat_src src);
bool sess_add_part(struct pd_session *s, struct pd_feature *f, uint64_t off,
		   uint64_t size, const uint8_t *bytes, uint64_t loaded,
		   uint64_t rec_off);

/* session_feat.c */
void sess_read_feature_table(struct pd_session *s);
/* session_pipe.c */
void sess_walk_pipe_live(struct pd_session *s);
void sess_list_dir(struct pd_session *s, const char *dirpath);

#endif
