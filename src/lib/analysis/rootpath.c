// SPDX-License-Identifier: MIT
/*
 * Files looked up under a root directory (see rootpath.h).
 *
 * Two ways to the same answer.  openat2(2) with RESOLVE_IN_ROOT
 * (fs/namei.c: nd_jump_root and follow_dotdot scope "/" and ".." to the
 * dirfd; include/uapi/linux/openat2.h) when the kernel has it; otherwise
 * a walk from the root's descriptor, one component at a time with
 * O_NOFOLLOW, that reads each symbolic link itself and applies the same
 * two rules.  The walk keeps the directory it is in as a descriptor, so
 * a link swapped in behind our back is never followed by the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/analysis/rootpath.h"

/* The kernel's MAXSYMLINKS (include/linux/namei.h). */
#define LINKS_MAX 40

/* What a file to read is opened with: O_NONBLOCK, a FIFO never blocks. */
#define READ_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

int pd_root_normalise(const char *path, char *out, size_t size)
{
	size_t n = 0;

	if (!size)
		return -ENAMETOOLONG;
	while (*path) {
		const char *c;
		size_t len;

		while (*path == '/')
			path++;
		c = path;
		while (*path && *path != '/')
			path++;
		len = (size_t)(path - c);
		if (len == 0 || (len == 1 && c[0] == '.'))
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			if (n == 0)
				return -EXDEV;
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--; /* the '/' before it */
			continue;
		}
		if (n + (n ? 1 : 0) + len + 1 > size)
			return -ENAMETOOLONG;
		if (n)
			out[n++] = '/';
		memcpy(out + n, c, len);
		n += len;
	}
	out[n] = 0;
	return 0;
}

/* ---- openat2 --------------------------------------------------------- */

