/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result files appended to (run --csv/--json/--sweep-csv, raw --json):
 * checked together, then opened. */
#include "outfile.h"
#include "../base/error.h"
#include "../base/parse.h"
#include "../../fs-setup/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Who else could have put this here? */
static gboolean foreign_owner(const struct stat *st)
{
	return st->st_uid != 0 && st->st_uid != geteuid();
}

gboolean ab_outfile_names_descriptor(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	if (g_str_equal(path, "/dev/stdout") || g_str_equal(path, "/dev/stderr"))
		return TRUE;
	for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++)
		if (g_str_has_prefix(path, dirs[i]) && ab_parse_all_digits(path + strlen(dirs[i])))
			return TRUE;
	return FALSE;
}

unsigned ab_outfile_closed_std;

/* The descriptor a name of one's own descriptors names, or -1. */
static int named_descriptor(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	if (g_str_equal(path, "/dev/stdout"))
		return 1;
	if (g_str_equal(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++)
		if (g_str_has_prefix(path, dirs[i]) && ab_parse_all_digits(path + strlen(dirs[i])) &&
		    strlen(path + strlen(dirs[i])) < 9)
			return atoi(path + strlen(dirs[i]));
	return -1;
}

static gboolean refuse_symlink(const struct ab_outfile *o, GError **error)
{
	g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': a symbolic link (name the file itself)",
		    o->option, o->path);
	return FALSE;
}

/* What an output is, to tell two apart: the file (device and inode) when
 * it exists, else its directory's and its own name (so F, ./F and DIR/F
 * are one before the first of them makes it); NULL for a character device
 * (/dev/null, a terminal: any number may share one) or a directory that
 * cannot be looked at (opening then says why). */
static char *identity(const char *path, const struct stat *st)
{
	if (st)
		return S_ISCHR(st->st_mode) ? NULL
					    : g_strdup_printf("file %ju:%ju", (uintmax_t)st->st_dev, (uintmax_t)st->st_ino);
	g_autofree char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
	struct stat d;
	if (stat(dir, &d) != 0)
		return NULL;
	return g_strdup_printf("name %ju:%ju/%s", (uintmax_t)d.st_dev, (uintmax_t)d.st_ino, base);
}

/* Before anything is opened: where it lies (with -u), no symbolic link, not
 * another user's; *id its identity. */
static gboolean check(const struct ab_outfile *o, gboolean under_u, char **id, GError **error)
{
	*id = NULL;
	if (under_u) {
		g_autofree char *why = NULL;
		g_autofree char *absolute = ab_path_absolute(o->path);
		g_autofree char *parent = g_path_get_dirname(absolute);
		if (!ab_path_trusted(parent, &why)) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing %s '%s': %s (with -u, the user could redirect it)", o->option, o->path, why);
			return FALSE;
		}
	}
	/* A descriptor's name is a link by design: what it leads to counts. */
	gboolean descriptor = ab_outfile_names_descriptor(o->path);
	int fd = descriptor ? named_descriptor(o->path) : -1;
	if (fd >= 0 && fd <= 2 && (ab_outfile_closed_std & (1u << fd))) {
		static const char *const names[] = { "standard input", "standard output", "standard error" };
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT,
			    "refusing %s '%s': %s was closed when arraybench started (the results would be lost)",
			    o->option, o->path, names[fd]);
		return FALSE;
	}
	struct stat st;
	gboolean exists = (descriptor ? stat(o->path, &st) : lstat(o->path, &st)) == 0;
	if (exists && S_ISLNK(st.st_mode))
		return refuse_symlink(o, error);
	if (exists && !S_ISCHR(st.st_mode) && foreign_owner(&st)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': it belongs to uid %u", o->option, o->path,
			    (unsigned)st.st_uid);
		return FALSE;
	}
	*id = identity(o->path, exists ? &st : NULL);
	return TRUE;
}

/* Is outs[i] one of the files of outs[0..i)? */
static gboolean distinct(const struct ab_outfile *outs, GPtrArray *ids, size_t i, GError **error)
{
	const char *id = g_ptr_array_index(ids, i);
	for (size_t k = 0; id && k < i; k++) {
		const char *other = g_ptr_array_index(ids, k);
		if (other && g_str_equal(other, id)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing %s '%s': it is the file of %s",
				    outs[i].option, outs[i].path, outs[k].option);
			return FALSE;
		}
	}
	return TRUE;
}

