/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_UNDO_H
#define AB_UNDO_H

#include <glib.h>

/*
 * The undo stack of target set-up.  Every step that changes the machine
 * (attach a loop device, mount, create an array) pushes its undo the moment
 * it succeeds; the stack unwinds last-in first-out on success, error and
 * signals.  Each push and each completed undo is appended to a journal file
 * and synced, so after kill -9 or a power cut `arraybench cleanup` can finish
 * the job from the journal alone.
 */
enum ab_undo_kind {
	AB_UNDO_UMOUNT,       /* arg: mount point */
	AB_UNDO_LOOP_DETACH,  /* arg: /dev/loopN */
	AB_UNDO_UNLINK,       /* arg: file */
	AB_UNDO_RMDIR,        /* arg: empty directory */
	AB_UNDO_MDADM_STOP,   /* arg: /dev/mdN */
	AB_UNDO_MDADM_ZERO,   /* arg: member whose superblock we wrote */
	AB_UNDO_KIND_COUNT
};

struct ab_undo_step {
	enum ab_undo_kind kind;
	char *arg;
	gboolean done;
};

/* Runs one undo step for real; tests swap in a recorder. */
typedef gboolean (*ab_undo_exec_fn)(const struct ab_undo_step *step, GError **error);

struct ab_undo {
	GPtrArray *steps; /* struct ab_undo_step *, oldest first */
	char *journal_path;
	int journal_fd;
	ab_undo_exec_fn exec;
};

const char *ab_undo_kind_name(enum ab_undo_kind kind);
/* Where journals live: $ARRAYBENCH_STATE_DIR or /var/lib/arraybench. */
char *ab_undo_state_dir(void);
/* Start an empty stack journaled at DIR/journal-<pid>; dir NULL: no journal. */
gboolean ab_undo_open(struct ab_undo *u, const char *dir, GError **error);
gboolean ab_undo_push(struct ab_undo *u, enum ab_undo_kind kind, const char *arg, GError **error);
/* Undo everything, newest first.  A failing step is reported and the rest
 * still run; FALSE if any failed (the journal then stays for cleanup). */
gboolean ab_undo_unwind(struct ab_undo *u, GString *report, GError **error);
void ab_undo_clear(struct ab_undo *u);

/* Read a journal back: the steps not yet undone, oldest first. */
GPtrArray *ab_undo_journal_read(const char *path, GError **error);
/* `arraybench cleanup`: finish every journal in dir whose process is gone. */
gboolean ab_undo_recover(const char *dir, ab_undo_exec_fn exec, GString *report, GError **error);
void ab_undo_step_free(struct ab_undo_step *step);
/* The real executor. */
gboolean ab_undo_exec_real(const struct ab_undo_step *step, GError **error);

#endif
