/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_UNDO_H
#define AB_UNDO_H

#include <glib.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "liveness.h"
#include "undo-step.h"

/*
 * The undo stack of a run.  Every step that changes the machine (an image
 * file, a loop device, a mount, an array, the memory cgroup, the test
 * directory) is journaled *before* it is taken (an intent), and the object's
 * identity (device and inode) is added as soon as it exists.  The stack
 * unwinds last-in first-out on success, error and signals; after kill -9 or
 * a power cut `arraybench cleanup` replays the journal.  Either way an undo
 * acts only on the object the run made: one whose identity no longer
 * matches is left alone and reported.
 */
/* What undoing a step found. */
enum ab_undo_outcome {
	AB_UNDO_UNDONE,   /* it was there and is gone now */
	AB_UNDO_ABSENT,   /* nothing to undo: never made, or undone already */
	AB_UNDO_FOREIGN,  /* something is there that this run did not make: left alone */
	AB_UNDO_FAILED,   /* ours, but it could not be undone (yet): kept in the journal */
};

/* Undoes one step for real; tests swap in a recorder. */
typedef enum ab_undo_outcome (*ab_undo_exec_fn)(const struct ab_undo_step *step, GError **error);

struct ab_undo {
	GPtrArray *steps;        /* struct ab_undo_step *, oldest first */
	int dir_fd;              /* the state directory, -1 without a journal */
	char *journal_path;      /* for messages */
	char *journal_name;      /* "journal-RUNID" in dir_fd */
	int journal_fd;          /* locked (flock) while the run lives */
	uid_t owner;
	ab_undo_exec_fn exec;
};


/* Start an empty stack.  With a state directory (already trusted, see
 * statedir.h), its journal is DIR/journal-RUN_ID, created exclusively and
 * locked; NULL dir: no journal (dry run, tests). */
gboolean ab_undo_open(struct ab_undo *u, const char *state_dir, const char *run_id, GError **error);
/* Journal (and sync) that the caller is about to make an object, before it
 * does.  `id` is its identity when known beforehand (a loop device's backing
 * image), else NULL.  NULL return: not journaled, so do not make it. */
struct ab_undo_step *ab_undo_intend(struct ab_undo *u, enum ab_undo_kind kind, const char *path,
				    const char *detail, const struct stat *id, GError **error);
/* Journal a step as finished: undone by its maker through descriptors it
 * held, or never taken (its action failed: EEXIST, EACCES...), so that
 * nothing found by its name is ever undone as ours. */
void ab_undo_done(struct ab_undo *u, struct ab_undo_step *step);
/* Journal what became known of the object after it was made. */
gboolean ab_undo_set_detail(struct ab_undo *u, struct ab_undo_step *step, const char *detail, GError **error);
/* The object exists now: journal its device and inode. */
gboolean ab_undo_identify(struct ab_undo *u, struct ab_undo_step *step, const struct stat *st, GError **error);
/* A file system's statfs f_fsid as one number (0 when it cannot be read). */
guint64 ab_undo_fsid_of(const char *path);
/* Is st the object the step made?  NULL if so, else why not: the journaled
 * inode and device (or, the device number having changed since, the same
 * file system by its fsid), or for an object never identified (its run was
 * killed between making and journaling it) the run's user as its owner. */
const char *ab_undo_step_mismatch(const struct ab_undo_step *step, const struct stat *st);
/* Nothing at the step's path: AB_UNDO_ABSENT, unless the file system that
 * held the (identified) object is not mounted there now, when its files
 * would come back with it: AB_UNDO_FAILED, so the journal is kept. */
enum ab_undo_outcome ab_undo_not_there(const struct ab_undo_step *step, GError **error);
/* Undo everything, newest first.  A failing step is reported and the rest
 * still run; FALSE if any failed (the journal then stays for cleanup). */
gboolean ab_undo_unwind(struct ab_undo *u, GString *report, GError **error);
/* Undo the steps journaled after the first `keep`, newest first, and keep
 * those (a run on many ranks undoes its own before the directory the ranks
 * share); ab_undo_unwind() does the rest later. */
gboolean ab_undo_unwind_to(struct ab_undo *u, guint keep, GString *report, GError **error);
/* Close the journal, leaving it on disk if steps remain. */
void ab_undo_clear(struct ab_undo *u);

/* Run the steps not yet done, newest first, journaling each one finished to
 * journal_fd (-1: none).  Shared by unwind and cleanup. */
gboolean ab_undo_run_steps(GPtrArray *steps, ab_undo_exec_fn exec, int journal_fd, GString *report,
			   GError **error);

/* Who undoes AB_UNDO_RUN_DIR, AB_UNDO_IO_FILE and AB_UNDO_SHARED_FILES
 * steps for the real executor (src/runner/rundir.c's ab_run_files_undo;
 * main() registers it): the names in them are the phases' business. */
void ab_undo_exec_set_run_files(ab_undo_exec_fn undo);
/* Does the directory a run's ranks share (open as dir_fd) still hold one of
 * its ranks' rank-NNNNN directories?  Whatever is in them waits for their
 * own journals. */
gboolean ab_undo_ranks_remain(int dir_fd);
/* The real executor (undo-exec.c). */
enum ab_undo_outcome ab_undo_exec_real(const struct ab_undo_step *step, GError **error);

#endif
