/* SPDX-License-Identifier: MIT */
/*
 * Build-ids of local files, read with libelf (elfutils), and the
 * resolution of a recorded build-id against the local machine the way
 * perf looks for a DSO: the file at its path (under a symfs), perf's
 * build-id cache (~/.debug), and /usr/lib/debug/.build-id.
 *
 * Nothing read here is trusted: an ELF file may be truncated or hostile,
 * so every size is checked against the file size and capped, and every
 * failure becomes a status with a short reason, never a crash.  No
 * printing.
 */
#ifndef PD_BUILDID_H
#define PD_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest build-id kept from an ELF note (sha1 is 20, md5 16, uuid 16;
 * ld --build-id=0xHEX may be longer: the rest is cut off). */
#define PD_ELF_BUILD_ID_MAX 64

/* What reading one file gave. */
enum pd_elf_status {
	PD_ELF_OK,	   /* an NT_GNU_BUILD_ID note was found */
	PD_ELF_NO_NOTE,	   /* a sound ELF file without that note */
	PD_ELF_NOT_ELF,	   /* not an ELF file (or not a regular file) */
	PD_ELF_UNREADABLE, /* ELF magic, but damaged or truncated; or an
			    * I/O error or no permission */
	PD_ELF_MISSING,	   /* no such file */
	PD_ELF_OUTSIDE,	   /* the path leaves its root: not looked at */
};

struct pd_elf_build_id {
	enum pd_elf_status status;
	uint8_t id[PD_ELF_BUILD_ID_MAX];
	size_t len;	  /* bytes of id (PD_ELF_OK) */
	char detail[160]; /* why, when not PD_ELF_OK */
};

/*
 * The build-id of the ELF image in p[0..n) (elf_memory).  `out` holds
 * *outlen bytes; on PD_ELF_OK *outlen becomes the build-id length (cut
 * at the buffer size).  Returns an enum pd_elf_status.  For the fuzz
 * target: never reads outside p[0..n).
 */
int pd_elf_build_id_mem(const void *p, size_t n, uint8_t *out, size_t *outlen);

/*
 * The build-id of the ELF file at path under the directory root (NULL or
 * "": "/"), opened with pd_root_open (rootpath.h): a path that leaves
 * the root is PD_ELF_OUTSIDE, a link is resolved inside the root, only a
 * regular file is read (elf_begin, ELF_C_READ).
 */
void pd_elf_build_id_in(const char *root, const char *path,
			struct pd_elf_build_id *r);

/*
 * An ELF file opened for reading more than its build-id (profile's
 * symbols): pd_elf_file_open_in() is pd_elf_build_id_in() that keeps the
 * file open when its status is PD_ELF_OK or PD_ELF_NO_NOTE (elf is then a
 * libelf ELF_C_READ handle whose section and program header tables lie
 * inside the file's `size` bytes); otherwise nothing stays open.
 * pd_elf_file_open_mem() reads a copy of p[0..n) (the fuzz target).
 */
struct pd_elf_file {
	struct Elf *elf;
	int fd;	   /* -1: none, or in memory */
	void *mem; /* in memory: the copy libelf reads */
	uint64_t size;
	size_t shnum;
};
void pd_elf_file_open_in(const char *root, const char *path,
			 struct pd_elf_file *f, struct pd_elf_build_id *r);
void pd_elf_file_open_mem(const void *p, size_t n, struct pd_elf_file *f,
			  struct pd_elf_build_id *r);
/* A file the user named (--vmlinux): opened as given, not under a root. */
void pd_elf_file_open_path(const char *path, struct pd_elf_file *f,
			   struct pd_elf_build_id *r);
void pd_elf_file_close(struct pd_elf_file *f);

/*
 * The NT_GNU_BUILD_ID in a bare sequence of ELF notes in host byte
 * order, as /sys/kernel/notes holds them.  PD_ELF_OK or PD_ELF_NO_NOTE.
 */
int pd_notes_build_id(const void *p, size_t n, uint8_t *out, size_t *outlen);

/* The running kernel's build-id from a notes file (/sys/kernel/notes). */
void pd_kernel_build_id(const char *notes_path, struct pd_elf_build_id *r);

