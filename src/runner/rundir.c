/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rundir.h"
#include "../base/error.h"
#include "../../workloads/fileset.h"

#include <dirent.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILES_NAME AB_FILES_NAME

void ab_run_dir_init(struct ab_run_dir *rd, const char *dir, const char *run_id)
{
	memset(rd, 0, sizeof(*rd));
	rd->dir = g_strdup(dir);
	rd->name = g_strdup_printf("arraybench.%s", run_id);
	rd->path = g_build_filename(dir, rd->name, NULL);
	rd->io_name = g_strdup_printf("arraybench.%s.io", run_id);
	rd->io_path = g_build_filename(dir, rd->io_name, NULL);
	rd->files_dir = g_build_filename(rd->path, FILES_NAME, NULL);
	rd->dir_fd = -1;
	rd->fd = -1;
}

void ab_run_dir_release(struct ab_run_dir *rd)
{
	if (rd->fd >= 0)
		close(rd->fd);
	if (rd->dir_fd >= 0)
		close(rd->dir_fd);
	rd->fd = rd->dir_fd = -1;
}

void ab_run_dir_clear(struct ab_run_dir *rd)
{
	ab_run_dir_release(rd);
	g_free(rd->dir);
	g_free(rd->name);
	g_free(rd->path);
	g_free(rd->io_name);
	g_free(rd->io_path);
	g_free(rd->files_dir);
	memset(rd, 0, sizeof(*rd));
	rd->dir_fd = rd->fd = -1;
}

/*
 * Who makes the run's names in DIR.  Root itself; but with -u the user, in
 * a child process that becomes them: the user may rename in DIR (it is
 * usually theirs) and could move a directory of root's into the place of
 * one root just made, which root would then hand over.  Made by the user,
 * whatever stands there afterwards is the user's own, and root checks that
 * it is.
 */
struct maker {
	gboolean as_user;
	uid_t uid;
	gid_t gid;
};

static uid_t maker_uid(const struct maker *m)
{
	return m->as_user ? m->uid : geteuid();
}