/* Opened without following a final symbolic link (one swapped in since the
 * check fails), never blocking; *id becomes the identity of what opened. */
static FILE *open_one(const struct ab_outfile *o, char **id, GError **error)
{
	gboolean descriptor = ab_outfile_names_descriptor(o->path);
	int fd = open(o->path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC | (descriptor ? 0 : O_NOFOLLOW),
		      0644);
	struct stat st;
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP && !descriptor && lstat(o->path, &st) == 0 && S_ISLNK(st.st_mode))
			refuse_symlink(o, error);
		else
			ab_set_error_errno(error, AB_ERROR_USAGE, e, "cannot open '%s' for appending", o->path);
		return NULL;
	}
	g_autofree char *why = NULL;
	if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
		why = g_strdup("not a file, pipe or character device");
	else if (!S_ISCHR(st.st_mode) && foreign_owner(&st))
		why = g_strdup_printf("it belongs to uid %u", (unsigned)st.st_uid);
	FILE *f = why ? NULL : fdopen(fd, "a");
	if (!f) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': %s", o->option, o->path, why ? why : "?");
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	g_free(*id);
	*id = identity(o->path, &st);
	return f;
}

gboolean ab_outfiles_open(struct ab_outfile *outs, size_t n, gboolean under_u, GError **error)
{
	g_autoptr(GPtrArray) ids = g_ptr_array_new_full(n, g_free);
	for (size_t i = 0; i < n; i++) {
		char *id = NULL;
		outs[i].f = NULL;
		if (outs[i].path && !check(&outs[i], under_u, &id, error))
			return FALSE;
		g_ptr_array_add(ids, id);
		if (!distinct(outs, ids, i, error))
			return FALSE;
	}
	/* Checked again on what was opened: a name made or swapped meanwhile
	 * (another hard link, say) is caught here. */
	for (size_t i = 0; i < n; i++) {
		if (!outs[i].path)
			continue;
		if (!(outs[i].f = open_one(&outs[i], (char **)&ids->pdata[i], error)) || !distinct(outs, ids, i, error)) {
			ab_outfiles_close(outs, n);
			return FALSE;
		}
	}
	return TRUE;
}

void ab_outfiles_close(struct ab_outfile *outs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (outs[i].f)
			fclose(outs[i].f);
		outs[i].f = NULL;
	}
}

/* 10 ms apart: 5 s, a thousand times what an append of ours takes. */
#define AB_OUTFILE_LOCK_TRIES 500

static gboolean write_whole(int fd, const char *text, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return FALSE;
		}
		done += (size_t)n;
	}
	return TRUE;
}

gboolean ab_outfile_append(FILE *f, const char *text)
{
	int fd = fileno(f);
	struct stat st;
	if (fflush(f) != 0 || fstat(fd, &st) != 0)
		return FALSE;
	if (!S_ISREG(st.st_mode)) {
		errno = 0;
		return fputs(text, f) >= 0 && fflush(f) == 0 && !ferror(f);
	}
	/* Another arraybench appending meanwhile waits: the length taken
	 * below is then still where our text begins.  Any reader of the
	 * file may hold a lock, so only for a while: then (or on a file
	 * system without locks) the run is appended unlocked, as it was. */
	gboolean locked = FALSE;
	for (int tries = 0; tries < AB_OUTFILE_LOCK_TRIES && !locked; tries++) {
		locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
		if (!locked && errno != EWOULDBLOCK && errno != EINTR)
			break;
		if (!locked)
			g_usleep(10 * 1000);
	}
	gboolean ok = fstat(fd, &st) == 0;
	off_t before = st.st_size;
	if (ok && !write_whole(fd, text, strlen(text))) {
		int e = errno;
		if (ftruncate(fd, before) != 0)
			e = e ? e : errno;
		errno = e;
		ok = FALSE;
	}
	int e = errno;
	if (locked)
		flock(fd, LOCK_UN);
	errno = e;
	return ok;
}
