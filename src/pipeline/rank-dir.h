/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RANK_DIR_H
#define AB_RANK_DIR_H

/* arraybench-mpi's layouts: every rank's files in a directory of its own,
 * DIR/arraybench.RUNID/rank-NNNNN, which is then the rank's DIR.  Rank 0
 * makes the run's directory, every rank its own in it, each journaled by
 * the rank that made it; rank 0 removes the run's directory last, once the
 * others removed theirs.  --mpi-layout shared: the file phases of every
 * rank work in the run's directory's files/ instead, which rank 0 journals
 * too (AB_UNDO_SHARED_FILES) and removes just before the run's directory. */

#include <glib.h>

#include "../../fs-setup/undo.h"
#include "../runner/rundir.h"
#include "../options/config.h"

struct ab_rank_dir {
	char *path;      /* the rank's directory, NULL on one host */
	guint keep;      /* journal steps older than the rank's own */
	char *run_path;  /* DIR/arraybench.RUNID, the ranks' */
	GPtrArray *own_ids; /* every rank's own run id (its run directory's name) */
	char *dir;       /* DIR, holding run_path */
	char *shared_run_id; /* the RUNID of run_path */
};

/* Many ranks: makes both directories (dir_fd is DIR, replaced by the
 * rank's; *dir follows), the ranks meeting in between; in the shared
 * layout rank 0 journals the files/ tree too, in the shared-file layout it
 * makes the ranks' I/O file, DIR/arraybench.RUNID.io.  One host: does
 * nothing.  On every rank or none. */
gboolean ab_rank_dir_enter(struct ab_rank_dir *rd, const char *shared_run_id, const char *own_run_id,
			   enum ab_mpi_layout layout, struct ab_undo *undo, int *dir_fd, char **dir, GError **error);
/* Once every rank made its run directory (`ok_here`: this one did): the
 * ranks meet, and with `reorder` *other gets the run directory of the rank
 * one node on (rank + ranks per node), opened, for the phases that work on
 * data made before them.  *other is left unopened (fd -1) without
 * `reorder` or on one host. */
gboolean ab_rank_dir_open_partner(struct ab_rank_dir *rd, gboolean ok_here, gboolean reorder,
				  struct ab_run_dir *other, GError **error);
/* The rank one node on (rank + ranks per node), whose data --reorder's
 * phases work on. */
unsigned ab_rank_dir_partner(void);
/* --mpi-layout shared: *shared gets the run's directory, opened as a run
 * directory whose files/ the file phases of every rank share (made by
 * whichever rank's create comes first).  One host: left unopened (fd -1). */
gboolean ab_rank_dir_open_shared(struct ab_rank_dir *rd, struct ab_run_dir *shared, GError **error);
/* At the end, before the journal's own unwind: undoes this rank's steps,
 * meets the other ranks (`ok`: this rank's run went well), and on rank 0
 * waits (a few seconds at most) until the other ranks' directories are
 * gone.  The run's directory itself is then the journal's last step. */
void ab_rank_dir_leave(struct ab_rank_dir *rd, struct ab_undo *undo, gboolean ok, GString *report);
void ab_rank_dir_clear(struct ab_rank_dir *rd);

#endif