/* ---- resolution ------------------------------------------------------ */

/* Per entry.  Names (pd_bid_status_name) are the output's values. */
enum pd_bid_status {
	PD_BID_MATCH,	     /* a file with this build-id was found */
	PD_BID_MISMATCH,     /* a file was found, its build-id differs (or
			      * it has none) */
	PD_BID_MISSING,	     /* no candidate file exists */
	PD_BID_NOT_ELF,	     /* the file found is not ELF */
	PD_BID_UNREADABLE,   /* the file found is damaged or unreadable */
	PD_BID_OUTSIDE_ROOT, /* the recorded path leaves the --symfs or
			      * build-id cache directory with ".." */
	PD_BID_PSEUDO,	     /* [vdso], [vsyscall], //anon...: no file */
	PD_BID_NOT_CHECKED,  /* [kernel.kallsyms] without --kernel; profile:
			      * a file used without a build-id check */
	PD_BID_NO_BUILD_ID,  /* sampled DSO the recording has no build-id
			      * for (--hits only) */
	PD_BID_NSTATUS,
};

const char *pd_bid_status_name(enum pd_bid_status st);

/*
 * The status of a file read as st says when it gives no build-id to
 * compare: not-elf, missing, outside-root, unreadable.  PD_ELF_OK and
 * PD_ELF_NO_NOTE (a sound ELF file) are the caller's to judge: mismatch
 * here.
 */
enum pd_bid_status pd_bid_file_status(enum pd_elf_status st);

/*
 * Where to look (perf's --symfs, buildid.dir / --debug-dir).  Every path
 * from the recording is looked up under one of the two directories with
 * pd_root_open (rootpath.h), never outside it.
 */
struct pd_bid_where {
	const char *symfs;	  /* NULL or "": / */
	const char *debug_dir;	  /* perf's build-id cache; NULL: none
				   * (read_opts.h: buildid_dir, the default) */
	bool kernel;		  /* compare [kernel.kallsyms] with the
				* running kernel */
	const char *kernel_notes; /* default /sys/kernel/notes */
};

/* One candidate path that was looked at. */
struct pd_bid_try {
	char *path;
	enum pd_bid_status verdict; /* match, mismatch, missing, not-elf,
				     * unreadable, outside-root: this
				     * file alone */
	enum pd_elf_status status;
	uint8_t id[PD_ELF_BUILD_ID_MAX];
	size_t len;
	char *detail; /* NULL for PD_ELF_OK */
};

#define PD_BID_MAX_TRIES 5

struct pd_bid_res {
	enum pd_bid_status status;
	const char *path; /* match: the file that matched; otherwise
				    * the file the status is about (NULL
				    * for missing / pseudo / not checked) */
	bool has_found;	  /* mismatch: a build-id was found */
	uint8_t found[PD_ELF_BUILD_ID_MAX];
	size_t found_len;
	const char *detail; /* why, for every status but match */
	/* match: the file that matched, as pd_root_open takes it */
	const char *root, *rel;
	struct pd_bid_try tries[PD_BID_MAX_TRIES];
	unsigned ntries;
};

struct arena;

/*
 * Resolve one recorded build-id (id[0..len)) of `filename` (len bytes,
 * not NUL-terminated; cpumode from the record's misc) against the local
 * machine.  Strings go into `a`.
 */
void pd_bid_resolve(const struct pd_bid_where *w, const uint8_t *id, size_t len,
		    const char *filename, size_t flen, unsigned cpumode,
		    struct arena *a, struct pd_bid_res *out);

/* [kernel.kallsyms], [vdso], //anon ...: DSOs that are not files. */
bool pd_bid_is_kernel(const char *filename, size_t flen);
bool pd_bid_is_pseudo(const char *filename, size_t flen);

/*
 * perf's rule (dso__build_id_equal): equal bytes and length, or the
 * recorded id is a 20-byte field whose tail past the found id is zero.
 */
bool pd_bid_equal(const uint8_t *rec, size_t rec_len, const uint8_t *found,
		  size_t found_len);

#endif
