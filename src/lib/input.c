// SPDX-License-Identifier: MIT
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	int fd;

	if (strcmp(path, "-") == 0)
		return pd_input_open_fd(in, STDIN_FILENO, false);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pd_input_open_fd(in, fd, true) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return 0;
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
	if (in->owned && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	free(in->keep);
	in->keep = NULL;
	in->keep_len = in->keep_cap = 0;
}

/*
 * Read len bytes (fewer only at end of file); at offset off, or at the
 * current position when off < 0.  `some`: return once a byte has come.
 */
static ssize_t read_full(int fd, void *buf, size_t len, off_t off, bool some)
{
	size_t got = 0;

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
		if (some)
			break;
	}
	return (ssize_t)got;
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

		in->before_read(in->read_arg, poll(&p, 1, 0) == 0);
	}
	n = read_full(in->fd, buf, len, -1, some);
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
		return read_full(in->fd, buf, len, (off_t)off, false);
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

/* Write all of buf; -1 with errno set (ENOSPC for a short write). */
static int write_full(int fd, const void *buf, size_t len, uint64_t *written)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		done += (size_t)n;
		*written += (uint64_t)n;
	}
	return 0;
}

int pd_input_spool(struct pd_input *in, const void *head, size_t nhead,
		   uint64_t *written, const char **dirp)
{
	char buf[1 << 16];
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	*dirp = dir;
	*written = 0;
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (nhead && write_full(fd, head, nhead, written) < 0)
		goto fail;
	for (;;) {
		ssize_t n = read_full(in->fd, buf, sizeof(buf), -1, false);

		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		if (write_full(fd, buf, (size_t)n, written) < 0)
			goto fail;
		in->pos += (uint64_t)n;
	}
	if (in->owned)
		close(in->fd);
	if (pd_input_open_fd(in, fd, true) < 0)
		goto fail;
	in->spooled = true;
	return 0;
fail:;
	int e = errno;

	close(fd);
	errno = e;
	return -1;
}