static int make_here(int dir_fd, const char *name, gboolean dir)
{
	if (dir)
		return mkdirat(dir_fd, name, 0700) == 0 ? 0 : errno;
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* mkdirat, or an O_EXCL create, by the maker: 0 or an errno. */
static int make_entry(const struct maker *m, int dir_fd, const char *name, gboolean dir)
{
	if (!m->as_user)
		return make_here(dir_fd, name, dir);
	pid_t pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (setgroups(0, NULL) != 0 || setgid(m->gid) != 0 || setuid(m->uid) != 0)
			_exit(EPERM);
		_exit(make_here(dir_fd, name, dir) & 0xff);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : EIO;
}

/* Journal, make, open (dir) or look at (file) one name in DIR, check it is
 * the maker's, and identify it.  *fd_out: the directory's descriptor. */
static gboolean make_name(struct ab_run_dir *rd, struct ab_undo *undo, const struct maker *m, enum ab_undo_kind kind,
			  const char *name, const char *path, const char *what, int *fd_out, struct ab_undo_step **out,
			  GError **error)
{
	gboolean dir = kind == AB_UNDO_RUN_DIR;
	g_autofree char *owner = g_strdup_printf("%u", (unsigned)maker_uid(m));
	struct ab_undo_step *step = ab_undo_intend(undo, kind, path, owner, NULL, error);
	if (!step)
		return FALSE;
	int e = make_entry(m, rd->dir_fd, name, dir);
	if (e) {
		ab_undo_done(undo, step); /* what is there is not ours */
		if (e == EEXIST)
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot create the %s '%s': it exists already (it was "
				    "not touched)", what, path);
		else
			ab_set_error_errno(error, AB_ERROR_USAGE, e, "cannot write in directory '%s'", rd->dir);
		return FALSE;
	}
	*out = step;
	struct stat st;
	int fd = dir ? openat(rd->dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if ((dir ? fd < 0 || fstat(fd, &st) != 0 : fstatat(rd->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) ||
	    st.st_uid != maker_uid(m) || (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode) || st.st_nlink != 1)) {
		if (fd >= 0)
			close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing the %s '%s': it is not the one just made", what,
			    path);
		return FALSE;
	}
	if (fd_out) {
		*fd_out = fd;
		rd->dev = st.st_dev;
		rd->ino = st.st_ino;
	}
	return ab_undo_identify(undo, step, &st, error);
}

gboolean ab_run_dir_create(struct ab_run_dir *rd, int dir_fd, struct ab_undo *undo, gboolean owner_given,
			   uid_t uid, gid_t gid, GError **error)
{
	struct stat st;
	rd->dir_fd = dir_fd;
	if (fstat(dir_fd, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use directory '%s'", rd->dir);
		return FALSE;
	}
	rd->dir_dev = st.st_dev;
	rd->dir_ino = st.st_ino;
	struct maker m = { owner_given, uid, gid };
	rd->io_owner = maker_uid(&m);
	rd->owner_given = owner_given;
	rd->uid = uid;
	rd->gid = gid;
	/* The test file's name is claimed now, before any phase: the workers
	 * reuse it (O_TRUNC), so it stays held until the run ends. */
	return make_name(rd, undo, &m, AB_UNDO_RUN_DIR, rd->name, rd->path, "test directory", &rd->fd, &rd->step,
			 error) &&
	       make_name(rd, undo, &m, AB_UNDO_IO_FILE, rd->io_name, rd->io_path, "test file", NULL, &rd->io_step,
			 error);
}

gboolean ab_run_dir_open_other(struct ab_run_dir *rd, const char *dir, const char *run_id, GError **error)
{
	ab_run_dir_init(rd, dir, run_id);
	struct stat st;
	rd->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rd->dir_fd >= 0)
		rd->fd = openat(rd->dir_fd, rd->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rd->fd < 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot open another rank's directory '%s'", rd->path);
		return FALSE;
	}
	if (fstat(rd->fd, &st) != 0 || st.st_uid != geteuid()) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing '%s': not a directory of this user's", rd->path);
		return FALSE;
	}
	rd->dev = st.st_dev;
	rd->ino = st.st_ino;
	if (fstat(rd->dir_fd, &st) == 0) {
		rd->dir_dev = st.st_dev;
		rd->dir_ino = st.st_ino;
	}
	rd->io_owner = geteuid();
	return TRUE;
}

gboolean ab_run_dir_is_stream_name(const char *name)
{
	unsigned k;
	char tail;
	char want[32];
	if (sscanf(name, AB_STREAM_FILE_FMT "%c", &k, &tail) != 1 || k == 0 || k >= AB_MAX_SWEEP_FILES)
		return FALSE;
	snprintf(want, sizeof(want), AB_STREAM_FILE_FMT, k);
	return g_str_equal(name, want); /* "stream.01", "stream.+1" are not ours */
}

gboolean ab_run_dir_make_stream_files(struct ab_run_dir *rd, unsigned count, GError **error)
{
	struct maker m = { rd->owner_given, rd->uid, rd->gid };
	for (unsigned k = 1; k < count; k++) {
		char name[32];
		snprintf(name, sizeof(name), AB_STREAM_FILE_FMT, k);
		struct stat st;
		if (fstatat(rd->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			int e = make_entry(&m, rd->fd, name, FALSE);
			if (e && e != EEXIST) {
				ab_set_error_errno(error, AB_ERROR_PHASE, e, "cannot create '%s/%s'", rd->path, name);
				return FALSE;
			}
			if (fstatat(rd->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
				st.st_mode = 0;
		}
		/* With -u the run directory is the user's: whatever stands
		 * there must be what we would have made. */
		if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != maker_uid(&m)) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing '%s/%s': not a regular file of the run's own, with one link", rd->path, name);
			return FALSE;
		}
	}
	return TRUE;
}

/* Reopen `name` in `at` (or `path` when at < 0) only if it is still the
 * directory with that identity. */
static int reopen_same(int at, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_dev != dev || st.st_ino != ino)) {
		close(fd);
		fd = -1;
		errno = EXDEV;
	}
	return fd;
}

