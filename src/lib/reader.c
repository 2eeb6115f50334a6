// SPDX-License-Identifier: MIT
/*
 * The record stream (see reader.h).  Compression follows
 * tools/perf/util/tool.c perf_session__process_compressed_event and
 * zstd.c zstd_decompress_stream (FORMAT.md §7.4): the compressed payloads
 * of one input stream form a single zstd stream that is never ended; the
 * decompressed bytes are records, one of which may be split across two
 * compressed records, so undelivered bytes carry over to the next one.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "record.h"
#include "session.h"
#include "stream.h"

#define REC_COMPRESSED	81
#define REC_COMPRESSED2 83
/*
 * A decompressed backlog larger than this is refused (memory bound): perf
 * compresses at most mmap_len (about 512 KiB) into one record.
 */
#define ZBUF_MAX (32u << 20)
#define NSEG	 16

/* Which container produced the decompressed bytes from inner_start on. */
struct seg {
	uint64_t inner_start;
	uint64_t container;
};

struct zstate {
	ZSTD_DStream *zd;
	uint8_t *buf;
	size_t cap, head, tail; /* undelivered bytes are buf[head..tail) */
	uint64_t inner_head;	/* decompressed offset of buf[head] */
	uint64_t skip;		/* payload bytes (66/71) still to skip */
	struct seg seg[NSEG];
	int nseg;
	bool broken; /* stop decompressing this stream */
};

struct source {
	struct pd_stream st;
	struct pd_input in; /* data.N: its own file */
	bool own_input;
	int index;	/* -1 the main stream, else data.N's N */
	bool seen_attr; /* a HEADER_ATTR went by (legacy streams) */
	char what[48];
	struct zstate z;
};

struct pd_reader {
	struct pd_session *s;
	unsigned flags;
	struct source *src;
	int nsrc, cur;
	uint8_t *payload; /* PD_READ_PAYLOADS: reused buffer */
	size_t payload_cap;
	struct pd_reader_stats stats;
	uint8_t rec_copy[65536];
};

static void source_init(struct pd_reader *r, struct source *src,
			struct pd_input *in, uint64_t start, uint64_t end)
{
	pd_stream_init(&src->st, in, start, end, r->s->swap, &r->s->diags,
		       src->what,
		       src->index >= 0 ? PD_AT_NAMED(r->s->dir[src->index].name)
		       : r->s->mode == PD_MODE_PIPE ? PD_AT_PIPE
						    : PD_AT_DATA);
	src->st.legacy_google = r->s->pipe.legacy_google;
}

struct pd_reader *pd_reader_open(struct pd_session *s, unsigned flags)
{
	struct pd_reader *r = calloc(1, sizeof(*r));
	const struct pd_header *h = &s->hdr;
	int n = 1;

	if (!r)
		return NULL;
	r->s = s;
	r->flags = flags;
	if (s->mode == PD_MODE_DIR && (flags & PD_READ_DATA_N))
		n += (int)s->ndir;
	r->src = calloc((size_t)n, sizeof(*r->src));
	if (!r->src) {
		free(r);
		return NULL;
	}
	r->nsrc = n;
	for (int i = 0; i < n; i++)
		r->src[i].index = i - 1;

	struct source *m = &r->src[0];

	if (s->mode == PD_MODE_PIPE) {
		snprintf(m->what, sizeof(m->what), "pipe stream");
		source_init(r, m, &s->in, PD_PIPE_HEADER_SIZE, UINT64_MAX);
	} else if (!s->header_ok) {
		r->nsrc = 0; /* nothing can be located */
	} else {
		snprintf(m->what, sizeof(m->what), "data section");
		/*
		 * data.size 0: perf record did not finish (killed); the
		 * records run from data.offset to the end of the file.
		 */
		uint64_t end = h->data.size ? h->data.offset + h->data.size
					    : s->in.size;

		source_init(r, m, &s->in, h->data.offset, end);
	}
	for (int i = 1; i < r->nsrc; i++) {
		struct source *d = &r->src[i];
		char path[4096];

		snprintf(d->what, sizeof(d->what), "%s", s->dir[i - 1].name);
		snprintf(path, sizeof(path), "%s/%s", s->path,
			 s->dir[i - 1].name);
		if (pd_input_open(&d->in, path) < 0) {
			pd_diag_add(&s->diags, PD_C_READ_ERROR,
				    PD_AT_NAMED(s->dir[i - 1].name), PD_ERR,
				    PD_NO_OFFSET, d->what, "cannot open %s",
				    path);
			d->in.fd = -1;
			source_init(r, d, &d->in, 0, 0);
			continue;
		}
		d->own_input = true;
		source_init(r, d, &d->in, 0, d->in.size);
	}
	return r;
}

