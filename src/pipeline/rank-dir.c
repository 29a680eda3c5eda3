/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each rank's own directory in the run's (rank-dir.h). */
#include "rank-dir.h"
#include "../base/cluster.h"
#include "../base/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Makes `name` in parent_fd, journaled first; returns it open. */
static int make_dir(struct ab_undo *undo, int parent_fd, const char *parent, const char *name, const char *detail,
		    GError **error)
{
	g_autofree char *path = g_build_filename(parent, name, NULL);
	struct ab_undo_step *step = ab_undo_intend(undo, AB_UNDO_RMDIR, path, detail, NULL, error);
	if (!step)
		return -1;
	if (mkdirat(parent_fd, name, 0755) != 0) {
		int e = errno;
		ab_undo_done(undo, step); /* what is there is not ours */
		ab_set_error_errno(error, e == EEXIST ? AB_ERROR_USAGE : AB_ERROR_SKIPPED, e,
				   "cannot make the directory '%s'", path);
		return -1;
	}
	int fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_UNSAFE, errno, "cannot open the directory '%s' just made", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!ab_undo_identify(undo, step, &st, error)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* What rank 0 made, as every rank must find it: its inode and owner (the
 * device number differs from host to host on a network file system). */
struct made {
	uint64_t ino;
	uint32_t uid;
	int32_t ok;
};

/* --mpi-layout shared: rank 0 journals the files/ tree the ranks' file
 * phases will share in the directory just made (fd), as a step of its own
 * after the directory's: undone just before it, after the ranks' last
 * meeting (src/runner/rundir.c's ab_shared_files_undo says why). */
static gboolean journal_shared_files(struct ab_undo *undo, int fd, const char *path, GError **error)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_UNSAFE, errno, "cannot look at the directory '%s' just made", path);
		return FALSE;
	}
	struct ab_undo_step *step = ab_undo_intend(undo, AB_UNDO_SHARED_FILES, path, NULL, &st, error);
	return step && ab_undo_identify(undo, step, &st, error);
}

/* The shared-file layout's one I/O file, DIR/arraybench.RUNID.io, made by
 * rank 0 as a run makes its own (journaled first, O_EXCL, never through a
 * symlink): every rank writes and reads its segment of it; rank 0's
 * journal removes it after the ranks' last meeting, or cleanup after a
 * kill. */
static gboolean make_shared_io(struct ab_undo *undo, int dir_fd, const char *dir, const char *shared_run_id,
			       GError **error)
{
	g_autofree char *name = g_strdup_printf("arraybench.%s.io", shared_run_id);
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *uid = g_strdup_printf("%u", (unsigned)geteuid());
	struct ab_undo_step *step = ab_undo_intend(undo, AB_UNDO_IO_FILE, path, uid, NULL, error);
	if (!step)
		return FALSE;
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	struct stat st;
	if (fd < 0) {
		int e = errno;
		ab_undo_done(undo, step); /* what is there is not ours */
		ab_set_error_errno(error, e == EEXIST ? AB_ERROR_USAGE : AB_ERROR_SKIPPED, e,
				   "cannot make the ranks' test file '%s'", path);
		return FALSE;
	}
	gboolean ok = fstat(fd, &st) == 0 && ab_undo_identify(undo, step, &st, error);
	close(fd);
	return ok;
}