gboolean ab_run_dir_reopen(struct ab_run_dir *rd, GError **error)
{
	rd->dir_fd = reopen_same(AT_FDCWD, rd->dir, rd->dir_dev, rd->dir_ino);
	if (rd->dir_fd >= 0)
		rd->fd = reopen_same(rd->dir_fd, rd->name, rd->dev, rd->ino);
	if (rd->fd >= 0)
		return TRUE;
	int e = errno;
	ab_run_dir_release(rd);
	if (e == EXDEV)
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing '%s' after the remount: it is not the directory arraybench had", rd->path);
	else
		ab_set_error_errno(error, AB_ERROR_UNSAFE, e, "cannot open the test directory '%s' again", rd->path);
	return FALSE;
}

void ab_run_dir_remove_file_set(const struct ab_run_dir *rd, const struct ab_file_set *set)
{
	int top = openat(rd->fd, FILES_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (top < 0)
		return;
	if (set->dirs <= 1) {
		for (uint32_t i = 0; i < set->count; i++)
			unlinkat(top, ab_file_set_path(set, i), 0);
	} else {
		/* Each subdirectory opened without following a symlink (with -u it
		 * is the user's), its files unlinked inside it; a set's files are
		 * in index order, directory by directory. */
		uint32_t i = 0;
		for (uint32_t d = 0; d < set->dirs; d++) {
			char name[8];
			ab_file_set_dir_name(d, name);
			int sub = openat(top, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			for (; i < set->count && ab_file_set_dir_of(set, i) == d; i++)
				if (sub >= 0)
					unlinkat(sub, strchr(ab_file_set_path(set, i), '/') + 1, 0);
			if (sub >= 0)
				close(sub);
			if (!set->shared)
				unlinkat(top, name, AT_REMOVEDIR);
		}
	}
	close(top);
	/* A tree the ranks share stays: another rank may be making its files
	 * in it now.  Rank 0 removes it at the end (ab_shared_files_undo). */
	if (!set->shared)
		unlinkat(rd->fd, FILES_NAME, AT_REMOVEDIR);
}

/* Everything below is for a run that died: its file sets are gone with it. */

struct leftovers {
	GString *names; /* entries we did not make, for the message */
	int error;      /* first errno of a removal that should have worked */
};

static void note_stranger(struct leftovers *l, const char *where, const char *name)
{
	if (l->names->len < 200)
		g_string_append_printf(l->names, "%s'%s%s'", l->names->len ? ", " : "", where, name);
}

static void remove_entry(int dfd, const char *name, int flags, struct leftovers *l)
{
	if (unlinkat(dfd, name, flags) != 0 && errno != ENOENT && !l->error)
		l->error = errno;
}

/* What may stand at each depth of the run directory. */
enum depth { RUN_DIR, FILES_DIR, FILES_SUBDIR };

static gboolean removable(enum depth depth, const char *n, mode_t mode)
{
	switch (depth) {
	case RUN_DIR:
		return (g_str_equal(n, FILES_NAME) && S_ISDIR(mode)) || (S_ISREG(mode) && ab_run_dir_is_stream_name(n));
	case FILES_DIR:
		if (S_ISDIR(mode))
			return ab_file_set_dir_name_is_ours(n);
		/* fall through */
	case FILES_SUBDIR:
		/* symlinks too: -n N:-2 makes them (never followed here) */
		return (S_ISREG(mode) || S_ISLNK(mode)) && ab_file_set_name_is_ours(n);
	}
	return FALSE;
}

/* Remove, inside dfd, the entries a run of ours could have made there,
 * depth first; note the others. */
static void clear_tree(int dfd, const char *where, enum depth depth, struct leftovers *l)
{
	int lfd = dup(dfd);
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (!d) {
		if (lfd >= 0)
			close(lfd);
		l->error = l->error ? l->error : errno;
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		struct stat st;
		if (g_str_equal(n, ".") || g_str_equal(n, "..") || fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (!removable(depth, n, st.st_mode)) {
			note_stranger(l, where, n);
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			remove_entry(dfd, n, 0, l);
			continue;
		}
		int sub = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			g_autofree char *inner = g_strdup_printf("%s%s/", where, n);
			clear_tree(sub, inner, depth + 1, l);
			close(sub);
		}
		/* not empty: it held a stranger, already noted */
		if (unlinkat(dfd, n, AT_REMOVEDIR) != 0 && errno != ENOTEMPTY && errno != ENOENT && !l->error)
			l->error = errno;
	}
	closedir(d);
}

/* Is `name` in dir_fd the directory of that identity (not a symlink)? */
static gboolean still_there(int dir_fd, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;
	return fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == dev && st.st_ino == ino;
}

gboolean ab_run_dir_finish(struct ab_run_dir *rd, struct ab_undo *undo)
{
	gboolean all = TRUE;
	if (rd->step && rd->fd >= 0 && rd->dir_fd >= 0) {
		struct leftovers l = { g_string_new(NULL), 0 };
		clear_tree(rd->fd, "", RUN_DIR, &l);
		if (!l.names->len && !l.error && still_there(rd->dir_fd, rd->name, rd->dev, rd->ino) &&
		    unlinkat(rd->dir_fd, rd->name, AT_REMOVEDIR) == 0)
			ab_undo_done(undo, rd->step);
		else
			all = FALSE; /* the journal's undo says what is left, and why */
		g_string_free(l.names, TRUE);
	}
	if (rd->io_step && rd->dir_fd >= 0) {
		struct stat st;
		int rc = fstatat(rd->dir_fd, rd->io_name, &st, AT_SYMLINK_NOFOLLOW);
		if (rc != 0 && errno == ENOENT)
			ab_undo_done(undo, rd->io_step);
		else if (rc == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_uid == rd->io_owner &&
			 unlinkat(rd->dir_fd, rd->io_name, 0) == 0)
			ab_undo_done(undo, rd->io_step);
		else
			all = FALSE;
	}
	return all;
}

/* Is st the object the step made?  Identified: by device and inode; else
 * by its maker, whom the journal names (the run's user, or the -u user). */
static const char *made_by(const struct ab_undo_step *step, const struct stat *st)
{
	if (step->identified || !step->detail)
		return ab_undo_step_mismatch(step, st);
	return st->st_uid == (uid_t)g_ascii_strtoull(step->detail, NULL, 10) ? NULL
		 : "it belongs to another user than the one who made it";
}

/* Opens the directory a step made, never through a symlink, and checks it
 * is the one: TRUE with *dfd open; else FALSE with *outcome what the undo
 * returns (not there, not ours, or failed). */
static gboolean open_made_dir(const struct ab_undo_step *step, int *dfd, enum ab_undo_outcome *outcome,
			      GError **error)
{
	*dfd = open(step->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*dfd < 0) {
		if (errno == ENOENT) {
			*outcome = ab_undo_not_there(step, error);
			return FALSE;
		}
		int e = errno;
		ab_set_error_errno(error, AB_ERROR_SKIPPED, e, "cannot open it");
		*outcome = e == ELOOP || e == ENOTDIR ? AB_UNDO_FOREIGN : AB_UNDO_FAILED;
		return FALSE;
	}
	struct stat st;
	const char *why = fstat(*dfd, &st) == 0 ? made_by(step, &st) : g_strerror(errno);
	if (why) {
		close(*dfd);
		*dfd = -1;
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "%s", why);
		*outcome = AB_UNDO_FOREIGN;
		return FALSE;
	}
	return TRUE;
}

enum ab_undo_outcome ab_run_dir_undo(const struct ab_undo_step *step, GError **error)
{
	int dfd;
	enum ab_undo_outcome not_ours;
	if (!open_made_dir(step, &dfd, &not_ours, error))
		return not_ours;
	struct leftovers l = { g_string_new(NULL), 0 };
	clear_tree(dfd, "", RUN_DIR, &l);
	close(dfd);
	enum ab_undo_outcome outcome = AB_UNDO_UNDONE;
	if (rmdir(step->path) != 0 && errno != ENOENT) {
		if (l.names->len) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "kept: it holds %s, which arraybench did not make",
				    l.names->str);
			outcome = AB_UNDO_FOREIGN;
		} else {
			ab_set_error_errno(error, AB_ERROR_SKIPPED, l.error ? l.error : errno, "cannot remove it");
			outcome = AB_UNDO_FAILED;
		}
	}
	g_string_free(l.names, TRUE);
	return outcome;
}