struct pd_reader *pd_reader_open_stream(struct pd_session *s, unsigned flags,
					int stream)
{
	struct pd_reader *r = pd_reader_open(s, flags | PD_READ_DATA_N);

	if (!r)
		return NULL;
	/* keep only that source: start there, stop after it */
	if (stream + 1 >= r->nsrc) {
		r->cur = r->nsrc;
		return r;
	}
	r->cur = stream + 1;
	for (int i = stream + 2; i < r->nsrc; i++) {
		struct source *src = &r->src[i];

		if (src->own_input && src->in.fd >= 0)
			pd_input_close(&src->in);
		src->own_input = false;
	}
	r->nsrc = stream + 2;
	return r;
}

void pd_reader_close(struct pd_reader *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nsrc; i++) {
		struct source *src = &r->src[i];

		pd_stream_free(&src->st);
		if (src->own_input && src->in.fd >= 0)
			pd_input_close(&src->in);
		if (src->z.zd)
			ZSTD_freeDStream(src->z.zd);
		free(src->z.buf);
	}
	free(r->src);
	free(r->payload);
	free(r);
}

void pd_reader_stats(const struct pd_reader *r, struct pd_reader_stats *st)
{
	*st = r->stats;
}

static void zerr(struct pd_reader *r, struct source *src, enum pd_code code,
		 uint64_t off, const char *fmt, const char *detail)
{
	src->z.broken = true;
	pd_diag_add(&r->s->diags, code, PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR,
		    off, src->what, fmt, detail);
}

/* Room for at least `need` more bytes at buf[tail]. */
static bool zroom(struct zstate *z, size_t need)
{
	if (z->cap - z->tail >= need)
		return true;
	if (z->head) { /* drop what was delivered */
		memmove(z->buf, z->buf + z->head, z->tail - z->head);
		z->tail -= z->head;
		z->head = 0;
		if (z->cap - z->tail >= need)
			return true;
	}
	size_t ncap = z->cap ? z->cap : 1u << 20;

	while (ncap - z->tail < need && ncap <= ZBUF_MAX)
		ncap *= 2;
	if (ncap - z->tail < need || ncap > ZBUF_MAX)
		return false;
	uint8_t *nb = realloc(z->buf, ncap);

	if (!nb)
		return false;
	z->buf = nb;
	z->cap = ncap;
	return true;
}

/* Feed one compressed record's payload to the stream's decompressor. */
static void decompress(struct pd_reader *r, struct source *src,
		       const struct pd_rec *rec)
{
	struct zstate *z = &src->z;
	const uint8_t *data = rec->p + 8;
	size_t len = rec->size - 8u;

	if (z->broken)
		return;
	if (rec->type == REC_COMPRESSED2) {
		/* u64 data_size; zstd bytes[data_size]; zero padding */
		uint64_t dsize =
			rec->size >= 16 ? pd_get64(rec->p + 8, r->s->swap) : 0;

		if (rec->size < 16 || dsize > rec->size - 16u) {
			pd_diag_add(&r->s->diags, PD_C_DECOMPRESS_FAILED,
				    PD_AT_RECORD(PD_REC_COMPRESSED), PD_ERR,
				    rec->off + 8, src->what,
				    "PERF_RECORD_COMPRESSED2: data_size %llu "
				    "does not fit the record's %u bytes",
				    (unsigned long long)dsize, rec->size);
			return;
		}
		data = rec->p + 16;
		len = (size_t)dsize;
	}
	if (!z->zd) {
		z->zd = ZSTD_createDStream();
		if (!z->zd || ZSTD_isError(ZSTD_initDStream(z->zd))) {
			zerr(r, src, PD_C_DECOMPRESS_FAILED, rec->off, "%s",
			     "cannot set up zstd");
			return;
		}
	}
	/* bytes from here on came out of this container */
	if (z->nseg == NSEG) {
		memmove(z->seg, z->seg + 1, (NSEG - 1) * sizeof(z->seg[0]));
		z->nseg--;
	}
	z->seg[z->nseg++] = (struct seg){
		.inner_start = z->inner_head + (z->tail - z->head),
		.container = rec->off,
	};
	r->stats.compressed_records++;
	r->stats.compressed_bytes += len;

	ZSTD_inBuffer in = {data, len, 0};

	while (in.pos < in.size) {
		if (!zroom(z, 1u << 16)) {
			char d[96];

			snprintf(d, sizeof(d),
				 "%zu bytes decompressed and not yet delivered",
				 z->tail - z->head);
			zerr(r, src, PD_C_TORN_COMPRESSED_RECORD, rec->off,
			     "PERF_RECORD_COMPRESSED: too much data without a "
			     "whole record (%s)",
			     d);
			return;
		}
		ZSTD_outBuffer out = {z->buf + z->tail, z->cap - z->tail, 0};
		size_t ret = ZSTD_decompressStream(z->zd, &out, &in);

		if (ZSTD_isError(ret)) {
			zerr(r, src, PD_C_DECOMPRESS_FAILED, rec->off,
			     "PERF_RECORD_COMPRESSED: zstd: %s",
			     ZSTD_getErrorName(ret));
			return;
		}
		z->tail += out.pos;
		r->stats.decompressed_bytes += out.pos;
		if (out.pos == 0 && in.pos < in.size && ret == 0)
			break; /* a frame ended and nothing moves: stop */
	}
}

