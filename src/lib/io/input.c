// SPDX-License-Identifier: MIT
#include "lib/io/input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/io/input_int.h"

void pd_input_count_start(struct pd_input_count *c, uint64_t total,
			  const char *doing)
{
	if (!c)
		return;
	__atomic_store_n(&c->total, total, __ATOMIC_RELAXED);
	__atomic_store_n(&c->doing, doing, __ATOMIC_RELAXED);
	__atomic_store_n(&c->done, 0, __ATOMIC_RELAXED);
}

void pd_input_count_get(const struct pd_input_count *c, uint64_t *done,
			uint64_t *total, const char **doing)
{
	*done = __atomic_load_n(&c->done, __ATOMIC_RELAXED);
	*total = __atomic_load_n(&c->total, __ATOMIC_RELAXED);
	*doing = __atomic_load_n(&c->doing, __ATOMIC_RELAXED);
}

void pd_input_set_count(struct pd_input *in, struct pd_input_count *c)
{
	in->count = c;
	pd_input_count_start(c,
			     in->seekable ? in->size
			     : in->z.fmt  ? in->z.file_size
					  : 0,
			     NULL);
}

/*
 * A compressed input: its decoder, and the compressed bytes read for it.
 * The compressed input is read forward: a file with pread from `raw`
 * (as every file is read), a stream as it arrives.
 */
#define UNZ_IN (256u << 10)

struct pd_unz_state {
	struct pd_unz *dec;
	size_t head, tail;
	bool file; /* a regular file: pread at raw */
	uint64_t raw;
	bool eof;  /* no compressed bytes after buf[tail] */
	bool need; /* the decoder has used what it was given */
	bool over; /* the decoded stream ended, or failed */
	uint8_t buf[UNZ_IN];
};

/*
 * Look at the first bytes for a compression magic: a compressed input
 * gets its decoder and becomes the stream of its decompressed bytes.  A
 * stream's bytes read here are given back first (sniffed).
 */
static int unz_sniff(struct pd_input *in)
{
	uint8_t b[PD_UNZ_SNIFF];
	struct pd_unz_state *u;
	ssize_t n;
	enum pd_zfmt f;

	n = input_read_fd(in, b, sizeof(b), in->seekable ? 0 : -1, false);
	if (n < 0)
		return -1;
	f = pd_unz_sniff(b, (size_t)n);
	if (f == PD_Z_NONE) {
		if (!in->seekable) {
			memcpy(in->sniffed, b, (size_t)n);
			in->nsniffed = (uint8_t)n;
		}
		return 0;
	}
	u = malloc(sizeof(*u));
	if (!u || !(u->dec = pd_unz_new(f))) {
		free(u);
		errno = ENOMEM;
		return -1;
	}
	memcpy(u->buf, b, (size_t)n);
	u->head = 0;
	u->tail = (size_t)n;
	u->file = in->seekable;
	u->raw = (uint64_t)n;
	u->eof = u->need = u->over = false;
	in->unz = u;
	in->z.fmt = f;
	in->z.file_size = in->seekable ? in->size : 0;
	in->seekable = false;
	in->size = in->pos = 0;
	return 0;
}

void unz_close(struct pd_input *in)
{
	if (!in->unz)
		return;
	pd_unz_free(in->unz->dec);
	free(in->unz);
	in->unz = NULL;
}

bool input_pending(const struct pd_input *in)
{
	if (in->unz)
		return in->unz->over || !in->unz->need;
	return in->sniff_pos < in->nsniffed;
}

/* More compressed bytes after the unused ones; -1 on a read error. */
static int unz_fill(struct pd_input *in)
{
	struct pd_unz_state *u = in->unz;
	ssize_t n;

	if (u->head > 0) {
		memmove(u->buf, u->buf + u->head, u->tail - u->head);
		u->tail -= u->head;
		u->head = 0;
	}
	n = input_read_fd(in, u->buf + u->tail, UNZ_IN - u->tail,
			  u->file ? (off_t)u->raw : -1, true);
	if (n < 0)
		return -1;
	if (n == 0)
		u->eof = true;
	u->tail += (size_t)n;
	u->raw += (uint64_t)n;
	return 0;
}

