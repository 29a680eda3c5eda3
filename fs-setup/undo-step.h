/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_UNDO_STEP_H
#define AB_UNDO_STEP_H

#include <glib.h>
#include <sys/types.h>

/*
 * One step of the undo stack (undo.h), as the stack keeps it and the
 * journal (journal.h) writes and reads it: apart from the stack, so that
 * the journal needs only the step and the stack only the journal.
 */
enum ab_undo_kind {
	AB_UNDO_UMOUNT,       /* path: mount point; detail: the source we mounted */
	AB_UNDO_LOOP_DETACH,  /* path: the backing image; identity: the image's;
			       * detail, once attached: "/dev/loopN DISKSEQ" */
	AB_UNDO_UNLINK,       /* path: an image file; detail: its planned size */
	AB_UNDO_RMDIR,        /* path: a mount point directory we made, or a run's on
			       * many ranks (detail AB_UNDO_RANKS_DIR) */
	AB_UNDO_MDADM_STOP,   /* path: /dev/md/NAME */
	AB_UNDO_MDADM_ZERO,   /* path: a member; detail: the array name its superblock must carry */
	AB_UNDO_CGROUP,       /* path: the memory cgroup directory */
	AB_UNDO_RUN_DIR,      /* path: DIR/arraybench.RUNID, the file phases' tree */
	AB_UNDO_IO_FILE,      /* path: DIR/arraybench.RUNID.io; detail: the uid that may own it */
	AB_UNDO_SHARED_FILES, /* path: DIR/arraybench.RUNID of a run on many ranks whose
			       * file phases share its files/ tree (--mpi-layout shared);
			       * identity: that directory's */
	AB_UNDO_KIND_COUNT
};

struct ab_undo_step {
	enum ab_undo_kind kind;
	char *path;
	char *detail;         /* NULL, or what the kind says above */
	gboolean identified;  /* dev and ino are known */
	dev_t dev;
	ino_t ino;
	guint64 fsid;         /* the file system's statfs f_fsid, 0 if unknown: on btrfs,
			       * dm or NFS st_dev changes from mount to mount, the
			       * fsid (from the file system's UUID) does not */
	uid_t owner;          /* the run's user: who must own an unidentified object */
	gboolean done;
	gboolean on_own_mount; /* under a mount point an older step of the run mounted
				* (set by ab_undo_run_steps): goes with that file system */
};

const char *ab_undo_kind_name(enum ab_undo_kind kind);
gboolean ab_undo_kind_from_name(const char *name, enum ab_undo_kind *out);
void ab_undo_step_free(struct ab_undo_step *step);

/* An rmdir's detail: the directory a run's ranks share, which waits (the
 * undo fails, to be retried) while its ranks' rank-NNNNN are in it (and,
 * beside them, the files/ tree an AB_UNDO_SHARED_FILES step clears once
 * they are gone). */
#define AB_UNDO_RANKS_DIR "ranks"

#endif
