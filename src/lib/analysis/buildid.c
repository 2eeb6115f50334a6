// SPDX-License-Identifier: MIT
/*
 * Build-ids of local ELF files with libelf, and their resolution against
 * the local machine (see buildid.h).
 *
 * Where the build-id lives: an ELF note of type NT_GNU_BUILD_ID (3),
 * owner "GNU", in an SHT_NOTE section (.note.gnu.build-id) or, in files
 * without section headers, in a PT_NOTE segment.  The note header
 * {u32 namesz, descsz, type} is converted to host order by libelf
 * (ELF_T_NHDR / ELF_T_NHDR8) and bounds-checked by gelf_getnote().
 *
 * Where perf looks for a DSO (tools/perf/util/build-id.c, dso.c
 * dso__read_binary_type_filename): the path as recorded, under
 * symbol_conf.symfs; the build-id cache, ~/.debug/<path>/<build-id>/elf
 * and ~/.debug/.build-id/<xx>/<rest> (a link to that directory, or to the
 * file itself in caches before perf 4.x); and the distribution's debug
 * files, /usr/lib/debug/.build-id/<xx>/<rest>.debug.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base/arena.h"
#include "lib/analysis/buildid.h"
#include "lib/analysis/rootpath.h"

/* Caps on what a hostile file can make us read or loop over. */
#define NOTE_DATA_MAX	 (1u << 20) /* a note section or segment */
#define NOTES_MAX	 4096	    /* notes per section or segment */
#define SCN_MAX		 65536	    /* sections or program headers */
#define KERNEL_NOTES_MAX (1u << 16)

static void elf_version_once(void)
{
	elf_version(EV_CURRENT);
}

/* once per process, whichever thread first reads an ELF file (the
 * workers of a parallel walk each read their own) */
static void elf_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, elf_version_once);
}

/* 1: found; 0: no build-id note in data. */
static int notes_find(Elf_Data *data, uint8_t *out, size_t *outlen)
{
	size_t off = 0, name_off, desc_off, next;
	unsigned n = 0;
	GElf_Nhdr nh;

	while (off < data->d_size && n++ < NOTES_MAX &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) >
		       0) {
		const char *name = (const char *)data->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID &&
		    nh.n_namesz == sizeof(ELF_NOTE_GNU) &&
		    memcmp(name, ELF_NOTE_GNU, sizeof(ELF_NOTE_GNU)) == 0 &&
		    nh.n_descsz > 0) {
			size_t len =
				nh.n_descsz < *outlen ? nh.n_descsz : *outlen;

			memcpy(out, (const char *)data->d_buf + desc_off, len);
			*outlen = len;
			return 1;
		}
		if (next <= off)
			break;
		off = next;
	}
	return 0;
}

/* Write the reason to detail (if any) and return status st. */
#define FAIL(st, ...)                                        \
	do {                                                 \
		if (detail)                                  \
			snprintf(detail, dlen, __VA_ARGS__); \
		return st;                                   \
	} while (0)

/* Check the ELF header and that its tables lie inside the file; *shnum out. */
static int elf_check_header(Elf *elf, uint64_t size, size_t *shnum,
			    char *detail, size_t dlen)
{
	GElf_Ehdr eh;

	if (elf_kind(elf) != ELF_K_ELF)
		FAIL(PD_ELF_UNREADABLE, "damaged ELF header");
	if (!gelf_getehdr(elf, &eh))
		FAIL(PD_ELF_UNREADABLE, "ELF header: %s", elf_errmsg(-1));
	/* the header tables must lie inside the file (libelf would say
	 * "invalid data"; say what is wrong) */
	if (eh.e_shnum &&
	    (eh.e_shoff > size ||
	     (uint64_t)eh.e_shnum * eh.e_shentsize > size - eh.e_shoff))
		FAIL(PD_ELF_UNREADABLE,
		     "truncated: %u section headers at 0x%llx, file of %llu "
		     "bytes",
		     eh.e_shnum, (unsigned long long)eh.e_shoff,
		     (unsigned long long)size);
	if (eh.e_phnum && eh.e_phnum != PN_XNUM &&
	    (eh.e_phoff > size ||
	     (uint64_t)eh.e_phnum * eh.e_phentsize > size - eh.e_phoff))
		FAIL(PD_ELF_UNREADABLE,
		     "truncated: %u program headers at 0x%llx, file of %llu "
		     "bytes",
		     eh.e_phnum, (unsigned long long)eh.e_phoff,
		     (unsigned long long)size);
	if (elf_getshdrnum(elf, shnum) != 0)
		FAIL(PD_ELF_UNREADABLE, "section count: %s", elf_errmsg(-1));
	if (*shnum > SCN_MAX)
		FAIL(PD_ELF_UNREADABLE, "%zu sections, more than %u", *shnum,
		     SCN_MAX);
	if (*shnum && eh.e_shoff > size)
		FAIL(PD_ELF_UNREADABLE,
		     "truncated: section headers at 0x%llx, file of %llu bytes",
		     (unsigned long long)eh.e_shoff, (unsigned long long)size);
	return PD_ELF_OK;
}

