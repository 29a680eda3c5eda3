/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUNDIR_H
#define AB_RUNDIR_H

#include <glib.h>
#include <sys/types.h>

#include "../fs-setup/undo.h"
#include "../workloads/phase.h"

/*
 * Where a run's phases put their files: DIR/arraybench.RUNID, a directory
 * the run makes itself (mkdir: an existing name is a clash, never reused),
 * mode 0700, holding
 *   io      the I/O phases' file
 *   files/  the file phases' tree (with NNNNN/ subdirectories for -n ::::DIRS)
 * The run removes what it made by name.  After a crash, `cleanup` removes
 * only entries of those shapes, only inside the directory whose identity the
 * journal recorded, and never follows a symlink; anything else stays.
 */
struct ab_run_dir {
	char *name;      /* "arraybench.RUNID" */
	char *path;
	char *io_path;   /* for messages: the I/O file is reached through fd */
	char *files_dir; /* likewise */
	int fd;          /* the directory itself, from the moment it exists; -1 before */
	dev_t dev;       /* its identity, to reopen it after a remount */
	ino_t ino;
};

/* The paths, without making anything (also for --dry-run). */
void ab_run_dir_init(struct ab_run_dir *rd, const char *dir, const char *run_id);
/* Journal, make (in parent_fd, DIR held open) and identify it, and hold it open; with `owner_given`, hand
 * it to uid:gid (-u: the workers write in it).  Everything after goes
 * through rd->fd: USER may write in DIR and could swap the name for a
 * symlink, but not the directory under the descriptor. */
gboolean ab_run_dir_create(struct ab_run_dir *rd, int parent_fd, struct ab_undo *undo, gboolean owner_given,
			   uid_t uid, gid_t gid, GError **error);
/* --cache remount: let go of the directory so its file system can be
 * unmounted, then take it again, refusing (AB_ERROR_UNSAFE) anything but
 * the same directory. */
void ab_run_dir_release(struct ab_run_dir *rd);
gboolean ab_run_dir_reopen(struct ab_run_dir *rd, GError **error);
/* Remove one file set's files and subdirectories by name, then files/;
 * missing ones are fine. */
void ab_run_dir_remove_file_set(const struct ab_run_dir *rd, const struct ab_file_set *set);
void ab_run_dir_clear(struct ab_run_dir *rd);

/* The undo of AB_UNDO_RUN_DIR (for the real executor). */
enum ab_undo_outcome ab_run_dir_undo(const struct ab_undo_step *step, GError **error);

#endif