static uint64_t container_of(const struct zstate *z, uint64_t inner)
{
	uint64_t c = 0;

	for (int i = 0; i < z->nseg && z->seg[i].inner_start <= inner; i++)
		c = z->seg[i].container;
	return c;
}

static void zconsume(struct zstate *z, size_t n)
{
	z->head += n;
	z->inner_head += n;
	while (z->nseg > 1 && z->seg[1].inner_start <= z->inner_head) {
		memmove(z->seg, z->seg + 1,
			(size_t)(z->nseg - 1) * sizeof(z->seg[0]));
		z->nseg--;
	}
}

/* A whole decompressed record, if there is one. */
static bool zdeliver(struct pd_reader *r, struct source *src,
		     struct pd_event *ev)
{
	struct zstate *z = &src->z;
	bool sw = r->s->swap;

	if (z->skip) {
		size_t n = z->tail - z->head < z->skip ? z->tail - z->head
						       : (size_t)z->skip;
		zconsume(z, n);
		z->skip -= n;
		if (z->skip)
			return false;
	}
	if (z->broken || z->tail - z->head < 8)
		return false;
	const uint8_t *p = z->buf + z->head;
	uint16_t size = pd_get16(p + 6, sw);

	if (size < 8) {
		char d[64];

		snprintf(d, sizeof(d), "size %u, type %u", size,
			 pd_get32(p, sw));
		zerr(r, src, PD_C_TORN_COMPRESSED_RECORD,
		     container_of(z, z->inner_head),
		     "decompressed record too small to be one (%s)", d);
		return false;
	}
	if (z->tail - z->head < size)
		return false; /* the rest comes with the next container */
	memset(ev, 0, sizeof(*ev));
	ev->offset = container_of(z, z->inner_head);
	ev->stream = src->index;
	ev->compressed = true;
	ev->inner_offset = z->inner_head;
	ev->type = pd_get32(p, sw);
	ev->misc = pd_get16(p + 4, sw);
	ev->size = size;
	ev->p = p;
	ev->payload = pd_record_payload(ev->type, p, size, sw,
					r->s->pipe.legacy_google);
	zconsume(z, size);
	/* payloads inside the decompressed stream are skipped, not kept */
	z->skip = ev->payload;
	return true;
}