/* The decoder failed at `at` (decompressed): the stream ends there. */
static void unz_fail(struct pd_input *in, uint64_t at, const char *msg)
{
	in->unz->over = true;
	in->z.failed = true;
	if (!in->diags)
		return;
	pd_diag_add(in->diags, PD_C_INPUT_DECOMPRESS_FAILED, PD_AT_FILE, PD_ERR,
		    at, "compressed input",
		    "%s stream, at compressed offset 0x%llx: %s; the "
		    "decompressed recording ends here",
		    pd_unz_name(in->z.fmt), (unsigned long long)in->z.in_bytes,
		    msg);
}

/* Read decompressed bytes, as input_read_stream does. */
static ssize_t unz_read(struct pd_input *in, void *out, size_t len, bool some)
{
	struct pd_unz_state *u = in->unz;
	size_t got = 0;
	char msg[200];

	while (got < len && !u->over) {
		size_t ip, op = got;
		enum pd_unz_rc rc;

		if (u->need) {
			if (got && some)
				break; /* what has been decoded, first */
			if (u->eof) {
				unz_fail(in, in->z.out_bytes + got,
					 "the decoder stopped");
				break;
			}
			if (unz_fill(in) < 0) {
				if (got)
					break;
				return -1;
			}
			u->need = false;
		}
		ip = u->head;
		rc = pd_unz_step(u->dec, u->buf, u->tail, &ip, out, len, &op,
				 u->eof, msg, sizeof(msg));
		in->z.in_bytes += ip - u->head;
		u->head = ip;
		got = op;
		if (rc == PD_UNZ_END)
			u->over = true;
		else if (rc == PD_UNZ_ERR)
			unz_fail(in, in->z.out_bytes + got, msg);
		else if (got < len)
			u->need = true;
	}
	in->z.out_bytes += got;
	return (ssize_t)got;
}

int pd_input_open_fd(struct pd_input *in, int fd, bool owned)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->owned = owned;
	if (fstat(fd, &st) < 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) >= 0) {
		in->seekable = true;
		in->size = (uint64_t)st.st_size;
	}
	return 0;
}

int pd_input_open(struct pd_input *in, const char *path)
{
	int fd, e;

	if (strcmp(path, "-") == 0) {
		if (pd_input_open_fd(in, STDIN_FILENO, false) < 0)
			return -1;
		return unz_sniff(in);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pd_input_open_fd(in, fd, true) == 0 && unz_sniff(in) == 0)
		return 0;
	e = errno;
	pd_input_close(in); /* closes fd */
	errno = e;
	return -1;
}

int pd_input_open_regular(struct pd_input *in, const char *path, unsigned *mode)
{
	struct stat st;
	int fd;

	*mode = 0;
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	/* O_NONBLOCK: a FIFO must not hang the open (it is not read) */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*mode = (unsigned)(st.st_mode & S_IFMT);
		close(fd);
		errno = EINVAL;
		return -1;
	}
	/* a regular file never blocks: reads as usual */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return pd_input_open_fd(in, fd, true);
}

const char *pd_input_kind(unsigned mode)
{
	switch (mode) {
	case S_IFIFO: return "a FIFO";
	case S_IFDIR: return "a directory";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	}
	return "not a regular file";
}