enum ab_undo_outcome ab_io_file_undo(const struct ab_undo_step *step, GError **error)
{
	struct stat st;
	if (lstat(step->path, &st) != 0) {
		if (errno == ENOENT)
			return ab_undo_not_there(step, error);
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "lstat");
		return AB_UNDO_FAILED;
	}
	/* Its name carries the run id; it was made O_EXCL by the run's user or
	 * the -u user the journal names, and only truncated since. */
	uid_t allowed = step->detail ? (uid_t)g_ascii_strtoull(step->detail, NULL, 10) : step->owner;
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != allowed) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "not a file the run's workers made");
		return AB_UNDO_FOREIGN;
	}
	if (unlink(step->path) != 0 && errno != ENOENT) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "unlink");
		return AB_UNDO_FAILED;
	}
	return AB_UNDO_UNDONE;
}

/*
 * The files/ tree a run's ranks shared (--mpi-layout shared), in their
 * directory DIR/arraybench.RUNID.  Rank 0 journals it as a step of its own
 * right after that directory's rmdir (AB_UNDO_RANKS_DIR), so it is undone
 * right before it: at the end of a run, after the ranks' last meeting, or
 * by `cleanup` after a kill.  fs-setup, which undoes the rmdir, knows no
 * file names; the shapes are known here, so the tree is this step's, and
 * the rmdir only waits for it (a files/ beside the rank directories).
 * While a rank's rank-NNNNN is still there, that rank may still be running
 * (or its journal not yet undone): the step then waits, FAILED and kept, as
 * the rmdir does, and cleanup's second pass retries both.
 */
