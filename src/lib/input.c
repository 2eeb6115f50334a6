// SPDX-License-Identifier: MIT
#include "input.h"

#include <errno.h>
#include <fcntl.h>
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

void pd_input_close(struct pd_input *in)
{
	if (in->owned && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
}

/* Read len bytes (fewer only at end of file); at offset off, or at the
 * current position when off < 0. */
static ssize_t read_full(int fd, void *buf, size_t len, off_t off)
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
	}
	return (ssize_t)got;
}

ssize_t pd_input_pread(struct pd_input *in, uint64_t off, void *buf, size_t len)
{
	if (in->seekable) {
		if (off >= in->size)
			return 0;
		if (len > in->size - off)
			len = (size_t)(in->size - off);
		return read_full(in->fd, buf, len, (off_t)off);
	}

	if (off < in->pos) {
		errno = ESPIPE;
		return -1;
	}
	while (in->pos < off) { /* skip forward */
		char junk[65536];
		uint64_t want = off - in->pos;
		ssize_t n = read_full(
			in->fd, junk,
			want < sizeof(junk) ? (size_t)want : sizeof(junk), -1);
		if (n <= 0)
			return n;
		in->pos += (uint64_t)n;
	}
	ssize_t n = read_full(in->fd, buf, len, -1);

	if (n > 0)
		in->pos += (uint64_t)n;
	return n;
}

int pd_input_spool(struct pd_input *in, const void *head, size_t nhead)
{
	char buf[1 << 16];
	const char *dir = getenv("TMPDIR");
	int fd;

	fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -1;
	if (nhead && write(fd, head, nhead) != (ssize_t)nhead)
		goto fail;
	for (;;) {
		ssize_t n = read_full(in->fd, buf, sizeof(buf), -1);

		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		if (write(fd, buf, (size_t)n) != n)
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