/* Look for the note in the SHT_NOTE sections; PD_ELF_NO_NOTE if none has it. */
static int elf_note_sections(Elf *elf, uint64_t size, size_t shnum,
			     uint8_t *out, size_t *outlen, char *detail,
			     size_t dlen)
{
	Elf_Scn *scn = NULL;

	for (size_t i = 0; i < shnum && (scn = elf_nextscn(elf, scn)); i++) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			FAIL(PD_ELF_UNREADABLE, "section header %zu: %s", i + 1,
			     elf_errmsg(-1));
		if (sh.sh_type != SHT_NOTE || sh.sh_size == 0)
			continue;
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)
			FAIL(PD_ELF_UNREADABLE,
			     "truncated: note section %zu at 0x%llx+0x%llx, "
			     "file of %llu bytes",
			     elf_ndxscn(scn), (unsigned long long)sh.sh_offset,
			     (unsigned long long)sh.sh_size,
			     (unsigned long long)size);
		if (sh.sh_size > NOTE_DATA_MAX)
			continue;
		if (!(d = elf_getdata(scn, NULL)))
			FAIL(PD_ELF_UNREADABLE, "note section %zu: %s",
			     elf_ndxscn(scn), elf_errmsg(-1));
		if (notes_find(d, out, outlen))
			return PD_ELF_OK;
	}
	return PD_ELF_NO_NOTE;
}

/* Look for the note in the PT_NOTE segments; PD_ELF_NO_NOTE if none has it. */
static int elf_note_segments(Elf *elf, uint64_t size, uint8_t *out,
			     size_t *outlen, char *detail, size_t dlen)
{
	size_t phnum = 0;

	if (elf_getphdrnum(elf, &phnum) != 0)
		FAIL(PD_ELF_UNREADABLE, "program header count: %s",
		     elf_errmsg(-1));
	if (phnum > SCN_MAX)
		FAIL(PD_ELF_UNREADABLE, "%zu program headers, more than %u",
		     phnum, SCN_MAX);
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph))
			FAIL(PD_ELF_UNREADABLE, "program header %zu: %s", i,
			     elf_errmsg(-1));
		if (ph.p_type != PT_NOTE || ph.p_filesz == 0)
			continue;
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			FAIL(PD_ELF_UNREADABLE,
			     "truncated: PT_NOTE %zu at 0x%llx+0x%llx, file of "
			     "%llu bytes",
			     i, (unsigned long long)ph.p_offset,
			     (unsigned long long)ph.p_filesz,
			     (unsigned long long)size);
		if (ph.p_filesz > NOTE_DATA_MAX)
			continue;
		d = elf_getdata_rawchunk(
			elf, (int64_t)ph.p_offset, (size_t)ph.p_filesz,
			ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (d && notes_find(d, out, outlen))
			return PD_ELF_OK;
	}
	return PD_ELF_NO_NOTE;
}

/*
 * The build-id of an opened ELF of `size` bytes.  detail may be NULL.
 */
static int elf_build_id(Elf *elf, uint64_t size, uint8_t *out, size_t *outlen,
			char *detail, size_t dlen)
{
	size_t shnum = 0;
	int st;

	st = elf_check_header(elf, size, &shnum, detail, dlen);
	if (st != PD_ELF_OK)
		return st;
	st = elf_note_sections(elf, size, shnum, out, outlen, detail, dlen);
	if (st != PD_ELF_NO_NOTE)
		return st;
	/* no section headers (or none with the note): the segments */
	st = elf_note_segments(elf, size, out, outlen, detail, dlen);
	if (st != PD_ELF_NO_NOTE)
		return st;
	FAIL(PD_ELF_NO_NOTE, "no NT_GNU_BUILD_ID note");
}
#undef FAIL