int pd_reader_next(struct pd_reader *r, struct pd_event *ev)
{
	struct pd_rec rec;

	while (r->cur < r->nsrc) {
		struct source *src = &r->src[r->cur];
		int rc;

		if (zdeliver(r, src, ev))
			return 1;
		rc = pd_stream_next(&src->st, &rec);
		if (rc <= 0) {
			struct zstate *z = &src->z;

			if (!z->broken && z->tail > z->head)
				pd_diag_add(&r->s->diags,
					    PD_C_TORN_COMPRESSED_RECORD,
					    PD_AT_RECORD(PD_REC_COMPRESSED),
					    PD_ERR,
					    container_of(z, z->inner_head),
					    src->what,
					    "the compressed stream ends inside "
					    "a record (%zu bytes left over)",
					    z->tail - z->head);
			if (src->st.ioerr)
				return -1;
			r->cur++;
			continue;
		}
		if (src->index < 0)
			r->stats.data_end = rec.off + rec.size + rec.payload;
		if (rec.type == REC_COMPRESSED || rec.type == REC_COMPRESSED2) {
			r->stats.containers[rec.type == REC_COMPRESSED2]++;
			r->stats.container_bytes[rec.type == REC_COMPRESSED2] +=
				rec.size;
		}
		if ((rec.type == REC_COMPRESSED ||
		     rec.type == REC_COMPRESSED2) &&
		    !(r->flags & PD_READ_NO_DECOMPRESS)) {
			decompress(r, src, &rec);
			continue;
		}
		if (rec.type == 64)
			src->seen_attr = true;
		*ev = (struct pd_event){
			.offset = rec.off,
			.stream = src->index,
			.type = rec.type,
			.misc = rec.misc,
			.size = rec.size,
			.p = rec.p,
			.payload = rec.payload,
			.payload_offset = rec.off + rec.size,
			.legacy_feature =
				pd_legacy_feature(r->s->pipe.legacy_google,
						  src->seen_attr, rec.type),
		};
		if (rec.payload && (r->flags & PD_READ_PAYLOADS) &&
		    rec.payload <= PD_READ_PAYLOAD_MAX) {
			uint64_t got;

			/*
			 * The record's bytes are copied first: reading the
			 * payload moves the stream's window.
			 */
			memcpy(r->rec_copy, rec.p, rec.size);
			ev->p = r->rec_copy;
			if (pd_stream_read_payload(&src->st, &r->payload,
						   &r->payload_cap, &got) == 0)
				ev->payload_bytes = r->payload;
		}
		return 1;
	}
	return 0;
}

static const char *const kernel_names[] = {
	NULL,
	"MMAP",
	"LOST",
	"COMM",
	"EXIT",
	"THROTTLE",
	"UNTHROTTLE",
	"FORK",
	"READ",
	"SAMPLE",
	"MMAP2",
	"AUX",
	"ITRACE_START",
	"LOST_SAMPLES",
	"SWITCH",
	"SWITCH_CPU_WIDE",
	"NAMESPACES",
	"KSYMBOL",
	"BPF_EVENT",
	"CGROUP",
	"TEXT_POKE",
	"AUX_OUTPUT_HW_ID",
	"CALLCHAIN_DEFERRED",
};

static const char *const user_names[] = {
	"HEADER_ATTR",
	"HEADER_EVENT_TYPE",
	"HEADER_TRACING_DATA",
	"HEADER_BUILD_ID",
	"FINISHED_ROUND",
	"ID_INDEX",
	"AUXTRACE_INFO",
	"AUXTRACE",
	"AUXTRACE_ERROR",
	"THREAD_MAP",
	"CPU_MAP",
	"STAT_CONFIG",
	"STAT",
	"STAT_ROUND",
	"EVENT_UPDATE",
	"TIME_CONV",
	"HEADER_FEATURE",
	"COMPRESSED",
	"FINISHED_INIT",
	"COMPRESSED2",
	"BPF_METADATA",
	"SCHEDSTAT_CPU",
	"SCHEDSTAT_DOMAIN",
};

/* simpleperf's record types (system/extras/simpleperf/record.h) */
static const char *const sp_names[] = {
	NULL,
	"SP_KERNEL_SYMBOL",
	"SP_DSO",
	"SP_SYMBOL",
	"SP_SPLIT",
	"SP_SPLIT_END",
	"SP_EVENT_ID",
	"SP_CALLCHAIN",
	"SP_UNWINDING_RESULT",
	"SP_TRACING_DATA",
};

const char *pd_record_type_name(uint32_t type)
{
	if (type < sizeof(kernel_names) / sizeof(kernel_names[0]))
		return kernel_names[type];
	if (type >= 64 &&
	    type - 64 < sizeof(user_names) / sizeof(user_names[0]))
		return user_names[type - 64];
	if (type >= 32768 &&
	    type - 32768 < sizeof(sp_names) / sizeof(sp_names[0]))
		return sp_names[type - 32768];
	return NULL;
}
