// SPDX-License-Identifier: MIT
/* An output file written safely (see outfile.h). */
#include "lib/io/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of path ("." when none), in a new string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

static bool same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int pd_outfile_check(const char *path, const char *const *inputs, int n,
		     char *err, size_t errlen)
{
	struct stat out, dir, in;
	/* standard output: a file it appends to (>> FILE) is one too */
	bool have_out =
		path ? stat(path, &out) == 0
		     : fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode);
	char *d = path ? dir_of(path) : NULL;
	bool have_dir = d && stat(d, &dir) == 0;

	free(d);
	for (int i = 0; i < n; i++) {
		const char *name = inputs[i];
		int rc = strcmp(name, "-") ? stat(name, &in) : fstat(0, &in);

		if (rc != 0)
			continue;
		/* a recording that is a directory: nothing written in it */
		if ((have_out && same(&out, &in)) ||
		    (S_ISDIR(in.st_mode) && have_dir && same(&dir, &in))) {
			snprintf(err, errlen,
				 "%s%s%s is the input %s%s%s: an output never "
				 "replaces its input",
				 path ? "'" : "",
				 path ? path : "standard output",
				 path ? "'" : "", strcmp(name, "-") ? "'" : "",
				 strcmp(name, "-") ? name : "(standard input)",
				 strcmp(name, "-") ? "'" : "");
			return PD_OUT_SAME;
		}
	}
	return PD_OUT_OK;
}

int pd_outfile_open(struct pd_outfile *o, const char *path, bool binary,
		    char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct stat st;
	char *d;
	int fd;

	*o = (struct pd_outfile){0};
	if (!path) {
		if (binary && isatty(STDOUT_FILENO)) {
			snprintf(err, errlen,
				 "the output is binary and standard output "
				 "is a terminal: give -o FILE or redirect it");
			return PD_OUT_TTY;
		}
		o->f = stdout;
		return PD_OUT_OK;
	}
	/* a symbolic link is written through (the file it names) */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	    realpath(path, real))
		path = real;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a regular file", path);
		return PD_OUT_USAGE;
	}
	d = dir_of(path);
	o->dest = strdup(path);
	if (!d || !o->dest || asprintf(&o->tmp, "%s/.perfdump-XXXXXX", d) < 0) {
		o->tmp = NULL;
		free(d);
		pd_outfile_abort(o);
		snprintf(err, errlen, "out of memory");
		return PD_OUT_IO;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "cannot create a file in '%s': %s", d,
			 strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(d);
		free(o->tmp);
		o->tmp = NULL;
		pd_outfile_abort(o);
		return PD_OUT_IO;
	}
	free(d);
	return PD_OUT_OK;
}

/* The mode of the file replaced, or of a new one (0666 less umask). */
static mode_t new_mode(const char *dest)
{
	struct stat st;
	mode_t mask;

	if (stat(dest, &st) == 0)
		return st.st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

int pd_outfile_commit(struct pd_outfile *o, char *err, size_t errlen)
{
	int rc = fflush(o->f) != 0 || ferror(o->f) ? -1 : 0;
	int e = errno;

	if (!o->dest) { /* standard output: the caller's to close */
		if (rc)
			snprintf(err, errlen, "cannot write output: %s",
				 strerror(e));
		return rc ? PD_OUT_IO : PD_OUT_OK;
	}
	if (!rc && fchmod(fileno(o->f), new_mode(o->dest)) != 0)
		rc = -1, e = errno;
	if (fclose(o->f) != 0 && !rc)
		rc = -1, e = errno;
	o->f = NULL;
	if (!rc && rename(o->tmp, o->dest) != 0)
		rc = -1, e = errno;
	if (rc) {
		snprintf(err, errlen, "cannot write '%s': %s", o->dest,
			 strerror(e));
		pd_outfile_abort(o);
		return PD_OUT_IO;
	}
	free(o->tmp);
	free(o->dest);
	*o = (struct pd_outfile){0};
	return PD_OUT_OK;
}

void pd_outfile_abort(struct pd_outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->dest);
	*o = (struct pd_outfile){0};
}