enum ab_undo_outcome ab_shared_files_undo(const struct ab_undo_step *step, GError **error)
{
	int dfd;
	enum ab_undo_outcome not_ours;
	if (!open_made_dir(step, &dfd, &not_ours, error))
		return not_ours;
	if (ab_undo_ranks_remain(dfd)) {
		close(dfd);
		ab_set_error_errno(error, AB_ERROR_SKIPPED, ENOTEMPTY,
				   "its ranks' directories are still in it (their journals remove them first)");
		return AB_UNDO_FAILED;
	}
	int top = openat(dfd, FILES_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (top < 0) {
		int e = errno;
		close(dfd);
		if (e == ENOENT)
			return AB_UNDO_ABSENT;
		ab_set_error_errno(error, AB_ERROR_SKIPPED, e, "cannot open its '%s'", FILES_NAME);
		return e == ELOOP || e == ENOTDIR ? AB_UNDO_FOREIGN : AB_UNDO_FAILED;
	}
	struct leftovers l = { g_string_new(NULL), 0 };
	clear_tree(top, FILES_NAME "/", FILES_DIR, &l);
	close(top);
	enum ab_undo_outcome outcome = AB_UNDO_UNDONE;
	if (unlinkat(dfd, FILES_NAME, AT_REMOVEDIR) != 0 && errno != ENOENT) {
		if (l.names->len) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "kept: it holds %s, which arraybench did not make",
				    l.names->str);
			outcome = AB_UNDO_FOREIGN;
		} else {
			ab_set_error_errno(error, AB_ERROR_SKIPPED, l.error ? l.error : errno, "cannot remove its '%s'",
					   FILES_NAME);
			outcome = AB_UNDO_FAILED;
		}
	}
	close(dfd);
	g_string_free(l.names, TRUE);
	return outcome;
}

enum ab_undo_outcome ab_run_files_undo(const struct ab_undo_step *step, GError **error)
{
	switch (step->kind) {
	case AB_UNDO_RUN_DIR:
		return ab_run_dir_undo(step, error);
	case AB_UNDO_SHARED_FILES:
		return ab_shared_files_undo(step, error);
	default:
		return ab_io_file_undo(step, error);
	}
}

gboolean ab_run_dir_room(const struct ab_run_dir *rd, uint64_t *bytes)
{
	struct statvfs vfs;
	if (fstatvfs(rd->dir_fd, &vfs) != 0 || vfs.f_blocks == 0)
		return FALSE;
	*bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	struct stat st;
	if (fstatat(rd->dir_fd, rd->io_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		*bytes += (uint64_t)st.st_blocks * 512;
	return TRUE;
}