static bool has_elf_magic(const void *p, size_t n)
{
	return n >= SELFMAG && memcmp(p, ELFMAG, SELFMAG) == 0;
}

/* Where pd_root_open stopped, as a status and a reason. */
static void root_failed(const struct pd_root_file *f, struct pd_elf_build_id *r)
{
	switch (f->status) {
	case PD_ROOT_OUTSIDE:
		r->status = PD_ELF_OUTSIDE;
		snprintf(r->detail, sizeof(r->detail),
			 "'..' leads outside the root");
		return;
	case PD_ROOT_NOT_FILE:
		r->status = PD_ELF_NOT_ELF;
		snprintf(r->detail, sizeof(r->detail), "%s",
			 S_ISDIR(f->st.st_mode) ? "a directory"
						: "not a regular file");
		return;
	default:
		r->status = f->status == PD_ROOT_MISSING ? PD_ELF_MISSING
							 : PD_ELF_UNREADABLE;
		snprintf(r->detail, sizeof(r->detail), "%s", strerror(f->err));
		return;
	}
}

void pd_elf_file_close(struct pd_elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->mem);
	*f = (struct pd_elf_file){.fd = -1};
}

/* The opened f's header checked and build-id read into r; f closed
 * unless it is ELF whose tables lie in the file (OK, NO_NOTE). */
static void read_opened(struct pd_elf_file *f, struct pd_elf_build_id *r)
{
	if (!f->elf) {
		r->status = PD_ELF_UNREADABLE;
		snprintf(r->detail, sizeof(r->detail), "%s", elf_errmsg(-1));
	} else {
		r->len = sizeof(r->id);
		r->status = elf_build_id(f->elf, f->size, r->id, &r->len,
					 r->detail, sizeof(r->detail));
		if (elf_getshdrnum(f->elf, &f->shnum) != 0)
			f->shnum = 0;
	}
	if (r->status != PD_ELF_OK)
		r->len = 0;
	if (r->status != PD_ELF_OK && r->status != PD_ELF_NO_NOTE)
		pd_elf_file_close(f);
}

void pd_elf_file_open_mem(const void *p, size_t n, struct pd_elf_file *f,
			  struct pd_elf_build_id *r)
{
	*f = (struct pd_elf_file){.fd = -1};
	memset(r, 0, sizeof(*r));
	if (!has_elf_magic(p, n)) {
		r->status = PD_ELF_NOT_ELF;
		snprintf(r->detail, sizeof(r->detail), "no ELF magic");
		return;
	}
	elf_init();
	/* elf_memory wants a writable image; never let it touch ours */
	f->mem = malloc(n);
	if (!f->mem) {
		r->status = PD_ELF_UNREADABLE;
		snprintf(r->detail, sizeof(r->detail), "out of memory");
		return;
	}
	memcpy(f->mem, p, n);
	f->size = n;
	f->elf = elf_memory(f->mem, n);
	read_opened(f, r);
}

int pd_elf_build_id_mem(const void *p, size_t n, uint8_t *out, size_t *outlen)
{
	struct pd_elf_build_id r;
	struct pd_elf_file f;

	pd_elf_file_open_mem(p, n, &f, &r);
	pd_elf_file_close(&f);
	if (r.status == PD_ELF_OK) {
		*outlen = r.len < *outlen ? r.len : *outlen;
		memcpy(out, r.id, *outlen);
	}
	return r.status;
}

/* f->fd open on a regular file of f->size bytes: ELF, or why not */
static void open_fd(struct pd_elf_file *f, struct pd_elf_build_id *r)
{
	unsigned char magic[SELFMAG];
	ssize_t got = pread(f->fd, magic, sizeof(magic), 0);

	if (got < 0) {
		r->status = PD_ELF_UNREADABLE;
		snprintf(r->detail, sizeof(r->detail), "%s", strerror(errno));
		pd_elf_file_close(f);
		return;
	}
	if (!has_elf_magic(magic, (size_t)got)) {
		r->status = PD_ELF_NOT_ELF;
		snprintf(r->detail, sizeof(r->detail),
			 "no ELF magic (%lld bytes)", (long long)f->size);
		pd_elf_file_close(f);
		return;
	}
	elf_init();
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	read_opened(f, r);
}

