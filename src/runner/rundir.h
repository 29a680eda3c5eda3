/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUNDIR_H
#define AB_RUNDIR_H

#include <glib.h>
#include <sys/types.h>

#include "../../fs-setup/undo.h"
#include "../../workloads/phase.h"

/*
 * Where a run's phases put their files, in DIR (the -d directory, or the
 * root of the built target), which the run holds open:
 *   DIR/arraybench.RUNID.io   the I/O phases' file, in DIR itself as
 *                             bonnie++'s is (a file in a new directory would
 *                             land elsewhere on the disk: xfs and ext4 spread
 *                             new top-level directories over the device)
 *   DIR/arraybench.RUNID/     a directory the run makes for the file phases,
 *                             holding files/ (with NNNNN/ subdirectories
 *                             for -n NUM:MAX:MIN:DIRS), and stream.N, the
 *                             files of a sweep's concurrent streams and the
 *                             wal's logs
 * Both are made exclusively (mkdir, O_EXCL): an existing name is a clash,
 * never reused.  The run removes what it made by name.  After a crash,
 * `cleanup` removes the I/O file if it is a regular file of the run's user,
 * and in the directory whose identity the journal recorded only entries of
 * the shapes above, never following a symlink; anything else stays.
 */
struct ab_run_dir {
	char *dir;       /* DIR */
	char *name;      /* "arraybench.RUNID" */
	char *path;      /* DIR/arraybench.RUNID */
	char *io_name;   /* "arraybench.RUNID.io", in DIR */
	char *io_path;   /* for messages: both are reached through descriptors */
	char *files_dir;
	int dir_fd;      /* DIR, held from before the run directory is made; -1 */
	int fd;          /* the run directory, from the moment it exists; -1 */
	dev_t dir_dev, dev; /* identities, to reopen both after a remount */
	ino_t dir_ino, ino;
	struct ab_undo_step *step, *io_step; /* their journal entries */
	uid_t io_owner;  /* who makes the test file: the run's user or -u USER */
	/* A view on the I/O file many ranks share (arraybench-mpi's
	 * shared-file layout): dir_fd and io_name are the shared file's, this
	 * rank's segment starts at io_base.  FALSE and 0 for a run's own. */
	gboolean io_shared;
	uint64_t io_base;
	gboolean owner_given; /* -u: the files are made by uid:gid below */
	uid_t uid;
	gid_t gid;
};

/* The paths, without making anything (also for --dry-run). */
void ab_run_dir_init(struct ab_run_dir *rd, const char *dir, const char *run_id);
/* Take DIR (dir_fd, which rd then owns), journal, make and identify the run
 * directory and hold it open, and journal the I/O file the workers will
 * make; with `owner_given`, hand the directory to uid:gid (-u: the workers
 * write in it).  Everything after goes through the descriptors: USER may
 * write in DIR and could swap names for symlinks, but not the directories
 * under the descriptors. */
gboolean ab_run_dir_create(struct ab_run_dir *rd, int dir_fd, struct ab_undo *undo, gboolean owner_given,
			   uid_t uid, gid_t gid, GError **error);
/* Another rank's run directory, made by that rank in `dir` (its rank
 * directory) with its own run id: opened, never made nor removed (only
 * ab_run_dir_clear() after), for --reorder's phases that work on data made
 * before them.  Refused unless both are directories of this user's. */
gboolean ab_run_dir_open_other(struct ab_run_dir *rd, const char *dir, const char *run_id, GError **error);
/* At the end: remove the run directory (only the shapes arraybench makes)
 * and the I/O file through the descriptors, even if DIR was renamed, and
 * mark their journal entries done.  FALSE if something stays, for the
 * journal's undo to report. */
gboolean ab_run_dir_finish(struct ab_run_dir *rd, struct ab_undo *undo);
/* --cache remount: let go of both directories so their file system can be
 * unmounted, then take them again, refusing (AB_ERROR_UNSAFE) anything but
 * the same directories. */
void ab_run_dir_release(struct ab_run_dir *rd);
gboolean ab_run_dir_reopen(struct ab_run_dir *rd, GError **error);
/* Remove one file set's files and subdirectories by name, then files/;
 * missing ones are fine.  A set in a tree the ranks share (set->shared)
 * removes its files only. */
void ab_run_dir_remove_file_set(const struct ab_run_dir *rd, const struct ab_file_set *set);
void ab_run_dir_clear(struct ab_run_dir *rd);
/* The files 1 .. count-1 of a sweep cell, or the wal's logs
 * (AB_STREAM_FILE_FMT), in the run directory, made exclusively by whoever makes the test file (so -u
 * USER's workers can open them) if they are not there yet; each must then
 * be a regular file of that owner with one link (else AB_ERROR_UNSAFE).
 * They go with the run directory. */
gboolean ab_run_dir_make_stream_files(struct ab_run_dir *rd, unsigned count, GError **error);
/* Is `name` one of those files' names? */
gboolean ab_run_dir_is_stream_name(const char *name);
/* The bytes a phase's new test file may take in the run directory: the
 * file system's free space plus what the test file holds now (a layout
 * truncates it first).  FALSE when the file system cannot tell (ramfs
 * counts no blocks): the writes will say. */
gboolean ab_run_dir_room(const struct ab_run_dir *rd, uint64_t *bytes);

/* The undos of AB_UNDO_RUN_DIR and AB_UNDO_IO_FILE (for the real executor). */
enum ab_undo_outcome ab_run_dir_undo(const struct ab_undo_step *step, GError **error);
enum ab_undo_outcome ab_io_file_undo(const struct ab_undo_step *step, GError **error);
/* The undo of AB_UNDO_SHARED_FILES: the files/ tree in the directory of a
 * run's ranks (only the shapes arraybench makes, through descriptors), once
 * no rank's directory is left there. */
enum ab_undo_outcome ab_shared_files_undo(const struct ab_undo_step *step, GError **error);
/* All three, by the step's kind: what main() registers with
 * ab_undo_exec_set_run_files(). */
enum ab_undo_outcome ab_run_files_undo(const struct ab_undo_step *step, GError **error);

#endif
