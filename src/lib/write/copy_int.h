/* SPDX-License-Identifier: MIT */
/* The writer's insides, shared by copy*.c (see copy.h). */
#ifndef PD_COPY_INT_H
#define PD_COPY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session/event.h"
#include "lib/session/session.h"
#include "lib/write/copy.h"
#include "lib/write/out.h"

/* Which records go with the samples kept (copy_keep.c). */
struct copy_keep {
	const struct pd_filter *f; /* NULL: every record */
	/* --pid / --tid: the side-band records of these processes and of
	 * the kernel only; else every side-band record */
	bool by_task;
	uint32_t pid; /* the process kept (UINT32_MAX: not known yet) */
	uint32_t tid; /* with --tid: the thread kept */
};

/* The evsels written (copy_event.c): with --event, those it names and
 * those the records kept need. */
struct copy_evsels {
	bool *kept;	 /* by evlist index; NULL: every evsel */
	bool *named;	 /* with kept: --event names it (its samples kept) */
	uint32_t *idx;	 /* a kept evsel's index in the evlist written */
	uint32_t *order; /* the evlist written: n evlist indexes */
	uint32_t n;	 /* with kept: the evsels written */
};

struct copy_z;
struct pd_bid_list;

struct copy {
	struct pd_session *s;
	const struct pd_copy_opts *o;
	struct pd_copy_result *r;
	struct pd_out out;
	bool swap;
	struct copy_keep keep;
	struct copy_evsels ev;
	bool aux_data;	      /* an AUXTRACE record was written */
	uint8_t *chunk;	      /* payloads and sections read from the input */
	uint64_t features[4]; /* the bitmap written */
	struct copy_z *z;     /* --compress: the batch and the stream */
	char host[256];	      /* --redact: HOSTNAME's string (host_len) */
	size_t host_len;
	uint8_t *rec; /* --redact, --event: a record rewritten (64 KiB) */
	struct pd_bid_list *bids; /* --build-ids hit: the DSOs hit */
};

/* the bytes of c->chunk */
#define PD_COPY_CHUNK (256u << 10)

