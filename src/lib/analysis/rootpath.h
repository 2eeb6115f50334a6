/* SPDX-License-Identifier: MIT */
/*
 * Files looked up under a root directory: the one way every path taken
 * from a recording (a DSO's filename, a build-id cache entry) is opened,
 * so that a hostile name can only reach files inside the root.
 *
 * The rule: the path is taken relative to the root (a leading '/' does
 * not leave it); its ".." components are resolved lexically, and a path
 * whose ".." climbs above the root is refused (PD_ROOT_OUTSIDE) without
 * touching the file system.  Symbolic links met on the way are resolved
 * as if the root were "/" (as chroot(2) would): an absolute target starts
 * again at the root, and ".." at the root stays there.  The kernel does
 * that with openat2(RESOLVE_IN_ROOT) (Linux 5.6); elsewhere the path is
 * walked a component at a time with O_NOFOLLOW and the same rules
 * (after pd_root_use_openat2(false): always the walk, for tests).
 *
 * Only regular files are opened for reading (O_NONBLOCK, so a FIFO never
 * blocks us); anything else is PD_ROOT_NOT_FILE.  No printing.
 */
#ifndef PD_ROOTPATH_H
#define PD_ROOTPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

enum pd_root_status {
	PD_ROOT_FILE,	  /* fd is open on a regular file */
	PD_ROOT_MISSING,  /* no such file (ENOENT, ENOTDIR; err) */
	PD_ROOT_OUTSIDE,  /* the path leaves the root: nothing was opened */
	PD_ROOT_NOT_FILE, /* a directory, FIFO, device...: st says which */
	PD_ROOT_ERROR,	  /* any other failure: err (EACCES, ELOOP...) */
};

struct pd_root_file {
	enum pd_root_status status;
	int fd;	 /* PD_ROOT_FILE: O_RDONLY, the caller closes it; else -1 */
	int err; /* errno, for PD_ROOT_MISSING and PD_ROOT_ERROR */
	struct stat st; /* PD_ROOT_FILE and PD_ROOT_NOT_FILE */
};

/*
 * Open `path` under the directory `root` (NULL or "": "/") by the rule
 * above.  The root itself is opened as given (it comes from the user, a
 * symbolic link to it is fine).  Returns f->status.
 */
enum pd_root_status pd_root_open(const char *root, const char *path,
				 struct pd_root_file *f);

/*
 * May pd_root_open use openat2 where the kernel has it (the default), or
 * must it always walk (read_opts.h: no_openat2)?  A choice for the whole
 * process, as openat2's presence is: the caller makes it before opening
 * (cli.c, from its read options; the fuzz target).
 */
void pd_root_use_openat2(bool allow);

/*
 * The lexical part of the rule: path relative to the root in out[size]
 * ("a/b", "" for the root itself), without ".", ".." or empty
 * components.  0, or -EXDEV when a ".." climbs above the root, or
 * -ENAMETOOLONG when out is too small.
 */
int pd_root_normalise(const char *path, char *out, size_t size);

#endif
