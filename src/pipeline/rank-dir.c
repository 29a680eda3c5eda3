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
static int make_dir(struct ab_undo *undo, int parent_fd, const char *parent, const char *name, GError **error)
{
	g_autofree char *path = g_build_filename(parent, name, NULL);
	struct ab_undo_step *step = ab_undo_intend(undo, AB_UNDO_RMDIR, path, NULL, NULL, error);
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

gboolean ab_rank_dir_enter(struct ab_rank_dir *rd, const char *shared_run_id, struct ab_undo *undo, int *dir_fd,
			   char **dir, GError **error)
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
		int fd = make_dir(undo, *dir_fd, *dir, run_name, &own);
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0)
			made = (struct made){ (uint64_t)st.st_ino, (uint32_t)st.st_uid, 1 };
		if (fd >= 0)
			close(fd);
	}
	/* Rank 0's outcome and what it made, to every rank. */
	g_autoptr(GByteArray) all = g_byte_array_new();
	g_autofree size_t *lens = g_new0(size_t, c->size);
	gboolean shared = c->ops->allgather(c, &made, sizeof(made), own == NULL, own ? own->message : NULL, all, lens,
					    own ? NULL : error);
	if (own) {
		g_propagate_error(error, own);
		return FALSE;
	}
	if (!shared)
		return FALSE;
	memcpy(&made, all->data, sizeof(made));
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
	int fd = make_dir(undo, run_fd, run_path, rank_name, error);
	close(run_fd);
	if (fd < 0)
		return FALSE;
	close(*dir_fd);
	*dir_fd = fd;
	rd->path = g_build_filename(run_path, rank_name, NULL);
	*dir = rd->path;
	return TRUE;
}

/* Is the directory at `path` empty (or gone)? */
static gboolean empty_or_gone(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return errno == ENOENT;
	gboolean empty = TRUE;
	for (struct dirent *e; empty && (e = readdir(d));)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = FALSE;
	closedir(d);
	return empty;
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
	for (int i = 0; i < 50 && !empty_or_gone(run_path); i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

void ab_rank_dir_clear(struct ab_rank_dir *rd)
{
	g_clear_pointer(&rd->path, g_free);
}