void pd_elf_file_open_in(const char *root, const char *path,
			 struct pd_elf_file *f, struct pd_elf_build_id *r)
{
	struct pd_root_file rf;

	*f = (struct pd_elf_file){.fd = -1};
	memset(r, 0, sizeof(*r));
	/* confined to root; regular files only, opened O_NONBLOCK */
	if (pd_root_open(root, path, &rf) != PD_ROOT_FILE) {
		root_failed(&rf, r);
		return;
	}
	f->fd = rf.fd;
	f->size = (uint64_t)rf.st.st_size;
	open_fd(f, r);
}

void pd_elf_file_open_path(const char *path, struct pd_elf_file *f,
			   struct pd_elf_build_id *r)
{
	struct stat st;

	*f = (struct pd_elf_file){.fd = -1};
	memset(r, 0, sizeof(*r));
	f->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		r->status = f->fd < 0 && errno == ENOENT ? PD_ELF_MISSING
			    : f->fd < 0			 ? PD_ELF_UNREADABLE
							 : PD_ELF_NOT_ELF;
		snprintf(r->detail, sizeof(r->detail), "%s",
			 f->fd < 0 ? strerror(errno) : "not a regular file");
		pd_elf_file_close(f);
		return;
	}
	f->size = (uint64_t)st.st_size;
	open_fd(f, r);
}

void pd_elf_build_id_in(const char *root, const char *path,
			struct pd_elf_build_id *r)
{
	struct pd_elf_file f;

	pd_elf_file_open_in(root, path, &f, r);
	pd_elf_file_close(&f);
}

/* {u32 namesz, descsz, type; name, desc padded to 4}, host byte order. */
int pd_notes_build_id(const void *p, size_t n, uint8_t *out, size_t *outlen)
{
	const uint8_t *b = p;
	size_t off = 0;

	for (unsigned i = 0; i < NOTES_MAX && n - off >= sizeof(Elf32_Nhdr);
	     i++) {
		Elf32_Nhdr nh;
		uint64_t namesz, descsz, name_at, desc_at, end;

		memcpy(&nh, b + off, sizeof(nh));
		namesz = nh.n_namesz;
		descsz = nh.n_descsz;
		name_at = off + sizeof(nh);
		desc_at = name_at + ((namesz + 3) & ~3ull);
		end = desc_at + ((descsz + 3) & ~3ull);
		if (desc_at + descsz > n)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID &&
		    namesz == sizeof(ELF_NOTE_GNU) &&
		    memcmp(b + name_at, ELF_NOTE_GNU, sizeof(ELF_NOTE_GNU)) ==
			    0 &&
		    descsz > 0) {
			size_t len =
				descsz < *outlen ? (size_t)descsz : *outlen;

			memcpy(out, b + desc_at, len);
			*outlen = len;
			return PD_ELF_OK;
		}
		if (end > n)
			break;
		off = (size_t)end;
	}
	return PD_ELF_NO_NOTE;
}

void pd_kernel_build_id(const char *notes_path, struct pd_elf_build_id *r)
{
	uint8_t *buf;
	size_t n = 0;
	ssize_t got;
	int fd;

	memset(r, 0, sizeof(*r));
	fd = open(notes_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		r->status =
			errno == ENOENT ? PD_ELF_MISSING : PD_ELF_UNREADABLE;
		snprintf(r->detail, sizeof(r->detail), "%s", strerror(errno));
		return;
	}
	buf = malloc(KERNEL_NOTES_MAX);
	if (!buf) {
		r->status = PD_ELF_UNREADABLE;
		snprintf(r->detail, sizeof(r->detail), "out of memory");
		close(fd);
		return;
	}
	/* sysfs files report a size, but read() is the truth */
	while (n < KERNEL_NOTES_MAX &&
	       (got = read(fd, buf + n, KERNEL_NOTES_MAX - n)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			r->status = PD_ELF_UNREADABLE;
			snprintf(r->detail, sizeof(r->detail), "%s",
				 strerror(errno));
			goto out;
		}
		n += (size_t)got;
	}
	r->len = sizeof(r->id);
	r->status = pd_notes_build_id(buf, n, r->id, &r->len);
	if (r->status != PD_ELF_OK) {
		r->len = 0;
		snprintf(r->detail, sizeof(r->detail),
			 "no NT_GNU_BUILD_ID note");
	}
out:
	free(buf);
	close(fd);
}
