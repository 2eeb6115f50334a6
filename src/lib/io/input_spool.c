// SPDX-License-Identifier: MIT
/*
 * Spooling a stream (standard input, a FIFO, a compressed file) to an
 * unlinked temporary file, so that a file-mode recording in it can be
 * read out of order (see input.h).  The bytes are read (and decoded) on
 * the caller's thread and written on a helper thread, so decoding and
 * writing overlap: a spooled zstd file costs little more than its
 * decoding.  Memory: SPOOL_NBUF buffers at most, whatever the size, each
 * made when first filled (a small input takes one).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/io/input_int.h"

#define SPOOL_BUF  (1u << 20)
#define SPOOL_NBUF 4

struct spool {
	int fd;
	uint8_t *buf[SPOOL_NBUF];
	size_t len[SPOOL_NBUF];
	int head, n;	  /* the filled buffers, in order, for the writer */
	bool done;	  /* nothing more will be filled */
	int err;	  /* the writer's errno, 0 while it writes */
	uint64_t written; /* bytes the temporary file took */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

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

/* The writer: the filled buffers, in order, until done or a failure. */
static void *writer(void *arg)
{
	struct spool *sp = arg;

	pthread_mutex_lock(&sp->mu);
	for (;;) {
		while (sp->n == 0 && !sp->done)
			pthread_cond_wait(&sp->cv, &sp->mu);
		if (sp->n == 0)
			break;
		int i = sp->head;

		pthread_mutex_unlock(&sp->mu);
		uint64_t w = 0;
		int rc = write_full(sp->fd, sp->buf[i], sp->len[i], &w);
		int e = errno;

		pthread_mutex_lock(&sp->mu);
		sp->written += w;
		if (rc < 0) {
			sp->err = e ? e : EIO;
			break;
		}
		sp->head = (sp->head + 1) % SPOOL_NBUF;
		sp->n--;
		pthread_cond_broadcast(&sp->cv);
	}
	pthread_cond_broadcast(&sp->cv);
	pthread_mutex_unlock(&sp->mu);
	return NULL;
}

/*
 * Read the input into free buffers for the writer until its end.  Returns
 * 0, or -1 with errno set (a read error, or the writer's).
 */
static int fill(struct spool *sp, struct pd_input *in)
{
	int next = 0, rc = 0, e = 0;

	for (;;) {
		pthread_mutex_lock(&sp->mu);
		while (sp->n == SPOOL_NBUF && !sp->err)
			pthread_cond_wait(&sp->cv, &sp->mu);
		e = sp->err;
		pthread_mutex_unlock(&sp->mu);
		if (!e && !sp->buf[next] &&
		    !(sp->buf[next] = malloc(SPOOL_BUF)))
			e = ENOMEM;
		if (e)
			break;
		ssize_t n =
			input_read_stream(in, sp->buf[next], SPOOL_BUF, false);

		if (n <= 0) {
			if (n < 0) {
				rc = -1;
				e = errno;
			}
			break;
		}
		in->pos += (uint64_t)n;
		pthread_mutex_lock(&sp->mu);
		sp->len[next] = (size_t)n;
		sp->n++;
		pthread_cond_broadcast(&sp->cv);
		pthread_mutex_unlock(&sp->mu);
		next = (next + 1) % SPOOL_NBUF;
	}
	pthread_mutex_lock(&sp->mu);
	sp->done = true;
	pthread_cond_broadcast(&sp->cv);
	pthread_mutex_unlock(&sp->mu);
	if (e) {
		errno = e;
		return -1;
	}
	return rc;
}

/* Copy the input to sp->fd: on a writer thread, or here if none starts. */
static int copy(struct spool *sp, struct pd_input *in)
{
	pthread_t th;
	int rc;

	pthread_mutex_init(&sp->mu, NULL);
	pthread_cond_init(&sp->cv, NULL);
	if (pthread_create(&th, NULL, writer, sp) == 0) {
		rc = fill(sp, in);
		pthread_join(th, NULL);
		if (rc == 0 && sp->err) {
			errno = sp->err;
			rc = -1;
		}
	} else if (!(sp->buf[0] = malloc(SPOOL_BUF))) {
		rc = -1; /* (errno: ENOMEM) */
	} else {
		ssize_t n;

		rc = 0;
		while ((n = input_read_stream(in, sp->buf[0], SPOOL_BUF,
					      false)) > 0) {
			in->pos += (uint64_t)n;
			if (write_full(sp->fd, sp->buf[0], (size_t)n,
				       &sp->written) < 0)
				break;
		}
		if (n != 0)
			rc = -1;
	}
	pthread_cond_destroy(&sp->cv);
	pthread_mutex_destroy(&sp->mu);
	return rc;
}

/* The input now reads the temporary file fd; its compression is kept. */
static int reopen(struct pd_input *in, int fd)
{
	struct pd_input_z z = in->z;
	struct pd_diags *diags = in->diags;
	struct pd_input_count *count = in->count;

	unz_close(in);
	if (in->owned)
		close(in->fd);
	free(in->keep);
	if (pd_input_open_fd(in, fd, true) < 0) {
		in->fd = -1; /* the caller closes fd */
		return -1;
	}
	in->spooled = true;
	in->z = z;
	in->diags = diags;
	pd_input_set_count(in, count);
	return 0;
}

int pd_input_spool(struct pd_input *in, const void *head, size_t nhead,
		   const char *dir, uint64_t *written, const char **dirp)
{
	struct spool sp = {.fd = -1};
	int rc = -1, e = 0;

	if (!dir || !*dir)
		dir = "/tmp";
	*dirp = dir;
	*written = 0;
	pd_input_count_start(in->count, in->z.file_size,
			     in->z.fmt ? "decompressing" : "copying");
	sp.fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (sp.fd < 0)
		return -1;
	if ((!nhead || write_full(sp.fd, head, nhead, &sp.written) == 0) &&
	    copy(&sp, in) == 0)
		rc = reopen(in, sp.fd);
	e = errno;
	for (int i = 0; i < SPOOL_NBUF; i++)
		free(sp.buf[i]);
	*written = sp.written;
	if (rc < 0) {
		close(sp.fd);
		errno = e;
	}
	return rc;
}