void copy_note(struct copy *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* copy_keep.c: set up for c->o->filter (a walk for --tid's process) */
void copy_keep_init(struct copy *c);
/* Run fn with its walk's diagnostics dropped: the copy's own walk says
 * them, once. */
void copy_quietly(struct copy *c, void (*fn)(struct copy *c));
/* Is this record written? */
bool copy_keep_record(const struct copy *c, const struct pd_event *ev,
		      const struct pd_decoded *d);

/* copy_event.c: which evsels are written, decided before anything is
 * (-1: refused, r->why) */
int copy_evsels_init(struct copy *c);
void copy_evsels_free(struct copy *c);
static inline bool copy_evsel_kept(const struct copy *c, uint32_t i)
{
	return !c->ev.kept || c->ev.kept[i];
}
/* The evsels written, in order: copy_nevsels of them, the k-th's index
 * in the input's evlist copy_evsel_at */
static inline uint32_t copy_nevsels(const struct copy *c)
{
	return c->ev.kept ? c->ev.n : c->s->evlist.n;
}
static inline uint32_t copy_evsel_at(const struct copy *c, uint32_t k)
{
	return c->ev.kept ? c->ev.order[k] : k;
}
/* Does the record name no evsel left out (by its id)? */
bool copy_event_kept(const struct copy *c, const struct pd_event *ev,
		     const struct pd_decoded *d);
/* An ID_INDEX record with the entries of the evsels written into buf
 * (64 KiB): 1, *len its size; 0: written as read; -1: none left. */
int copy_event_id_index(struct copy *c, const struct pd_event *ev,
			const struct pd_decoded *d, uint8_t *buf, size_t *len);

/* copy_head.c: the ids and attrs, then the file header (at the end). */
int copy_write_attrs(struct copy *c, uint64_t *attrs_off, uint64_t *attr_size);
/* The feature table and sections after the data section. */
void copy_write_features(struct copy *c);
void copy_write_header(struct copy *c, uint64_t attrs_off, uint64_t attr_size);

/*
 * copy_redact.c (c->o->redact set): ev rewritten into buf (64 KiB) with
 * its strings redacted: 1, *len its size; 0: written as read; -1: left
 * out (its string cannot be found to be redacted).
 */
int copy_redact_record(struct copy *c, const struct pd_event *ev,
		       const struct pd_decoded *d, uint8_t *buf, size_t *len);
/* The host name OSRELEASE is looked for in: HOSTNAME's bytes. */
void copy_redact_host(struct copy *c, const uint8_t *in, size_t size);
/* Feature id's bytes redacted: 1 into *out (malloc'd), 0 written as
 * read (nothing in it to redact), -1 left out (cannot be read). */
int copy_redact_feature(struct copy *c, const struct pd_feature *fe,
			const uint8_t *in, size_t size, uint8_t **out,
			size_t *outlen);

/* Append [off, off + len) of the input (a section, a payload). */
bool copy_input_range(struct copy *c, uint64_t off, uint64_t len);

/* Set r->why (r->err 0: the recording cannot be written so); -1. */
int copy_refuse(struct copy *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The attr bytes of every evsel (raw[i], len[i]: l->n of them), and the
 * size they are written at, the largest (-1: refused, or above max). */
int copy_attr_bytes(struct copy *c, const uint8_t **raw, size_t *len,
		    uint64_t *asz, size_t max);
/* The first byte of raw[from, len) that is not zero (len: none). */
size_t copy_attr_nonzero(const uint8_t *raw, size_t len, size_t from);
/* One attr as written at asz bytes into b: zero-padded, its size field
 * set to asz. */
void copy_attr_image(const struct copy *c, const uint8_t *raw, size_t len,
		     uint64_t asz, uint8_t *b);

/* A feature as written: its bytes from f (NULL: made, SAMPLE_TIME's,
 * COMPRESSED's or an empty HOSTNAME). */
/* A feature as written: its bytes from f (NULL: made, SAMPLE_TIME's or an
 * empty HOSTNAME). */
struct feat_out {
	const struct pd_feature *f;
	uint64_t size;
	uint8_t *bytes; /* --redact: written instead of f's (malloc'd) */
};
/* copy_event.c: w's EVENT_DESC or GROUP_DESC of the evsels written into
 * w->bytes: 1; 0: written as read; -1: left out (a note says why). */
int copy_event_feature(struct copy *c, struct feat_out *w);
/* copy_redact.c: a feature's bytes appended; perf's string (u32 len, the
 * string NUL-padded to a multiple of 64: header.c do_write_string) */
struct strbuf;
void copy_fb_put(struct strbuf *f, const void *p, size_t n);
void copy_fb_zero(struct strbuf *f, size_t n);
void copy_fb_string(struct copy *c, struct strbuf *f, const char *s, size_t n);

/* "HEADER_NAME" or "feature N" */
const char *copy_feat_name(unsigned id, char *buf, size_t len);
/* Which features are written, and their sizes (by bit: want[id]). */
void copy_pick_features(struct copy *c, struct feat_out *want, bool *has);
/* Append the bytes of feature id. */
void copy_write_feature(struct copy *c, unsigned id, const struct feat_out *w);

/* copy_bid.c (--build-ids hit): the DSOs the kept samples hit, found by a
 * walk before the copy's (0, or -1 refused); freed */
int copy_bid_init(struct copy *c);
void copy_bid_free(struct copy *c);
/* BUILD_ID's bytes in (malloc'd, w's: taken) cut to the entries hit, as
 * w->bytes; false: none is (the feature left out) */
struct feat_out;
bool copy_bid_keep_hits(struct copy *c, struct feat_out *w, uint8_t *in);

/* copy_pipe.c: pipe mode's header, attrs, features, tracing data and
 * build-ids, before the records (perf_event__synthesize_for_pipe). */
int copy_write_pipe_head(struct copy *c);

/* copy_z.c: the data records, compressed when asked (--compress). */
int copy_z_open(struct copy *c);
/* Append a record's bytes to the data (into the batch compressed next). */
void copy_data(struct copy *c, const void *p, size_t n);
/* Compress and write the records batched so far. */
void copy_z_flush(struct copy *c);
void copy_z_close(struct copy *c);
/* Append HEADER_COMPRESSED's section: version, type, level, ratio,
 * mmap_len (header.c write_compressed). */
void copy_z_feature(struct copy *c);

#endif