static int sys_openat2(int dirfd, const char *path, uint64_t flags)
{
	struct open_how how = {
		.flags = flags,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	/* EAGAIN: a rename raced with a ".." (openat2(2)); try again */
	for (int i = 0; i < 8; i++) {
		long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

		if (fd >= 0)
			return (int)fd;
		if (errno != EAGAIN)
			return -errno;
	}
	return -EAGAIN;
}

/* pd_root_use_openat2: may openat2 be used (the caller's choice)? */
static bool allow_openat2 = true;

void pd_root_use_openat2(bool allow)
{
	allow_openat2 = allow;
}

/* Once per process: does openat2 work here (not ENOSYS, not a seccomp
 * filter's EPERM)?  And may we use it? */
static bool have_openat2(int rootfd)
{
	/* (the workers of a parallel walk may ask at once: the same
	 * answer, stored atomically) */
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (!allow_openat2)
		return false;
	if (h < 0) {
		int fd = sys_openat2(rootfd, ".",
				     O_PATH | O_DIRECTORY | O_CLOEXEC);

		h = fd >= 0;
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
		if (fd >= 0)
			close(fd);
	}
	return h;
}

/* rel under rootfd: a regular file open for reading, anything else an
 * O_PATH descriptor; -errno. */
static int open_kernel(int rootfd, const char *rel)
{
	const char *p = *rel ? rel : ".";
	int fd = sys_openat2(rootfd, p, O_PATH | O_CLOEXEC), rfd;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return fd;
	rfd = sys_openat2(rootfd, p, READ_FLAGS);
	close(fd);
	return rfd;
}

/* ---- the walk -------------------------------------------------------- */

struct walk {
	int root;
	int dir;	    /* where we are: root, or owned */
	char cur[PATH_MAX]; /* its path under the root: directories
			     * only, no link among them */
	size_t curlen;
	char todo[PATH_MAX + 1]; /* what is left to walk */
	size_t pos;
	unsigned links;
};

static void set_dir(struct walk *w, int fd)
{
	if (w->dir != w->root)
		close(w->dir);
	w->dir = fd;
}

/* "..": the parent of cur, opened again from the root (O_NOFOLLOW at
 * every step); at the root, ".." stays there. */
static int walk_up(struct walk *w)
{
	size_t i = 0;
	int fd = w->root;

	while (w->curlen > 0 && w->cur[w->curlen - 1] != '/')
		w->curlen--;
	if (w->curlen > 0)
		w->curlen--;
	w->cur[w->curlen] = 0;
	while (i < w->curlen) {
		size_t j = i;
		int next;

		while (j < w->curlen && w->cur[j] != '/')
			j++;
		w->cur[j] = 0;
		next = openat(fd, w->cur + i,
			      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (j < w->curlen)
			w->cur[j] = '/';
		if (fd != w->root)
			close(fd);
		if (next < 0)
			return -errno;
		fd = next;
		i = j + 1;
	}
	set_dir(w, fd);
	return 0;
}

/* A link met at the component that ended at todo[pos] (followed by a
 * '/' if slash): its target, then what was left.  An absolute target
 * starts again at the root. */
static int walk_link(struct walk *w, int fd, bool slash)
{
	char target[PATH_MAX];
	size_t rest = strlen(w->todo + w->pos);
	ssize_t n;

	if (++w->links > LINKS_MAX)
		return -ELOOP;
	n = readlinkat(fd, "", target, sizeof(target));
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(target) ||
	    (size_t)n + 1 + rest >= sizeof(w->todo))
		return -ENAMETOOLONG;
	/* target, '/' and the rest; no rest: the '/' only if the link was
	 * written "name/" (it asks for a directory) */
	slash = slash || rest;
	memmove(w->todo + n + slash, w->todo + w->pos, rest + 1);
	memcpy(w->todo, target, (size_t)n);
	if (slash)
		w->todo[n] = '/';
	w->pos = 0;
	if (n > 0 && target[0] == '/') {
		set_dir(w, w->root);
		w->curlen = 0;
		w->cur[0] = 0;
	}
	return 0;
}

/* Step into the directory `name` (fd, already open O_PATH). */
static int walk_into(struct walk *w, int fd, const char *name, size_t len)
{
	if (w->curlen + 1 + len >= sizeof(w->cur)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	if (w->curlen)
		w->cur[w->curlen++] = '/';
	memcpy(w->cur + w->curlen, name, len + 1);
	w->curlen += len;
	set_dir(w, fd);
	return 0;
}

/* One component of todo; 1: go on, else the result (fd or -errno). */
static int walk_step(struct walk *w)
{
	char name[NAME_MAX + 1];
	const char *c = w->todo + w->pos;
	size_t len = strcspn(c, "/");
	struct stat st;
	bool last, slash;
	int fd, rc;

	w->pos += len;
	slash = w->todo[w->pos] == '/';
	while (w->todo[w->pos] == '/')
		w->pos++;
	last = !w->todo[w->pos];
	if (len == 0 || (len == 1 && c[0] == '.'))
		return 1;
	if (len == 2 && c[0] == '.' && c[1] == '.')
		return (rc = walk_up(w)) < 0 ? rc : 1;
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, c, len);
	name[len] = 0;
	fd = openat(w->dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (S_ISLNK(st.st_mode)) {
		rc = walk_link(w, fd, slash);
		close(fd);
		return rc < 0 ? rc : 1;
	}
	if (!last || slash) { /* "name/": a directory, as for the kernel */
		if (!S_ISDIR(st.st_mode)) {
			close(fd);
			return -ENOTDIR;
		}
		return (rc = walk_into(w, fd, name, len)) < 0 ? rc : 1;
	}
	if (!S_ISREG(st.st_mode))
		return fd;
	close(fd);
	fd = openat(w->dir, name, READ_FLAGS | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

/* As open_kernel, by walking. */
static int open_walk(int rootfd, const char *rel)
{
	struct walk *w = malloc(sizeof(*w));
	int rc = 1;

	if (!w)
		return -ENOMEM;
	w->root = w->dir = rootfd;
	w->curlen = 0;
	w->cur[0] = 0;
	w->pos = 0;
	w->links = 0;
	/* rel is normalised, shorter than PATH_MAX */
	snprintf(w->todo, sizeof(w->todo), "%s", rel);
	while (rc == 1) {
		if (!w->todo[w->pos]) /* ended on a directory */
			rc = openat(w->dir, ".", O_PATH | O_CLOEXEC);
		else
			rc = walk_step(w);
	}
	set_dir(w, w->root);
	free(w);
	return rc;
}

/* ---- the one entry point --------------------------------------------- */

static enum pd_root_status failed(struct pd_root_file *f, int err)
{
	f->err = err;
	f->status = err == ENOENT || err == ENOTDIR ? PD_ROOT_MISSING
						    : PD_ROOT_ERROR;
	return f->status;
}

enum pd_root_status pd_root_open(const char *root, const char *path,
				 struct pd_root_file *f)
{
	char rel[PATH_MAX];
	int rootfd, fd, rc;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	rc = pd_root_normalise(path, rel, sizeof(rel));
	if (rc == -EXDEV)
		return f->status = PD_ROOT_OUTSIDE;
	if (rc < 0)
		return failed(f, -rc);
	rootfd = open(root && *root ? root : "/",
		      O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return failed(f, errno);
	fd = have_openat2(rootfd) ? open_kernel(rootfd, rel)
				  : open_walk(rootfd, rel);
	close(rootfd);
	if (fd < 0)
		return failed(f, -fd);
	if (fstat(fd, &f->st) != 0) {
		rc = errno;
		close(fd);
		return failed(f, rc);
	}
	if (!S_ISREG(f->st.st_mode)) {
		close(fd);
		return f->status = PD_ROOT_NOT_FILE;
	}
	f->fd = fd;
	return f->status = PD_ROOT_FILE;
}