gboolean ab_rank_dir_enter(struct ab_rank_dir *rd, const char *shared_run_id, const char *own_run_id,
			   enum ab_mpi_layout layout, struct ab_undo *undo, int *dir_fd, char **dir, GError **error)
{
	*rd = (struct ab_rank_dir){ 0 };
	struct ab_cluster *c = ab_cluster_get();
	if (!ab_cluster_is_mpi())
		return TRUE;
	g_autofree char *run_name = g_strdup_printf("arraybench.%s", shared_run_id);
	g_autofree char *run_path = g_build_filename(*dir, run_name, NULL);
	struct made made = { 0 };
	GError *own = NULL;
	if (c->rank == 0) {
		int fd = make_dir(undo, *dir_fd, *dir, run_name, AB_UNDO_RANKS_DIR, &own);
		if (fd >= 0 && layout == AB_MPI_LAYOUT_SHARED && !journal_shared_files(undo, fd, run_path, &own)) {
			close(fd);
			fd = -1;
		}
		if (fd >= 0 && layout == AB_MPI_LAYOUT_SHARED_FILE && !make_shared_io(undo, *dir_fd, *dir, shared_run_id,
										   &own)) {
			close(fd);
			fd = -1;
		}
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0)
			made = (struct made){ (uint64_t)st.st_ino, (uint32_t)st.st_uid, 1 };
		if (fd >= 0)
			close(fd);
	}
	/* Rank 0's outcome and what it made, and every rank's own run id, to
	 * every rank. */
	char mine[sizeof(made) + 64] = { 0 };
	memcpy(mine, &made, sizeof(made));
	g_strlcpy(mine + sizeof(made), own_run_id, 64);
	g_autoptr(GByteArray) all = g_byte_array_new();
	g_autofree size_t *lens = g_new0(size_t, c->size);
	gboolean shared = c->ops->allgather(c, mine, sizeof(mine), own == NULL, own ? own->message : NULL, all, lens,
					    own ? NULL : error);
	if (own) {
		g_propagate_error(error, own);
		return FALSE;
	}
	if (!shared)
		return FALSE;
	memcpy(&made, all->data, sizeof(made));
	rd->own_ids = g_ptr_array_new_with_free_func(g_free);
	for (unsigned r = 0; r < c->size; r++)
		g_ptr_array_add(rd->own_ids, g_strndup((const char *)all->data + r * sizeof(mine) + sizeof(made), 63));
	int run_fd = openat(*dir_fd, run_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (run_fd < 0 || fstat(run_fd, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno,
				   "cannot open '%s', which rank 0 made: is DIR the same directory on every rank?",
				   run_path);
		if (run_fd >= 0)
			close(run_fd);
		return FALSE;
	}
	if ((uint64_t)st.st_ino != made.ino || (uint32_t)st.st_uid != made.uid) {
		close(run_fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "'%s' is not the directory rank 0 made (inode %" G_GUINT64_FORMAT " owner %u, not %" G_GUINT64_FORMAT
			    " owner %u): refused",
			    run_path, (uint64_t)st.st_ino, (unsigned)st.st_uid, made.ino, (unsigned)made.uid);
		return FALSE;
	}
	rd->keep = undo->steps->len;
	g_autofree char *rank_name = g_strdup_printf("rank-%05u", c->rank);
	int fd = make_dir(undo, run_fd, run_path, rank_name, NULL, error);
	close(run_fd);
	if (fd < 0)
		return FALSE;
	close(*dir_fd);
	*dir_fd = fd;
	rd->path = g_build_filename(run_path, rank_name, NULL);
	rd->run_path = g_strdup(run_path);
	rd->dir = g_strdup(*dir);
	rd->shared_run_id = g_strdup(shared_run_id);
	*dir = rd->path;
	return TRUE;
}

gboolean ab_rank_dir_open_partner(struct ab_rank_dir *rd, gboolean ok_here, gboolean reorder,
				  struct ab_run_dir *other, GError **error)
{
	ab_run_dir_init(other, "", "none");
	if (!rd->path)
		return ok_here;
	/* Every rank's run directory exists once the ranks have met. */
	gboolean met = ab_cluster_meet(ok_here, ok_here ? NULL : "cannot make its run directory",
				       ok_here ? error : NULL);
	if (!met || !ok_here)
		return FALSE;
	if (!reorder)
		return TRUE;
	unsigned partner = ab_rank_dir_partner();
	g_autofree char *name = g_strdup_printf("rank-%05u", partner);
	g_autofree char *dir = g_build_filename(rd->run_path, name, NULL);
	ab_run_dir_clear(other);
	return ab_run_dir_open_other(other, dir, rd->own_ids->pdata[partner], error);
}

unsigned ab_rank_dir_partner(void)
{
	struct ab_cluster *c = ab_cluster_get();
	return (c->rank + c->ranks_per_node) % c->size;
}

gboolean ab_rank_dir_open_shared(struct ab_rank_dir *rd, struct ab_run_dir *shared, GError **error)
{
	ab_run_dir_init(shared, "", "none");
	if (!rd->path)
		return TRUE;
	ab_run_dir_clear(shared);
	return ab_run_dir_open_other(shared, rd->dir, rd->shared_run_id, error);
}

/* Is no rank's directory left in the ranks' directory at `path`?  (A
 * files/ tree they shared waits for rank 0's journal.) */
static gboolean ranks_gone(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	gboolean gone = !ab_undo_ranks_remain(fd);
	close(fd);
	return gone;
}

void ab_rank_dir_leave(struct ab_rank_dir *rd, struct ab_undo *undo, gboolean ok, GString *report)
{
	if (!rd->path)
		return;
	struct ab_cluster *c = ab_cluster_get();
	g_autoptr(GError) undo_error = NULL;
	/* This rank's own files and directory first (the failure, if any,
	 * stays in the journal for the unwind to report). */
	gboolean undone = ab_undo_unwind_to(undo, rd->keep, report, &undo_error);
	g_autoptr(GError) peer = NULL;
	gboolean all = ab_cluster_meet(ok && undone, undone ? "failed" : "cannot remove its files", &peer);
	if (c->rank != 0 || all)
		return;
	/* A rank failed or was stopped: give the others a few seconds to
	 * remove their directories before the run's own is removed. */
	g_autofree char *run_path = g_path_get_dirname(rd->path);
	for (int i = 0; i < 50 && !ranks_gone(run_path); i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

void ab_rank_dir_clear(struct ab_rank_dir *rd)
{
	g_clear_pointer(&rd->path, g_free);
	g_clear_pointer(&rd->run_path, g_free);
	g_clear_pointer(&rd->dir, g_free);
	g_clear_pointer(&rd->shared_run_id, g_free);
	g_clear_pointer(&rd->own_ids, g_ptr_array_unref);
}