void pd_input_close(struct pd_input *in)
{
	unz_close(in);
	if (in->owned && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	free(in->keep);
	in->keep = NULL;
	in->keep_len = in->keep_cap = 0;
}

ssize_t input_read_fd(struct pd_input *in, void *buf, size_t len, off_t off,
		      bool some)
{
	size_t got = 0;
	int fd = in->fd;

	while (got < len) {
		ssize_t n = off < 0 ? read(fd, (char *)buf + got, len - got)
				    : pread(fd, (char *)buf + got, len - got,
					    off + (off_t)got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (in->count)
			__atomic_fetch_add(&in->count->done, (uint64_t)n,
					   __ATOMIC_RELAXED);
		if (some)
			break;
	}
	return (ssize_t)got;
}

ssize_t input_read_stream(struct pd_input *in, void *buf, size_t len, bool some)
{
	size_t got = 0;

	if (in->unz)
		return unz_read(in, buf, len, some);
	if (in->sniff_pos < in->nsniffed) {
		got = in->nsniffed - in->sniff_pos;
		if (got > len)
			got = len;
		memcpy(buf, in->sniffed + in->sniff_pos, got);
		in->sniff_pos += (uint8_t)got;
		if (got == len || some)
			return (ssize_t)got;
	}
	ssize_t n = input_read_fd(in, (char *)buf + got, len - got, -1, some);

	return n < 0 ? (got ? (ssize_t)got : -1) : (ssize_t)got + n;
}

/* Add bytes read from the stream to the kept ones. */
static void keep_add(struct pd_input *in, const void *b, size_t n)
{
	if (in->keep_len + n > in->keep_cap) {
		size_t cap = in->keep_cap ? in->keep_cap : 65536;

		while (cap < in->keep_len + n)
			cap *= 2;
		uint8_t *nb = realloc(in->keep, cap);

		if (!nb) {
			in->keep_full = true; /* reads as ended */
			return;
		}
		in->keep = nb;
		in->keep_cap = cap;
	}
	memcpy(in->keep + in->keep_len, b, n);
	in->keep_len += n;
}

/* Read from the stream itself, at in->pos. */
static ssize_t stream_read(struct pd_input *in, void *buf, size_t len,
			   bool some)
{
	ssize_t n;

	if (in->keep_full)
		return 0; /* the kept bytes are all there is */
	if (in->keeping) {
		size_t room = PD_INPUT_KEEP_MAX - in->keep_len;

		if (room == 0) {
			in->keep_full = true;
			return 0;
		}
		if (len > room)
			len = room;
	}
	if (in->before_read) {
		struct pollfd p = {.fd = in->fd, .events = POLLIN};

		in->before_read(in->read_arg,
				!input_pending(in) && poll(&p, 1, 0) == 0);
	}
	n = input_read_stream(in, buf, len, some);
	if (n > 0) {
		if (in->keeping)
			keep_add(in, buf, (size_t)n);
		in->pos += (uint64_t)n;
		in->size = in->pos;
	}
	return n;
}

static ssize_t stream_pread(struct pd_input *in, uint64_t off, void *buf,
			    size_t len, bool some)
{
	uint64_t kend = in->keep_start + in->keep_len;
	size_t got = 0;

	if (in->keep && off >= in->keep_start && off < kend) {
		/* the kept bytes; then the stream, if it goes on from there */
		got = kend - off < len ? (size_t)(kend - off) : len;
		memcpy(buf, in->keep + (off - in->keep_start), got);
		if (got == len || in->pos != kend || some)
			return (ssize_t)got;
		off += got;
	}
	if (off < in->pos) {
		errno = ESPIPE;
		return -1;
	}
	while (in->pos < off) { /* skip forward */
		char junk[65536];
		uint64_t want = off - in->pos;
		ssize_t n = stream_read(in, junk,
					want < sizeof(junk) ? (size_t)want
							    : sizeof(junk),
					false);
		if (n <= 0)
			return n;
	}
	ssize_t n = stream_read(in, (char *)buf + got, len - got, some);

	return n < 0 ? n : (ssize_t)got + n;
}

ssize_t pd_input_pread(struct pd_input *in, uint64_t off, void *buf, size_t len)
{
	if (in->seekable) {
		if (off >= in->size)
			return 0;
		if (len > in->size - off)
			len = (size_t)(in->size - off);
		return input_read_fd(in, buf, len, (off_t)off, false);
	}
	return stream_pread(in, off, buf, len, false);
}

ssize_t pd_input_read_some(struct pd_input *in, uint64_t off, void *buf,
			   size_t len)
{
	if (in->seekable)
		return pd_input_pread(in, off, buf, len);
	return stream_pread(in, off, buf, len, true);
}

void pd_input_keep_start(struct pd_input *in)
{
	if (in->seekable)
		return;
	free(in->keep);
	in->keep = NULL;
	in->keep_len = in->keep_cap = 0;
	in->keep_start = in->pos;
	in->keeping = true;
	in->keep_full = false;
}

void pd_input_keep_stop(struct pd_input *in)
{
	in->keeping = false;
}
